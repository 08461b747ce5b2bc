// SPDX-License-Identifier: Apache-2.0
// One tier's kernel table, built from its block operation. No include guard
// on purpose: each tier includes this inside its own namespace, after defining
//   uint32_t FindInBlock(const uint8_t* block, uint32_t key);   // 0 or 1
//   void InsertIntoBlock(uint8_t* block, uint32_t key);
// with what src/kernels/batch_loops-inl.h needs, and one function per tier row of
// src/core/kernel_table.h (BBI_TIER_KERNEL_ROWS: the combines, MaxU32 and the
// hashes, each named as its row says and doing what the row promises). So the
// loops inline that tier's block operation and, inside a Highway target
// namespace, compile with that target's instruction set. The layouts (which
// block, which key) come from src/core/block_op.h, shared by all tiers. Needs
// <cstddef>, <cstdint>, <type_traits>, src/core/kernel_table.h, src/core/block_op.h
// and src/kernels/prefetch.h.

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
// functions the tier defined above. Each entry is set by its field's name and
// each row's names are checked, so no entry can land in another's field.
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
