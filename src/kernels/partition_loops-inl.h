// SPDX-License-Identifier: Apache-2.0
// The radix partition of a build's hashes (partition_hashes): range tests
// for a few parts, a scatter through write-combining lines for many. Needs
// src/kernels/chunk_loop-inl.h.
// No include guard on purpose: src/kernels/batch_loops-inl.h includes it inside each
// tier's namespace, so it compiles with what that tier provides (the tier
// contract: src/kernels/kernel_table-inl.h) and, inside a Highway target
// namespace, with that target's instructions.

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
// place (measured: docs/benchmarks.md, "whole builds and the radix
// partition"). An out that is not
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
