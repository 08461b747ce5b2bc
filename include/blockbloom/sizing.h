/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: sizing a split block Bloom filter for a false-positive rate.
 *
 * Exact model (Putze et al., eq. 3; reproduces the Parquet spec's table): with
 * lambda = ndv / blocks keys per block,
 *   FPP = sum_i Poisson(i; lambda) * (1 - (1 - 1/32)^i)^8.
 * The naive (1 - e^(-8n/m))^8 that other libraries use undersizes (about 3x
 * at 0.01%); see docs/sizing.md. */
#ifndef BLOCKBLOOM_SIZING_H_
#define BLOCKBLOOM_SIZING_H_

#include "blockbloom/blockbloom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bb_sizing {
  BB_SIZE_PARQUET = 0,      /* any multiple of 32 bytes: in-memory and raw bitsets */
  BB_SIZE_PARQUET_POW2 = 1, /* a power of two, clamped to 32 B .. 128 MiB as Arrow writes */
  BB_SIZE_KUDU = 2,         /* a power of two, at least 64 bytes */
  /* For Parquet files: a power of two from 32 B to 128 MiB, the only sizes
   * Arrow's, Velox's and ClickHouse's readers accept (parquet_format.h). A
   * target that 128 MiB misses is BB_ERR_PARQUET_SIZE_LIMIT, not a clamp. */
  BB_SIZE_PARQUET_SAFE = 3
} bb_sizing;

/* The exact expected FPP of a filter of num_bytes holding ndv distinct hashes. */
BB_API int bb_fpp(uint64_t ndv, size_t num_bytes, double* fpp);

/* The smallest size of the given kind whose FPP for ndv is at most fpp
 * (BB_SIZE_PARQUET_POW2 is clamped at 128 MiB, as Arrow does: check bb_fpp;
 * BB_SIZE_PARQUET_SAFE refuses instead, with BB_ERR_PARQUET_SIZE_LIMIT).
 * BB_SIZE_KUDU also counts the ndv / 2^32 false positives of 32-bit hash
 * collisions, which no size removes (a target below them is
 * BB_ERR_TOO_MANY_BLOCKS). An ndv of 0 (an empty build side, common for
 * runtime filters) gives the kind's smallest size, as Arrow's and Kudu's
 * sizing do: 32 bytes, Kudu 64. fpp outside (0, 1) is BB_ERR_INVALID_FPP. */
BB_API int bb_bytes_for(uint64_t ndv, double fpp, bb_sizing kind, size_t* num_bytes);

/* The largest ndv a filter of num_bytes holds at an FPP of at most fpp, by
 * the block model alone (bb_fpp; a Parquet filter's 64-bit hashes collide
 * too rarely to count). For a Kudu filter use bb_max_ndv_for. */
BB_API int bb_max_ndv(size_t num_bytes, double fpp, uint64_t* ndv);

/* The largest ndv a filter of num_bytes and sizing kind holds at an FPP of at
 * most fpp, by the model bb_bytes_for sizes with (BB_SIZE_KUDU: its 32-bit
 * hash collisions counted), so the two agree for every size b of the kind:
 * bb_bytes_for(bb_max_ndv_for(b, fpp, kind), fpp, kind) <= b, and one value
 * more needs a larger size. num_bytes must be a size of the kind (else its
 * check's code: bb_filter_check_size for BB_SIZE_PARQUET,
 * bb_parquet_check_size for _POW2 and _SAFE, bb_kudu_filter_check_size for
 * BB_SIZE_KUDU); an unknown kind is BB_ERR_INVALID_SIZING. */
BB_API int bb_max_ndv_for(size_t num_bytes, double fpp, bb_sizing kind, uint64_t* ndv);

/* The number of distinct values a filter's density implies: the exact model
 * inverted. Each value sets one bit in each of the 8 lanes of one of z
 * blocks, so a given bit is set by n values with probability
 * 1 - (1 - 1/(32 z))^n, and a fraction q of bits set implies
 * n = ln(1 - q) / ln(1 - 1/(32 z)). *bits_set (may be NULL) gets the number
 * of bits set; *ndv is +infinity when every bit is set (no n is implied).
 * A Kudu filter in its always-false state holds nothing: 0 and 0. */
BB_API int bb_filter_estimate_ndv(const bb_filter* f, uint64_t* bits_set, double* ndv);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_SIZING_H_ */
