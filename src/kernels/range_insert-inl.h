// SPDX-License-Identifier: Apache-2.0
// The batch insert of one block range (insert_batch_range): the keys whose
// block lies in the range, compacted through a ring. Needs
// src/kernels/insert_loops-inl.h.
// No include guard on purpose: src/kernels/batch_loops-inl.h includes it inside each
// tier's namespace, so it compiles with what that tier provides (the tier
// contract: src/kernels/kernel_table-inl.h) and, inside a Highway target
// namespace, with that target's instructions.

// Inserts only the hashes whose block lies in [first_block, end_block), so
// threads given disjoint ranges can fill one filter together without
// atomics. Every hash is still visited (its block must be computed to know
// whose it is), in a branch-free compaction: each key's offset and key go to
// the next free slot of a ring and the write cursor advances only when the
// block is in range (with k threads the test fails k-1 times in k at random,
// so a branch would mispredict). Own keys are prefetched as they enter the
// ring and inserted `distance` own keys later, a few dozen keys at a time,
// so the prefetches keep flowing while the others are skipped. Measured
// (docs/benchmarks.md) against: writing the others to a scratch block (it
// chains them all through that block's load-or-store: several times slower
// with two threads), compacting a whole chunk before inserting it (the
// misses in flight drain meanwhile) and compacting with Highway's Compress
// (slower than this scalar loop).
inline constexpr size_t kRangeGroup = 32;   // keys compacted between insert runs
inline constexpr size_t kRangeRing = 1024;  // > kMaxPrefetchDistance + kRangeGroup, a power of two
static_assert(kRangeRing > kMaxPrefetchDistance + kRangeGroup, "the ring must hold the look-ahead");
static_assert((kRangeRing & (kRangeRing - 1)) == 0, "ring positions wrap with a mask");

// a if take, else b, with masks: GCC compiles the ?: of two pointers into a
// branch here, which mispredicts half the time with two threads.
inline const uint8_t* SelectWithoutBranch(bool take, const uint8_t* a, const uint8_t* b) {
  const uintptr_t mask = uintptr_t{0} - static_cast<uintptr_t>(take);
  return reinterpret_cast<const uint8_t*>((reinterpret_cast<uintptr_t>(a) & mask) |
                                          (reinterpret_cast<uintptr_t>(b) & ~mask));
}

template <class Layout>
void InsertBatchRange(uint8_t* blocks, uint32_t num_blocks, const typename Layout::Hash* hashes,
                      size_t n, uint32_t first_block, uint32_t end_block) {
  if (first_block == 0 && end_block == num_blocks) {  // every key is this call's (one part)
    InsertBatch<Layout>(blocks, num_blocks, hashes, n);
    return;
  }
  const uint64_t first = uint64_t{first_block} * kBlockBytes;
  const uint64_t range = uint64_t{end_block - first_block} * kBlockBytes;
  WithPrefetchPlan(num_blocks, [&](auto hint, size_t distance) {
    constexpr int kHint = decltype(hint)::value;
    alignas(32) uint8_t spare[kBlockBytes];  // what the others "prefetch": never read or written
    uint64_t offsets[kChunk];
    struct OwnKey {
      uint64_t offset;
      uint64_t key;
    };
    OwnKey ring[kRangeRing];
    size_t written = 0, inserted = 0;  // ring cursors, taken modulo kRangeRing
    const auto insert_next = [&] {
      const OwnKey& k = ring[inserted++ % kRangeRing];
      InsertIntoBlock(blocks + k.offset, static_cast<uint32_t>(k.key));
    };
    for (size_t start = 0; start < n; start += kChunk) {
      const size_t len = n - start < kChunk ? n - start : kChunk;
      BlockOffsets(hashes + start, len, num_blocks, offsets);
      for (size_t group = 0; group < len; group += kRangeGroup) {
        const size_t end = len - group < kRangeGroup ? len : group + kRangeGroup;
        for (size_t i = group; i < end; ++i) {
          const uint64_t offset = offsets[i];
          const bool own = offset - first < range;  // an unsigned range test
          ring[written % kRangeRing] = OwnKey{offset, Layout::Key(hashes[start + i])};
          if constexpr (kHint != BB_PREFETCH_NONE) {
            PrefetchBlock<kHint>(SelectWithoutBranch(own, blocks + offset, spare));
          }
          written += static_cast<size_t>(own);
        }
        while (written - inserted > distance) insert_next();
      }
    }
    while (inserted < written) insert_next();
    return 0;
  });
}
