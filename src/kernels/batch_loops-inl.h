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
// (BlockOffsets: out[i] = 32 * Layout::Block(hashes[i], num_blocks), for the
// Parquet (64-bit hashes) and Kudu (32-bit) layouts), so that, inside a
// Highway target namespace, the loops compile with that target's instructions.
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

// ------------------------------------------------------------ radix partition
// The hashes of a batch grouped by the part of the filter their block lies
// in (PartFirstBlock, block_op.h), each part's in input order, so that the
// threads of a build each insert only their own keys with the plain batch
// insert (docs/concurrency.md). Two passes, a chunk's block offsets computed
// by the tier's BlockOffsets in each: the first counts each part's keys, so
// that every part knows where its keys go in out, the second writes them
// there. Up to kRangeTestParts parts (the thread counts of a build) each
// part is a range test over a chunk's offsets, a vector of keys at a time:
// counted by CountInRange (the last part's count is what the others leave),
// written by CompressInRange straight to the part's place in out, whole
// vectors that stop short of the part's end. More parts take the part of
// each key (PartLocator) and a scatter, one key at a time, with each part's
// next place kept in counts. Both give every part's keys in input order:
// the same bytes on every tier.
inline constexpr uint32_t kRangeTestParts = 8;

// Runs body(chunk_hashes, len, offsets) over the chunks of hashes[0 .. n),
// offsets[i] the byte offset of chunk_hashes[i]'s block.
template <class Hash, class Body>
inline void ForEachOffsetChunk(uint32_t num_blocks, const Hash* hashes, size_t n, Body&& body) {
  uint64_t offsets[kChunk];
  for (size_t start = 0; start < n; start += kChunk) {
    const size_t len = n - start < kChunk ? n - start : kChunk;
    BlockOffsets(hashes + start, len, num_blocks, offsets);
    body(hashes + start, len, static_cast<const uint64_t*>(offsets));
  }
}

// 2 <= num_parts <= kRangeTestParts.
template <class Hash>
void PartitionByRangeTests(uint32_t num_blocks, const Hash* hashes, size_t n, uint32_t num_parts,
                           Hash* out, size_t* counts) {
  uint64_t first[kRangeTestParts + 1];  // byte offset of each part's first block, then the end
  for (uint32_t p = 0; p <= num_parts; ++p) {
    first[p] = uint64_t{kBlockBytes} * PartFirstBlock(p, num_parts, num_blocks);
  }
  size_t count[kRangeTestParts] = {};
  ForEachOffsetChunk(num_blocks, hashes, n, [&](const Hash*, size_t len, const uint64_t* offsets) {
    size_t others = 0;
    for (uint32_t p = 0; p + 1 < num_parts; ++p) {
      const size_t c = CountInRange(offsets, len, first[p], first[p + 1]);
      count[p] += c;
      others += c;
    }
    count[num_parts - 1] += len - others;
  });
  Hash* next[kRangeTestParts];
  Hash* end[kRangeTestParts];
  Hash* at = out;
  for (uint32_t p = 0; p < num_parts; ++p) {
    next[p] = at;
    at += count[p];
    end[p] = at;
    counts[p] = count[p];
  }
  ForEachOffsetChunk(num_blocks, hashes, n, [&](const Hash* h, size_t len, const uint64_t* offsets) {
    for (uint32_t p = 0; p < num_parts; ++p) {
      next[p] += CompressInRange(h, offsets, len, first[p], first[p + 1], next[p], end[p]);
    }
  });
}

// Runs body(chunk_hashes, len, parts) over the chunks of hashes[0 .. n),
// parts[i] the part of chunk_hashes[i]'s block.
template <class Hash, class Body>
inline void ForEachPartChunk(uint32_t num_blocks, const PartLocator& locate, const Hash* hashes,
                             size_t n, Body&& body) {
  uint32_t parts[kChunk];
  ForEachOffsetChunk(num_blocks, hashes, n, [&](const Hash* h, size_t len, const uint64_t* offsets) {
    PartsOfOffsets(locate, offsets, len, parts);
    body(h, len, static_cast<const uint32_t*>(parts));
  });
}

