// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/tune/interleaved.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <utility>

namespace blockbloom_tools::tune {

double TimeOnce(const std::function<void()>& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<Timing> InterleavedTimings(std::size_t count, std::size_t rounds,
                                       const std::function<void(std::size_t)>& run,
                                       const std::function<void()>& after_each) {
  std::vector<std::vector<double>> seconds(count);
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t i = (round + k) % count;
      seconds[i].push_back(TimeOnce([&] { run(i); }));
      if (after_each) after_each();
    }
  }
  std::vector<Timing> timings;
  for (std::vector<double>& s : seconds) timings.push_back(Summarize(std::move(s)));
  return timings;
}

RunPlan PlanRuns(double seconds_per_item, std::size_t contenders, double budget_seconds,
                 std::size_t granule, std::size_t min_items, std::size_t max_items) {
  const double per_item = seconds_per_item > 0.0 ? seconds_per_item : 1e-9;
  const double items_per_round = budget_seconds / per_item / static_cast<double>(contenders);
  double items = items_per_round / static_cast<double>(kTargetRounds);
  items = std::clamp(items, static_cast<double>(min_items), static_cast<double>(max_items));
  std::size_t per_run = static_cast<std::size_t>(items) / granule * granule;
  if (per_run < granule) per_run = granule;
  const double rounds = items_per_round / static_cast<double>(per_run);
  return {std::clamp(static_cast<std::size_t>(rounds), kMinRounds, kMaxRounds), per_run};
}

}  // namespace blockbloom_tools::tune
