// SPDX-License-Identifier: Apache-2.0
// Registers the per-string hash benchmarks, ns per string, XXH64 (seed 0)
// of each string of a pool of random bytes and random lengths:
//   string_hash/<lengths>/libxxhash/<rows>  a loop calling libxxhash's XXH64
//   string_hash/<lengths>/xxh64_inline/<rows>  the same with xxHash inline (the
//                                            byte-array path before the kernels)
//   string_hash/<lengths>/<isa>/<rows>      the tier's parquet_hash_byte_array32
// <lengths>: 0_32 (0 .. 32 bytes; 1024 strings an iteration from a 64 Ki
// pool) or 100_4096 (256 strings an iteration, the pool ~0.5 MiB: in L2/L3,
// so the hash and not the memory is timed). <rows>: strings an iteration.
#ifndef BLOCKBLOOM_BENCH_STRING_HASH_BENCHMARKS_H_
#define BLOCKBLOOM_BENCH_STRING_HASH_BENCHMARKS_H_

namespace blockbloom_bench {

void RegisterStringHashBenchmarks();

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_STRING_HASH_BENCHMARKS_H_
