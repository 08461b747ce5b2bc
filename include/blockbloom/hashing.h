/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: the hashes the two formats use, of one value and (Parquet) of
 * an int32/int64/float/double/string array. To hash and insert or probe a
 * column in one call (no hash array of the caller's; the library hashes in
 * bounded chunks on its stack), of any type, with or without nulls, use
 * blockbloom/column.h: bb_insert_column, bb_find_column_bitmap,
 * bb_find_column_select. (Before 0.1.0 was tagged, this header also had
 * typed fused calls, bb_insert_int64_column and the like; they measured the
 * same as column.h's, which run the same code: CHANGELOG.md,
 * docs/benchmarks.md.) */
#ifndef BLOCKBLOOM_HASHING_H_
#define BLOCKBLOOM_HASHING_H_

#include "blockbloom/blockbloom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parquet: XXH64, seed 0, of the value's plain encoding (little-endian 4 bytes
 * for INT32/FLOAT, 8 for INT64/DOUBLE; the payload bytes of a BYTE_ARRAY). */
BB_API uint64_t bb_parquet_hash_bytes(const void* data, size_t len);
BB_API uint64_t bb_parquet_hash_int32(int32_t value);
BB_API uint64_t bb_parquet_hash_int64(int64_t value);
BB_API uint64_t bb_parquet_hash_float(float value);
BB_API uint64_t bb_parquet_hash_double(double value);

BB_API int bb_parquet_hash_int32_batch(const int32_t* values, size_t n, uint64_t* hashes);
BB_API int bb_parquet_hash_int64_batch(const int64_t* values, size_t n, uint64_t* hashes);
BB_API int bb_parquet_hash_float_batch(const float* values, size_t n, uint64_t* hashes);
BB_API int bb_parquet_hash_double_batch(const double* values, size_t n, uint64_t* hashes);
/* A string column as Arrow stores it: value i is data[offsets[i] .. offsets[i+1]),
 * offsets has n + 1 entries, non-decreasing, within [0, data_len]. */
BB_API int bb_parquet_hash_string_batch(const uint8_t* data, size_t data_len,
                                        const int32_t* offsets, size_t n, uint64_t* hashes);

/* Kudu FAST_HASH (kudu/util/hash_util.h). data == NULL hashes a null cell
 * (Kudu's null rule); len == 0 with data != NULL an empty one. */
BB_API uint64_t bb_kudu_fasthash64(const void* data, size_t len, uint64_t seed);
BB_API uint32_t bb_kudu_fasthash32(const void* data, size_t len, uint32_t seed);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_HASHING_H_ */
