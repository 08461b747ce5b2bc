/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom kernel tables: the raw per-ISA functions behind the filter API.
 *
 * Internal (not installed, not exported by libblockbloom.so, outside the ABI
 * baseline): the table grows whenever a kernel is added. Tests, benchmarks
 * and the tools link the internal static library and use it from here. Kernels do
 * no validation: blocks points at num_blocks * 32 readable (and, for inserts,
 * writable) bytes at any alignment, 1 <= num_blocks <= BB_MAX_BLOCKS (a power
 * of two for the kudu_* kernels), and the arrays hold n elements (bitmap:
 * (n + 7) / 8 bytes; selection: n entries, n < 2^32). Kudu's always-false
 * state is the API's business, not the kernels'. Every table computes
 * bit-identical results. */
#ifndef BLOCKBLOOM_KERNELS_KERNEL_TABLE_H_
#define BLOCKBLOOM_KERNELS_KERNEL_TABLE_H_

#include "blockbloom/blockbloom.h"
#include "blockbloom/tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most ranges a build_from_hashes call partitions into. */
#define BBI_BUILD_MAX_PARTS 512u

typedef struct bbi_kernel_table {
  const char* isa; /* one of the registry's names (kernels/isa.h) */

  /* Parquet layout: 64-bit hashes. */
  void (*insert)(uint8_t* blocks, uint32_t num_blocks, uint64_t hash);
  int (*find)(const uint8_t* blocks, uint32_t num_blocks, uint64_t hash);
  void (*insert_batch)(uint8_t* blocks, uint32_t num_blocks, const uint64_t* hashes,
                       size_t n);
  size_t (*find_batch_bitmap)(const uint8_t* blocks, uint32_t num_blocks,
                              const uint64_t* hashes, size_t n, uint8_t* bitmap);
  size_t (*find_batch_select)(const uint8_t* blocks, uint32_t num_blocks,
                              const uint64_t* hashes, size_t n, uint32_t* selection);
  /* Pipeline probes. select_from tests hashes[sel_in[k]] for k < m (every
   * sel_in[k] indexes hashes) and writes the sel_in[k] that may be present,
   * in order, to sel_out[0 .. return value); sel_out has room for m entries
   * and is either sel_in itself (compacted in place) or does not overlap it.
   * bitmap_and clears bit i (i < n) of the bitmap where hashes[i] is absent,
   * never probing a row whose bitmap byte is 0; bits at and past n stay as
   * they were; returns the set bits below n afterwards. */
  size_t (*find_batch_select_from)(const uint8_t* blocks, uint32_t num_blocks,
                                   const uint64_t* hashes, const uint32_t* sel_in, size_t m,
                                   uint32_t* sel_out);
  size_t (*find_batch_bitmap_and)(const uint8_t* blocks, uint32_t num_blocks,
                                  const uint64_t* hashes, size_t n, uint8_t* bitmap);

  /* Kudu layout: 32-bit hashes. */
  void (*kudu_insert)(uint8_t* blocks, uint32_t num_blocks, uint32_t hash);
  int (*kudu_find)(const uint8_t* blocks, uint32_t num_blocks, uint32_t hash);
  void (*kudu_insert_batch)(uint8_t* blocks, uint32_t num_blocks, const uint32_t* hashes,
                            size_t n);
  size_t (*kudu_find_batch_bitmap)(const uint8_t* blocks, uint32_t num_blocks,
                                   const uint32_t* hashes, size_t n, uint8_t* bitmap);
  size_t (*kudu_find_batch_select)(const uint8_t* blocks, uint32_t num_blocks,
                                   const uint32_t* hashes, size_t n, uint32_t* selection);
  size_t (*kudu_find_batch_select_from)(const uint8_t* blocks, uint32_t num_blocks,
                                        const uint32_t* hashes, const uint32_t* sel_in, size_t m,
                                        uint32_t* sel_out);
  size_t (*kudu_find_batch_bitmap_and)(const uint8_t* blocks, uint32_t num_blocks,
                                       const uint32_t* hashes, size_t n, uint8_t* bitmap);

  /* Inserts only the hashes whose block lies in [first_block, end_block):
   * calls with disjoint ranges may run concurrently on one filter. */
  void (*insert_batch_range)(uint8_t* blocks, uint32_t num_blocks, const uint64_t* hashes,
                             size_t n, uint32_t first_block, uint32_t end_block);
  void (*kudu_insert_batch_range)(uint8_t* blocks, uint32_t num_blocks, const uint32_t* hashes,
                                  size_t n, uint32_t first_block, uint32_t end_block);
  /* The radix partition of a build: the n hashes grouped by the part of the
   * blocks (num_parts equal ranges, 1 <= num_parts <= num_blocks) their
   * block lies in, part 0 first, each part's hashes in input order, to out
   * (room for n, not overlapping hashes); counts[p] = part p's hashes. */
  void (*partition_hashes)(uint32_t num_blocks, const uint64_t* hashes, size_t n,
                           uint32_t num_parts, uint64_t* out, size_t* counts);
  void (*kudu_partition_hashes)(uint32_t num_blocks, const uint32_t* hashes, size_t n,
                                uint32_t num_parts, uint32_t* out, size_t* counts);
  /* Whole builds: inserts the n hashes as insert_batch does, byte for byte,
   * by putting them in num_parts block ranges' buckets in scratch (1 <=
   * num_parts <= min(num_blocks, BBI_BUILD_MAX_PARTS); room for n, not
   * overlapping hashes) and inserting range by range. Only the keys of
   * ranges [first_part, end_part) are inserted ([0, num_parts): all):
   * calls for disjoint runs write disjoint blocks and scratch, so threads
   * may share the filter and the scratch. */
  void (*build_from_hashes)(uint8_t* blocks, uint32_t num_blocks, const uint64_t* hashes, size_t n,
                            uint64_t* scratch, uint32_t num_parts, uint32_t first_part,
                            uint32_t end_part);
  void (*kudu_build_from_hashes)(uint8_t* blocks, uint32_t num_blocks, const uint32_t* hashes,
                                 size_t n, uint32_t* scratch, uint32_t num_parts,
                                 uint32_t first_part, uint32_t end_part);

  /* Either layout: dst |= src and dst &= src over num_bytes (a multiple of 32). */
  void (*union_bytes)(uint8_t* dst, const uint8_t* src, size_t num_bytes);
  void (*intersect_bytes)(uint8_t* dst, const uint8_t* src, size_t num_bytes);

  /* The largest of values[0 .. n), n >= 1: the API's range check of an input
   * selection, run before anything is written. */
  uint32_t (*max_u32)(const uint32_t* values, size_t n);

  /* Parquet hashing: hashes[i] = XXH64, seed 0, of the 8 (or 4) little-endian
   * bytes of value i of values (int64/double, or int32/float, at any
   * alignment): the hash Parquet takes of a plain-encoded INT64/DOUBLE (or
   * INT32/FLOAT). Equal to libxxhash's XXH64 on every tier. */
  void (*parquet_hash_8byte)(const void* values, size_t n, uint64_t* hashes);
  void (*parquet_hash_4byte)(const void* values, size_t n, uint64_t* hashes);
  /* hashes[i] = XXH64, seed 0, of the 16 bytes of value i as two native
   * 64-bit words in little-endian order: on a little-endian host, of the 16
   * bytes as they lie (a FIXED_LEN_BYTE_ARRAY(16)). */
  void (*parquet_hash_16byte)(const void* values, size_t n, uint64_t* hashes);
  /* Byte arrays (BYTE_ARRAY / LARGE_BYTE_ARRAY): hashes[i] = XXH64, seed 0,
   * of data[offsets[i] .. offsets[i + 1]) for i < n. offsets holds n + 1
   * int32 (..._32) or int64 (..._64) offsets in the host's order at any
   * alignment, non-decreasing and each <= data_len; data_len bytes at data
   * are readable, and no byte past them is read (data may be NULL when
   * data_len is 0). Equal to libxxhash's XXH64 on every tier. */
  void (*parquet_hash_byte_array32)(const uint8_t* data, size_t data_len, const void* offsets,
                                    size_t n, uint64_t* hashes);
  void (*parquet_hash_byte_array64)(const uint8_t* data, size_t data_len, const void* offsets,
                                    size_t n, uint64_t* hashes);
  /* Kudu's hash of the same byte arrays: hashes[i] = FastHash32 with seed
   * of each cell, an empty cell by Kudu's empty rule (the 4 bytes of
   * 0x7dca7eee: bb_kudu_fasthash32); offsets and data as above. */
  void (*kudu_hash_byte_array32)(const uint8_t* data, size_t data_len, const void* offsets,
                                 size_t n, uint32_t seed, uint32_t* hashes);
  void (*kudu_hash_byte_array64)(const uint8_t* data, size_t data_len, const void* offsets,
                                 size_t n, uint32_t seed, uint32_t* hashes);
  /* 1 iff the n + 1 offsets (int32 / int64 in the host's order, any
   * alignment) never decrease, compared as signed integers; else 0. */
  int (*offsets_ordered32)(const void* offsets, size_t n);
  int (*offsets_ordered64)(const void* offsets, size_t n);
} bbi_kernel_table;

/* The table of one named ISA. BB_ERR_UNKNOWN_ISA, BB_ERR_ISA_NOT_COMPILED or
 * BB_ERR_ISA_UNSUPPORTED (the CPU lacks it: calling it could fault) leave
 * *table NULL. */
int bbi_kernels_for_isa(const char* name, const bbi_kernel_table** table);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_KERNELS_KERNEL_TABLE_H_ */
