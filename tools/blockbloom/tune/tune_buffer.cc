// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/tune/tune_buffer.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "tools/common/cli_error.h"
#include "tools/common/splitmix64.h"

namespace blockbloom_tools::tune {
namespace {

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
  // SplitMix64: fast, and good enough to pick random blocks.
  SplitMix64 rng(0x74756e6562756666ull);
  for (std::size_t i = 0; i + 8 <= bytes; i += 8) {
    const std::uint64_t word = rng.Next();
    std::memcpy(filter_.data + i, &word, sizeof word);
  }
  std::size_t n = std::clamp(bytes / 64, kMinHashes, kMaxHashes);
  n -= n % kGranule;
  hashes_.resize(n);
  for (std::uint64_t& h : hashes_) h = rng.Next();
}

TuneBuffer::~TuneBuffer() { bb_filter_release(&filter_); }

}  // namespace blockbloom_tools::tune
