// SPDX-License-Identifier: Apache-2.0
// One tier's kernel table, built from its block operation. No include guard
// on purpose: each tier includes this inside its own namespace (a Highway
// tier inside each target's), so the loops inline that tier's block operation
// and compile with that target's instruction set. The layouts (which block,
// which key) come from src/core/block_op.h, shared by all tiers. Needs
// <cstddef>, <cstdint>, <cstring>, <type_traits>, src/core/kernel_table.h,
// src/core/block_op.h and src/kernels/prefetch.h.
//
// ---------------------------------------------------------- the tier contract
// Everything a tier defines before it includes this file; the one list
// (src/kernels/scalar/scalar_kernels.cc is the reference,
// src/kernels/simd/block_kernels-inl.h the Highway one). A name left out does not compile.
//
// 1. The block operation:
//   uint32_t FindInBlock(const uint8_t* block, uint32_t key);  // 0 or 1
//   void InsertIntoBlock(uint8_t* block, uint32_t key);
//
// 2. What the batch loops (src/kernels/batch_loops-inl.h) build on:
//   constexpr bool kFindSetsCarry;  // whether the tier has a one-instruction ShiftInFind:
//   uint32_t ShiftInFind(uint32_t acc, const uint8_t* block, uint32_t key);  // acc * 2 + find
//     // (only where kFindSetsCarry; FindByte uses FindInBlock otherwise)
//   constexpr bool kOffsetsInline;  // without prefetching, the per-key loop computes
//     // each block offset itself (it is bound by vector instructions): kUseOffsetArray
//   #define BLOCKBLOOM_INSERT_UNROLL_COUNT  // how far the insert loops unroll
//   size_t AppendHitIndices8(uint32_t* out, uint32_t first, uint32_t byte);
//     // writes first + j for each set bit j of byte, in order, to out[0 ..
//     // popcount); may write (garbage) up to out[7]; returns the popcount
//   size_t AppendHitRows8(uint32_t* out, const uint32_t* rows, uint32_t byte);
//     // the same with rows[j] for first + j (rows: 8 entries)
//   void BlockOffsets(const uint64_t* hashes, size_t n, uint32_t num_blocks, uint64_t* out);
//   void BlockOffsets(const uint32_t* hashes, size_t n, uint32_t num_blocks, uint64_t* out);
//     // out[i] = 32 * Layout::Block(hashes[i], num_blocks), for the Parquet
//     // (64-bit hashes) and Kudu (32-bit) layouts
//   size_t CountInRange(const uint64_t* offsets, size_t n, uint64_t first, uint64_t end);
//     // how many of offsets[0 .. n) lie in [first, end)
//   size_t CompressInRange(const Hash* hashes, const uint64_t* offsets, size_t n,
//                          uint64_t first, uint64_t end, Hash* out, Hash* out_end);
//     // (Hash uint64_t and uint32_t) writes the hashes[i] whose offsets[i] lie in
//     // [first, end), in order, to out[0 .. count) and returns count; may write
//     // (garbage) past out + count, never at or past out_end (count <= out_end - out)
//   void PartsOfOffsets(const PartLocator& locate, const uint64_t* offsets, size_t n,
//                       uint32_t* parts);  // parts[i] = locate.Part(offsets[i] / 32)
//   void StreamLine(void* dst, const void* src);  // 64 bytes to dst (64-byte aligned),
//     // past the caches where the tier can
//   void EndStreams();  // orders the streamed lines before later stores
//
// 3. One function per row of BBI_TIER_KERNEL_ROWS (src/core/kernel_table.h:
//    signatures and what each promises), named as its row's Kernel column:
//   UnionBytes, IntersectBytes               the combines
//   MaxU32                                   the API's check of an input selection
//   ParquetHash8Byte, ParquetHash4Byte, ParquetHash16Byte,
//   ParquetHashByteArray32, ParquetHashByteArray64   Parquet's XXH64 hashes
//   KuduHashByteArray32, KuduHashByteArray64         Kudu's FastHash of byte arrays
//   OffsetsOrdered32, OffsetsOrdered64       the byte-array offsets' check
//
// The layout rows (BBI_LAYOUT_KERNEL_ROWS: Insert, Find, InsertBatch,
// FindBatchBitmap, FindBatchSelect, FindBatchSelectFrom, FindBatchBitmapAnd,
// InsertBatchRange, PartitionHashes, BuildFromHashes) are not the tier's to
// write: this file and src/kernels/batch_loops-inl.h instantiate them for both
// layouts from the above.
// ----------------------------------------------------------------------------

template <class Layout>
inline uint32_t FindHash(const uint8_t* blocks, uint32_t num_blocks, typename Layout::Hash hash) {
  return FindInBlock(blocks + kBlockBytes * Layout::Block(hash, num_blocks), Layout::Key(hash));
}

template <class Layout>
inline void InsertHash(uint8_t* blocks, uint32_t num_blocks, typename Layout::Hash hash) {
  InsertIntoBlock(blocks + kBlockBytes * Layout::Block(hash, num_blocks), Layout::Key(hash));
}

template <class Layout>
int Find(const uint8_t* blocks, uint32_t num_blocks, typename Layout::Hash hash) {
  return static_cast<int>(FindHash<Layout>(blocks, num_blocks, hash));
}

template <class Layout>
void Insert(uint8_t* blocks, uint32_t num_blocks, typename Layout::Hash hash) {
  InsertHash<Layout>(blocks, num_blocks, hash);
}

#include "src/kernels/batch_loops-inl.h"

// The tier's table, filled from the rows of src/core/kernel_table.h: the
// layout rows with this tier's instances of the loops, the tier rows with the
// functions the tier defined (the contract above, part 3). Each entry is set
// by its field's name and each row's names are checked, so no entry can land
// in another's field.
inline constexpr bbi_kernel_table MakeKernelTable(const char* isa) {
  bbi_kernel_table table{};
  table.isa = isa;
#define BBI_SET_LAYOUT_KERNEL(P, name, Kernel, L, Ret, Params)                        \
  static_assert(RowNamesMatch(#name, #Kernel), "the row of " #name " names " #Kernel); \
  table.P##name = &Kernel<L>;
#define BBI_SET_TIER_KERNEL(name, Kernel, Ret, Params)                                 \
  static_assert(RowNamesMatch(#name, #Kernel), "the row of " #name " names " #Kernel); \
  table.name = &Kernel;
  BBI_PARQUET_KERNEL_ROWS(BBI_SET_LAYOUT_KERNEL)
  BBI_KUDU_KERNEL_ROWS(BBI_SET_LAYOUT_KERNEL)
  BBI_TIER_KERNEL_ROWS(BBI_SET_TIER_KERNEL)
#undef BBI_SET_LAYOUT_KERNEL
#undef BBI_SET_TIER_KERNEL
  return table;
}
