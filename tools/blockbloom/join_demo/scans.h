// SPDX-License-Identifier: Apache-2.0
// The timed scans of the big column. Each pass regenerates the column chunk
// by chunk and times only the probes of each chunk, never the generation.
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_SCANS_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_SCANS_H_

#include <cstdint>
#include <string>

#include "blockbloom/blockbloom.h"
#include "tools/blockbloom/join_demo/int64_set.h"
#include "tools/blockbloom/join_demo/key_column.h"
#include "tools/common/progress.h"

namespace blockbloom_tools::join_demo {

struct ScanInputs {
  const KeyColumn& column;
  const bb_filter& filter;
  const Int64Set& exact;
  const ProgressSettings& progress;  // for the bars or lines on stderr
};

// (a) No filter: every row probes the exact set (bitmap out). The filter's
// answer for each row (selected ISA) is then compared with the exact one,
// outside the timing: the ground truth for the counts.
struct ExactScan {
  double seconds = 0.0;      // wall time of the probes
  double cpu_seconds = 0.0;  // the process's CPU time meanwhile
  std::uint64_t matches = 0;          // rows whose key is in the set: the true matches
  std::uint64_t filter_passing = 0;   // rows the filter let through
  std::uint64_t false_negatives = 0;  // matches the filter rejected (must be 0)
  std::uint64_t false_positives = 0;  // non-matches the filter let through
};
ExactScan RunExactScan(const ScanInputs& in);

// (b) The filter alone, with whatever ISA is selected: XXH64 hash and probe
// per chunk in one call (bb_find_column_bitmap of an int64 column).
struct FilterScan {
  double seconds = 0.0;      // wall time of the probes
  double cpu_seconds = 0.0;  // the process's CPU time meanwhile
  std::uint64_t rows_passing = 0;
};
FilterScan RunFilterScan(const ScanInputs& in, const std::string& label);

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_SCANS_H_
