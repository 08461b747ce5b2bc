/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom kernel tables: the raw per-ISA functions behind the filter API.
 *
 * For tests, benchmarks and callers that manage their own dispatch. Kernels do
 * no validation: blocks points at num_blocks * 32 readable (and, for inserts,
 * writable) bytes at any alignment, 1 <= num_blocks <= BB_MAX_BLOCKS (a power
 * of two for the kudu_* kernels), and the arrays hold n elements (bitmap:
 * (n + 7) / 8 bytes; selection: n entries, n < 2^32). Kudu's always-false
 * state is the API's business, not the kernels'. Every table computes
 * bit-identical results. */
#ifndef BLOCKBLOOM_KERNELS_H_
#define BLOCKBLOOM_KERNELS_H_

#include "blockbloom/blockbloom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_kernel_table {
  const char* isa; /* "scalar", "sse42", "avx2", "avx512" or "neon" */

  /* Parquet layout: 64-bit hashes. */
  void (*insert)(uint8_t* blocks, uint32_t num_blocks, uint64_t hash);
  int (*find)(const uint8_t* blocks, uint32_t num_blocks, uint64_t hash);
  void (*insert_batch)(uint8_t* blocks, uint32_t num_blocks, const uint64_t* hashes,
                       size_t n);
  size_t (*find_batch_bitmap)(const uint8_t* blocks, uint32_t num_blocks,
                              const uint64_t* hashes, size_t n, uint8_t* bitmap);
  size_t (*find_batch_select)(const uint8_t* blocks, uint32_t num_blocks,
                              const uint64_t* hashes, size_t n, uint32_t* selection);

  /* Kudu layout: 32-bit hashes. */
  void (*kudu_insert)(uint8_t* blocks, uint32_t num_blocks, uint32_t hash);
  int (*kudu_find)(const uint8_t* blocks, uint32_t num_blocks, uint32_t hash);
  void (*kudu_insert_batch)(uint8_t* blocks, uint32_t num_blocks, const uint32_t* hashes,
                            size_t n);
  size_t (*kudu_find_batch_bitmap)(const uint8_t* blocks, uint32_t num_blocks,
                                   const uint32_t* hashes, size_t n, uint8_t* bitmap);
  size_t (*kudu_find_batch_select)(const uint8_t* blocks, uint32_t num_blocks,
                                   const uint32_t* hashes, size_t n, uint32_t* selection);

  /* Inserts only the hashes whose block lies in [first_block, end_block):
   * calls with disjoint ranges may run concurrently on one filter. */
  void (*insert_batch_range)(uint8_t* blocks, uint32_t num_blocks, const uint64_t* hashes,
                             size_t n, uint32_t first_block, uint32_t end_block);
  void (*kudu_insert_batch_range)(uint8_t* blocks, uint32_t num_blocks, const uint32_t* hashes,
                                  size_t n, uint32_t first_block, uint32_t end_block);

  /* Either layout: dst |= src and dst &= src over num_bytes (a multiple of 32). */
  void (*union_bytes)(uint8_t* dst, const uint8_t* src, size_t num_bytes);
  void (*intersect_bytes)(uint8_t* dst, const uint8_t* src, size_t num_bytes);

  /* Parquet hashing: hashes[i] = XXH64, seed 0, of the 8 (or 4) little-endian
   * bytes of value i of values (int64/double, or int32/float, at any
   * alignment): the hash Parquet takes of a plain-encoded INT64/DOUBLE (or
   * INT32/FLOAT). Equal to libxxhash's XXH64 on every tier. */
  void (*parquet_hash_8byte)(const void* values, size_t n, uint64_t* hashes);
  void (*parquet_hash_4byte)(const void* values, size_t n, uint64_t* hashes);
} bb_kernel_table;

/* The table of one named ISA. BB_ERR_UNKNOWN_ISA, BB_ERR_ISA_NOT_COMPILED or
 * BB_ERR_ISA_UNSUPPORTED (the CPU lacks it: calling it could fault) leave
 * *table NULL. */
int bb_kernels_for_isa(const char* name, const bb_kernel_table** table);

/* Tuning: how the batch kernels prefetch the blocks of filters of 1 MiB and
 * more (process-wide settings, read once per batch call; the defaults were
 * tuned on the development machine: docs/benchmarks.md, and `blockbloom tune`
 * measures them on the machine it runs on).
 *
 * Distance: how many keys ahead, 1 .. BB_MAX_PREFETCH_DISTANCE; 0 restores the
 * default and larger values are clamped to the maximum. The environment
 * variable BLOCKBLOOM_PREFETCH_DISTANCE, read when the library loads, sets it
 * too; a value that is not a whole number in 1 .. BB_MAX_PREFETCH_DISTANCE is
 * refused (the default stays) and bb_prefetch_override_refused() says why.
 *
 * Hint: which cache level the prefetch fills. BB_PREFETCH_L2 (x86
 * prefetcht1) keeps far more misses in flight than BB_PREFETCH_L1
 * (prefetcht0) on the development machine. BLOCKBLOOM_PREFETCH_HINT=none|l1|
 * l2|l3 sets it when the library loads, refused like the distance. On other
 * architectures the hints map to the compiler's locality levels. */
#define BB_MAX_PREFETCH_DISTANCE 512u
typedef enum bb_prefetch_level {
  BB_PREFETCH_NONE = 0, /* no prefetching */
  BB_PREFETCH_L1 = 1,   /* x86 prefetcht0 */
  BB_PREFETCH_L2 = 2,   /* x86 prefetcht1 */
  BB_PREFETCH_L3 = 3    /* x86 prefetcht2 */
} bb_prefetch_level;

size_t bb_prefetch_distance(void);
void bb_set_prefetch_distance(size_t keys_ahead);
int bb_prefetch_hint(void);
/* BB_OK, or BB_ERR_INVALID_PREFETCH_HINT for a value outside bb_prefetch_level
 * (the setting is then unchanged). */
int bb_set_prefetch_hint(int hint);
/* "none", "l1", "l2" or "l3" for a bb_prefetch_level; NULL for anything else. */
const char* bb_prefetch_hint_name(int hint);
/* NULL, or why BLOCKBLOOM_PREFETCH_DISTANCE / BLOCKBLOOM_PREFETCH_HINT was
 * refused when the library loaded (a static string). */
const char* bb_prefetch_override_refused(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_KERNELS_H_ */
