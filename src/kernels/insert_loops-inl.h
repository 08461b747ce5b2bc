// SPDX-License-Identifier: Apache-2.0
// The batch insert: every key of a batch into its block, a chunk at a time.
// Needs src/kernels/chunk_loop-inl.h.
// No include guard on purpose: src/kernels/batch_loops-inl.h includes it inside each
// tier's namespace, so it compiles with what that tier provides (the tier
// contract: src/kernels/kernel_table-inl.h) and, inside a Highway target
// namespace, with that target's instructions.

// The insert loops' unrolling, a tier's choice (BLOCKBLOOM_INSERT_UNROLL_COUNT).
#define BLOCKBLOOM_PRAGMA(text) _Pragma(#text)
#define BLOCKBLOOM_UNROLL(count) BLOCKBLOOM_PRAGMA(GCC unroll count)
#undef BLOCKBLOOM_INSERT_UNROLL
#define BLOCKBLOOM_INSERT_UNROLL BLOCKBLOOM_UNROLL(BLOCKBLOOM_INSERT_UNROLL_COUNT)

// The insert loop with a given prefetch hint and distance.
template <class Layout, int kHint>
void InsertBatchWith(uint8_t* blocks, uint32_t num_blocks, const typename Layout::Hash* hashes,
                     size_t n, size_t distance) {
  // Unrolled: the loop's own three instructions were a quarter of a key's.
  ForEachChunk<Layout, kHint>(blocks, num_blocks, hashes, n, distance, [=](const auto& c) {
    const size_t prefix = PrefetchingPrefix<kHint>(c, distance, 1);
    size_t i = 0;
BLOCKBLOOM_INSERT_UNROLL
    for (; i < prefix; ++i) {
      PrefetchBlock<kHint>(c.AheadBlock(i + distance));
      InsertIntoBlock(const_cast<uint8_t*>(c.Block(i)), c.Key(i));
    }
BLOCKBLOOM_INSERT_UNROLL
    for (; i < c.len; ++i) InsertIntoBlock(const_cast<uint8_t*>(c.Block(i)), c.Key(i));
  });
}

template <class Layout>
void InsertBatch(uint8_t* blocks, uint32_t num_blocks, const typename Layout::Hash* hashes,
                 size_t n) {
  WithPrefetchPlan(num_blocks, [&](auto hint, size_t distance) {
    InsertBatchWith<Layout, decltype(hint)::value>(blocks, num_blocks, hashes, n, distance);
    return 0;
  });
}
