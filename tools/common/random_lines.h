// SPDX-License-Identifier: Apache-2.0
// The memory probe behind the prefetch tuning: independent reads of random
// 32-byte blocks of a buffer, each block picked from a hash exactly as a
// Parquet filter picks it, with a software prefetch of the block `distance`
// keys ahead. No load depends on another, so the core keeps as many misses in
// flight as it can; the prefetch hint decides which cache level those misses
// fill and so how many the core can track. This is the ceiling a batch find
// or insert runs into on a filter far larger than the caches.
//
// Header-only because two programs must run the very same loop:
// bench/prefetch_benchmarks.cc (memory/prefetch_sweep, memory/
// prefetched_random_lines) and `blockbloom tune` (tools/blockbloom/tune/), which picks
// the hint and distance a machine should use from it.
#ifndef BLOCKBLOOM_TOOLS_COMMON_RANDOM_LINES_H_
#define BLOCKBLOOM_TOOLS_COMMON_RANDOM_LINES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "src/tools_interface.h"  // ParquetLayout: the block a hash selects
#include "blockbloom/tuning.h"

namespace blockbloom_tools {

// The grid both the benchmark and `blockbloom tune` sweep. BB_PREFETCH_NONE
// ignores the distance, so it is measured once, at distance 0.
inline constexpr int kSweepHints[] = {BB_PREFETCH_NONE, BB_PREFETCH_L1, BB_PREFETCH_L2,
                                      BB_PREFETCH_L3};
inline constexpr std::size_t kSweepDistances[] = {8, 16, 32, 64, 128, 192, 256};

// Sum of the 32-byte blocks picked by hashes[0 .. n), prefetching the block
// of hashes[i + distance] while reading that of hashes[i]. kLocality is
// __builtin_prefetch's (a compile-time constant): 3 = prefetcht0, 2 =
// prefetcht1, 1 = prefetcht2 on x86; kLocality < 0 means no prefetch.
template <int kLocality>
std::uint64_t SumRandomBlocks(const std::uint8_t* blocks, std::uint32_t num_blocks,
                              const std::uint64_t* hashes, std::size_t n, std::size_t distance) {
  // Each hash picks its block as a Parquet filter (and every kernel) does;
  // as a size_t, so that block * 32 cannot wrap on a filter of 4 GiB or more.
  const auto block_of = [num_blocks](std::uint64_t h) -> std::size_t {
    return blockbloom::internal::ParquetLayout::Block(h, num_blocks);
  };
  std::uint64_t sum = 0;
  // All 32 bytes of the block, as a find reads them (a one-byte load would
  // let the core skip the rest), folded straight into the sum: four 8-byte
  // loads, so the loop stays a handful of instructions and the core's window
  // holds as many of them -- and misses -- as it can.
  const auto add_block = [&](std::size_t block) {
    const std::uint8_t* p = blocks + block * 32;
    std::uint64_t a, b, c, d;
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + 8, 8);
    std::memcpy(&c, p + 16, 8);
    std::memcpy(&d, p + 24, 8);
    sum += a ^ b ^ c ^ d;
  };
  std::size_t i = 0;
  if constexpr (kLocality >= 0) {
    // The main part prefetches unconditionally; the last `distance` keys have
    // nothing left to prefetch and fall through to the plain loop below.
    if (distance > 0) {
      for (; i + distance < n; ++i) {
        __builtin_prefetch(blocks + block_of(hashes[i + distance]) * 32, 0, kLocality);
        add_block(block_of(hashes[i]));
      }
    }
  }
  for (; i < n; ++i) add_block(block_of(hashes[i]));
  return sum;
}

// The same for a run-time hint (a bb_prefetch_hint value; anything else reads
// without prefetching). Each hint is its own instantiation, so the choice
// costs one switch per call, nothing per key.
inline std::uint64_t RandomLines(const std::uint8_t* blocks, std::uint32_t num_blocks,
                                 const std::uint64_t* hashes, std::size_t n, int hint,
                                 std::size_t distance) {
  switch (hint) {
    case BB_PREFETCH_L1:
      return SumRandomBlocks<3>(blocks, num_blocks, hashes, n, distance);
    case BB_PREFETCH_L2:
      return SumRandomBlocks<2>(blocks, num_blocks, hashes, n, distance);
    case BB_PREFETCH_L3:
      return SumRandomBlocks<1>(blocks, num_blocks, hashes, n, distance);
    default:
      return SumRandomBlocks<-1>(blocks, num_blocks, hashes, n, distance);
  }
}

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_RANDOM_LINES_H_
