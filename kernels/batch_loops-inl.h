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
//   size_t AppendHitRows8(uint32_t* out, const uint32_t* rows, uint32_t byte);
//     // the same with rows[j] for first + j (rows: 8 entries)
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

// Runs group(i, count) for the groups of eight keys of a chunk in order
// (count = 8 but for the batch's last, partial group), prefetching ahead.
template <int kHint, class C, class Group>
inline void ForEachKeyGroup(const C& c, size_t distance, Group&& group) {
  const size_t prefix = PrefetchingPrefix<kHint>(c, distance, 8);
  size_t i = 0;
  for (; i < prefix; i += 8) {
    for (size_t j = 0; j < 8; ++j) PrefetchBlock<kHint>(c.AheadBlock(i + distance + j));
    group(i, size_t{8});
  }
  for (; i + 8 <= c.len; i += 8) group(i, size_t{8});  // unrolled: a constant count
  if (i < c.len) group(i, c.len - i);
}

// Runs byte_out(i, byte, count) for the bitmap bytes of a chunk in order.
template <int kHint, class C, class ByteOut>
inline void ForEachFindByte(const C& c, size_t distance, ByteOut&& byte_out) {
  ForEachKeyGroup<kHint>(c, distance, [&](size_t i, size_t count) {
    byte_out(i, FindByte(c, i, count), count);
  });
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

// The loop of both selection kernels: the bitmap bytes of each chunk turned
// into its hits, appended after those of the chunks before.
// append(out, c, i, byte, count) writes the hits among keys i .. i + count
// of chunk c (bits of byte) to out and returns how many. Pointers captured
// by value and a local count, as in FindBatchBitmap.
template <class Layout, class Rows, class Append>
size_t SelectHits(const uint8_t* blocks, uint32_t num_blocks, Rows& rows, size_t n,
                  uint32_t* selection, Append append) {
  return WithPrefetchPlan(num_blocks, [&](auto hint, size_t distance) {
    constexpr int kHint = decltype(hint)::value;
    size_t total = 0;
    ForEachChunkOf<Layout, kHint>(blocks, num_blocks, rows, n, distance,
                                  [=, &total](const auto& c) {
      uint32_t* out = selection + total;
      size_t hits = 0;
      ForEachFindByte<kHint>(c, distance, [&](size_t i, uint32_t byte, size_t count) {
        hits += append(out + hits, c, i, byte, count);
      });
      total += hits;
    });
    return total;
  });
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
  EveryRow<Layout> rows{hashes};
  return SelectHits<Layout>(blocks, num_blocks, rows, n, selection,
                            [](uint32_t* out, const auto& c, size_t i, uint32_t byte, size_t count) {
    const auto index = static_cast<uint32_t>(c.start + i);  // n < 2^32: the API checks it
    return count == 8 ? AppendHitIndices8(out, index, byte) : AppendHitIndices(out, index, byte, count);
  });
}

// ------------------------------------------------------------ pipeline probes
// Probes that refine what earlier filters (or predicates) of a scan left:
// only the rows of an input selection, or only the rows whose bit is still
// set in a bitmap, each through the chunked loop above.

// The rows of a selection vector as a batch: key k of the batch is hash
// hashes[sel[k]]. Each chunk's row numbers are copied, and its hashes (and
// those of the keys prefetched ahead) gathered, before the chunk writes
// anything, so the output may be the selection itself: a chunk's outputs go
// to positions below its end (a hit count never passes the rows seen), and
// the next chunk reads only positions from its start on.
template <class Layout>
struct SelectedRows {
  using Hash = typename Layout::Hash;
  const Hash* hashes;
  const uint32_t* sel;
  Hash gathered[kOffsetSlots];
  uint32_t rows[kChunk];  // the chunk's row numbers

  const Hash* ChunkHashes(size_t start, size_t len, size_t ahead) {
    for (size_t i = 0; i < len; ++i) {
      rows[i] = sel[start + i];
      gathered[i] = hashes[rows[i]];
    }
    for (size_t i = len; i < ahead; ++i) gathered[i] = hashes[sel[start + i]];
    return gathered;
  }
  bool HasLiveRows(size_t, size_t) const { return true; }
  template <class C>
  const C& View(const C& c) const {
    return c;
  }
};

// rows[j] for the set bits j among the first `count` of byte, in order, to
// out[0 .. popcount); writes no more than count entries (see AppendHitIndices).
inline size_t AppendHitRows(uint32_t* out, const uint32_t* rows, uint32_t byte, size_t count) {
  size_t hits = 0;
  for (size_t j = 0; j < count; ++j) {
    out[hits] = rows[j];
    hits += (byte >> j) & 1u;
  }
  return hits;
}

// As FindBatchSelect, over the m rows of sel_in; the outputs are row
// numbers (sel_in's entries), not positions in sel_in.
template <class Layout>
size_t FindBatchSelectFrom(const uint8_t* blocks, uint32_t num_blocks,
                           const typename Layout::Hash* hashes, const uint32_t* sel_in, size_t m,
                           uint32_t* sel_out) {
  SelectedRows<Layout> rows;  // its buffers are filled chunk by chunk, not zeroed
  rows.hashes = hashes;
  rows.sel = sel_in;
  const uint32_t* chunk_rows = rows.rows;
  return SelectHits<Layout>(blocks, num_blocks, rows, m, sel_out,
                            [=](uint32_t* out, const auto&, size_t i, uint32_t byte, size_t count) {
    return count == 8 ? AppendHitRows8(out, chunk_rows + i, byte)
                      : AppendHitRows(out, chunk_rows + i, byte, count);
  });
}

// What the rows whose bit is 0 probe once their byte has live rows: all
// zero, so the find answers 0 (and the AND drops it anyway), from a line
// that stays in L1 whatever the filter's size.
alignas(64) inline constexpr uint8_t kDeadBlock[kBlockBytes] = {};

// The rows of a batch whose bit is set in a bitmap (key i at bit i % 8 of
// byte i / 8): chunks without one are skipped. With kMaskDead (filters from
// 1 MiB), each dead row of a live byte finds and prefetches kDeadBlock
// instead of its own block (a branch-free select), so a probe costs filter
// memory traffic only for live rows; below 1 MiB the filter is in cache and
// the select would only add instructions.
template <class Layout, bool kMaskDead>
struct LiveRows {
  const typename Layout::Hash* hashes;
  const uint8_t* bitmap;

  template <class C>
  struct MaskedChunk : C {
    const uint8_t* live;  // bit i: key i of the chunk (chunks start at a byte)
    bool Live(size_t i) const { return ((live[i / 8] >> (i % 8)) & 1u) != 0; }
    const uint8_t* Block(size_t i) const { return SelectWithoutBranch(Live(i), C::Block(i), kDeadBlock); }
    const uint8_t* AheadBlock(size_t i) const {
      return SelectWithoutBranch(Live(i), C::AheadBlock(i), kDeadBlock);
    }
  };

  const typename Layout::Hash* ChunkHashes(size_t start, size_t, size_t) const {
    return hashes + start;
  }
  // Whether any of the bits [start, start + len) is set; start is a
  // multiple of 8, and the bits past the batch do not count.
  bool HasLiveRows(size_t start, size_t len) const {
    const uint8_t* bytes = bitmap + start / 8;
    uint32_t any = 0;
    for (size_t i = 0; i < len / 8; ++i) any |= bytes[i];
    if (len % 8 != 0) any |= bytes[len / 8] & ((1u << (len % 8)) - 1u);
    return any != 0;
  }
  template <class C>
  auto View(const C& c) const {
    if constexpr (kMaskDead) {
      return MaskedChunk<C>{c, bitmap + c.start / 8};
    } else {
      return c;
    }
  }
};

// bitmap &= maybe-present over rows [0 .. n); the bits of the last byte past
// n stay as they were. A byte that is already 0 costs one load: its rows are
// neither probed nor prefetched, and a chunk of zero bytes is skipped whole.
template <class Layout, int kHint, bool kMaskDead>
size_t BitmapAndLoop(const uint8_t* blocks, uint32_t num_blocks,
                     const typename Layout::Hash* hashes, size_t n, uint8_t* bitmap,
                     size_t distance) {
  LiveRows<Layout, kMaskDead> source{hashes, bitmap};
  size_t total = 0;
  ForEachChunkOf<Layout, kHint>(blocks, num_blocks, source, n, distance,
                                [=, &total](const auto& c) {
    uint8_t* out = bitmap + c.start / 8;
    size_t hits = 0;
    ForEachKeyGroup<kHint>(c, distance, [&](size_t i, size_t count) {
      const uint32_t old = out[i / 8];
      if (old == 0) return;
      const uint32_t kept = count == 8 ? 0u : 0xffu << count;  // bits past the batch
      const uint32_t now = old & (FindByte(c, i, count) | kept);
      out[i / 8] = static_cast<uint8_t>(now);
      hits += static_cast<size_t>(__builtin_popcount(now & ~kept));
    });
    total += hits;
  });
  return total;
}

template <class Layout>
size_t FindBatchBitmapAnd(const uint8_t* blocks, uint32_t num_blocks,
                          const typename Layout::Hash* hashes, size_t n, uint8_t* bitmap) {
  return WithPrefetchPlan(num_blocks, [&](auto hint, size_t distance) {
    constexpr int kHint = decltype(hint)::value;
    if constexpr (kHint != BB_PREFETCH_NONE) {  // prefetching: a filter of 1 MiB or more
      return BitmapAndLoop<Layout, kHint, true>(blocks, num_blocks, hashes, n, bitmap, distance);
    } else {
      if (size_t{num_blocks} * kBlockBytes >= kPrefetchMinBytes) {
        return BitmapAndLoop<Layout, kHint, true>(blocks, num_blocks, hashes, n, bitmap, distance);
      }
      return BitmapAndLoop<Layout, kHint, false>(blocks, num_blocks, hashes, n, bitmap, distance);
    }
  });
}
