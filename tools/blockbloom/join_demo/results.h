// SPDX-License-Identifier: Apache-2.0
// Everything join-demo measured, for the table and the JSON.
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_RESULTS_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_RESULTS_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tools/blockbloom/join_demo/adaptive_scan.h"
#include "tools/blockbloom/join_demo/options.h"
#include "tools/blockbloom/join_demo/scans.h"

namespace blockbloom_tools::join_demo {

struct IsaScan {
  std::string isa;
  FilterScan scan;
};

struct Results {
  Options options;
  std::string selected_isa;
  std::uint64_t small_rows = 0;
  std::uint64_t kept_keys = 0;
  std::uint64_t filter_bytes = 0;
  std::uint64_t exact_set_bytes = 0;
  double predicted_fpp = 0.0;
  ExactScan exact;               // (a), and the counts
  std::vector<IsaScan> isas;     // (b), every supported ISA, worst first
  AdaptiveScan adaptive;         // (c)
  std::uint64_t peak_rss_bytes = 0;
  double run_seconds = 0.0;      // the whole command, wall time
  double run_cpu_seconds = 0.0;  // the whole command, the process's CPU time

  // The timed scans (a), (b) and (c) together: what every speed depends on.
  double TimedSeconds() const {
    double seconds = exact.seconds + adaptive.seconds;
    for (const IsaScan& isa : isas) seconds += isa.scan.seconds;
    return seconds;
  }
  double TimedCpuSeconds() const {
    double seconds = exact.cpu_seconds + adaptive.cpu_seconds;
    for (const IsaScan& isa : isas) seconds += isa.scan.cpu_seconds;
    return seconds;
  }

  // False positives over the rows that are not true matches (NaN if none).
  double MeasuredFpp() const {
    const std::uint64_t negatives = options.rows - exact.matches;
    if (negatives == 0) return std::numeric_limits<double>::quiet_NaN();
    return static_cast<double>(exact.false_positives) / static_cast<double>(negatives);
  }
  // Every ISA let the same number of rows through as the verification did.
  bool IsasAgree() const {
    for (const IsaScan& isa : isas) {
      if (isa.scan.rows_passing != exact.filter_passing) return false;
    }
    return true;
  }
};

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_RESULTS_H_
