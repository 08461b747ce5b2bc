// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/tune/tune_buffer.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "tools/common/cli_error.h"

namespace blockbloom_tools::tune {
namespace {

constexpr std::uint64_t kGamma = 0x9e3779b97f4a7c15ull;

// SplitMix64: fast, and good enough to pick random blocks.
std::uint64_t Mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// One hash per cache line of the buffer, within these bounds: at 512 MiB the
// 4 Mi hashes touch 256 MiB of distinct lines, far more than any L3, so a
// line comes back around only after the caches have long dropped it (the
// benchmark's probe pool is bounded the same way).
constexpr std::size_t kMinHashes = std::size_t{1} << 16;
constexpr std::size_t kMaxHashes = std::size_t{1} << 22;

}  // namespace

TuneBuffer::TuneBuffer(std::size_t bytes) {
  const int status = bb_filter_init(&filter_, bytes);
  if (status != BB_OK) {
    throw CliError("--bytes " + std::to_string(bytes) + ": " + bb_status_message(status));
  }
  // Random bits, about half set, as in a filter filled at ~10 bits per key
  // (53% of its bits set); filling a real one at 512 MiB would take seconds.
  // Writing every word also faults the pages in before anything is timed.
  std::uint64_t state = 0x74756e6562756666ull;
  for (std::size_t i = 0; i + 8 <= bytes; i += 8) {
    const std::uint64_t word = Mix(state += kGamma);
    std::memcpy(filter_.data + i, &word, sizeof word);
  }
  std::size_t n = std::clamp(bytes / 64, kMinHashes, kMaxHashes);
  n -= n % kGranule;
  hashes_.resize(n);
  for (std::uint64_t& h : hashes_) h = Mix(state += kGamma);
}

TuneBuffer::~TuneBuffer() { bb_filter_release(&filter_); }

}  // namespace blockbloom_tools::tune
