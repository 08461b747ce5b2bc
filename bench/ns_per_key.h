// SPDX-License-Identifier: Apache-2.0
// The counter every benchmark reports and every script reads: ns_per_key.
#ifndef BLOCKBLOOM_BENCH_NS_PER_KEY_H_
#define BLOCKBLOOM_BENCH_NS_PER_KEY_H_

#include <cstdint>

#include "benchmark/benchmark.h"

namespace blockbloom_bench {

// Sets items_per_second and ns_per_key for keys_per_iteration keys an
// iteration: (keys_per_iteration * 1e-9 * iterations / seconds) inverted,
// nanoseconds per key. The JSON holds that number; the console prints it
// with an "s" suffix, which google-benchmark appends to every inverted rate.
inline void SetNsPerKey(benchmark::State& state, double keys_per_iteration) {
  state.SetItemsProcessed(static_cast<int64_t>(static_cast<double>(state.iterations()) *
                                               keys_per_iteration));
  state.counters["ns_per_key"] =
      benchmark::Counter(keys_per_iteration * 1e-9,
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_NS_PER_KEY_H_
