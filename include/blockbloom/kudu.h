/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: the Kudu / Impala runtime-filter layout (kudu/util/block_bloom_filter.*).
 *
 * 32-bit hashes; block Rehash32to32(h) & (z - 1) of a power-of-two block
 * count z >= 2 (64 bytes); the hash itself is the key. A new filter is
 * always-false: find answers 0 without reading memory until the first insert.
 * Parquet-layout calls on these filters return BB_ERR_LAYOUT_MISMATCH. */
#ifndef BLOCKBLOOM_KUDU_H_
#define BLOCKBLOOM_KUDU_H_

#include "blockbloom/blockbloom.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BB_KUDU_MIN_LOG_SPACE_BYTES 6  /* 64 bytes: Kudu's minimum of 2 blocks */
#define BB_KUDU_MAX_LOG_SPACE_BYTES 35 /* 32 GiB: 2^30 blocks */

/* Kudu's HashAlgorithm enum (kudu/util/hash.proto). */
enum { BB_KUDU_HASH_FAST_HASH = 3 };

/* BB_OK if num_bytes is a Kudu directory size (a power of two, 64 B .. 32 GiB),
 * else the code the init calls would return. */
BB_API int bb_kudu_filter_check_size(size_t num_bytes);

/* A zeroed, always-false filter of 2^log_space_bytes bytes. *f is overwritten
 * unread, so it must not own a bitset: release it first or it leaks (this and
 * the view inits below follow bb_filter_init's contract, blockbloom.h). */
BB_API int bb_kudu_filter_init(bb_filter* f, int32_t log_space_bytes, uint32_t hash_seed);

/* As bb_kudu_filter_init, with the bitset from allocator (as for
 * bb_filter_init_with_allocator, blockbloom.h). */
BB_API int bb_kudu_filter_init_with_allocator(bb_filter* f, int32_t log_space_bytes,
                                              uint32_t hash_seed, const bb_allocator* allocator);

/* Views over caller-owned directory bytes (num_bytes a power of two >= 64). */
BB_API int bb_kudu_filter_init_view(bb_filter* f, void* data, size_t num_bytes, int always_false,
                                    uint32_t hash_seed);
BB_API int bb_kudu_filter_init_view_readonly(bb_filter* f, const void* data, size_t num_bytes,
                                             int always_false, uint32_t hash_seed);

BB_API int bb_kudu_insert(bb_filter* f, uint32_t hash);
BB_API int bb_kudu_find(const bb_filter* f, uint32_t hash); /* 1, 0, or < 0 */
BB_API int bb_kudu_insert_batch(bb_filter* f, const uint32_t* hashes, size_t n);
BB_API int bb_kudu_insert_batch_partition(bb_filter* f, const uint32_t* hashes, size_t n,
                                          uint32_t part,
                                          uint32_t num_parts); /* see bb_insert_batch_partition */
/* The radix partition of bb_partition_hashes (blockbloom.h) for 32-bit
 * hashes; then bb_kudu_insert_batch of each part from its own thread. */
BB_API int bb_kudu_partition_hashes(const bb_filter* f, const uint32_t* hashes, size_t n,
                                    uint32_t num_parts, uint32_t* out, size_t* counts);
/* The whole build of bb_build_from_hashes (blockbloom.h) for 32-bit hashes:
 * the bytes of bb_kudu_insert_batch; scratch has room for n hashes (4n
 * bytes) or is NULL (taken from the filter's allocator when the filter is
 * partitioned). */
BB_API int bb_kudu_build_from_hashes(bb_filter* f, const uint32_t* hashes, size_t n,
                                     uint32_t* scratch);
/* bb_build_from_hashes_partition (blockbloom.h) for 32-bit hashes. */
BB_API int bb_kudu_build_from_hashes_partition(bb_filter* f, const uint32_t* hashes, size_t n,
                                               uint32_t* scratch, uint32_t part,
                                               uint32_t num_parts);
BB_API int bb_kudu_find_batch_bitmap(const bb_filter* f, const uint32_t* hashes, size_t n,
                                     uint8_t* bitmap, size_t* hits);
BB_API int bb_kudu_find_batch_select(const bb_filter* f, const uint32_t* hashes, size_t n,
                                     uint32_t* selection, size_t* hits);
/* The pipeline probes of blockbloom.h for 32-bit hashes. An always-false
 * filter answers 0 for every row: select_from writes no row (*hits = 0;
 * sel_in is still checked) and bitmap_and clears bits 0 .. n-1. */
BB_API int bb_kudu_find_batch_select_from(const bb_filter* f, const uint32_t* hashes, size_t n,
                                          const uint32_t* sel_in, size_t m, uint32_t* sel_out,
                                          size_t* hits);
BB_API int bb_kudu_find_batch_bitmap_and(const bb_filter* f, const uint32_t* hashes, size_t n,
                                         uint8_t* bitmap, size_t* hits);

/* Kudu's BlockBloomFilterPB, field by field, so a caller can fill or read
 * that protobuf without this library depending on protobuf. */
typedef struct bb_kudu_directory {
  int32_t log_space_bytes;   /* field 1: log2 of the directory size in bytes */
  const uint8_t* bloom_data; /* field 2: the directory, 2^log_space_bytes bytes */
  size_t bloom_data_size;
  int always_false;          /* field 3 */
  int32_t hash_algorithm;    /* field 4: must be BB_KUDU_HASH_FAST_HASH */
  uint32_t hash_seed;        /* field 5 */
} bb_kudu_directory;

/* Describes f (a Kudu-layout filter); bloom_data points into f's bitset. */
BB_API int bb_kudu_export(const bb_filter* f, bb_kudu_directory* out);

/* A new owned filter holding a copy of the directory. Rejects a size that is
 * not 2^log_space_bytes, an out-of-range log_space_bytes, or a hash other than
 * FAST_HASH, with a distinct code; on error *f is left zeroed. *f is
 * overwritten unread: if it owns a bitset, release it first or it leaks. */
BB_API int bb_kudu_import(bb_filter* f, const bb_kudu_directory* in);

/* As bb_kudu_import, with the bitset from allocator (bb_allocator). */
BB_API int bb_kudu_import_with_allocator(bb_filter* f, const bb_kudu_directory* in,
                                         const bb_allocator* allocator);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_KUDU_H_ */
