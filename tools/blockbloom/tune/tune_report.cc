// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/tune/tune_report.h"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <vector>

#include "blockbloom/tuning.h"
#include "tools/common/random_lines.h"
#include "tools/blockbloom/tune/noise.h"
#include "tools/common/json_writer.h"
#include "src/tools_interface.h"

namespace blockbloom_tools::tune {
namespace {

std::string HintName(int hint) {
  const char* name = bb_prefetch_hint_name(hint);
  return name != nullptr ? name : "?";
}

std::string HintEnumerator(int hint) {
  switch (hint) {
    case BB_PREFETCH_L1: return "BB_PREFETCH_L1";
    case BB_PREFETCH_L2: return "BB_PREFETCH_L2";
    case BB_PREFETCH_L3: return "BB_PREFETCH_L3";
    default: return "BB_PREFETCH_NONE";
  }
}

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// The significant digits of the JSON report's measured numbers.
constexpr int kJsonDigits = 4;

// "l2 at 64 keys ahead", or "none (no prefetch)"; "by size" for a default.
std::string Describe(PrefetchSetting s) {
  if (s.hint == BB_PREFETCH_NONE) return "none (no prefetch)";
  return (s.hint == BB_PREFETCH_DEFAULT ? std::string("by size") : HintName(s.hint)) + " at " +
         (s.distance == 0 ? std::string("by size") : std::to_string(s.distance)) + " keys ahead";
}

// The setting a find on a filter of `bytes` really used under setting s:
// the library's defaults of that size class filled in.
PrefetchSetting Effective(PrefetchSetting s, std::size_t bytes) {
  const blockbloom::internal::PrefetchPlan plan = blockbloom::internal::PlanPrefetch(
      blockbloom::internal::ActivePrefetchClasses(), bytes, s.hint, s.distance);
  return {plan.hint, plan.distance};
}

std::string Size(std::size_t bytes) {
  if (bytes % (std::size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

double Ratio(double slow, double fast) { return fast > 0.0 ? slow / fast : std::nan(""); }

// {"hint": "l2", "distance": 64, "<value_key>": 2.5, "spread_<value_key>":
// 0.1}, laid out by `json` (a grid cell on one line, a best or default setting
// one member a line); a grid cell adds "outlier" (null, or why it is one).
JsonObjectWriter& AddSetting(PrefetchSetting s, const std::string& value_key, double value,
                             double spread, JsonObjectWriter& json) {
  return json.Add("hint", JsonString(HintName(s.hint)))
      .Add("distance", JsonInteger(s.distance))
      .Add(value_key, JsonFloat(value, kJsonDigits))
      .Add("spread_" + value_key, JsonFloat(spread, kJsonDigits));
}
std::string JsonSetting(PrefetchSetting s, const std::string& value_key, double value,
                        double spread, JsonObjectWriter json) {
  return AddSetting(s, value_key, value, spread, json).Finish();
}
std::string JsonCell(PrefetchSetting s, const std::string& value_key, double value,
                     double spread, Outlier outlier) {
  JsonObjectWriter json = JsonObjectWriter::OnOneLine();
  return AddSetting(s, value_key, value, spread, json)
      .Add("outlier", JsonStringOrNull(OutlierName(outlier)))
      .Finish();
}

Timing TimingOf(const FindTiming& t) { return {t.ns_per_key, t.spread_ns_per_key}; }

// The sweep's cells classified (noise.h): no prefetch on its own, each
// hint's row of distances against its neighbours.
std::vector<Outlier> SweepOutliers(const SweepResult& sweep) {
  std::vector<Timing> rows;
  std::vector<Outlier> outliers;
  for (const SweepCell& c : sweep.cells) {
    if (c.hint == BB_PREFETCH_NONE) continue;
    rows.push_back({c.ns_per_line, c.spread_ns_per_line});
  }
  const std::vector<Outlier> in_rows =
      ClassifyGrid(rows, std::size(blockbloom_tools::kSweepDistances));
  std::size_t next = 0;
  for (const SweepCell& c : sweep.cells) {
    outliers.push_back(c.hint == BB_PREFETCH_NONE
                           ? ClassifyCell({c.ns_per_line, c.spread_ns_per_line}, {})
                           : in_rows[next++]);
  }
  return outliers;
}

std::vector<Outlier> ClassOutliers(const ClassResult& c) {
  std::vector<Timing> cells;
  for (const FindTiming& t : c.cells) cells.push_back(TimingOf(t));
  return ClassifyGrid(cells, std::size(kClassDistances));
}

// "  l1 at 256 keys ahead: 51.60 ns/line (noisy runs)" for each outlier.
void PrintOutliers(const std::vector<std::string>& lines) {
  if (lines.empty()) return;
  std::printf("outliers (rerun with more --seconds or on a quiet machine; the spread is the"
              " interquartile range of a cell's runs):\n");
  for (const std::string& line : lines) std::printf("  %s\n", line.c_str());
}

std::string OutlierLine(PrefetchSetting s, double median, double spread, const char* unit,
                        Outlier outlier) {
  char text[160];
  std::snprintf(text, sizeof text, "%s: %.2f %s, spread %.2f (%s)", Describe(s).c_str(), median,
                unit, spread, OutlierReason(outlier));
  return text;
}

// Decide (noise.h) on the best and the default setting's find timings on a
// filter of `bytes`; when the best is the setting the default already uses
// there, there is nothing to change, however the two timings of it differ.
Decision DecideFind(const FindTiming& best, const FindTiming& current, std::size_t bytes) {
  Decision decision = Decide(TimingOf(best), TimingOf(current));
  const PrefetchSetting in_force = Effective(current.setting, bytes);
  if (in_force.hint == best.setting.hint && in_force.distance == best.setting.distance) {
    decision.verdict = Verdict::kKeepDefault;
  }
  return decision;
}

const char* ShortVerdict(Verdict v) {
  switch (v) {
    case Verdict::kChange: return "change";
    case Verdict::kKeepDefault: return "keep";
    case Verdict::kTooNoisy: return "too noisy";
  }
  return "?";
}

// What tune concludes from the find_batch_bitmap comparison, in words.
void PrintRecommendation(const TuneReport& r, PrefetchSetting best) {
  const FindComparison& f = r.find;
  const Decision d = DecideFind(f.best, f.current, r.bytes);
  switch (d.verdict) {
    case Verdict::kChange:
      std::printf("\nrecommendation: change the setting: %s beats the default by %.2f ns/key"
                  " (%.1f%%), more than the spread of the runs (%.2f ns/key, interquartile"
                  " range)\n",
                  Describe(best).c_str(), d.gain, 100.0 * d.gain / f.current.ns_per_key, d.noise);
      std::printf("to use it, set in the environment\n  %s\nor call\n  %s\n",
                  EnvironmentLine(best).c_str(), CodeLine(best).c_str());
      return;
    case Verdict::kKeepDefault:
      if (d.gain <= 0.0) {
        std::printf("\nrecommendation: keep the default: it measured %.2f ns/key faster than the"
                    " sweep's best (spread of the runs %.2f ns/key, interquartile range)\n",
                    -d.gain, d.noise);
        return;
      }
      std::printf("\nrecommendation: keep the default: the best setting gains %.2f ns/key,"
                  " not more than the spread of the runs (%.2f ns/key, interquartile range)\n",
                  d.gain, d.noise);
      return;
    case Verdict::kTooNoisy:
      std::printf("\nrecommendation: none, the machine was too noisy to decide: the runs spread"
                  " by %.2f ns/key (%.0f%% of the default's %.2f ns/key, more than %.0f%%),"
                  " more than the %.2f ns/key between the best setting and the default; rerun"
                  " on a quiet machine or with more --seconds\n",
                  d.noise, 100.0 * d.noise / f.current.ns_per_key, f.current.ns_per_key,
                  100.0 * kNoisyShare, std::fabs(d.gain));  // a difference: the best may be slower
      return;
  }
}

void PrintGrid(const SweepResult& sweep) {
  std::printf("%-6s %8s", "hint", "none");
  for (const std::size_t d : blockbloom_tools::kSweepDistances) std::printf(" %7zu", d);
  std::printf("\n");
  for (const int hint : blockbloom_tools::kSweepHints) {
    std::printf("%-6s", HintName(hint).c_str());
    if (hint == BB_PREFETCH_NONE) {
      // No prefetch can be the best too (under emulation, or on a filter the
      // caches hold): then the star goes here.
      std::printf(" %7.2f%s\n", sweep.none.ns_per_line,
                  sweep.best.hint == BB_PREFETCH_NONE ? "*" : " ");
      continue;
    }
    std::printf(" %8s", "");
    for (const SweepCell& cell : sweep.cells) {
      if (cell.hint != hint) continue;
      const bool best = cell.hint == sweep.best.hint && cell.distance == sweep.best.distance;
      std::printf(" %6.2f%s", cell.ns_per_line, best ? "*" : " ");
    }
    std::printf("\n");
  }
  const std::vector<Outlier> outliers = SweepOutliers(sweep);
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < sweep.cells.size(); ++i) {
    const SweepCell& c = sweep.cells[i];
    if (outliers[i] == Outlier::kNo) continue;
    lines.push_back(
        OutlierLine({c.hint, c.distance}, c.ns_per_line, c.spread_ns_per_line, "ns/line",
                    outliers[i]));
  }
  PrintOutliers(lines);
}

void PrintClasses(const TuneReport& r) {
  if (r.classes.empty()) return;
  std::printf("\nfind_batch_bitmap per size class (%s, median of interleaved runs; default ="
              " the setting in force, with the library's defaults by size):\n", r.isa.c_str());
  std::printf("  %-7s  %-22s %7s   %-22s %7s  %-12s %s\n", "size", "best", "ns/key", "default",
              "ns/key", "default/best", "verdict");
  std::vector<std::string> lines;
  for (const ClassResult& c : r.classes) {
    std::printf("  %-7s  %-22s %7.2f   %-22s %7.2f  %-12s %s\n", Size(c.bytes).c_str(),
                Describe(c.best.setting).c_str(), c.best.ns_per_key,
                Describe(Effective(c.current.setting, c.bytes)).c_str(), c.current.ns_per_key,
                Format("%.2fx", Ratio(c.current.ns_per_key, c.best.ns_per_key)).c_str(),
                ShortVerdict(DecideFind(c.best, c.current, c.bytes).verdict));
    const std::vector<Outlier> outliers = ClassOutliers(c);
    for (std::size_t i = 0; i < c.cells.size(); ++i) {
      if (outliers[i] == Outlier::kNo) continue;
      const FindTiming& t = c.cells[i];
      lines.push_back(Size(c.bytes) + ", " + OutlierLine(t.setting, t.ns_per_key,
                                                          t.spread_ns_per_key, "ns/key",
                                                          outliers[i]));
    }
  }
  std::printf("  (verdict: change only when the best beats the default by more than the"
              " spread of the runs)\n");
  PrintOutliers(lines);
}

std::string JsonClasses(const TuneReport& r) {
  std::vector<std::string> classes;
  for (const ClassResult& c : r.classes) {
    std::vector<std::string> grid;
    const std::vector<Outlier> outliers = ClassOutliers(c);
    for (std::size_t i = 0; i < c.cells.size(); ++i) {
      const FindTiming& cell = c.cells[i];
      grid.push_back(JsonCell(cell.setting, "ns_per_key", cell.ns_per_key,
                              cell.spread_ns_per_key, outliers[i]));
    }
    JsonObjectWriter json(4);
    json.Add("bytes", JsonInteger(c.bytes));
    json.Add("grid", JsonArray(grid));
    json.Add("best", JsonSetting(c.best.setting, "ns_per_key", c.best.ns_per_key,
                                 c.best.spread_ns_per_key, JsonObjectWriter(6)));
    json.Add("default", JsonSetting(Effective(c.current.setting, c.bytes), "ns_per_key",
                                    c.current.ns_per_key, c.current.spread_ns_per_key,
                                    JsonObjectWriter(6)));
    json.Add("default_over_best",
             JsonFloat(Ratio(c.current.ns_per_key, c.best.ns_per_key), kJsonDigits));
    const Verdict verdict = DecideFind(c.best, c.current, c.bytes).verdict;
    json.Add("verdict", JsonString(VerdictName(verdict)));
    classes.push_back(json.Finish());
  }
  return JsonArrayOnePerLine(classes, 2);
}

}  // namespace

std::string EnvironmentLine(PrefetchSetting s) {
  if (s.hint == BB_PREFETCH_NONE) return "BLOCKBLOOM_PREFETCH_HINT=none";
  return "BLOCKBLOOM_PREFETCH_DISTANCE=" + std::to_string(s.distance) +
         " BLOCKBLOOM_PREFETCH_HINT=" + HintName(s.hint);
}

std::string CodeLine(PrefetchSetting s) {
  const std::string hint = "bb_set_prefetch_hint(" + HintEnumerator(s.hint) + ");";
  if (s.hint == BB_PREFETCH_NONE) return hint;
  return "bb_set_prefetch_distance(" + std::to_string(s.distance) + "); " + hint;
}

void PrintTuneText(const TuneReport& r) {
  const SweepResult& sweep = r.sweep;
  const PrefetchSetting best{sweep.best.hint, sweep.best.distance};
  std::printf("blockbloom tune: %s buffer%s, %s\n", Size(r.bytes).c_str(),
              r.huge_pages >= 0 ? Format(" (%.0f%% on huge pages)", 100 * r.huge_pages).c_str() : "",
              r.cpu.empty() ? "unknown CPU" : r.cpu.c_str());
  std::printf("\nrandom 32-byte reads, ns per line (median of %zu interleaved runs of %zu lines;"
              " * = best):\n",
              sweep.rounds, sweep.lines_per_run);
  PrintGrid(sweep);
  std::printf("\nbest: %s, %.2f ns/line (%.2fx faster than no prefetch, %.2f ns/line)\n",
              Describe(best).c_str(), sweep.best.ns_per_line,
              Ratio(sweep.none.ns_per_line, sweep.best.ns_per_line), sweep.none.ns_per_line);
  const FindComparison& f = r.find;
  std::printf("\nfind_batch_bitmap (%s, %zu-key batches, median of %zu runs of %zu keys):\n",
              r.isa.c_str(), f.batch, f.rounds, f.keys_per_run);
  std::printf("  best     %-28s %6.2f ns/key, spread %.2f\n", Describe(f.best.setting).c_str(),
              f.best.ns_per_key, f.best.spread_ns_per_key);
  std::printf("  default  %-28s %6.2f ns/key, spread %.2f (%.2fx the best)\n",
              Describe(f.current.setting).c_str(), f.current.ns_per_key,
              f.current.spread_ns_per_key, Ratio(f.current.ns_per_key, f.best.ns_per_key));
  PrintClasses(r);
  PrintRecommendation(r, best);
  std::printf("(measured in %.1f s)\n", r.seconds_taken);
}

void PrintTuneJson(const TuneReport& r) {
  const SweepResult& sweep = r.sweep;
  const PrefetchSetting best{sweep.best.hint, sweep.best.distance};
  std::vector<std::string> grid;  // one cell a line
  const std::vector<Outlier> outliers = SweepOutliers(sweep);
  for (std::size_t i = 0; i < sweep.cells.size(); ++i) {
    const SweepCell& c = sweep.cells[i];
    grid.push_back(JsonCell({c.hint, c.distance}, "ns_per_line", c.ns_per_line,
                            c.spread_ns_per_line, outliers[i]));
  }
  std::vector<std::string> hints;
  for (const int h : blockbloom_tools::kSweepHints) hints.push_back(HintName(h));
  std::vector<std::string> distances;
  for (const std::size_t d : blockbloom_tools::kSweepDistances) distances.push_back(JsonInteger(d));

  const FindComparison& f = r.find;
  JsonObjectWriter find(2);
  find.Add("isa", JsonString(r.isa));
  find.Add("batch", JsonInteger(f.batch));
  find.Add("runs", JsonInteger(f.rounds));
  find.Add("keys_per_run", JsonInteger(f.keys_per_run));
  find.Add("best", JsonSetting(f.best.setting, "ns_per_key", f.best.ns_per_key,
                               f.best.spread_ns_per_key, JsonObjectWriter(4)));
  find.Add("default", JsonSetting(f.current.setting, "ns_per_key", f.current.ns_per_key,
                                  f.current.spread_ns_per_key, JsonObjectWriter(4)));
  find.Add("default_over_best",
           JsonFloat(Ratio(f.current.ns_per_key, f.best.ns_per_key), kJsonDigits));
  const Decision decision = DecideFind(f.best, f.current, r.bytes);
  find.Add("gain_ns_per_key", JsonFloat(decision.gain, kJsonDigits));
  find.Add("noise_ns_per_key", JsonFloat(decision.noise, kJsonDigits));
  find.Add("verdict", JsonString(VerdictName(decision.verdict)));

  JsonObjectWriter json;
  json.Add("bytes", JsonInteger(r.bytes));
  json.Add("budget_seconds", JsonFloat(r.budget_seconds, kJsonDigits));
  json.Add("seconds", JsonFloat(r.seconds_taken, kJsonDigits));
  json.Add("cpu", JsonString(r.cpu));
  json.Add("huge_pages", JsonFloat(r.huge_pages, kJsonDigits));
  json.Add("hints", JsonStringArray(hints));
  json.Add("distances", JsonArray(distances));
  json.Add("runs_per_cell", JsonInteger(sweep.rounds));
  json.Add("lines_per_run", JsonInteger(sweep.lines_per_run));
  json.Add("grid", JsonArrayOnePerLine(grid, 2));
  json.Add("best", JsonSetting(best, "ns_per_line", sweep.best.ns_per_line,
                               sweep.best.spread_ns_per_line, JsonObjectWriter(2)));
  json.Add("no_prefetch_ns_per_line", JsonFloat(sweep.none.ns_per_line, kJsonDigits));
  json.Add("find_batch_bitmap", find.Finish());
  json.Add("classes", JsonClasses(r));
  json.Add("spread", JsonString("interquartile range of the interleaved runs"));
  json.Add("recommendation", JsonString(VerdictName(decision.verdict)));
  json.Add("environment", JsonString(EnvironmentLine(best)));
  json.Add("code", JsonString(CodeLine(best)));
  std::printf("%s\n", json.Finish().c_str());
}

}  // namespace blockbloom_tools::tune
