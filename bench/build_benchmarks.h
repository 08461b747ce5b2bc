// SPDX-License-Identifier: Apache-2.0
// Whole builds (every key of a filter in one call) and the radix partition
// they rest on, at DRAM-sized inputs.
#ifndef BLOCKBLOOM_BENCH_BUILD_BENCHMARKS_H_
#define BLOCKBLOOM_BENCH_BUILD_BENCHMARKS_H_

namespace blockbloom_bench {

void RegisterBuildBenchmarks();

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_BUILD_BENCHMARKS_H_
