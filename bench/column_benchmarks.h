// SPDX-License-Identifier: Apache-2.0
// Registers the int64-column benchmarks, ns per row, 1024 rows an iteration:
//   int64_column_find_bitmap/<isa>/<bytes>      column.h's hash-and-probe in one
//       call (bb_find_column_bitmap)
//   xxh64_then_find_batch_bitmap/<isa>/<bytes>  libxxhash's XXH64 into a buffer,
//       then find_batch_bitmap
//   hash_batch_then_find_batch_bitmap/<isa>/<bytes>  the same in two kernel
//       calls (parquet_hash_8byte into a buffer, then find_batch_bitmap)
#ifndef BLOCKBLOOM_BENCH_COLUMN_BENCHMARKS_H_
#define BLOCKBLOOM_BENCH_COLUMN_BENCHMARKS_H_

namespace blockbloom_bench {

void RegisterColumnBenchmarks();

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_COLUMN_BENCHMARKS_H_
