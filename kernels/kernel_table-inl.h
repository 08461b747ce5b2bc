// SPDX-License-Identifier: Apache-2.0
// One tier's kernel table, built from its block operation. No include guard
// on purpose: each tier includes this inside its own namespace, after defining
//   uint32_t FindInBlock(const uint8_t* block, uint32_t key);   // 0 or 1
//   void UnionBytes(uint8_t* dst, const uint8_t* src, size_t num_bytes);      // dst |= src
//   void IntersectBytes(uint8_t* dst, const uint8_t* src, size_t num_bytes);  // dst &= src
//   uint32_t MaxU32(const uint32_t* values, size_t n);  // the largest, n >= 1
// and what kernels/batch_loops-inl.h needs, so the loops inline that tier's
// block operation and, inside a Highway target namespace, compile with that
// target's instruction set. The layouts (which block, which key) come from
// kernels/block_op.h, shared by all tiers. Needs <cstddef>, <cstdint>,
// <type_traits>, kernels/kernel_table.h (bbi_kernel_table), kernels/block_op.h
// and kernels/prefetch.h.

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

#include "kernels/batch_loops-inl.h"

inline constexpr bbi_kernel_table MakeKernelTable(const char* isa) {
  return bbi_kernel_table{
      isa,
      &Insert<ParquetLayout>,
      &Find<ParquetLayout>,
      &InsertBatch<ParquetLayout>,
      &FindBatchBitmap<ParquetLayout>,
      &FindBatchSelect<ParquetLayout>,
      &FindBatchSelectFrom<ParquetLayout>,
      &FindBatchBitmapAnd<ParquetLayout>,
      &Insert<KuduLayout>,
      &Find<KuduLayout>,
      &InsertBatch<KuduLayout>,
      &FindBatchBitmap<KuduLayout>,
      &FindBatchSelect<KuduLayout>,
      &FindBatchSelectFrom<KuduLayout>,
      &FindBatchBitmapAnd<KuduLayout>,
      &InsertBatchRange<ParquetLayout>,
      &InsertBatchRange<KuduLayout>,
      &PartitionHashes<ParquetLayout>,
      &PartitionHashes<KuduLayout>,
      &BuildFromHashes<ParquetLayout>,
      &BuildFromHashes<KuduLayout>,
      &UnionBytes,
      &IntersectBytes,
      &MaxU32,
      &ParquetHash8Byte,
      &ParquetHash4Byte,
      &ParquetHash16Byte,
      &ParquetHashByteArray32,
      &ParquetHashByteArray64,
      &KuduHashByteArray32,
      &KuduHashByteArray64,
      &OffsetsOrdered32,
      &OffsetsOrdered64,
  };
}