// The scatter of many parts (kCombineMinParts to kCombineParts) goes through
// software write-combining buffers: each part gathers its keys in a buffer of
// one cache line (kCombineLine bytes, lined up with out's lines), written to
// out whole when it fills, so a key costs one store to a buffer that stays
// in L1 (32 KiB for 512 parts), not a store into one of hundreds of lines
// (and pages) spread over out. Outputs of kStreamMinBytes and more get the
// full lines by streaming stores, past the caches: no read of each out line
// before it is written. The buffers pay only then, and from about 64 parts
// (where straight stores start to depend on what else runs), so only then
// are they used; else each key is stored straight to its
// place (measured: docs/benchmarks.md, "Issue 35"). An out that is not
// aligned to its elements gets the full lines by plain stores.
inline constexpr size_t kCombineLine = 64;
inline constexpr uint32_t kCombineParts = 512;
inline constexpr uint32_t kCombineMinParts = 64;
static_assert(BBI_BUILD_MAX_PARTS <= kCombineParts, "every range of a build has a buffer");
inline constexpr size_t kStreamMinBytes = size_t{8} << 20;

// Positions are "line slots": the index of a key's place in out counted from
// the start of out's first line (out + slot - lead, lead = how far out lies
// into its line), so that a buffer fills exactly when its line of out does.
template <class Hash>
class CombiningScatter {
 public:
  static constexpr size_t kPerLine = kCombineLine / sizeof(Hash);

  CombiningScatter(Hash* out, const size_t* counts, uint32_t num_parts, bool stream)
      : out_(out), num_parts_(num_parts),
        lead_((reinterpret_cast<uintptr_t>(out) % kCombineLine) / sizeof(Hash)),
        stream_(stream && reinterpret_cast<uintptr_t>(out) % sizeof(Hash) == 0) {
    size_t at = lead_;
    for (uint32_t p = 0; p < num_parts; ++p) {
      first_[p] = next_[p] = at;
      at += counts[p];
    }
  }

  void Add(uint32_t part, Hash hash) {
    const size_t slot = next_[part];
    lines_[part][slot % kPerLine] = hash;
    next_[part] = slot + 1;
    if ((slot + 1) % kPerLine == 0) WriteFullLine(part, slot + 1 - kPerLine);
  }

  // Writes what the buffers still hold (each part's last, partial line).
  void Finish() {
    for (uint32_t p = 0; p < num_parts_; ++p) {
      const size_t line = next_[p] - next_[p] % kPerLine;
      WriteSlots(p, line > first_[p] ? line : first_[p], next_[p]);
    }
    if (stream_) EndStreams();
  }

 private:
  // A full buffer: the whole line, unless the part begins inside it.
  void WriteFullLine(uint32_t part, size_t line) {
    if (line >= first_[part] && stream_) {
      StreamLine(out_ + (line - lead_), lines_[part]);
    } else if (line >= first_[part]) {
      std::memcpy(out_ + (line - lead_), lines_[part], kCombineLine);
    } else {
      WriteSlots(part, first_[part], line + kPerLine);
    }
  }
  void WriteSlots(uint32_t part, size_t from, size_t to) {
    for (size_t s = from; s < to; ++s) out_[s - lead_] = lines_[part][s % kPerLine];
  }

  Hash* out_;
  uint32_t num_parts_;
  size_t lead_;
  bool stream_;  // full lines bypass the caches (out is element-aligned, so they are line-aligned)
  size_t first_[kCombineParts];
  size_t next_[kCombineParts];
  alignas(kCombineLine) Hash lines_[kCombineParts][kPerLine];
};

