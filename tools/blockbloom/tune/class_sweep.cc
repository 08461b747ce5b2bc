// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/tune/class_sweep.h"

#include <algorithm>
#include <iterator>

#include "tools/blockbloom/tune/tune_buffer.h"

namespace blockbloom_tools::tune {
namespace {

constexpr std::size_t kBatch = TuneBuffer::kGranule;
// Short runs: an L3-resident class takes 1-5 ns a key, and a run must still
// be long enough not to time the clock.
constexpr std::size_t kMinKeys = 8 * kBatch;

ClassResult SweepClass(std::size_t bytes, PrefetchSetting current, double budget_seconds,
                       const std::function<void()>& after_each) {
  TuneBuffer buffer(bytes);
  std::vector<PrefetchSetting> settings;
  for (const int hint : kClassHints) {
    for (const std::size_t distance : kClassDistances) settings.push_back({hint, distance});
  }
  settings.push_back(current);  // last: not one of the grid's cells
  const FindTimes t =
      TimeFinds(buffer, settings, kMinKeys, buffer.pool_size(), budget_seconds, after_each);
  ClassResult result{bytes, t.timings, {}, t.timings.back()};
  result.cells.pop_back();
  result.best = *std::min_element(result.cells.begin(), result.cells.end(),
                                  [](const FindTiming& a, const FindTiming& b) {
                                    return a.ns_per_key < b.ns_per_key;
                                  });
  return result;
}

}  // namespace

std::vector<ClassResult> RunClassSweep(PrefetchSetting current, double budget_seconds,
                                       const std::function<void()>& after_each) {
  std::vector<ClassResult> results;
  const double each = budget_seconds / static_cast<double>(std::size(kClassBytes));
  for (const std::size_t bytes : kClassBytes) {
    results.push_back(SweepClass(bytes, current, each, after_each));
  }
  return results;
}

}  // namespace blockbloom_tools::tune
