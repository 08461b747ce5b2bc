// SPDX-License-Identifier: Apache-2.0
// (c) The semi-join as a scan with a runtime filter: the filter (selected
// ISA) picks the survivors of each chunk (bb_find_int64_column_select) and
// only they probe the exact set. As Kudu does, the filter watches itself:
// after the first sample_rows rows, if it rejected less than min_reject of
// them it is switched off and the remaining rows go straight to the exact set.
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_ADAPTIVE_SCAN_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_ADAPTIVE_SCAN_H_

#include <cstdint>

#include "join_demo/scans.h"

namespace blockbloom_cli::join_demo {

struct AdaptiveScan {
  double seconds = 0.0;                   // filter + exact check, every row
  std::uint64_t matches = 0;              // must equal the true matches
  std::uint64_t rows_filtered = 0;        // rows the filter was applied to
  std::uint64_t rows_passing_filter = 0;  // of those, the survivors
  std::uint64_t exact_probes = 0;         // survivors + rows after the filter was switched off
  // The decision, taken once the first sample_rows rows were filtered.
  std::uint64_t sample_rows = 0;
  std::uint64_t sample_rejected = 0;
  bool filter_disabled = false;
  double filter_seconds_per_row = 0.0;    // the filter's own cost on the sample
  double saved_seconds = 0.0;             // estimate: that cost x the rows not filtered
};

// sample_rows: 1 .. rows; min_reject: 0 .. 1.
AdaptiveScan RunAdaptiveScan(const ScanInputs& in, std::uint64_t sample_rows, double min_reject);

}  // namespace blockbloom_cli::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_ADAPTIVE_SCAN_H_
