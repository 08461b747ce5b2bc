// SPDX-License-Identifier: Apache-2.0
// Timing several contenders fairly on a noisy machine: one run of each in
// turn, round after round, and the median of each one's runs. A slow patch
// (another guest, a compile on the other core) then hits every contender
// alike instead of whichever happened to run during it.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_INTERLEAVED_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_INTERLEAVED_H_

#include <cstddef>
#include <functional>
#include <vector>

#include "tools/blockbloom/tune/noise.h"

namespace blockbloom_tools::tune {

// Seconds one call of run(contender) took.
double TimeOnce(const std::function<void()>& run);

// Runs run(i) for every contender i < count, `rounds` times over, starting
// each round one contender later than the last (so none is always first
// after a pause), and after_each() after every run (progress); returns each
// contender's seconds summarized (noise.h: median and interquartile range).
std::vector<Timing> InterleavedTimings(std::size_t count, std::size_t rounds,
                                       const std::function<void(std::size_t)>& run,
                                       const std::function<void()>& after_each);

// How long each run is and how many rounds fit a budget.
struct RunPlan {
  std::size_t rounds;
  std::size_t items_per_run;  // lines or keys, a multiple of the granule
};

// Aims at kTargetRounds rounds of runs as long as the budget allows, given
// an estimate of the seconds one item takes. Runs are at least min_items
// (shorter ones time the clock more than the memory) and at most max_items
// (the hash pool); what is left of the budget then goes to more rounds, up
// to kMaxRounds, and there are never fewer than kMinRounds (a median of
// fewer is no median).
inline constexpr std::size_t kTargetRounds = 7;
inline constexpr std::size_t kMinRounds = 3;
inline constexpr std::size_t kMaxRounds = 25;
RunPlan PlanRuns(double seconds_per_item, std::size_t contenders, double budget_seconds,
                 std::size_t granule, std::size_t min_items, std::size_t max_items);

}  // namespace blockbloom_tools::tune

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_INTERLEAVED_H_
