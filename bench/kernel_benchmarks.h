// SPDX-License-Identifier: Apache-2.0
// Registers the kernel benchmarks, named <op>/<isa>/<filter_bytes>.
#ifndef BLOCKBLOOM_BENCH_KERNEL_BENCHMARKS_H_
#define BLOCKBLOOM_BENCH_KERNEL_BENCHMARKS_H_

namespace blockbloom_bench {

// One benchmark per op, filter size and ISA that bbi_kernels_for_isa accepts on
// this CPU. Filters and keys are built lazily, when a benchmark of that size
// first runs, so listing or filtering benchmarks costs nothing.
void RegisterKernelBenchmarks();

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_KERNEL_BENCHMARKS_H_
