// SPDX-License-Identifier: Apache-2.0
// The chunk machinery every batch loop is built on: the prefetch plan, the
// chunk (its keys, their block offsets) and the loops over a batch's chunks.
// No include guard on purpose: src/kernels/batch_loops-inl.h includes it inside each
// tier's namespace, so it compiles with what that tier provides (the tier
// contract: src/kernels/kernel_table-inl.h) and, inside a Highway target
// namespace, with that target's instructions.
//
// Every batch call works through its hashes a chunk at a time:
// 1. the byte offsets of the chunk's blocks are computed first, several keys
//    per vector instruction, into a small array on the stack;
// 2. the per-key loop then reads each offset back as a scalar: broadcast the
//    key, multiply by the salts, shift, load the block, test or set it.
// For filters past the L2 (src/kernels/prefetch.h) the offsets are
// computed `distance` keys further than the chunk, and key i prefetches the
// block of key i + distance with the configured hint, so about `distance`
// misses stay in flight across chunk boundaries too; the first chunk
// prefetches its first `distance` blocks as soon as their offsets are known.

inline constexpr size_t kChunk = 256;  // keys per chunk: a multiple of 8
static_assert(kChunk % 8 == 0, "bitmap bytes must not straddle chunks");
// The offsets of a chunk plus those of the keys prefetched ahead of it.
inline constexpr size_t kOffsetSlots = kChunk + kMaxPrefetchDistance;

// __builtin_prefetch needs its locality as a constant: one instantiation of
// every loop per hint.
template <int kHint>
inline void PrefetchBlock(const uint8_t* block) {
  if constexpr (kHint == BB_PREFETCH_L1) {
    __builtin_prefetch(block, 0, 3);
  } else if constexpr (kHint == BB_PREFETCH_L2) {
    __builtin_prefetch(block, 0, 2);
  } else if constexpr (kHint == BB_PREFETCH_L3) {
    __builtin_prefetch(block, 0, 1);
  }
}

// Runs body(std::integral_constant<int, hint>, distance) with the plan for
// a filter of num_blocks blocks.
template <class Body>
inline auto WithPrefetchPlan(uint32_t num_blocks, Body&& body) {
  const PrefetchPlan plan = PrefetchPlanFor(size_t{num_blocks} * kBlockBytes);
  switch (plan.hint) {
    case BB_PREFETCH_L1: return body(std::integral_constant<int, BB_PREFETCH_L1>(), plan.distance);
    case BB_PREFETCH_L2: return body(std::integral_constant<int, BB_PREFETCH_L2>(), plan.distance);
    case BB_PREFETCH_L3: return body(std::integral_constant<int, BB_PREFETCH_L3>(), plan.distance);
    default: return body(std::integral_constant<int, BB_PREFETCH_NONE>(), size_t{0});
  }
}

// Whether a batch call takes the offsets from the chunk's array or computes
// each one in the per-key loop: the array, unless the call does not prefetch
// and the tier says its per-key loop is bound by vector instructions
// (kOffsetsInline), where the scalar multiply-shift runs on idle ports.
template <int kHint>
inline constexpr bool kUseOffsetArray = kHint != BB_PREFETCH_NONE || !kOffsetsInline;

// One chunk as the per-key loops see it: keys [start, start + len) of the
// batch (key i of the chunk is batch key start + i) and, with an offset
// array, their block offsets in offsets[0 .. len) and those of the keys
// after them up to offsets[ahead) (ahead >= len), for prefetching.
template <class Layout, bool kArray>
struct Chunk {
  const uint8_t* blocks;
  uint32_t num_blocks;
  const typename Layout::Hash* hashes;  // the chunk's first
  const uint64_t* offsets;
  size_t start;
  size_t len;
  size_t ahead;

