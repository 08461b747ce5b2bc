// SPDX-License-Identifier: Apache-2.0
// The batch loops of every tier, written once. No include guard on purpose:
// kernel_table-inl.h includes this inside each tier's namespace, after the
// tier has defined
//   void InsertIntoBlock(uint8_t* block, uint32_t key);
//   constexpr bool kFindSetsCarry;  // whether the tier has a one-instruction ShiftInFind:
//   uint32_t ShiftInFind(uint32_t acc, const uint8_t* block, uint32_t key);  // acc * 2 + find
//     // (only where kFindSetsCarry; FindByte uses FindInBlock otherwise)
//   constexpr bool kOffsetsInline;  // see kUseOffsetArray
// and the macro BLOCKBLOOM_INSERT_UNROLL_COUNT (how far to unroll inserts).
//   size_t AppendHitIndices8(uint32_t* out, uint32_t first, uint32_t byte);
//     // writes first + j for each set bit j of byte, in order, to out[0 ..
//     // popcount); may write (garbage) up to out[7]; returns the popcount
//   void BlockOffsets(const uint64_t* hashes, size_t n, uint32_t num_blocks, uint64_t* out);
//   void BlockOffsets(const uint32_t* hashes, size_t n, uint32_t num_blocks, uint64_t* out);
// (BlockOffsets: out[i] = 32 * Layout::Block(hashes[i], num_blocks), for the
// Parquet (64-bit hashes) and Kudu (32-bit) layouts), so that, inside a
// Highway target namespace, the loops compile with that target's instructions.
//
// Every batch call works through its hashes a chunk at a time:
// 1. the byte offsets of the chunk's blocks are computed first, several keys
//    per vector instruction, into a small array on the stack;
// 2. the per-key loop then reads each offset back as a scalar: broadcast the
//    key, multiply by the salts, shift, load the block, test or set it.
// For filters of 1 MiB and more (kernels/prefetch.h) the offsets are
// computed `distance` keys further than the chunk, and key i prefetches the
// block of key i + distance with the configured hint, so about `distance`
// misses stay in flight across chunk boundaries too; the first chunk
// prefetches its first `distance` blocks as soon as their offsets are known.

// The insert loops' unrolling, a tier's choice (BLOCKBLOOM_INSERT_UNROLL_COUNT).
#define BLOCKBLOOM_PRAGMA(text) _Pragma(#text)
#define BLOCKBLOOM_UNROLL(count) BLOCKBLOOM_PRAGMA(GCC unroll count)
#undef BLOCKBLOOM_INSERT_UNROLL
#define BLOCKBLOOM_INSERT_UNROLL BLOCKBLOOM_UNROLL(BLOCKBLOOM_INSERT_UNROLL_COUNT)

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

