// SPDX-License-Identifier: Apache-2.0
#include "probe_data.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <utility>

#include "tools/common/splitmix64.h"

namespace blockbloom_bench {
namespace {

using blockbloom_tools::SplitMix64;
using blockbloom_tools::SplitMixAt;

// Fixed seeds: every run probes the same keys.
constexpr uint64_t kInsertedSeed = 0x626c6f636b626c6full;  // keys put in the filled filter
constexpr uint64_t kAbsentSeed = 0x6162736e74303031ull;    // keys never inserted
constexpr uint64_t kShuffleSeed = 0x73687566666c6531ull;   // which probe is which

// The probe pool is bounded so the 512 MiB filter does not need a 3 GiB key
// array, and has a floor so the small filters still see varied keys.
constexpr size_t kMinProbes = size_t{1} << 16;
constexpr size_t kMaxProbes = size_t{1} << 22;
// Keys are generated and inserted in chunks of this many.
constexpr size_t kFillChunk = size_t{1} << 16;
// Filling filters this large takes seconds: say so on stderr, with the time.
constexpr size_t kNoisyFillBytes = size_t{64} << 20;

}  // namespace

ProbeData::~ProbeData() {
  bb_filter_release(&filled_);
  bb_filter_release(&insert_target_);
}

int ProbeData::Build(size_t filter_bytes) {
  int status = bb_filter_init(&filled_, filter_bytes);
  if (status != BB_OK) return status;
  status = bb_filter_init(&insert_target_, filter_bytes);
  if (status != BB_OK) return status;
  // Large bitsets are mapped lazily: fault the insert target's pages in now
  // rather than in the first insert benchmark. (The fill touches every page
  // of the filled filter.)
  std::memset(insert_target_.data, 0, insert_target_.num_bytes);

  num_keys_ = static_cast<size_t>(static_cast<double>(filter_bytes) * 8.0 / kBitsPerKey);
  const auto start = std::chrono::steady_clock::now();
  // Filled through the public batch API, i.e. with the ISA the library
  // selected; every ISA writes identical bits, so the filter is shared.
  std::vector<uint64_t> chunk(kFillChunk);
  for (size_t done = 0; done < num_keys_; done += chunk.size()) {
    const size_t n = std::min(chunk.size(), num_keys_ - done);
    for (size_t i = 0; i < n; ++i) chunk[i] = SplitMixAt(kInsertedSeed, done + i);
    status = bb_insert_batch(&filled_, chunk.data(), n);
    if (status != BB_OK) return status;
  }

  // Half inserted keys (picked at random among all num_keys_), half never
  // inserted, in random order so single-key loops cannot predict the outcome.
  size_t num_probes = std::clamp(num_keys_, kMinProbes, kMaxProbes);
  num_probes -= num_probes % kBatchSize;
  probes_.resize(num_probes);
  SplitMix64 rng(kShuffleSeed);
  for (size_t i = 0; i < num_probes; ++i) {
    probes_[i] = i < num_probes / 2 ? SplitMixAt(kInsertedSeed, rng.Next() % num_keys_)
                                    : SplitMixAt(kAbsentSeed, i);
  }
  for (size_t i = num_probes - 1; i > 0; --i) {  // Fisher-Yates
    std::swap(probes_[i], probes_[rng.Next() % (i + 1)]);
  }

  if (filter_bytes >= kNoisyFillBytes) {
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::fprintf(stderr, "blockbloom_bench: filled %zu MiB filter with %zu keys in %.1f s\n",
                 filter_bytes >> 20, num_keys_, took.count());
  }
  return BB_OK;
}

const std::vector<Placement>& ProbeData::placements() {
  if (!placements_.empty()) return placements_;
  const size_t bytes = filled_.num_bytes;
  const size_t count = PlacementsFor(bytes);
  if (count == 1) {
    bitmap_.resize(kBatchSize / 8);
    selection_.resize(kBatchSize);
    Placement p{};
    bb_filter_init_view(&p.filled, filled_.data, bytes);
    bb_filter_init_view(&p.insert_target, insert_target_.data, bytes);
    p.probes = probes_.data();
    p.bitmap = bitmap_.data();
    p.selection = selection_.data();
    placements_.push_back(p);
    return placements_;
  }
  // Buffer order: filled, insert target, probes, bitmap, selection.
  copies_ = std::make_unique<PlacedBuffers>(
      count, std::vector<PlacedBuffers::Source>{
                 {filled_.data, bytes},
                 {insert_target_.data, bytes},
                 {probes_.data(), probes_.size() * sizeof(uint64_t)},
                 {nullptr, kBatchSize / 8},
                 {nullptr, kBatchSize * sizeof(uint32_t)}});
  for (size_t k = 0; k < count; ++k) {
    Placement p{};
    bb_filter_init_view(&p.filled, copies_->at(k, 0), bytes);
    bb_filter_init_view(&p.insert_target, copies_->at(k, 1), bytes);
    p.probes = reinterpret_cast<const uint64_t*>(copies_->at(k, 2));
    p.bitmap = copies_->at(k, 3);
    p.selection = reinterpret_cast<uint32_t*>(copies_->at(k, 4));
    placements_.push_back(p);
  }
  return placements_;
}

ProbeData* ProbeDataFor(size_t filter_bytes, int* status) {
  // Benchmarks run one at a time on the main thread, so no lock is needed.
  static std::map<size_t, std::unique_ptr<ProbeData>> cache;
  auto it = cache.find(filter_bytes);
  if (it == cache.end()) {
    auto data = std::make_unique<ProbeData>();
    *status = data->Build(filter_bytes);
    if (*status != BB_OK) return nullptr;  // retried (and failing again) on the next call
    it = cache.emplace(filter_bytes, std::move(data)).first;
  }
  *status = BB_OK;
  return it->second.get();
}

ProbeData* ProbeDataOrSkip(benchmark::State& state, size_t filter_bytes) {
  int status = BB_OK;
  ProbeData* data = ProbeDataFor(filter_bytes, &status);
  if (data == nullptr) state.SkipWithError(bb_status_message(status));
  return data;
}

}  // namespace blockbloom_bench
