// SPDX-License-Identifier: Apache-2.0
// Benchmarks beyond the per-op kernel suite: union, the multi-threaded
// build, and the memory-system limits the DRAM-sized numbers run into.
#ifndef BLOCKBLOOM_BENCH_SCALING_BENCHMARKS_H_
#define BLOCKBLOOM_BENCH_SCALING_BENCHMARKS_H_

namespace blockbloom_bench {

void RegisterScalingBenchmarks();

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_SCALING_BENCHMARKS_H_
