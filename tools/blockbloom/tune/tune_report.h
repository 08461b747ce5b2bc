// SPDX-License-Identifier: Apache-2.0
// blockbloom tune's output: a table for people, or one JSON object (--json).
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_TUNE_REPORT_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_TUNE_REPORT_H_

#include <cstddef>
#include <string>

#include "tools/blockbloom/tune/class_sweep.h"
#include "tools/blockbloom/tune/find_timing.h"
#include "tools/blockbloom/tune/line_sweep.h"

namespace blockbloom_tools::tune {

struct TuneReport {
  std::size_t bytes;
  double budget_seconds;
  double seconds_taken;  // measuring, calibration included
  std::string cpu;       // the brand string, "" if unknown
  std::string isa;       // the selected ISA find_batch_bitmap ran
  double huge_pages;     // share of the buffer on huge pages, -1 if unknown
  SweepResult sweep;
  FindComparison find;
  std::vector<ClassResult> classes;  // find_batch_bitmap per L3-resident size class
};

// "BLOCKBLOOM_PREFETCH_DISTANCE=64 BLOCKBLOOM_PREFETCH_HINT=l2" (the hint
// alone for none).
std::string EnvironmentLine(PrefetchSetting setting);
// "bb_set_prefetch_distance(64); bb_set_prefetch_hint(BB_PREFETCH_L2);".
std::string CodeLine(PrefetchSetting setting);

void PrintTuneText(const TuneReport& report);
void PrintTuneJson(const TuneReport& report);

}  // namespace blockbloom_tools::tune

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_TUNE_REPORT_H_