// Any 2 <= num_parts <= num_blocks: counts each part's keys, then scatters.
template <class Hash>
void PartitionByScatter(uint32_t num_blocks, const Hash* hashes, size_t n, uint32_t num_parts,
                        Hash* out, size_t* counts) {
  const PartLocator locate(num_parts, num_blocks);
  for (uint32_t p = 0; p < num_parts; ++p) counts[p] = 0;
  ForEachPartChunk(num_blocks, locate, hashes, n, [&](const Hash*, size_t len, const uint32_t* parts) {
    for (size_t i = 0; i < len; ++i) ++counts[parts[i]];
  });
  const bool streamed = n >= kStreamMinBytes / sizeof(Hash);
  if (streamed && num_parts >= kCombineMinParts && num_parts <= kCombineParts) {
    CombiningScatter<Hash> scatter(out, counts, num_parts, true);
    ForEachPartChunk(num_blocks, locate, hashes, n, [&](const Hash* h, size_t len, const uint32_t* parts) {
      for (size_t i = 0; i < len; ++i) scatter.Add(parts[i], h[i]);
    });
    scatter.Finish();
    return;
  }
  size_t at = 0;  // counts[p] becomes where part p's next key goes
  for (uint32_t p = 0; p < num_parts; ++p) {
    const size_t c = counts[p];
    counts[p] = at;
    at += c;
  }
  ForEachPartChunk(num_blocks, locate, hashes, n, [&](const Hash* h, size_t len, const uint32_t* parts) {
    for (size_t i = 0; i < len; ++i) out[counts[parts[i]]++] = h[i];
  });
  // counts[p] is now where part p ends: back to counts, from the top down.
  for (uint32_t p = num_parts - 1; p > 0; --p) counts[p] -= counts[p - 1];
}

// 1 <= num_parts <= num_blocks; out has room for n and does not overlap
// hashes; counts has num_parts entries.
template <class Layout>
void PartitionHashes(uint32_t num_blocks, const typename Layout::Hash* hashes, size_t n,
                     uint32_t num_parts, typename Layout::Hash* out, size_t* counts) {
  if (num_parts == 1) {
    if (n > 0) std::memcpy(out, hashes, n * sizeof *hashes);
    counts[0] = n;
  } else if (num_parts <= kRangeTestParts) {
    PartitionByRangeTests(num_blocks, hashes, n, num_parts, out, counts);
  } else {
    PartitionByScatter(num_blocks, hashes, n, num_parts, out, counts);
  }
}

// ------------------------------------------------------------ whole builds
// Every key of a build at once, in one pass over the hashes: each key goes
// to its block range's bucket in scratch, then the ranges are inserted one
// by one, each staying in cache while its keys go in (so those inserts do
// not prefetch: after its first touches every block is a hit). A Bloom
// insert is an OR, so neither the order of the inserts nor which of them go
// through a bucket changes a bit: the bytes are those of InsertBatch. That
// frees the scatter from the count pass a radix partition needs: bucket p
// gets the share of scratch its range has of the blocks (rounded to whole
// lines), and once it is full its range's further keys are inserted
// straight into the filter (uniform hashes overflow a bucket by a few
// standard deviations of its count, a few keys in ten thousand; skewed ones
// cost speed, never bytes). Keys reach their bucket through
// write-combining lines, as in CombiningScatter, streamed past the caches
// where scratch is aligned to its elements.
//
// A range here is the blocks one multiply-shift of the block index maps to
// the same part (BuildRanges): ranges of nearly equal size, each a run of
// blocks, computed a key at a time in the scatter loop. It cost 0.4-0.8
// ns/key less than PartLocator's exact ranges through the vector pipeline of
// the radix partition (block offsets, then parts, each an array a chunk),
// measured (docs/benchmarks.md, "Issue 35"); the build needs no exact ranges.
class BuildRanges {
 public:
  // 2 <= num_parts <= num_blocks.
  BuildRanges(uint32_t num_parts, uint32_t num_blocks)
      : factor_(((uint64_t{num_parts} << 32) + num_blocks - 1) / num_blocks), last_(num_parts - 1) {}
  // factor_ rounds 2^32 num_parts / num_blocks up, so the last blocks of a
  // large filter can reach num_parts: those go to the last part. Monotone
  // in the block either way, so every part is a run of blocks.
  uint32_t Part(uint32_t block) const {
    const auto part = static_cast<uint32_t>((block * factor_) >> 32);
    return part < last_ ? part : last_;
  }
  // The first block of part p, 0 < p < num_parts: the least block whose
  // product reaches p 2^32 (at most num_blocks: then part p is empty).
  uint32_t FirstBlock(uint32_t part, uint32_t num_blocks) const {
    const uint64_t first = ((uint64_t{part} << 32) + factor_ - 1) / factor_;
    return first < num_blocks ? static_cast<uint32_t>(first) : num_blocks;
  }

