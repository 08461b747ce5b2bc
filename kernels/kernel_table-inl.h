// One tier's kernel table, built from its block operation. No include guard
// on purpose: each tier includes this inside its own namespace, after defining
//   uint32_t FindInBlock(const uint8_t* block, uint32_t key);   // 0 or 1
//   void InsertIntoBlock(uint8_t* block, uint32_t key);
//   void UnionBytes(uint8_t* dst, const uint8_t* src, size_t num_bytes);      // dst |= src
//   void IntersectBytes(uint8_t* dst, const uint8_t* src, size_t num_bytes);  // dst &= src
// so the loops below inline that tier's block operation and, inside a Highway
// target namespace, compile with that target's instruction set. The layouts
// (which block, which key) come from kernels/block_op.h, shared by all tiers.
// Needs <cstddef>, <cstdint>, blockbloom/kernels.h, kernels/block_op.h and
// kernels/prefetch.h.

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

// Hands out the blocks of hashes[0 .. n) in order. A filter larger than the
// caches would stall on one DRAM miss per key, so for those (kPrefetch) the
// block of the hash `distance` positions ahead is prefetched as each block is
// handed out: that keeps about `distance` misses in flight. Small filters
// take the plain stream: there a prefetch would only cost instructions.
template <class Layout, bool kPrefetch, int kForWrite = 0>
class BlockStream {
 public:
  BlockStream(const uint8_t* blocks, uint32_t num_blocks, const typename Layout::Hash* hashes,
              size_t n, size_t distance)
      : blocks_(blocks), num_blocks_(num_blocks), hashes_(hashes), distance_(distance),
        prefetch_end_(n > distance ? n - distance : 0) {}

  const uint8_t* Block(size_t i) const {
    if (kPrefetch && i < prefetch_end_) {
      __builtin_prefetch(BlockOf(hashes_[i + distance_]), kForWrite, 3);
    }
    return BlockOf(hashes_[i]);
  }

 private:
  const uint8_t* BlockOf(typename Layout::Hash hash) const {
    return blocks_ + kBlockBytes * Layout::Block(hash, num_blocks_);
  }

  const uint8_t* blocks_;
  uint32_t num_blocks_;
  const typename Layout::Hash* hashes_;
  size_t distance_;
  size_t prefetch_end_;
};

// Runs body(stream) with the stream that suits the filter's size.
template <class Layout, int kForWrite, class Body>
inline auto WithBlockStream(const uint8_t* blocks, uint32_t num_blocks,
                            const typename Layout::Hash* hashes, size_t n, Body&& body) {
  const size_t distance = PrefetchDistanceFor(size_t{num_blocks} * kBlockBytes);
  if (distance == 0) {
    return body(BlockStream<Layout, false, kForWrite>(blocks, num_blocks, hashes, n, 0));
  }
  return body(BlockStream<Layout, true, kForWrite>(blocks, num_blocks, hashes, n, distance));
}

template <class Layout>
void InsertBatch(uint8_t* blocks, uint32_t num_blocks, const typename Layout::Hash* hashes,
                 size_t n) {
  WithBlockStream<Layout, 1>(blocks, num_blocks, hashes, n, [&](const auto& stream) {
    for (size_t i = 0; i < n; ++i) {
      InsertIntoBlock(const_cast<uint8_t*>(stream.Block(i)), Layout::Key(hashes[i]));
    }
    return 0;
  });
}

// Inserts only the hashes whose block lies in [first_block, end_block), so
// threads given disjoint ranges can fill one filter together without
// atomics. Every hash is still visited (its block must be computed to know
// whose it is); one outside the range is written to a scratch block instead
// of branching on it, since with k threads the test fails k-1 times in k at
// random and a mispredicted branch costs more than a store to L1.
template <class Layout>
void InsertBatchRange(uint8_t* blocks, uint32_t num_blocks, const typename Layout::Hash* hashes,
                      size_t n, uint32_t first_block, uint32_t end_block) {
  alignas(32) uint8_t scratch[kBlockBytes] = {};
  // Only about range/num_blocks of the hashes are this call's: look that much
  // further ahead to keep as many of its own misses in flight.
  const uint32_t range = end_block - first_block;
  size_t distance = PrefetchDistanceFor(size_t{num_blocks} * kBlockBytes);
  if (range != 0) distance = std::min<size_t>(distance * num_blocks / range, 16 * distance);
  const auto target = [&](size_t i) {
    const uint32_t b = Layout::Block(hashes[i], num_blocks);
    const bool mine = b - first_block < end_block - first_block;  // unsigned range test
    return mine ? blocks + kBlockBytes * b : scratch;
  };
  for (size_t i = 0; i < n; ++i) {
    if (distance != 0 && i + distance < n) __builtin_prefetch(target(i + distance), 1, 3);
    InsertIntoBlock(target(i), Layout::Key(hashes[i]));
  }
}

// Branch-free: absent keys are the common case in a selective join, and a
// mispredicted early exit costs more than the work it would skip.
template <class Layout>
size_t FindBatchBitmap(const uint8_t* blocks, uint32_t num_blocks,
                       const typename Layout::Hash* hashes, size_t n, uint8_t* bitmap) {
  return WithBlockStream<Layout, 0>(blocks, num_blocks, hashes, n, [&](const auto& stream) {
    size_t hits = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {  // whole bytes: a fixed trip count the compiler unrolls
      uint32_t byte = 0;
      for (size_t j = 0; j < 8; ++j) {
        byte |= FindInBlock(stream.Block(i + j), Layout::Key(hashes[i + j])) << j;
      }
      bitmap[i / 8] = static_cast<uint8_t>(byte);
      hits += static_cast<size_t>(__builtin_popcount(byte));
    }
    if (i < n) {
      uint32_t byte = 0;
      for (size_t j = 0; i + j < n; ++j) {
        byte |= FindInBlock(stream.Block(i + j), Layout::Key(hashes[i + j])) << j;
      }
      bitmap[i / 8] = static_cast<uint8_t>(byte);
      hits += static_cast<size_t>(__builtin_popcount(byte));
    }
    return hits;
  });
}

// Writes every index and advances the cursor only on a hit: no branch, and
// selection has room for n entries, so the speculative store stays in bounds.
template <class Layout>
size_t FindBatchSelect(const uint8_t* blocks, uint32_t num_blocks,
                       const typename Layout::Hash* hashes, size_t n, uint32_t* selection) {
  return WithBlockStream<Layout, 0>(blocks, num_blocks, hashes, n, [&](const auto& stream) {
    size_t hits = 0;
    for (size_t i = 0; i < n; ++i) {
      selection[hits] = static_cast<uint32_t>(i);
      hits += FindInBlock(stream.Block(i), Layout::Key(hashes[i]));
    }
    return hits;
  });
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
      &InsertBatchRange<ParquetLayout>,
      &InsertBatchRange<KuduLayout>,
      &UnionBytes,
      &IntersectBytes,
  };
}
