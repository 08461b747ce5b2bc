// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/tune/line_sweep.h"

#include <algorithm>
#include <cstdint>

#include "blockbloom/tuning.h"
#include "tools/common/random_lines.h"
#include "tools/blockbloom/tune/interleaved.h"

namespace blockbloom_tools::tune {
namespace {

// Calibration runs, and the shortest run: long enough that the last
// `distance` reads of a run, which have nothing left to prefetch, are a small
// part of it (256 of 16384: 1.6%).
constexpr std::size_t kMinLines = 16384;

// A run may read the pool several times over (small buffers, long budgets):
// by then the buffer's lines are wherever the previous pass left them, as in
// any steady state of probing a filter that size.
constexpr std::size_t kMaxPasses = 16;

// The checksums go here, so the compiler must do the reads.
volatile std::uint64_t g_sink;

std::vector<SweepCell> Grid() {
  std::vector<SweepCell> cells;
  for (const int hint : blockbloom_tools::kSweepHints) {
    if (hint == BB_PREFETCH_NONE) {
      cells.push_back({hint, 0, 0.0, 0.0});
      continue;
    }
    for (const std::size_t distance : blockbloom_tools::kSweepDistances) {
      cells.push_back({hint, distance, 0.0, 0.0});
    }
  }
  return cells;
}

void ReadLines(TuneBuffer& buffer, const SweepCell& cell, std::size_t lines) {
  const bb_filter& f = buffer.filter();
  std::uint64_t sum = 0;
  buffer.ForNextHashes(lines, [&](const std::uint64_t* hashes, std::size_t n) {
    sum += blockbloom_tools::RandomLines(f.data, f.num_blocks, hashes, n, cell.hint,
                                         cell.distance);
  });
  g_sink = g_sink + sum;
}

}  // namespace

SweepResult RunLineSweep(TuneBuffer& buffer, double budget_seconds,
                         const std::function<void()>& after_each) {
  SweepResult result{Grid(), {}, {}, 0, 0};
  std::vector<SweepCell>& cells = result.cells;
  const std::size_t min_lines = std::min(kMinLines, buffer.pool_size());

  // One round of short runs, for the rate the plan is made from (and to warm
  // the TLB and the code).
  double calibration = 0.0;
  for (const SweepCell& cell : cells) {
    calibration += TimeOnce([&] { ReadLines(buffer, cell, min_lines); });
  }
  const double seconds_per_line =
      calibration / static_cast<double>(cells.size() * min_lines);
  const RunPlan plan = PlanRuns(seconds_per_line, cells.size(), budget_seconds,
                                TuneBuffer::kGranule, min_lines, kMaxPasses * buffer.pool_size());
  result.rounds = plan.rounds;
  result.lines_per_run = plan.items_per_run;

  const std::vector<Timing> seconds = InterleavedTimings(
      cells.size(), plan.rounds,
      [&](std::size_t i) { ReadLines(buffer, cells[i], plan.items_per_run); }, after_each);
  const double ns_per_second_line = 1e9 / static_cast<double>(plan.items_per_run);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    cells[i].ns_per_line = seconds[i].median * ns_per_second_line;
    cells[i].spread_ns_per_line = seconds[i].spread * ns_per_second_line;
  }
  result.best = cells[0];
  for (const SweepCell& cell : cells) {
    if (cell.hint == BB_PREFETCH_NONE) result.none = cell;
    if (cell.ns_per_line < result.best.ns_per_line) result.best = cell;
  }
  return result;
}

}  // namespace blockbloom_tools::tune
