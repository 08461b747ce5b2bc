// SPDX-License-Identifier: Apache-2.0
#include "parquet/filter_density.h"

#include <cmath>
#include <cstring>

namespace blockbloom_cli {

double NdvForFraction(double fraction, std::uint32_t num_blocks) {
  // log1p keeps the precision where both logarithms are tiny.
  return std::log1p(-fraction) / std::log1p(-1.0 / (32.0 * num_blocks));
}

FilterDensity DensityOf(const bb_filter& filter) {
  FilterDensity d;
  for (std::size_t i = 0; i < filter.num_bytes; i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, filter.data + i, 8);  // num_bytes is a multiple of 32
    d.bits_set += static_cast<std::uint64_t>(__builtin_popcountll(word));
  }
  d.bits = 8 * static_cast<std::uint64_t>(filter.num_bytes);
  d.fraction = static_cast<double>(d.bits_set) / static_cast<double>(d.bits);
  if (d.bits_set < d.bits) d.estimated_ndv = NdvForFraction(d.fraction, filter.num_blocks);
  return d;
}

}  // namespace blockbloom_cli
