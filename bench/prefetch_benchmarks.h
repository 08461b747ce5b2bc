// SPDX-License-Identifier: Apache-2.0
// Registers the prefetch benchmarks of filters that miss the caches:
//   memory/prefetch_sweep/<hint>/<distance>/<bytes>   random 32-byte reads, each
//       hint x distance of tools/common/random_lines.h
//   memory/prefetched_random_lines/<bytes>            the same at the winner
//   prefetch_sweep/find_batch_bitmap/<isa>/<hint>/<distance>/<bytes>
//   prefetch_sweep/insert_batch/<isa>/<hint>/<distance>/<bytes>
//       the selected ISA's kernel with the library's prefetch set to that
#ifndef BLOCKBLOOM_BENCH_PREFETCH_BENCHMARKS_H_
#define BLOCKBLOOM_BENCH_PREFETCH_BENCHMARKS_H_

namespace blockbloom_bench {

void RegisterPrefetchBenchmarks();

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_PREFETCH_BENCHMARKS_H_
