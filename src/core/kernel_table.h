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
#ifndef BLOCKBLOOM_CORE_KERNEL_TABLE_H_
#define BLOCKBLOOM_CORE_KERNEL_TABLE_H_

#include "blockbloom/blockbloom.h"
#include "blockbloom/tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most ranges a build_from_hashes call partitions into. */
#define BBI_BUILD_MAX_PARTS 512u

/* The table's rows: one per entry, each naming the field, the kernel that
 * fills it and the kernel's signature. The struct below, every tier's
 * initialiser (src/kernels/kernel_table-inl.h, which checks that a row's field
 * and kernel spell the same words, so a row cannot pair a field with another
 * entry's kernel) and the API's per-layout accessors (LayoutKernels,
 * src/filter/layout_ops.h) are all generated from these rows, so adding an
 * entry is adding a row. */

/* Kernels a tier instantiates for each layout from src/kernels/batch_loops-inl.h
 * (row: X(P, name, Kernel, L, return type, parameters)). P prefixes the field
 * (empty for Parquet, kudu_ for Kudu), H is the layout's hash type and L its
 * layout (src/core/block_op.h); the field P##name holds &Kernel<L>. */
#define BBI_LAYOUT_KERNEL_ROWS(X, P, H, L)                                                          \
  X(P, insert, Insert, L, void, (uint8_t* blocks, uint32_t num_blocks, H hash))                     \
  /* 1 if hash may be present, 0 if it is absent. */                                                \
  X(P, find, Find, L, int, (const uint8_t* blocks, uint32_t num_blocks, H hash))                    \
  X(P, insert_batch, InsertBatch, L, void,                                                          \
    (uint8_t* blocks, uint32_t num_blocks, const H* hashes, size_t n))                              \
  /* Bit i of bitmap = find(hashes[i]), every byte of (n + 7) / 8 written,                          \
   * the unused high bits 0; returns the set bits. */                                               \
  X(P, find_batch_bitmap, FindBatchBitmap, L, size_t,                                               \
    (const uint8_t* blocks, uint32_t num_blocks, const H* hashes, size_t n, uint8_t* bitmap))       \
  /* The indices i that may be present, in order, to selection[0 .. return                          \
   * value). */                                                                                     \
  X(P, find_batch_select, FindBatchSelect, L, size_t,                                               \
    (const uint8_t* blocks, uint32_t num_blocks, const H* hashes, size_t n, uint32_t* selection))   \
  /* Pipeline probes. select_from tests hashes[sel_in[k]] for k < m (every                          \
   * sel_in[k] indexes hashes) and writes the sel_in[k] that may be present,                        \
   * in order, to sel_out[0 .. return value); sel_out has room for m entries                        \
   * and is either sel_in itself (compacted in place) or does not overlap it.                       \
   * bitmap_and clears bit i (i < n) of the bitmap where hashes[i] is absent,                       \
   * never probing a row whose bitmap byte is 0; bits at and past n stay as                         \
   * they were; returns the set bits below n afterwards. */                                         \
  X(P, find_batch_select_from, FindBatchSelectFrom, L, size_t,                                      \
    (const uint8_t* blocks, uint32_t num_blocks, const H* hashes, const uint32_t* sel_in, size_t m, \
     uint32_t* sel_out))                                                                            \
  X(P, find_batch_bitmap_and, FindBatchBitmapAnd, L, size_t,                                        \
    (const uint8_t* blocks, uint32_t num_blocks, const H* hashes, size_t n, uint8_t* bitmap))       \
  /* Inserts only the hashes whose block lies in [first_block, end_block):                          \
   * calls with disjoint ranges may run concurrently on one filter. */                              \
  X(P, insert_batch_range, InsertBatchRange, L, void,                                               \
    (uint8_t* blocks, uint32_t num_blocks, const H* hashes, size_t n, uint32_t first_block,         \
     uint32_t end_block))                                                                           \
  /* The radix partition of a build: the n hashes grouped by the part of the                        \
   * blocks (num_parts equal ranges, 1 <= num_parts <= num_blocks) their                            \
   * block lies in, part 0 first, each part's hashes in input order, to out                         \
   * (room for n, not overlapping hashes); counts[p] = part p's hashes. */                          \
  X(P, partition_hashes, PartitionHashes, L, void,                                                  \
    (uint32_t num_blocks, const H* hashes, size_t n, uint32_t num_parts, H* out, size_t* counts))   \
  /* Whole builds: inserts the n hashes as insert_batch does, byte for byte,                        \
   * by putting them in num_parts block ranges' buckets in scratch (1 <=                            \
   * num_parts <= min(num_blocks, BBI_BUILD_MAX_PARTS); room for n, not                             \
   * overlapping hashes) and inserting range by range. Only the keys of                             \
   * ranges [first_part, end_part) are inserted ([0, num_parts): all):                              \
   * calls for disjoint runs write disjoint blocks and scratch, so threads                          \
   * may share the filter and the scratch. */                                                       \
  X(P, build_from_hashes, BuildFromHashes, L, void,                                                 \
    (uint8_t* blocks, uint32_t num_blocks, const H* hashes, size_t n, H* scratch,                   \
     uint32_t num_parts, uint32_t first_part, uint32_t end_part))

