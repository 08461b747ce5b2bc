// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/parquet/filter_density.h"

#include <cmath>

#include "blockbloom/sizing.h"

namespace blockbloom_tools {

FilterDensity DensityOf(const bb_filter& filter) {
  FilterDensity d;
  double ndv = 0;
  if (bb_filter_estimate_ndv(&filter, &d.bits_set, &ndv) != BB_OK) return d;
  d.bits = 8 * static_cast<std::uint64_t>(filter.num_bytes);
  d.fraction = static_cast<double>(d.bits_set) / static_cast<double>(d.bits);
  if (std::isfinite(ndv)) d.estimated_ndv = ndv;
  return d;
}

}  // namespace blockbloom_tools