 private:
  uint64_t factor_;  // ceil(2^32 num_parts / num_blocks), below 2^41
  uint32_t last_;
};

// Parts [first_part, end_part) only: the keys of the others go to a sink
// line that is never written out, so threads that take disjoint part runs
// fill one filter (disjoint blocks) through one scratch (disjoint buckets,
// each a run of whole lines) without atomics.
template <class Layout>
class RangeBuckets {
 public:
  using Hash = typename Layout::Hash;
  static constexpr size_t kPerLine = kCombineLine / sizeof(Hash);
  static constexpr uint32_t kSink = kCombineParts;

  RangeBuckets(uint8_t* blocks, uint32_t num_blocks, const BuildRanges& ranges, Hash* scratch,
               size_t n, uint32_t num_parts, uint32_t first_part, uint32_t end_part)
      : blocks_(blocks), num_blocks_(num_blocks), first_part_(first_part),
        own_parts_(end_part - first_part),
        stream_(reinterpret_cast<uintptr_t>(scratch) % sizeof(Hash) == 0) {
    const size_t misalign = reinterpret_cast<uintptr_t>(scratch) % kCombineLine;
    size_t lead = stream_ && misalign != 0 ? (kCombineLine - misalign) / sizeof(Hash) : 0;
    if (lead > n) lead = n;
    base_ = scratch + lead;
    const size_t room = n - lead;
    for (uint32_t p = first_part; p <= end_part; ++p) {
      // room * first / num_blocks without a 128-bit product.
      const uint64_t first = p == 0 ? 0 : p == num_parts ? num_blocks : ranges.FirstBlock(p, num_blocks);
      const size_t share = room / num_blocks * first + room % num_blocks * first / num_blocks;
      bucket_[p] = share / kPerLine * kPerLine;
    }
    for (uint32_t p = first_part; p < end_part; ++p) next_[p] = bucket_[p];
    for (uint32_t p = 0; p <= kSink; ++p) filled_[p] = 0;
  }

  void Add(uint32_t part, Hash hash) {
    part = part - first_part_ < own_parts_ ? part : kSink;
    const uint32_t k = filled_[part];
    lines_[part][k] = hash;
    filled_[part] = (k + 1) % kPerLine;
    if (k + 1 == kPerLine) Spill(part);
  }

  // Inserts every own range's keys: its bucket, then what its line still holds.
  void InsertAll() {
    if (stream_) EndStreams();
    for (uint32_t p = first_part_; p - first_part_ < own_parts_; ++p) {
      InsertBatchWith<Layout, BB_PREFETCH_NONE>(blocks_, num_blocks_, base_ + bucket_[p],
                                                next_[p] - bucket_[p], 0);
      InsertBatchWith<Layout, BB_PREFETCH_NONE>(blocks_, num_blocks_, lines_[p], filled_[p], 0);
    }
  }