// Calls per_chunk(chunk) for each chunk of hashes[0 .. n), computing its
// offsets (and, with a hint, those `distance` keys past it, and the first
// chunk's initial prefetches).
template <class Layout, int kHint, class PerChunk>
inline void ForEachChunk(const uint8_t* blocks, uint32_t num_blocks,
                         const typename Layout::Hash* hashes, size_t n, size_t distance,
                         PerChunk&& per_chunk) {
  constexpr bool kArray = kUseOffsetArray<kHint>;
  uint64_t offsets[kArray ? kOffsetSlots : 1];
  for (size_t start = 0; start < n; start += kChunk) {
    const size_t len = n - start < kChunk ? n - start : kChunk;
    size_t ahead = len;
    if constexpr (kHint != BB_PREFETCH_NONE) {
      ahead = n - start < len + distance ? n - start : len + distance;
    }
    if constexpr (kArray) BlockOffsets(hashes + start, ahead, num_blocks, offsets);
    if constexpr (kHint != BB_PREFETCH_NONE) {
      if (start == 0) {
        for (size_t i = 0; i < ahead && i < distance; ++i) PrefetchBlock<kHint>(blocks + offsets[i]);
      }
    }
    per_chunk(Chunk<Layout, kArray>{blocks, num_blocks, hashes + start, offsets, start, len, ahead});
  }
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

template <class Layout>
void InsertBatch(uint8_t* blocks, uint32_t num_blocks, const typename Layout::Hash* hashes,
                 size_t n) {
  WithPrefetchPlan(num_blocks, [&](auto hint, size_t distance) {
    constexpr int kHint = decltype(hint)::value;
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
    return 0;
  });
}

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

// Up to eight keys of a chunk, from key i on, into one bitmap byte, key i + j
// at bit j (LSB first). Branch-free: absent keys are the common case in a
// selective join, and a mispredicted early exit costs more than the work it
// would skip. Where the find result is a carry flag, the last key goes first
// and each result shifts in at the bottom (one ADC a key); elsewhere each
// result is shifted to its bit and ORed in, which keeps the keys independent
// (a shift-in chain would cost two dependent instructions a key).
template <class C>
inline uint32_t FindByte(const C& c, size_t i, size_t count) {
  uint32_t byte = 0;
  if constexpr (kFindSetsCarry) {
    for (size_t j = count; j-- > 0;) byte = ShiftInFind(byte, c.Block(i + j), c.Key(i + j));
  } else {
    for (size_t j = 0; j < count; ++j) byte |= FindInBlock(c.Block(i + j), c.Key(i + j)) << j;
  }
  return byte;
}

// Runs byte_out(i, byte, count) for the bitmap bytes of a chunk in order
// (count = 8 but for the batch's last, partial byte), prefetching ahead.
template <int kHint, class C, class ByteOut>
inline void ForEachFindByte(const C& c, size_t distance, ByteOut&& byte_out) {
  const size_t prefix = PrefetchingPrefix<kHint>(c, distance, 8);
  size_t i = 0;
  for (; i < prefix; i += 8) {
    for (size_t j = 0; j < 8; ++j) PrefetchBlock<kHint>(c.AheadBlock(i + distance + j));
    byte_out(i, FindByte(c, i, 8), size_t{8});
  }
  for (; i + 8 <= c.len; i += 8) byte_out(i, FindByte(c, i, 8), size_t{8});  // unrolled: fixed count
  if (i < c.len) byte_out(i, FindByte(c, i, c.len - i), c.len - i);
}

template <class Layout>
size_t FindBatchBitmap(const uint8_t* blocks, uint32_t num_blocks,
                       const typename Layout::Hash* hashes, size_t n, uint8_t* bitmap) {
  return WithPrefetchPlan(num_blocks, [&](auto hint, size_t distance) {
    constexpr int kHint = decltype(hint)::value;
    size_t total = 0;
    // Pointers captured by value and a local count, not references: the
    // byte stores may alias anything, so whatever is reached through a
    // reference would be reloaded (or stored) for every byte.
    ForEachChunk<Layout, kHint>(blocks, num_blocks, hashes, n, distance,
                                [=, &total](const auto& c) {
      uint8_t* out = bitmap + c.start / 8;
      size_t hits = 0;
      ForEachFindByte<kHint>(c, distance, [&](size_t i, uint32_t byte, size_t) {
        out[i / 8] = static_cast<uint8_t>(byte);  // a partial byte's high bits are 0
        hits += static_cast<size_t>(__builtin_popcount(byte));
      });
      total += hits;
    });
    return total;
  });
}

// The indices of the set bits among the first `count` of byte, first + j
// for bit j, to out[0 .. popcount): writes every index and advances the
// cursor only on a hit (no branch), so it writes no more than count entries.
inline size_t AppendHitIndices(uint32_t* out, uint32_t first, uint32_t byte, size_t count) {
  size_t hits = 0;
  for (size_t j = 0; j < count; ++j) {
    out[hits] = first + static_cast<uint32_t>(j);
    hits += (byte >> j) & 1u;
  }
  return hits;
}

// The bitmap's bytes, turned into indices eight at a time (AppendHitIndices8:
// on the SIMD tiers a table of bit positions, widened and offset), so that
// selecting costs little more than the bitmap. A full group may write up to
// 8 entries at out + hits, and hits <= the group's first index, so it stays
// within the n entries selection has; the batch's last, partial group writes
// only its own.
template <class Layout>
size_t FindBatchSelect(const uint8_t* blocks, uint32_t num_blocks,
                       const typename Layout::Hash* hashes, size_t n, uint32_t* selection) {
  return WithPrefetchPlan(num_blocks, [&](auto hint, size_t distance) {
    constexpr int kHint = decltype(hint)::value;
    size_t total = 0;
    ForEachChunk<Layout, kHint>(blocks, num_blocks, hashes, n, distance,
                                [=, &total](const auto& c) {
      uint32_t* out = selection + total;  // after the hits of the chunks before
      const auto first = static_cast<uint32_t>(c.start);  // n < 2^32: the API checks it
      size_t hits = 0;
      ForEachFindByte<kHint>(c, distance, [&](size_t i, uint32_t byte, size_t count) {
        const uint32_t index = first + static_cast<uint32_t>(i);
        hits += count == 8 ? AppendHitIndices8(out + hits, index, byte)
                           : AppendHitIndices(out + hits, index, byte, count);
      });
      total += hits;
    });
    return total;
  });
}
