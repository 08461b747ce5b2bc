/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: the hashes the two formats use, and fused hash-and-insert /
 * hash-and-probe over value columns (no temporary hash array for the caller;
 * the library hashes in bounded chunks on its stack). The batch and fused
 * calls here are int32/int64/float/double/string columns without nulls;
 * blockbloom/column.h has every other type (int8 .. uint64, dates, times,
 * INT96, FIXED_LEN_BYTE_ARRAY, 64-bit string offsets) and validity bitmaps. */
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

/* Fused: hash each value with the filter's layout (Parquet: XXH64 of the
 * plain encoding; Kudu: FastHash32 of the little-endian bytes with the
 * filter's hash_seed) and insert or probe, as the batch calls do. Floats and
 * doubles are hashed by their bits, as Parquet and Kudu do: -0.0 and +0.0
 * are different keys, and so are NaNs with different payloads. */
BB_API int bb_insert_int32_column(bb_filter* f, const int32_t* values, size_t n);
BB_API int bb_insert_int64_column(bb_filter* f, const int64_t* values, size_t n);
BB_API int bb_insert_float_column(bb_filter* f, const float* values, size_t n);
BB_API int bb_insert_double_column(bb_filter* f, const double* values, size_t n);
BB_API int bb_find_int32_column_bitmap(const bb_filter* f, const int32_t* values, size_t n,
                                       uint8_t* bitmap, size_t* hits);
BB_API int bb_find_int64_column_bitmap(const bb_filter* f, const int64_t* values, size_t n,
                                       uint8_t* bitmap, size_t* hits);
BB_API int bb_find_float_column_bitmap(const bb_filter* f, const float* values, size_t n,
                                       uint8_t* bitmap, size_t* hits);
BB_API int bb_find_double_column_bitmap(const bb_filter* f, const double* values, size_t n,
                                        uint8_t* bitmap, size_t* hits);
BB_API int bb_find_int32_column_select(const bb_filter* f, const int32_t* values, size_t n,
                                       uint32_t* selection, size_t* hits);
BB_API int bb_find_int64_column_select(const bb_filter* f, const int64_t* values, size_t n,
                                       uint32_t* selection, size_t* hits);
BB_API int bb_find_float_column_select(const bb_filter* f, const float* values, size_t n,
                                       uint32_t* selection, size_t* hits);
BB_API int bb_find_double_column_select(const bb_filter* f, const double* values, size_t n,
                                        uint32_t* selection, size_t* hits);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_HASHING_H_ */
