// SPDX-License-Identifier: Apache-2.0
// reference/<op>/<hint>/<distance>/<bytes>: the in-run reference the
// library's batch kernels are held against (issue 35's "last cells"): the
// simplest fast find and insert of the Parquet split block filter for an
// AVX-512 CPU: the batch's block offsets 8 keys a vector instruction, then
// one key at a time with a prefetch `distance` keys ahead; no dispatch, no
// chunks, no prefetch across batches. Run beside find_batch_bitmap and
// insert_batch on the same data; scripts/bench_table.py --targets compares
// each size's best reference cell with the library.
#ifndef BLOCKBLOOM_BENCH_REFERENCE_LOOP_H_
#define BLOCKBLOOM_BENCH_REFERENCE_LOOP_H_

namespace blockbloom_bench {

// Registers nothing where the CPU cannot run AVX-512 (or the build has no
// avx512 tier to check against).
void RegisterReferenceBenchmarks();

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_REFERENCE_LOOP_H_
