// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/join_demo/report.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "tools/blockbloom/join_demo/stopwatch.h"
#include "tools/common/json_writer.h"

namespace blockbloom_tools::join_demo {
namespace {

// 50000000 -> "50,000,000".
std::string Thousands(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<std::size_t>(i), ",");
  }
  return digits;
}

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string Bytes(std::uint64_t bytes) {
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  if (bytes >= kMiB) return Format("%.0f MiB", static_cast<double>(bytes) / kMiB);
  return Thousands(bytes) + " bytes";
}

double RowsPerSecond(std::uint64_t rows, double seconds) {
  return seconds > 0.0 ? static_cast<double>(rows) / seconds : std::nan("");
}

double SpeedUp(double baseline_seconds, double seconds) {
  return seconds > 0.0 ? baseline_seconds / seconds : std::nan("");
}

// The significant digits of the JSON report's measured numbers.
constexpr int kJsonDigits = 9;

void PrintScanRow(const std::string& label, std::uint64_t rows, double seconds,
                  double cpu_seconds, std::uint64_t passing, double baseline_seconds) {
  std::printf("%-38s %9.3f %9.3f %10.1f M %14s %8.2fx\n", label.c_str(), seconds, cpu_seconds,
              RowsPerSecond(rows, seconds) / 1e6, Thousands(passing).c_str(),
              SpeedUp(baseline_seconds, seconds));
}

// Wall and CPU time of the timed scans and of the whole run, with the share
// of the wall time the process was on a core.
void PrintTimes(const Results& r) {
  const auto line = [](const char* what, double wall, double cpu) {
    std::printf("%-24s %.3f s wall, %.3f s CPU (%.0f%%)\n", what, wall, cpu,
                wall > 0.0 ? 100.0 * cpu / wall : 100.0);
  };
  line("timed scans", r.TimedSeconds(), r.TimedCpuSeconds());
  line("whole run", r.run_seconds, r.run_cpu_seconds);
}

std::string SmallTableLine(const Results& r) {
  if (r.options.scenario == Scenario::kUnselective) {
    return Thousands(r.small_rows) +
           " rows: the keys of every big row whose index % 20 != 0 (95%), all kept";
  }
  return Thousands(r.small_rows) + " rows: the " + Thousands(r.small_rows / 2) + " smallest and " +
         Thousands(r.small_rows / 2) + " largest keys; some_int1 % 2 == 1 keeps " +
         Thousands(r.kept_keys);
}

void PrintAdaptive(const Results& r) {
  const AdaptiveScan& a = r.adaptive;
  const double rejected = static_cast<double>(a.filter.decision_rejected) /
                          static_cast<double>(a.filter.decision_rows);
  std::printf("adaptive filter: after %s rows it had rejected %.2f%% (%s --min-reject %g%%): ",
              Thousands(a.filter.decision_rows).c_str(), 100.0 * rejected,
              a.filter_disabled() ? "<" : ">=", 100.0 * r.options.min_reject);
  if (!a.filter_disabled()) {
    std::printf("kept on\n");
    return;
  }
  const std::uint64_t unfiltered = a.filter.rows_not_probed;
  std::printf("switched off\n");
  std::printf("  for the remaining %s rows; estimated time saved %.3f s (%.2f ns/row x %s rows)\n",
              Thousands(unfiltered).c_str(), a.saved_seconds, a.filter_seconds_per_row * 1e9,
              Thousands(unfiltered).c_str());
}

}  // namespace

bool CpuAndWallDisagree(const Results& r) {
  return WallAndCpuDisagree(r.TimedSeconds(), r.TimedCpuSeconds()) ||
         WallAndCpuDisagree(r.run_seconds, r.run_cpu_seconds);
}

void WarnIfCpuAndWallDisagree(const Results& r) {
  if (!CpuAndWallDisagree(r)) return;
  std::fprintf(stderr,
               "blockbloom join-demo: warning: the process got %.3f s of CPU in %.3f s "
               "(timed scans: %.3f s CPU in %.3f s wall); they differ by more than %.0f%%, so "
               "the machine is busy and the seconds, rows/s and speed-ups above measure its "
               "load as much as the kernels: rerun on a quiet machine\n",
               r.run_cpu_seconds, r.run_seconds, r.TimedCpuSeconds(), r.TimedSeconds(),
               100.0 * kMaxCpuWallDisagreement);
}

