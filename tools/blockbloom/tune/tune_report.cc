// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/tune/tune_report.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "blockbloom/tuning.h"
#include "tools/common/random_lines.h"
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
}

// {"hint": "l2", "distance": 64, "<value_key>": 2.5}, laid out by `json`
// (a grid cell on one line, a best or default setting one member a line).
std::string JsonSetting(PrefetchSetting s, const char* value_key, double value,
                        JsonObjectWriter json) {
  return json.Add("hint", JsonString(HintName(s.hint)))
      .Add("distance", JsonInteger(s.distance))
      .Add(value_key, JsonFloat(value, kJsonDigits))
      .Finish();
}

void PrintClasses(const TuneReport& r) {
  if (r.classes.empty()) return;
  std::printf("\nfind_batch_bitmap per size class (%s, median of interleaved runs; default ="
              " the setting in force, with the library's defaults by size):\n", r.isa.c_str());
  std::printf("  %-7s  %-22s %7s   %-22s %7s  %s\n", "size", "best", "ns/key", "default",
              "ns/key", "default/best");
  for (const ClassResult& c : r.classes) {
    std::printf("  %-7s  %-22s %7.2f   %-22s %7.2f  %.2fx\n", Size(c.bytes).c_str(),
                Describe(c.best.setting).c_str(), c.best.ns_per_key,
                Describe(Effective(c.current.setting, c.bytes)).c_str(), c.current.ns_per_key,
                Ratio(c.current.ns_per_key, c.best.ns_per_key));
  }
}

std::string JsonClasses(const TuneReport& r) {
  std::vector<std::string> classes;
  for (const ClassResult& c : r.classes) {
    std::vector<std::string> grid;
    for (const FindTiming& cell : c.cells) {
      grid.push_back(
          JsonSetting(cell.setting, "ns_per_key", cell.ns_per_key, JsonObjectWriter::OnOneLine()));
    }
    JsonObjectWriter json(4);
    json.Add("bytes", JsonInteger(c.bytes));
    json.Add("grid", JsonArray(grid));
    json.Add("best",
             JsonSetting(c.best.setting, "ns_per_key", c.best.ns_per_key, JsonObjectWriter(6)));
    json.Add("default", JsonSetting(Effective(c.current.setting, c.bytes), "ns_per_key",
                                    c.current.ns_per_key, JsonObjectWriter(6)));
    json.Add("default_over_best",
             JsonFloat(Ratio(c.current.ns_per_key, c.best.ns_per_key), kJsonDigits));
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
  std::printf("  best     %-28s %6.2f ns/key\n", Describe(f.best.setting).c_str(), f.best.ns_per_key);
  std::printf("  default  %-28s %6.2f ns/key (%.2fx the best)\n",
              Describe(f.current.setting).c_str(), f.current.ns_per_key,
              Ratio(f.current.ns_per_key, f.best.ns_per_key));
  PrintClasses(r);
  std::printf("\nto use the best setting, set in the environment\n  %s\nor call\n  %s\n",
              EnvironmentLine(best).c_str(), CodeLine(best).c_str());
  std::printf("(measured in %.1f s)\n", r.seconds_taken);
}

void PrintTuneJson(const TuneReport& r) {
  const SweepResult& sweep = r.sweep;
  const PrefetchSetting best{sweep.best.hint, sweep.best.distance};
  std::vector<std::string> grid;  // one cell a line
  for (const SweepCell& c : sweep.cells) {
    grid.push_back(JsonSetting({c.hint, c.distance}, "ns_per_line", c.ns_per_line,
                               JsonObjectWriter::OnOneLine()));
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
  find.Add("best",
           JsonSetting(f.best.setting, "ns_per_key", f.best.ns_per_key, JsonObjectWriter(4)));
  find.Add("default",
           JsonSetting(f.current.setting, "ns_per_key", f.current.ns_per_key, JsonObjectWriter(4)));
  find.Add("default_over_best",
           JsonFloat(Ratio(f.current.ns_per_key, f.best.ns_per_key), kJsonDigits));

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
  json.Add("best",
           JsonSetting(best, "ns_per_line", sweep.best.ns_per_line, JsonObjectWriter(2)));
  json.Add("no_prefetch_ns_per_line", JsonFloat(sweep.none.ns_per_line, kJsonDigits));
  json.Add("find_batch_bitmap", find.Finish());
  json.Add("classes", JsonClasses(r));
  json.Add("environment", JsonString(EnvironmentLine(best)));
  json.Add("code", JsonString(CodeLine(best)));
  std::printf("%s\n", json.Finish().c_str());
}

}  // namespace blockbloom_tools::tune
