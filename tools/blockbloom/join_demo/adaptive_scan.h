// SPDX-License-Identifier: Apache-2.0
// (c) The semi-join as a scan with a runtime filter: the filter (selected
// ISA) picks the survivors of each chunk (bb_find_column_select) and
// only they probe the exact set. As Kudu does, the filter watches itself,
// with the library's adaptive filter (blockbloom/adaptive.h): after the
// first sample_rows rows, if it rejected less than min_reject of them it is
// switched off and the remaining rows go straight to the exact set.
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_ADAPTIVE_SCAN_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_ADAPTIVE_SCAN_H_

#include <cstdint>

#include "blockbloom/adaptive.h"
#include "tools/blockbloom/join_demo/scans.h"

namespace blockbloom_tools::join_demo {

struct AdaptiveScan {
  double seconds = 0.0;       // filter + exact check, every row
  double cpu_seconds = 0.0;   // the process's CPU time meanwhile
  std::uint64_t matches = 0;  // must equal the true matches
  // The decision and the counts: rows_probed (the rows the filter was
  // applied to), rows_passed (their survivors), rows_not_probed (after it
  // was switched off), decision_rows and decision_rejected (the sample; the
  // scan cuts a chunk so that the decision falls at exactly sample_rows).
  bb_adaptive filter{};
  double filter_seconds_per_row = 0.0;  // the filter's own cost on the sample
  double saved_seconds = 0.0;           // estimate: that cost x the rows not filtered

  bool filter_disabled() const { return filter.state == BB_ADAPTIVE_DISABLED; }
  // Survivors + rows after the filter was switched off.
  std::uint64_t exact_probes() const { return filter.rows_passed + filter.rows_not_probed; }
};

// sample_rows: 1 .. rows; min_reject: 0 .. 1.
AdaptiveScan RunAdaptiveScan(const ScanInputs& in, std::uint64_t sample_rows, double min_reject);

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_ADAPTIVE_SCAN_H_