 private:
  // A full line: to its bucket while there is room, else into the filter;
  // the sink's is dropped.
  void Spill(uint32_t part) {
    if (part == kSink) return;
    const size_t at = next_[part];
    if (at + kPerLine > bucket_[part + 1]) {
      InsertBatchWith<Layout, BB_PREFETCH_NONE>(blocks_, num_blocks_, lines_[part], kPerLine, 0);
    } else {
      if (stream_) {
        StreamLine(base_ + at, lines_[part]);
      } else {
        std::memcpy(base_ + at, lines_[part], kCombineLine);
      }
      next_[part] = at + kPerLine;
    }
  }

  uint8_t* blocks_;
  uint32_t num_blocks_;
  uint32_t first_part_;
  uint32_t own_parts_;
  bool stream_;  // scratch is element-aligned, so base_'s lines are 64-byte aligned
  Hash* base_;   // scratch from its first whole line
  size_t bucket_[kCombineParts + 1];  // part p's bucket: base_[bucket_[p] .. bucket_[p + 1])
  size_t next_[kCombineParts];        // where part p's next line goes
  uint32_t filled_[kCombineParts + 1];  // keys in part p's line (and the sink's)
  alignas(kCombineLine) Hash lines_[kCombineParts + 1][kPerLine];
};

