// One tier's kernel table, built from its block operation. No include guard
// on purpose: each tier includes this inside its own namespace, after defining
//   uint32_t FindInBlock(const uint8_t* block, uint32_t key);   // 0 or 1
//   void InsertIntoBlock(uint8_t* block, uint32_t key);
//   void UnionBytes(uint8_t* dst, const uint8_t* src, size_t num_bytes);      // dst |= src
//   void IntersectBytes(uint8_t* dst, const uint8_t* src, size_t num_bytes);  // dst &= src
// so the loops below inline that tier's block operation and, inside a Highway
// target namespace, compile with that target's instruction set. The layouts
// (which block, which key) come from kernels/block_op.h, shared by all tiers.
// Needs <cstddef>, <cstdint>, blockbloom/kernels.h and kernels/block_op.h.

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

template <class Layout>
void InsertBatch(uint8_t* blocks, uint32_t num_blocks, const typename Layout::Hash* hashes,
                 size_t n) {
  for (size_t i = 0; i < n; ++i) InsertHash<Layout>(blocks, num_blocks, hashes[i]);
}

// Branch-free: absent keys are the common case in a selective join, and a
// mispredicted early exit costs more than the work it would skip.
template <class Layout>
size_t FindBatchBitmap(const uint8_t* blocks, uint32_t num_blocks,
                       const typename Layout::Hash* hashes, size_t n, uint8_t* bitmap) {
  size_t hits = 0;
  for (size_t i = 0; i < n; i += 8) {
    const size_t count = n - i < 8 ? n - i : 8;
    uint32_t byte = 0;
    for (size_t j = 0; j < count; ++j) {
      byte |= FindHash<Layout>(blocks, num_blocks, hashes[i + j]) << j;
    }
    bitmap[i / 8] = static_cast<uint8_t>(byte);
    hits += static_cast<size_t>(__builtin_popcount(byte));
  }
  return hits;
}

// Writes every index and advances the cursor only on a hit: no branch, and
// selection has room for n entries, so the speculative store stays in bounds.
template <class Layout>
size_t FindBatchSelect(const uint8_t* blocks, uint32_t num_blocks,
                       const typename Layout::Hash* hashes, size_t n, uint32_t* selection) {
  size_t hits = 0;
  for (size_t i = 0; i < n; ++i) {
    selection[hits] = static_cast<uint32_t>(i);
    hits += FindHash<Layout>(blocks, num_blocks, hashes[i]);
  }
  return hits;
}

inline constexpr bb_kernel_table MakeKernelTable(const char* isa) {
  return bb_kernel_table{
      isa,
      &Insert<ParquetLayout>,
      &Find<ParquetLayout>,
      &InsertBatch<ParquetLayout>,
      &FindBatchBitmap<ParquetLayout>,
      &FindBatchSelect<ParquetLayout>,
      &Insert<KuduLayout>,
      &Find<KuduLayout>,
      &InsertBatch<KuduLayout>,
      &FindBatchBitmap<KuduLayout>,
      &FindBatchSelect<KuduLayout>,
      &UnionBytes,
      &IntersectBytes,
  };
}
