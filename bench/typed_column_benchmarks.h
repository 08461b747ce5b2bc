// SPDX-License-Identifier: Apache-2.0
// Registers the typed-column benchmarks (column.h), ns per row, 1024 rows an
// iteration, through the public calls with the ISA selected:
//   find_column_bitmap/<column>/<isa>/<bytes>   bb_find_column_bitmap
//   insert_column/<column>/<isa>/<bytes>        bb_insert_column
// <column>: int8 and int16 (widened to INT32 in a stack chunk), int64 (the
// baseline: no widening), int64_nulls10 (10% nulls, random), flba16 (16-byte
// values), string and large_string (8 .. 24 bytes, int32 / int64 offsets),
// string_0_32 (0 .. 32 bytes, int32 offsets).
#ifndef BLOCKBLOOM_BENCH_TYPED_COLUMN_BENCHMARKS_H_
#define BLOCKBLOOM_BENCH_TYPED_COLUMN_BENCHMARKS_H_

namespace blockbloom_bench {

void RegisterTypedColumnBenchmarks();

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_TYPED_COLUMN_BENCHMARKS_H_
