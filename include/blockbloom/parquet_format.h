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

/* Writes the header for a bitset of num_bytes; *written gets its length. */
BB_API int bb_parquet_header_write(size_t num_bytes, uint8_t* out, size_t capacity,
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

/* Writes header + bitset of a Parquet-layout filter; *written gets the length. */
BB_API int bb_parquet_filter_write(const bb_filter* f, uint8_t* out, size_t capacity,
                                   size_t* written);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_PARQUET_FORMAT_H_ */