// Inserts the keys of parts [first_part, end_part) of num_parts (1 <=
// num_parts <= min(num_blocks, kCombineParts)); scratch has room for n and
// does not overlap hashes. [0, num_parts) is the whole build.
template <class Layout>
void BuildFromHashes(uint8_t* blocks, uint32_t num_blocks, const typename Layout::Hash* hashes,
                     size_t n, typename Layout::Hash* scratch, uint32_t num_parts,
                     uint32_t first_part, uint32_t end_part) {
  if (first_part >= end_part) return;
  if (num_parts == 1) {
    InsertBatch<Layout>(blocks, num_blocks, hashes, n);
    return;
  }
  const BuildRanges ranges(num_parts, num_blocks);
  RangeBuckets<Layout> buckets(blocks, num_blocks, ranges, scratch, n, num_parts, first_part, end_part);
  for (size_t i = 0; i < n; ++i) buckets.Add(ranges.Part(Layout::Block(hashes[i], num_blocks)), hashes[i]);
  buckets.InsertAll();
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
// hashes[sel[k]]. Each chunk's hashes (and those of the keys prefetched
// ahead) are gathered before the chunk writes anything, so the output may be
// the selection itself: a group of eight keys reads its rows (sel[k], one
// load each, or one vector) before it writes its hits, and its writes land
// below the group's end (a hit count never passes the rows seen), never on
// a row still to be read.
template <class Layout>
struct SelectedRows {
  using Hash = typename Layout::Hash;
  const Hash* hashes;
  const uint32_t* sel;
  Hash gathered[kOffsetSlots];

  const Hash* ChunkHashes(size_t start, size_t, size_t ahead) {
    for (size_t i = 0; i < ahead; ++i) gathered[i] = hashes[sel[start + i]];
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
  SelectedRows<Layout> rows;  // its buffer is filled chunk by chunk, not zeroed
  rows.hashes = hashes;
  rows.sel = sel_in;
  return SelectHits<Layout>(blocks, num_blocks, rows, m, sel_out,
                            [=](uint32_t* out, const auto& c, size_t i, uint32_t byte, size_t count) {
    const uint32_t* group = sel_in + c.start + i;
    return count == 8 ? AppendHitRows8(out, group, byte) : AppendHitRows(out, group, byte, count);
  });
}

// bitmap &= maybe-present: two ways, chosen per window of kAndWindow rows
// by how many of its rows are live (bit set), both probing only live rows'
// groups of eight.
// - Dense windows: the batch loop over every row of the window, a byte at a
//   time; a zero byte costs one load and no probe, a chunk of zero bytes is
//   skipped whole. Rows of a live byte are all probed (and prefetched):
//   choosing per row, branch-free, cost more than the memory it saved
//   (measured: docs/benchmarks.md).
// - Sparse windows: their live rows are compacted into a list of row
//   numbers (the table of bit positions, eight rows a byte, no branch),
//   collected over consecutive sparse windows, then probed as a selection
//   (FindBatchSelectFrom, in place): filter memory is read, and prefetched,
//   for live rows only, and the prefetches run on across the windows of one
//   list. The survivors' bits are set again in their bytes, cleared first.
inline constexpr size_t kAndWindow = 2048;       // rows: a multiple of 8
inline constexpr size_t kAndListRows = 2048;     // row numbers one sparse probe collects
static_assert(kAndWindow % 8 == 0 && kAndListRows >= kAndWindow, "a window fits the list");

// The rows of a batch whose bit is set in a bitmap (key i at bit i % 8 of
// byte i / 8), for the dense windows: chunks without one are skipped.
template <class Layout>
struct LiveRows {
  const typename Layout::Hash* hashes;
  const uint8_t* bitmap;

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
  const C& View(const C& c) const {
    return c;
  }
};

// The dense form over rows [0 .. n) of its arguments.
template <class Layout>
size_t BitmapAndDense(const uint8_t* blocks, uint32_t num_blocks,
                      const typename Layout::Hash* hashes, size_t n, uint8_t* bitmap) {
  return WithPrefetchPlan(num_blocks, [&](auto hint, size_t distance) {
    constexpr int kHint = decltype(hint)::value;
    LiveRows<Layout> rows{hashes, bitmap};
    size_t total = 0;
    ForEachChunkOf<Layout, kHint>(blocks, num_blocks, rows, n, distance,
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
  });
}

// The set bits among rows [0 .. len) of bitmap.
inline size_t CountLiveRows(const uint8_t* bitmap, size_t len) {
  size_t count = 0;
  size_t b = 0;
  for (; b + 8 <= len / 8; b += 8) {
    uint64_t word;
    std::memcpy(&word, bitmap + b, sizeof word);
    count += static_cast<size_t>(__builtin_popcountll(word));
  }
  for (; b < len / 8; ++b) count += static_cast<size_t>(__builtin_popcount(bitmap[b]));
  if (len % 8 != 0) count += static_cast<size_t>(__builtin_popcount(bitmap[b] & ((1u << (len % 8)) - 1u)));
  return count;
}

// The sparse windows' list: live rows as numbers from `base` (a multiple of
// 8), and the rows [base, end) whose bytes it covers.
template <class Layout>
class LiveRowList {
 public:
  LiveRowList(const uint8_t* blocks, uint32_t num_blocks, const typename Layout::Hash* hashes,
              uint8_t* bitmap)
      : blocks_(blocks), num_blocks_(num_blocks), hashes_(hashes), bitmap_(bitmap) {}

  // Adds the live rows of [start, start + len) (start a multiple of 8, past
  // the rows added before; rows between them hold no live row and no
  // other probe's answers: their bytes are cleared with the list's), `live`
  // of them. Returns the survivors of a probe this took to make room.
  size_t Add(size_t start, size_t len, size_t live) {
    size_t kept = 0;
    // Room for the rows, and row numbers from base that fit 32 bits.
    if (size_ + live > kAndListRows || start + len - base_ > UINT32_MAX) kept = Probe();
    if (size_ == 0) base_ = start;
    const uint8_t* bytes = bitmap_ + start / 8;
    const auto first = static_cast<uint32_t>(start - base_);
    size_t b = 0;
    for (; b < len / 8; ++b) {  // may write 8 entries at size_: the list has 8 spare
      size_ += AppendHitIndices8(rows_ + size_, first + 8 * static_cast<uint32_t>(b), bytes[b]);
    }
    if (len % 8 != 0) {
      size_ += AppendHitIndices(rows_ + size_, first + 8 * static_cast<uint32_t>(b), bytes[b], len % 8);
    }
    end_ = start + len;
    return kept;
  }

  // Probes the listed rows, writes their bytes (the survivors' bits set, the
  // other rows' cleared, bits past the batch kept) and empties the list.
  // Returns the survivors.
  size_t Probe() {
    if (end_ == base_) return 0;
    const size_t kept = FindBatchSelectFrom<Layout>(blocks_, num_blocks_, hashes_ + base_, rows_,
                                                    size_, rows_);
    uint8_t* bytes = bitmap_ + base_ / 8;
    const size_t rows = end_ - base_;
    const size_t num_bytes = rows / 8 + (rows % 8 != 0);
    // The bits past the batch in a partial last byte, to be kept.
    const uint32_t past = rows % 8 != 0 ? bytes[rows / 8] & (0xffu << (rows % 8)) : 0;
    std::memset(bytes, 0, num_bytes);
    // The survivors ascend: their bits are gathered in a register, byte by
    // byte, and the byte stored after every row (stores only: an OR into
    // memory would wait for the row before in the same byte).
    uint32_t byte_index = 0, bits = 0;
    for (size_t k = 0; k < kept; ++k) {
      const uint32_t row = rows_[k];
      const uint32_t same = static_cast<uint32_t>(row / 8 == byte_index);
      bits = (bits & (0u - same)) | (1u << (row % 8));
      byte_index = row / 8;
      bytes[byte_index] = static_cast<uint8_t>(bits);
    }
    if (past != 0) bytes[rows / 8] = static_cast<uint8_t>(bytes[rows / 8] | past);
    size_ = 0;
    base_ = end_;
    return kept;
  }

 private:
  const uint8_t* blocks_;
  uint32_t num_blocks_;
  const typename Layout::Hash* hashes_;
  uint8_t* bitmap_;
  size_t base_ = 0;
  size_t end_ = 0;
  size_t size_ = 0;
  uint32_t rows_[kAndListRows + 8];  // filled as windows are added, not zeroed
};

template <class Layout>
size_t FindBatchBitmapAnd(const uint8_t* blocks, uint32_t num_blocks,
                          const typename Layout::Hash* hashes, size_t n, uint8_t* bitmap) {
  // From what share of live rows a window is probed densely: where a listed
  // row (compacted, gathered, probed, its bit set back) costs as much as
  // the dense loop's rows. Measured (docs/benchmarks.md, 2026-12-01): in
  // cache 30% for avx512, 60% for sse42; from 1 MiB, where the list saves
  // memory traffic, 50-60% for both. "Large" is where the prefetching
  // starts: past the L2.
  const bool large = size_t{num_blocks} * kBlockBytes >= PrefetchMinBytes();
  const size_t dense_eighths = large ? 4 : 3;
  LiveRowList<Layout> list(blocks, num_blocks, hashes, bitmap);
  size_t total = 0;
  size_t dense_start = 0, dense_end = 0;  // dense windows not probed yet
  const auto probe_dense = [&] {
    if (dense_end > dense_start) {
      total += BitmapAndDense<Layout>(blocks, num_blocks, hashes + dense_start,
                                      dense_end - dense_start, bitmap + dense_start / 8);
    }
    dense_start = dense_end;
  };
  for (size_t start = 0; start < n; start += kAndWindow) {
    const size_t len = n - start < kAndWindow ? n - start : kAndWindow;
    const size_t live = CountLiveRows(bitmap + start / 8, len);
    const bool dense = live * 8 >= len * dense_eighths;
    // A window without live rows joins a dense run going on (the dense loop
    // skips its chunks), else it is passed over.
    if (dense || (live == 0 && dense_end == start && dense_end > dense_start)) {
      if (dense) total += list.Probe();  // its bytes must not be cleared later
      // A new run: the last one ended at a listed window, which probed it.
      if (dense_end != start) dense_start = start;
      dense_end = start + len;
    } else if (live > 0) {
      probe_dense();
      total += list.Add(start, len, live);
    }
  }
  probe_dense();
  return total + list.Probe();
}