  const uint8_t* Block(size_t i) const {
    if constexpr (kArray) {
      return blocks + offsets[i];
    } else {
      return blocks + uint64_t{kBlockBytes} * Layout::Block(hashes[i], num_blocks);
    }
  }
  // The block of the key `i` positions into the chunk, for a prefetch.
  const uint8_t* AheadBlock(size_t i) const { return blocks + offsets[i]; }
  uint32_t Key(size_t i) const { return Layout::Key(hashes[i]); }
};

// Where a batch's chunks come from, the rows' policy of ForEachChunk:
//   const Hash* ChunkHashes(start, len, ahead): the hashes of keys [start,
//     start + ahead) of the batch, contiguous (for BlockOffsets);
//   bool HasLiveRows(start, len): false if no key of the chunk needs a probe
//     (the chunk is skipped: no offsets, no prefetches, no per-chunk call);
//   View(chunk): what the per-key loops (and the first prefetches) see.
// EveryRow is the plain batch: its own array, every key probed.
template <class Layout>
struct EveryRow {
  const typename Layout::Hash* hashes;
  const typename Layout::Hash* ChunkHashes(size_t start, size_t, size_t) const {
    return hashes + start;
  }
  bool HasLiveRows(size_t, size_t) const { return true; }
  template <class C>
  const C& View(const C& c) const {
    return c;
  }
};

// Calls per_chunk(view) for each chunk of keys [0 .. n) of `rows` that has
// live rows, computing its offsets (and, with a hint, those `distance` keys
// past it). The first chunk probed, and the first after skipped ones,
// prefetches its first `distance` blocks as soon as their offsets are known.
template <class Layout, int kHint, class Rows, class PerChunk>
inline void ForEachChunkOf(const uint8_t* blocks, uint32_t num_blocks, Rows& rows, size_t n,
                         size_t distance, PerChunk&& per_chunk) {
  constexpr bool kArray = kUseOffsetArray<kHint>;
  uint64_t offsets[kArray ? kOffsetSlots : 1];
  bool primed = false;  // whether the keys up to `distance` ahead have been prefetched
  for (size_t start = 0; start < n; start += kChunk) {
    const size_t len = n - start < kChunk ? n - start : kChunk;
    if (!rows.HasLiveRows(start, len)) {
      primed = false;
      continue;
    }
    size_t ahead = len;
    if constexpr (kHint != BB_PREFETCH_NONE) {
      ahead = n - start < len + distance ? n - start : len + distance;
    }
    const typename Layout::Hash* hashes = rows.ChunkHashes(start, len, ahead);
    if constexpr (kArray) BlockOffsets(hashes, ahead, num_blocks, offsets);
    const Chunk<Layout, kArray> chunk{blocks, num_blocks, hashes, offsets, start, len, ahead};
    const auto& view = rows.View(chunk);
    if constexpr (kHint != BB_PREFETCH_NONE) {
      if (!primed) {
        for (size_t i = 0; i < ahead && i < distance; ++i) PrefetchBlock<kHint>(view.AheadBlock(i));
        primed = true;
      }
    }
    per_chunk(view);
  }
}

// The plain batch: every key of hashes[0 .. n).
template <class Layout, int kHint, class PerChunk>
inline void ForEachChunk(const uint8_t* blocks, uint32_t num_blocks,
                         const typename Layout::Hash* hashes, size_t n, size_t distance,
                         PerChunk&& per_chunk) {
  EveryRow<Layout> rows{hashes};
  ForEachChunkOf<Layout, kHint>(blocks, num_blocks, rows, n, distance, per_chunk);
}

// How many leading keys of the chunk, in whole groups of `group`, can
// prefetch the block `distance` keys ahead of every key in the group.
template <int kHint, class C>
inline size_t PrefetchingPrefix(const C& c, size_t distance, size_t group) {
  if constexpr (kHint == BB_PREFETCH_NONE) {
    return 0;
  } else {
    if (c.ahead < distance + group) return 0;
    const size_t end = c.ahead - distance < c.len ? c.ahead - distance : c.len;
    return end - end % group;
  }
}
