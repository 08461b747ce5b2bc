// SPDX-License-Identifier: Apache-2.0
// join-demo's output: a table for people, or --json for programs.
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_REPORT_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_REPORT_H_

#include "tools/blockbloom/join_demo/results.h"

namespace blockbloom_tools::join_demo {

void PrintTable(const Results& results);

// One JSON object: rows, kept_keys, true_matches, false_negatives,
// false_positives, measured_fpp, predicted_fpp, filter_disabled, isas
// ({isa: {seconds, cpu_seconds, rows_per_s, rows_passing, speedup}}), the
// wall and CPU time of the timed scans and of the whole run, and the details.
void PrintJson(const Results& results);

// Whether the timed scans' or the whole run's wall and CPU time differ by
// more than kMaxCpuWallDisagreement (stopwatch.h).
bool CpuAndWallDisagree(const Results& results);
// If they do, says so on standard error: the speeds then measure the load.
void WarnIfCpuAndWallDisagree(const Results& results);

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_REPORT_H_
