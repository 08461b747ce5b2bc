/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: the Parquet serialization of a split block Bloom filter.
 *
 * A Thrift-compact BloomFilterHeader {1: i32 numBytes; 2: algorithm BLOCK;
 * 3: hash XXHASH; 4: compression UNCOMPRESSED} followed by numBytes of bitset,
 * as ColumnMetaData.bloom_filter_offset points to it. */
#ifndef BLOCKBLOOM_PARQUET_FORMAT_H_
#define BLOCKBLOOM_PARQUET_FORMAT_H_

#include "blockbloom/blockbloom.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BB_PARQUET_HEADER_MAX_BYTES 32 /* room enough for any header this library writes */

/* The bitset sizes every Parquet reader accepts: a power of two from 32 B to
 * 128 MiB. Arrow C++'s reader refuses any other numBytes ("Given length of
 * bitset is illegal"), and Velox's and ClickHouse's readers do the same;
 * DuckDB reads other sizes. So the writers below refuse them unless asked
 * explicitly (the _any_size forms), and bb_bytes_for(.., BB_SIZE_PARQUET_SAFE,
 * ..) sizes for them. Reading stays lenient: any positive multiple of 32 that
 * an i32 holds. */
#define BB_PARQUET_SAFE_MIN_BYTES 32u
#define BB_PARQUET_SAFE_MAX_BYTES 134217728u /* 128 MiB */

/* BB_OK if bb_parquet_header_write accepts num_bytes: a valid filter size
 * (else bb_filter_check_size's code) that is a power of two of at most 128
 * MiB (else BB_ERR_PARQUET_UNSAFE_SIZE). */
BB_API int bb_parquet_check_size(size_t num_bytes);

/* Writes the header for a bitset of num_bytes; *written gets its length.
 * num_bytes must pass bb_parquet_check_size. */
BB_API int bb_parquet_header_write(size_t num_bytes, uint8_t* out, size_t capacity,
                                   size_t* written);

/* As bb_parquet_header_write, for any filter size a header can announce (a
 * multiple of 32 up to 2^31 - 32 bytes; more is BB_ERR_HEADER_NUM_BYTES):
 * for files only readers such as DuckDB will read. */
BB_API int bb_parquet_header_write_any_size(size_t num_bytes, uint8_t* out, size_t capacity,
                                            size_t* written);

/* Parses the header at data[0 .. len) and checks that the bitset it announces
 * fits in the rest of the buffer: on success *header_bytes is where the
 * bitset starts and *num_bytes its size. Never reads outside [data, data+len). */
BB_API int bb_parquet_header_read(const uint8_t* data, size_t len, size_t* header_bytes,
                                  size_t* num_bytes);

/* Reads header + bitset into a new owned, 64-byte-aligned filter (a copy, so
 * any source alignment works; to probe in place without copying, use
 * bb_parquet_header_read + bb_filter_init_view_readonly). *consumed (may be
 * NULL) gets header + bitset length. On error *f is left zeroed. *f is
 * overwritten unread: if it owns a bitset, release it first or it leaks. */
BB_API int bb_parquet_filter_read(bb_filter* f, const uint8_t* data, size_t len, size_t* consumed);

/* Writes header + bitset of a Parquet-layout filter; *written gets the
 * length. f->num_bytes must pass bb_parquet_check_size. */
BB_API int bb_parquet_filter_write(const bb_filter* f, uint8_t* out, size_t capacity,
                                   size_t* written);

/* As bb_parquet_filter_write, for a filter of any size a header can announce
 * (see bb_parquet_header_write_any_size). */
BB_API int bb_parquet_filter_write_any_size(const bb_filter* f, uint8_t* out, size_t capacity,
                                            size_t* written);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_PARQUET_FORMAT_H_ */
