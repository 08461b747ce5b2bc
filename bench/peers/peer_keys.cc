// SPDX-License-Identifier: Apache-2.0
#include "peer_keys.h"

#include <algorithm>
#include <map>
#include <utility>

#include "tools/common/splitmix64.h"

namespace blockbloom_peers {
namespace {

using blockbloom_tools::SplitMix64;
using blockbloom_tools::SplitMixAt;

// Fixed seeds: every run and every implementation sees the same keys.
constexpr uint64_t kInsertedSeed = 0x70656572696e7331ull;
constexpr uint64_t kAbsentSeed = 0x7065657261627331ull;
constexpr uint64_t kShuffleSeed = 0x7065657273687531ull;

// Bounded so the 512 MiB filter does not need a 3 GiB probe array, with a
// floor so the small filters still see varied keys (as blockbloom_bench).
constexpr size_t kMinProbes = size_t{1} << 16;
constexpr size_t kMaxProbes = size_t{1} << 22;

PeerKeys Build(size_t filter_bytes) {
  PeerKeys keys;
  keys.num_inserted = static_cast<size_t>(static_cast<double>(filter_bytes) * 8.0 / kBitsPerKey);
  size_t num_probes = std::clamp(keys.num_inserted, kMinProbes, kMaxProbes);
  num_probes -= num_probes % kBatchSize;
  keys.probes.resize(num_probes);
  SplitMix64 rng(kShuffleSeed);
  for (size_t i = 0; i < num_probes; ++i) {
    keys.probes[i] = i < num_probes / 2 ? InsertedKey(rng.Next() % keys.num_inserted)
                                        : SplitMixAt(kAbsentSeed, i);
  }
  for (size_t i = num_probes - 1; i > 0; --i) {  // Fisher-Yates
    std::swap(keys.probes[i], keys.probes[rng.Next() % (i + 1)]);
  }
  return keys;
}

}  // namespace

uint64_t InsertedKey(size_t i) { return SplitMixAt(kInsertedSeed, i); }

const PeerKeys& KeysFor(size_t filter_bytes) {
  static std::map<size_t, PeerKeys> cache;  // benchmarks run on one thread
  auto it = cache.find(filter_bytes);
  if (it == cache.end()) it = cache.emplace(filter_bytes, Build(filter_bytes)).first;
  return it->second;
}

}  // namespace blockbloom_peers