#define BBI_PARQUET_KERNEL_ROWS(X) BBI_LAYOUT_KERNEL_ROWS(X, , uint64_t, ParquetLayout)
#define BBI_KUDU_KERNEL_ROWS(X) BBI_LAYOUT_KERNEL_ROWS(X, kudu_, uint32_t, KuduLayout)

/* Kernels each tier defines itself, under the name Kernel, before it
 * includes src/kernels/kernel_table-inl.h (row: X(name, Kernel, return type,
 * parameters)). What else a tier defines (its block operation and what the
 * batch loops build on) is listed with these, once, in the tier contract at
 * the top of src/kernels/kernel_table-inl.h. */
#define BBI_TIER_KERNEL_ROWS(X)                                                                     \
  /* Either layout: dst |= src and dst &= src over num_bytes (a multiple of 32). */                 \
  X(union_bytes, UnionBytes, void, (uint8_t* dst, const uint8_t* src, size_t num_bytes))            \
  X(intersect_bytes, IntersectBytes, void, (uint8_t* dst, const uint8_t* src, size_t num_bytes))    \
  /* The largest of values[0 .. n), n >= 1: the API's range check of an input                       \
   * selection, run before anything is written. */                                                  \
  X(max_u32, MaxU32, uint32_t, (const uint32_t* values, size_t n))                                  \
  /* Parquet hashing: hashes[i] = XXH64, seed 0, of the 8 (or 4) little-endian                      \
   * bytes of value i of values (int64/double, or int32/float, at any                               \
   * alignment): the hash Parquet takes of a plain-encoded INT64/DOUBLE (or                         \
   * INT32/FLOAT). Equal to libxxhash's XXH64 on every tier. */                                     \
  X(parquet_hash_8byte, ParquetHash8Byte, void, (const void* values, size_t n, uint64_t* hashes))   \
  X(parquet_hash_4byte, ParquetHash4Byte, void, (const void* values, size_t n, uint64_t* hashes))   \
  /* hashes[i] = XXH64, seed 0, of the 16 bytes of value i as two native                            \
   * 64-bit words in little-endian order: on a little-endian host, of the 16                        \
   * bytes as they lie (a FIXED_LEN_BYTE_ARRAY(16)). */                                             \
  X(parquet_hash_16byte, ParquetHash16Byte, void, (const void* values, size_t n, uint64_t* hashes)) \
  /* Byte arrays (BYTE_ARRAY / LARGE_BYTE_ARRAY): hashes[i] = XXH64, seed 0,                        \
   * of data[offsets[i] .. offsets[i + 1]) for i < n. offsets holds n + 1                           \
   * int32 (..._32) or int64 (..._64) offsets in the host's order at any                            \
   * alignment, non-decreasing and each <= data_len; data_len bytes at data                         \
   * are readable, and no byte past them is read (data may be NULL when                             \
   * data_len is 0). Equal to libxxhash's XXH64 on every tier. */                                   \
  X(parquet_hash_byte_array32, ParquetHashByteArray32, void,                                        \
    (const uint8_t* data, size_t data_len, const void* offsets, size_t n, uint64_t* hashes))        \
  X(parquet_hash_byte_array64, ParquetHashByteArray64, void,                                        \
    (const uint8_t* data, size_t data_len, const void* offsets, size_t n, uint64_t* hashes))        \
  /* Kudu's hash of the same byte arrays: hashes[i] = FastHash32 with seed                          \
   * of each cell, an empty cell by Kudu's empty rule (the 4 bytes of                               \
   * 0x7dca7eee: bb_kudu_fasthash32); offsets and data as above. */                                 \
  X(kudu_hash_byte_array32, KuduHashByteArray32, void,                                              \
    (const uint8_t* data, size_t data_len, const void* offsets, size_t n, uint32_t seed,            \
     uint32_t* hashes))                                                                             \
  X(kudu_hash_byte_array64, KuduHashByteArray64, void,                                              \
    (const uint8_t* data, size_t data_len, const void* offsets, size_t n, uint32_t seed,            \
     uint32_t* hashes))                                                                             \
  /* 1 iff the n + 1 offsets (int32 / int64 in the host's order, any                                \
   * alignment) never decrease, compared as signed integers; else 0. */                             \
  X(offsets_ordered32, OffsetsOrdered32, int, (const void* offsets, size_t n))                      \
  X(offsets_ordered64, OffsetsOrdered64, int, (const void* offsets, size_t n))