void PrintTable(const Results& r) {
  const Options& o = r.options;
  std::printf("join-demo: %s scenario, seed %s, selected ISA %s\n", ScenarioName(o.scenario),
              std::to_string(o.seed).c_str(), r.selected_isa.c_str());
  std::printf("  big table    %s rows of random int64 keys (generated chunk by chunk, "
              "never stored)\n",
              Thousands(o.rows).c_str());
  std::printf("  small table  %s\n", SmallTableLine(r).c_str());
  const std::uint64_t blocks = r.filter_bytes / 32;
  std::printf("  filter       Parquet layout, %s (%s %s) for %s keys at --fpp %g\n",
              Bytes(r.filter_bytes).c_str(), Thousands(blocks).c_str(),
              blocks == 1 ? "block" : "blocks", Thousands(r.kept_keys).c_str(), o.fpp);
  std::printf("  exact set    %s (open addressing)\n\n", Bytes(r.exact_set_bytes).c_str());

  const std::pair<const char*, std::string> counts[] = {
      {"rows scanned", Thousands(o.rows)},
      {"rows passing the filter", Thousands(r.exact.filter_passing)},
      {"true matches", Thousands(r.exact.matches)},
      {"false negatives", Thousands(r.exact.false_negatives)},
      {"false positives", Thousands(r.exact.false_positives)},
  };
  for (const auto& row : counts) std::printf("%-24s %14s\n", row.first, row.second.c_str());
  const double measured = r.MeasuredFpp();  // NaN when every row matches
  std::printf("%-24s %14s  (predicted %.6f)\n\n", "measured FPP",
              std::isnan(measured) ? "n/a" : Format("%.6f", measured).c_str(), r.predicted_fpp);

  std::printf("%-38s %9s %9s %12s %14s %9s\n", "scan", "seconds", "cpu s", "rows/s",
              "rows passing", "speed-up");
  const double baseline = r.exact.seconds;
  PrintScanRow("(a) no filter: exact hash-set probe", o.rows, baseline, r.exact.cpu_seconds,
               r.exact.matches, baseline);
  for (const IsaScan& isa : r.isas) {
    PrintScanRow("(b) filter alone, " + isa.isa + (isa.isa == r.selected_isa ? " (selected)" : ""),
                 o.rows, isa.scan.seconds, isa.scan.cpu_seconds, isa.scan.rows_passing, baseline);
  }
  PrintScanRow("(c) filter + exact check, " + r.selected_isa, o.rows, r.adaptive.seconds,
               r.adaptive.cpu_seconds, r.adaptive.matches, baseline);
  std::printf("\n");
  PrintAdaptive(r);
  PrintTimes(r);
  std::printf("peak memory (RSS): %s\n", Bytes(r.peak_rss_bytes).c_str());
}

