// SPDX-License-Identifier: Apache-2.0
// blockbloom join-demo: the library's showcase. A semi-join of a big table
// (a virtual column of random int64 keys) with a small one, first without a
// filter, then with a Parquet-layout Bloom filter of the small table's keys
// pushed into the scan -- as Kudu's runtime-filter benchmark did -- on every
// ISA, with the counts checked against an exact set and Kudu's self-disabling
// filter. The steps live in this directory, one job per file:
//   options          the flags                 key_column     the virtual big column
//   extreme_keys     two bounded heaps         build_side     small table, filter, exact set
//   int64_set        the exact set             scans          (a) no filter, (b) filter alone
//   adaptive_scan    (c) filter + exact check, with the library's adaptive filter
//   report           table and JSON
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "tools/blockbloom/commands.h"
#include "tools/blockbloom/join_demo/adaptive_scan.h"
#include "tools/blockbloom/join_demo/build_side.h"
#include "tools/blockbloom/join_demo/join_demo_command.h"
#include "tools/blockbloom/join_demo/key_column.h"
#include "tools/blockbloom/join_demo/options.h"
#include "tools/blockbloom/join_demo/report.h"
#include "tools/blockbloom/join_demo/results.h"
#include "tools/blockbloom/join_demo/scans.h"
#include "tools/blockbloom/join_demo/stopwatch.h"
#include "tools/common/progress.h"

namespace blockbloom_tools {
namespace {

using namespace join_demo;

std::vector<std::string> SupportedIsasWorstFirst() {
  std::vector<std::string> isas;  // bb_supported_isas() lists the best first
  const std::string list = bb_supported_isas();
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    if (comma > start) isas.insert(isas.begin(), list.substr(start, comma - start));
    start = comma + 1;
  }
  return isas;
}

// (b) for each ISA in turn, then the ISA selected before is selected again.
std::vector<IsaScan> ScanWithEachIsa(const ScanInputs& in, const std::string& selected) {
  std::vector<IsaScan> scans;
  for (const std::string& isa : SupportedIsasWorstFirst()) {
    if (bb_select_isa(isa.c_str()) != BB_OK) continue;  // listed as supported: cannot happen
    scans.push_back({isa, RunFilterScan(in, "(b) filter alone, " + isa)});
  }
  bb_select_isa(selected.c_str());
  return scans;
}

std::uint64_t PeakRssBytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux: KiB
}

// A wrong answer from the library is not a demo result: says so on standard
// error and returns true (exit status 1).
bool ReportFailedChecks(const Results& results) {
  std::vector<std::string> failures;
  if (results.exact.false_negatives != 0) {
    failures.push_back(std::to_string(results.exact.false_negatives) + " false negatives");
  }
  if (!results.IsasAgree()) failures.push_back("the ISAs let different numbers of rows through");
  if (results.adaptive.matches != results.exact.matches) {
    failures.push_back("the filtered join found " + std::to_string(results.adaptive.matches) +
                       " matches, not " + std::to_string(results.exact.matches));
  }
  for (const std::string& failure : failures) {
    std::fprintf(stderr, "blockbloom: join-demo check failed: %s\n", failure.c_str());
  }
  return !failures.empty();
}

}  // namespace

int RunJoinDemo(const std::vector<std::string>& args) {
  const ParsedFlags flags = ParseFlags(args, OptionFlagSpecs());
  if (flags.help_requested()) return PrintHelp("join-demo");
  Results results;
  results.options = OptionsFromFlags(flags);
  const Options& options = results.options;
  const ProgressSettings progress = ProgressSettingsFromFlags(flags, "join-demo");
  const Stopwatch::Clock::time_point run_start = Stopwatch::Clock::now();
  const double run_cpu_start = ProcessCpuSeconds();
  results.selected_isa = bb_selected_isa();

  const KeyColumn column(options.seed, options.rows);
  const BuildSide side = BuildJoinSide(options, column, progress);
  results.small_rows = side.small_rows;
  results.kept_keys = side.kept_keys;
  results.filter_bytes = side.filter->num_bytes();
  results.exact_set_bytes = side.exact->bytes();
  results.predicted_fpp = side.predicted_fpp;

  const ScanInputs in{column, *side.filter->c_filter(), *side.exact, progress};
  results.exact = RunExactScan(in);
  results.isas = ScanWithEachIsa(in, results.selected_isa);
  results.adaptive = RunAdaptiveScan(in, options.sample_rows, options.min_reject);
  results.peak_rss_bytes = PeakRssBytes();
  results.run_seconds =
      std::chrono::duration<double>(Stopwatch::Clock::now() - run_start).count();
  results.run_cpu_seconds = ProcessCpuSeconds() - run_cpu_start;

  if (options.json) {
    PrintJson(results);
  } else {
    PrintTable(results);
  }
  std::fflush(stdout);  // the report first, then any warning about it
  WarnIfCpuAndWallDisagree(results);
  return ReportFailedChecks(results) ? 1 : 0;
}

}  // namespace blockbloom_tools
