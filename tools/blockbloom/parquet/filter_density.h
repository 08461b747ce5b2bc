// SPDX-License-Identifier: Apache-2.0
// How full a Parquet filter is, and how many distinct values that implies.
//
// A key sets one bit in each of the 8 lanes of one of the z blocks: a given
// bit of the bitset is set by one key with probability 1/z * 1/32, so after
// n distinct keys the expected fraction of set bits is
// f = 1 - (1 - 1/(32 z))^n. Inverted: n = ln(1 - f) / ln(1 - 1/(32 z)).
// Every bit set (f = 1) says nothing of n: no estimate. The library computes
// it (bb_filter_estimate_ndv, sizing.h); this gathers what `list` prints.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_FILTER_DENSITY_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_FILTER_DENSITY_H_

#include <cstdint>
#include <optional>

#include "blockbloom/blockbloom.h"

namespace blockbloom_tools {

struct FilterDensity {
  std::uint64_t bits_set = 0;
  std::uint64_t bits = 0;
  double fraction = 0;                  // bits_set / bits
  std::optional<double> estimated_ndv;  // none when every bit is set
};

FilterDensity DensityOf(const bb_filter& filter);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_FILTER_DENSITY_H_
