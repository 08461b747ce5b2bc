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
#include "ns_per_key.h"
#include "placements.h"
#include "probe_data.h"

namespace blockbloom_bench {

// The loop of every per-key benchmark: kBatchSize items an iteration, read
// from a pool of pool_size items (a multiple of kBatchSize) in order from
// cursor and wrapping around at its end. `batch` gets the iteration's
// placement (placements.h) and the items at that placement's copy of the
// pool (placement.*pool), and returns the hits it found (0 for inserts).
// Leaves cursor where the next run starts; returns the hits of all
// iterations.
template <typename PlacementT, typename Item, typename BatchFn>
size_t PlacedBatchLoop(benchmark::State& state, const std::vector<PlacementT>& placements,
                       const Item* PlacementT::*pool, size_t pool_size, size_t& cursor,
                       BatchFn&& batch) {
  PlacementSchedule schedule(placements.size(), state.max_iterations);
  size_t offset = cursor;
  size_t hits = 0;
  for (auto _ : state) {
    const PlacementT& p = placements[schedule.Next()];
    hits += batch(p, p.*pool + offset);
    offset += kBatchSize;
    if (offset == pool_size) offset = 0;
  }
  cursor = offset;
  return hits;
}

// PlacedBatchLoop over the probe pool's hashes. Reports ns_per_key,
// items_per_second and, for finds, hit_rate (about 0.5 plus half the false
// positive rate).
template <typename BatchFn>
void ProbeLoop(benchmark::State& state, ProbeData& data, bool report_hits, BatchFn&& batch) {
  const std::vector<Placement>& placements = data.placements();
  const size_t hits = PlacedBatchLoop(state, placements, &Placement::probes, data.probes().size(),
                                      data.cursor(), batch);
  SetNsPerKey(state, static_cast<double>(kBatchSize));
  const auto keys = static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kBatchSize);
  // Share of the filter on transparent huge pages (1 = all, -1 = unknown).
  state.counters["huge_pages"] = HugePageFraction(placements[0].filled.data);
  state.counters["placements"] = static_cast<double>(placements.size());
  if (report_hits && keys > 0) {
    state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(keys);
  }
}

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_PROBE_LOOP_H_
