// SPDX-License-Identifier: Apache-2.0
// The loop of the per-key kernel benchmarks: kBatchSize hashes an iteration,
// from the shared probe pool, at the iteration's placement (placements.h).
#ifndef BLOCKBLOOM_BENCH_PROBE_LOOP_H_
#define BLOCKBLOOM_BENCH_PROBE_LOOP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "huge_pages.h"
#include "placements.h"
#include "probe_data.h"

namespace blockbloom_bench {

// Every iteration handles kBatchSize hashes, read from the probe pool in
// order from the shared cursor and wrapping around at its end. `batch` gets
// the iteration's placement (placements.h) and the hashes at that
// placement's copy of the pool, and returns the hits it found (0 for
// inserts). Reports ns_per_key, items_per_second and, for finds, hit_rate
// (about 0.5 plus half the false positive rate).
template <typename BatchFn>
void ProbeLoop(benchmark::State& state, ProbeData& data, bool report_hits, BatchFn&& batch) {
  const std::vector<Placement>& placements = data.placements();
  PlacementSchedule schedule(placements.size(), state.max_iterations);
  const size_t num_probes = data.probes().size();
  size_t offset = data.cursor();
  size_t hits = 0;
  for (auto _ : state) {
    const Placement& p = placements[schedule.Next()];
    hits += batch(p, p.probes + offset);
    offset += kBatchSize;
    if (offset == num_probes) offset = 0;
  }
  data.cursor() = offset;
  const auto keys = static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kBatchSize);
  state.SetItemsProcessed(keys);
  // (kBatchSize * 1e-9 * iterations / seconds) inverted: nanoseconds per key.
  // The JSON holds that number; the console prints it with an "s" suffix,
  // which google-benchmark appends to every inverted rate.
  state.counters["ns_per_key"] =
      benchmark::Counter(static_cast<double>(kBatchSize) * 1e-9,
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  // Share of the filter on transparent huge pages (1 = all, -1 = unknown).
  state.counters["huge_pages"] = HugePageFraction(placements[0].filled.data);
  state.counters["placements"] = static_cast<double>(placements.size());
  if (report_hits && keys > 0) {
    state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(keys);
  }
}

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_PROBE_LOOP_H_
