// SPDX-License-Identifier: Apache-2.0
// bb_parquet_hash_typed_column against bb_parquet_hash_column on the same
// 10^7-row int64 column (the selected ISA), per row:
//   typed_value/hash_column/int64            bb_parquet_hash_column (the baseline)
//   typed_value/typed/int64_into_int64       INT source into INT64: the identity
//   typed_value/typed/int32_into_int64       an int32 column into INT64: widened
//   typed_value/typed/us_into_timestamp_ns   microsecond counts into TIMESTAMP(NANOS):
//                                            a multiply with an overflow check
//   typed_value/typed/us_into_timestamp_us   microseconds into TIMESTAMP(MICROS)
#ifndef BLOCKBLOOM_BENCH_TYPED_VALUE_BENCHMARKS_H_
#define BLOCKBLOOM_BENCH_TYPED_VALUE_BENCHMARKS_H_

namespace blockbloom_bench {

void RegisterTypedValueBenchmarks();

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_TYPED_VALUE_BENCHMARKS_H_
