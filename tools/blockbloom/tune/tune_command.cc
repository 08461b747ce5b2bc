// SPDX-License-Identifier: Apache-2.0
// blockbloom tune [--bytes N] [--seconds S] [--json]: measures which prefetch
// hint and distance suit this machine's memory system (tools/common/
// random_lines.h, the loop the benchmark's memory/prefetch_sweep runs), then
// checks the winner on the library's find_batch_bitmap against the setting in
// force, times find_batch_bitmap per L3-resident size class (the library's
// defaults differ by class), and prints how to use it.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "tools/common/cli_args.h"
#include "tools/blockbloom/commands.h"
#include "tools/common/huge_pages.h"
#include "tools/common/progress.h"
#include "src/tools_interface.h"
#include "tools/blockbloom/tune/class_sweep.h"
#include "tools/blockbloom/tune/find_timing.h"
#include "tools/blockbloom/tune/line_sweep.h"
#include "tools/blockbloom/tune/tune_buffer.h"
#include "tools/blockbloom/tune/tune_options.h"
#include "tools/blockbloom/tune/tune_report.h"

namespace blockbloom_tools {
namespace {

std::uint64_t BudgetMilliseconds(double seconds) {
  return static_cast<std::uint64_t>(seconds * 1000.0);
}

}  // namespace

int RunTune(const std::vector<std::string>& args) {
  using namespace tune;
  const ParsedFlags flags = ParseFlags(args, TuneFlagSpecs());
  if (flags.help_requested()) return PrintHelp("tune");
  const TuneOptions options = TuneOptionsFromFlags(flags);
  const ProgressSettings progress_settings = ProgressSettingsFromFlags(flags, "tune");

  // Read before anything changes it: what the library would use unasked.
  const PrefetchSetting current = CurrentPrefetch();
  TuneBuffer buffer(options.bytes);

  // 55% of the budget for the sweep (22 cells), 15% for the two
  // find_batch_bitmap settings, 30% for find_batch_bitmap per L3-resident
  // size class (16 settings at each of 4 sizes).
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed_seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  TuneReport report{};
  {
    // Progress is time spent against the budget (the runs are planned to fill it).
    Progress progress(progress_settings, "measuring", BudgetMilliseconds(options.seconds),
                      "ms of the budget");
    const std::function<void()> after_each = [&] {
      progress.Update(BudgetMilliseconds(elapsed_seconds()));
    };
    report.sweep = RunLineSweep(buffer, options.seconds * 0.55, after_each);
    const PrefetchSetting best{report.sweep.best.hint, report.sweep.best.distance};
    report.find = CompareFind(buffer, best, current, options.seconds * 0.15, after_each);
    report.classes = RunClassSweep(current, options.seconds * 0.30, after_each);
  }
  report.seconds_taken = elapsed_seconds();

  report.bytes = options.bytes;
  report.budget_seconds = options.seconds;
  report.cpu = blockbloom::internal::DescribeCpu().brand;
  report.isa = bb_selected_isa();
  report.huge_pages = blockbloom_tools::HugePageFraction(buffer.filter().data);
  if (options.json) {
    PrintTuneJson(report);
  } else {
    PrintTuneText(report);
  }
  return 0;
}

}  // namespace blockbloom_tools
