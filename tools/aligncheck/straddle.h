// SPDX-License-Identifier: Apache-2.0
// The straddle arithmetic: how many of a bitset's 32-byte blocks cross a
// boundary (a cache line, a 128-byte prefetch pair, a page) when the bitset
// starts at a given byte address or file offset.
#ifndef BLOCKBLOOM_TOOLS_ALIGNCHECK_STRADDLE_H_
#define BLOCKBLOOM_TOOLS_ALIGNCHECK_STRADDLE_H_

#include <cstdint>

namespace blockbloom_tools::aligncheck {

constexpr std::uint64_t kBlockBytes = 32;

// How many of `blocks` consecutive 32-byte blocks, the first at byte `start`,
// contain a multiple of `boundary` strictly inside them (bytes on both sides).
// boundary must be a non-zero multiple of 32 (line, pair and page sizes are).
//
// Closed form: every block starts at start + 32 i, so all start offsets are
// congruent to s = start mod 32. If s == 0 no block crosses anything. If not,
// the block starts repeat mod boundary with period boundary / 32 blocks, and
// in each period exactly one start lies in (boundary - 32, boundary): that
// block straddles. Counting those gives the answer in O(1).
std::uint64_t CountBlocksStraddling(std::uint64_t start, std::uint64_t blocks,
                                    std::uint64_t boundary);

// The sizes a bitset is checked against (all multiples of 32; 0 = skip).
struct Boundaries {
  std::uint64_t line = 64;
  std::uint64_t pair = 128;  // adjacent-line prefetch pair; 0 when unknown
  std::uint64_t page = 4096;
  std::uint64_t huge_page = 2u << 20;
};

struct StraddleCounts {
  std::uint64_t blocks = 0;
  std::uint64_t line = 0;       // blocks that need two cache-line fills
  std::uint64_t pair = 0;       // ... whose two lines are in different 128-byte pairs
  std::uint64_t page = 0;       // ... whose two lines are in different 4 KiB pages
  std::uint64_t huge_page = 0;  // ... in different 2 MiB pages
};

// The counts for a bitset of `bytes` (a multiple of 32) starting at `start`.
StraddleCounts CountStraddles(std::uint64_t start, std::uint64_t bytes, const Boundaries& b);

// Bytes of whole lines of `line` bytes that [start, start + bytes) touches:
// what the bitset occupies in a cache.
std::uint64_t LineFootprint(std::uint64_t start, std::uint64_t bytes, std::uint64_t line);

}  // namespace blockbloom_tools::aligncheck

#endif  // BLOCKBLOOM_TOOLS_ALIGNCHECK_STRADDLE_H_
