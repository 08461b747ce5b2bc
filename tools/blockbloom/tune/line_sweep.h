// SPDX-License-Identifier: Apache-2.0
// The sweep of blockbloom tune: random 32-byte reads of the buffer
// (tools/common/random_lines.h, the loop the benchmark's
// memory/prefetch_sweep runs) at every hint x distance of the grid.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_LINE_SWEEP_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_LINE_SWEEP_H_

#include <cstddef>
#include <functional>
#include <vector>

#include "tools/blockbloom/tune/tune_buffer.h"

namespace blockbloom_tools::tune {

struct SweepCell {
  int hint;              // a bb_prefetch_level
  std::size_t distance;  // keys ahead; 0 for BB_PREFETCH_NONE
  double ns_per_line;    // median over the rounds
  double spread_ns_per_line;  // interquartile range of the rounds (noise.h)
};

struct SweepResult {
  std::vector<SweepCell> cells;  // BB_PREFETCH_NONE first, then hint-major
  SweepCell best;                // the lowest ns_per_line
  SweepCell none;                // no prefetching, for comparison
  std::size_t rounds;
  std::size_t lines_per_run;
};

// Spends about budget_seconds (after a short calibration round); calls
// after_each() after every timed run.
SweepResult RunLineSweep(TuneBuffer& buffer, double budget_seconds,
                         const std::function<void()>& after_each);

}  // namespace blockbloom_tools::tune

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_LINE_SWEEP_H_
