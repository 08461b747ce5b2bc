// SPDX-License-Identifier: Apache-2.0
// What the pipeline probe benchmarks start from: the rows of a batch that
// earlier filters of a scan left, as a selection vector or a bitmap, at a
// given density. Fixed seeds: every run and ISA gets the same rows.
#ifndef BLOCKBLOOM_BENCH_LIVE_ROWS_H_
#define BLOCKBLOOM_BENCH_LIVE_ROWS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tools/common/splitmix64.h"

namespace blockbloom_bench {

inline constexpr uint64_t kLiveRowsSeed = 0x6c697665726f7773ull;

// Whether row i of a batch is live: at random, with probability percent /
// 100 (100: every row).
inline bool RowIsLive(size_t i, int percent) {
  return blockbloom_tools::SplitMixAt(kLiveRowsSeed, i) % 100 < static_cast<uint64_t>(percent);
}

// The live rows of a batch of `rows`, ascending.
inline std::vector<uint32_t> LiveSelection(size_t rows, int percent) {
  std::vector<uint32_t> sel;
  for (size_t i = 0; i < rows; ++i) {
    if (RowIsLive(i, percent)) sel.push_back(static_cast<uint32_t>(i));
  }
  return sel;
}

// The same as a bitmap (row i at bit i % 8 of byte i / 8). whole_bytes: the
// live rows come eight at a time instead, a byte being 0xff with probability
// percent / 100, else 0 (rejections clustered, as behind a range predicate).
inline std::vector<uint8_t> LiveBitmap(size_t rows, int percent, bool whole_bytes) {
  std::vector<uint8_t> bitmap((rows + 7) / 8, 0);
  for (size_t i = 0; i < rows; ++i) {
    if (RowIsLive(whole_bytes ? i / 8 : i, percent)) {
      bitmap[i / 8] = static_cast<uint8_t>(bitmap[i / 8] | (1u << (i % 8)));
    }
  }
  return bitmap;
}

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_LIVE_ROWS_H_