#define BBI_LAYOUT_KERNEL_FIELD(P, name, Kernel, L, Ret, Params) Ret(*P##name) Params;
#define BBI_TIER_KERNEL_FIELD(name, Kernel, Ret, Params) Ret(*name) Params;

typedef struct bbi_kernel_table {
  const char* isa; /* one of the registry's names (src/core/isa.h) */
  BBI_PARQUET_KERNEL_ROWS(BBI_LAYOUT_KERNEL_FIELD)
  BBI_KUDU_KERNEL_ROWS(BBI_LAYOUT_KERNEL_FIELD)
  BBI_TIER_KERNEL_ROWS(BBI_TIER_KERNEL_FIELD)
} bbi_kernel_table;

#undef BBI_LAYOUT_KERNEL_FIELD
#undef BBI_TIER_KERNEL_FIELD

/* The table of one named ISA. BB_ERR_UNKNOWN_ISA, BB_ERR_ISA_NOT_COMPILED or
 * BB_ERR_ISA_UNSUPPORTED (the CPU lacks it: calling it could fault) leave
 * *table NULL. */
int bbi_kernels_for_isa(const char* name, const bbi_kernel_table** table);

#ifdef __cplusplus
} /* extern "C" */

namespace blockbloom::internal {

// Whether a row's field (snake_case) and kernel (CamelCase) spell the same
// words: equal letters and digits, case and underscores aside. Every tier's
// initialiser static_asserts it per row, so a row that pairs a field with
// another entry's kernel (find_batch_bitmap with FindBatchBitmapAnd) does
// not compile.
constexpr char RowNameLower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr bool RowNamesMatch(const char* field, const char* kernel) {
  while (true) {
    while (*field == '_') ++field;
    if (*field == '\0' || *kernel == '\0') return *field == *kernel;
    if (RowNameLower(*field) != RowNameLower(*kernel)) return false;
    ++field;
    ++kernel;
  }
}

#define BBI_COUNT_LAYOUT_ROW(P, name, Kernel, L, Ret, Params) +1
#define BBI_COUNT_TIER_ROW(name, Kernel, Ret, Params) +1
inline constexpr size_t kKernelTableRows = 0 BBI_PARQUET_KERNEL_ROWS(BBI_COUNT_LAYOUT_ROW)
    BBI_KUDU_KERNEL_ROWS(BBI_COUNT_LAYOUT_ROW) BBI_TIER_KERNEL_ROWS(BBI_COUNT_TIER_ROW);
#undef BBI_COUNT_LAYOUT_ROW
#undef BBI_COUNT_TIER_ROW

// A field written into the struct by hand, outside the rows, would be left
// NULL by every initialiser.
static_assert(sizeof(bbi_kernel_table) == sizeof(const char*) + kKernelTableRows * sizeof(void (*)()),
              "bbi_kernel_table has a field outside the rows");

}  // namespace blockbloom::internal
#endif

#endif /* BLOCKBLOOM_CORE_KERNEL_TABLE_H_ */
