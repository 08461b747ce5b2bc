// SPDX-License-Identifier: Apache-2.0
// The pipeline probes (find_batch_select_from, find_batch_bitmap_and): probes
// that refine what earlier filters (or predicates) of a scan left, only the
// rows of an input selection or only the rows whose bit is still set in a
// bitmap, each through the chunked loop. Needs src/kernels/probe_loops-inl.h.
// No include guard on purpose: src/kernels/batch_loops-inl.h includes it inside each
// tier's namespace, so it compiles with what that tier provides (the tier
// contract: src/kernels/kernel_table-inl.h) and, inside a Highway target
// namespace, with that target's instructions.

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
  // the dense loop's rows. Measured (docs/benchmarks.md, "Pipeline probes"): in
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