void PrintJson(const Results& r) {
  const Options& o = r.options;
  const double baseline = r.exact.seconds;

  JsonObjectWriter isas(2);
  for (const IsaScan& isa : r.isas) {
    JsonObjectWriter one(4);
    one.Add("seconds", JsonFloat(isa.scan.seconds, kJsonDigits));
    one.Add("cpu_seconds", JsonFloat(isa.scan.cpu_seconds, kJsonDigits));
    one.Add("rows_per_s", JsonFloat(RowsPerSecond(o.rows, isa.scan.seconds), kJsonDigits));
    one.Add("rows_passing", JsonInteger(isa.scan.rows_passing));
    one.Add("speedup", JsonFloat(SpeedUp(baseline, isa.scan.seconds), kJsonDigits));
    isas.Add(isa.isa, one.Finish());
  }

  JsonObjectWriter no_filter(2);
  no_filter.Add("seconds", JsonFloat(baseline, kJsonDigits));
  no_filter.Add("cpu_seconds", JsonFloat(r.exact.cpu_seconds, kJsonDigits));
  no_filter.Add("rows_per_s", JsonFloat(RowsPerSecond(o.rows, baseline), kJsonDigits));
  no_filter.Add("rows_passing", JsonInteger(r.exact.matches));

  const AdaptiveScan& a = r.adaptive;
  JsonObjectWriter filtered(2);
  filtered.Add("isa", JsonString(r.selected_isa));
  filtered.Add("seconds", JsonFloat(a.seconds, kJsonDigits));
  filtered.Add("cpu_seconds", JsonFloat(a.cpu_seconds, kJsonDigits));
  filtered.Add("rows_per_s", JsonFloat(RowsPerSecond(o.rows, a.seconds), kJsonDigits));
  filtered.Add("rows_passing", JsonInteger(a.matches));
  filtered.Add("speedup", JsonFloat(SpeedUp(baseline, a.seconds), kJsonDigits));
  filtered.Add("rows_filtered", JsonInteger(a.filter.rows_probed));
  filtered.Add("rows_passing_filter", JsonInteger(a.filter.rows_passed));
  filtered.Add("exact_probes", JsonInteger(a.exact_probes()));

  JsonObjectWriter adaptive(2);
  adaptive.Add("sample_rows", JsonInteger(a.filter.decision_rows));
  adaptive.Add("sample_rejected", JsonInteger(a.filter.decision_rejected));
  adaptive.Add("min_reject", JsonFloat(o.min_reject, kJsonDigits));
  adaptive.Add("filter_disabled", JsonBool(a.filter_disabled()));
  adaptive.Add("filter_ns_per_row", JsonFloat(a.filter_seconds_per_row * 1e9, kJsonDigits));
  adaptive.Add("rows_not_filtered", JsonInteger(a.filter.rows_not_probed));
  adaptive.Add("saved_seconds_estimate", JsonFloat(a.saved_seconds, kJsonDigits));

  JsonObjectWriter json;
  json.Add("scenario", JsonString(ScenarioName(o.scenario)));
  json.Add("seed", JsonInteger(o.seed));
  json.Add("rows", JsonInteger(o.rows));
  json.Add("small_rows", JsonInteger(r.small_rows));
  json.Add("kept_keys", JsonInteger(r.kept_keys));
  json.Add("fpp_target", JsonFloat(o.fpp, kJsonDigits));
  json.Add("filter_bytes", JsonInteger(r.filter_bytes));
  json.Add("exact_set_bytes", JsonInteger(r.exact_set_bytes));
  json.Add("selected_isa", JsonString(r.selected_isa));
  json.Add("rows_passing_filter", JsonInteger(r.exact.filter_passing));
  json.Add("true_matches", JsonInteger(r.exact.matches));
  json.Add("false_negatives", JsonInteger(r.exact.false_negatives));
  json.Add("false_positives", JsonInteger(r.exact.false_positives));
  json.Add("measured_fpp", JsonFloat(r.MeasuredFpp(), kJsonDigits));
  json.Add("predicted_fpp", JsonFloat(r.predicted_fpp, kJsonDigits));
  json.Add("filter_disabled", JsonBool(a.filter_disabled()));
  json.Add("no_filter", no_filter.Finish());
  json.Add("isas", isas.Finish());
  json.Add("filter_plus_exact", filtered.Finish());
  json.Add("adaptive", adaptive.Finish());
  json.Add("peak_rss_bytes", JsonInteger(r.peak_rss_bytes));
  json.Add("timed_seconds", JsonFloat(r.TimedSeconds(), kJsonDigits));
  json.Add("timed_cpu_seconds", JsonFloat(r.TimedCpuSeconds(), kJsonDigits));
  json.Add("run_seconds", JsonFloat(r.run_seconds, kJsonDigits));
  json.Add("run_cpu_seconds", JsonFloat(r.run_cpu_seconds, kJsonDigits));
  json.Add("cpu_wall_disagree", JsonBool(CpuAndWallDisagree(r)));
  std::printf("%s\n", json.Finish().c_str());
}

}  // namespace blockbloom_tools::join_demo
