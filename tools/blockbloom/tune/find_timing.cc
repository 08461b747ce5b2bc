// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/tune/find_timing.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "blockbloom/tuning.h"
#include "tools/common/scoped_prefetch.h"
#include "tools/blockbloom/tune/interleaved.h"

namespace blockbloom_tools::tune {
namespace {

constexpr std::size_t kBatch = TuneBuffer::kGranule;
constexpr std::size_t kMinKeys = 16 * kBatch;
constexpr std::size_t kMaxPasses = 16;  // as in line_sweep.cc

volatile std::size_t g_sink;  // the hits, so nothing is optimised away

}  // namespace

void FindKeys(TuneBuffer& buffer, PrefetchSetting setting, std::size_t keys) {
  const blockbloom_tools::ScopedPrefetch prefetch(setting.hint, setting.distance);
  std::uint8_t bitmap[kBatch / 8];
  std::size_t total = 0;
  buffer.ForNextHashes(keys, [&](const std::uint64_t* hashes, std::size_t n) {
    for (std::size_t i = 0; i < n; i += kBatch) {
      std::size_t hits = 0;
      bb_find_batch_bitmap(&buffer.filter(), hashes + i, kBatch, bitmap, &hits);
      total += hits;
    }
  });
  g_sink = g_sink + total;
}

PrefetchSetting CurrentPrefetch() {
  const int hint = bb_prefetch_hint();
  return {hint, hint == BB_PREFETCH_NONE ? 0 : bb_prefetch_distance()};
}

FindTimes TimeFinds(TuneBuffer& buffer, const std::vector<PrefetchSetting>& settings,
                    std::size_t min_keys, std::size_t max_keys, double budget_seconds,
                    const std::function<void()>& after_each) {
  min_keys = std::min(min_keys, buffer.pool_size());
  double calibration = 0.0;
  for (const PrefetchSetting& s : settings) {
    calibration += TimeOnce([&] { FindKeys(buffer, s, min_keys); });
  }
  const RunPlan plan =
      PlanRuns(calibration / static_cast<double>(settings.size() * min_keys), settings.size(),
               budget_seconds, kBatch, min_keys, max_keys);
  const std::vector<Timing> seconds = InterleavedTimings(
      settings.size(), plan.rounds,
      [&](std::size_t i) { FindKeys(buffer, settings[i], plan.items_per_run); }, after_each);
  FindTimes times{{}, plan.rounds, plan.items_per_run};
  const double ns_per_second_key = 1e9 / static_cast<double>(plan.items_per_run);
  for (std::size_t i = 0; i < settings.size(); ++i) {
    times.timings.push_back({settings[i], seconds[i].median * ns_per_second_key,
                             seconds[i].spread * ns_per_second_key});
  }
  return times;
}

FindComparison CompareFind(TuneBuffer& buffer, PrefetchSetting best, PrefetchSetting current,
                           double budget_seconds, const std::function<void()>& after_each) {
  const FindTimes t = TimeFinds(buffer, {best, current}, kMinKeys,
                                kMaxPasses * buffer.pool_size(), budget_seconds, after_each);
  return {t.timings[0], t.timings[1], kBatch, t.rounds, t.keys_per_run};
}

}  // namespace blockbloom_tools::tune
