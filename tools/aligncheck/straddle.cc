// SPDX-License-Identifier: Apache-2.0
#include "tools/aligncheck/straddle.h"

namespace blockbloom_tools::aligncheck {

std::uint64_t CountBlocksStraddling(std::uint64_t start, std::uint64_t blocks,
                                    std::uint64_t boundary) {
  if (blocks == 0 || boundary == 0 || boundary % kBlockBytes != 0) return 0;
  const std::uint64_t s = start % kBlockBytes;
  if (s == 0) return 0;
  // The one start offset (mod boundary) per period whose block straddles.
  const std::uint64_t target = boundary - kBlockBytes + s;
  const std::uint64_t r = start % boundary;
  const std::uint64_t first = ((target + boundary - r) % boundary) / kBlockBytes;
  if (first >= blocks) return 0;
  const std::uint64_t period = boundary / kBlockBytes;
  return (blocks - 1 - first) / period + 1;
}

StraddleCounts CountStraddles(std::uint64_t start, std::uint64_t bytes, const Boundaries& b) {
  StraddleCounts c;
  c.blocks = bytes / kBlockBytes;
  c.line = CountBlocksStraddling(start, c.blocks, b.line);
  c.pair = CountBlocksStraddling(start, c.blocks, b.pair);
  c.page = CountBlocksStraddling(start, c.blocks, b.page);
  c.huge_page = CountBlocksStraddling(start, c.blocks, b.huge_page);
  return c;
}

std::uint64_t LineFootprint(std::uint64_t start, std::uint64_t bytes, std::uint64_t line) {
  if (bytes == 0 || line == 0) return 0;
  const std::uint64_t first = start / line;
  const std::uint64_t last = (start + bytes - 1) / line;
  return (last - first + 1) * line;
}

}  // namespace blockbloom_tools::aligncheck
