// SPDX-License-Identifier: Apache-2.0
// Whole builds (build_from_hashes): every key into its block range's bucket,
// then the ranges inserted one by one. Needs src/kernels/insert_loops-inl.h and
// the write-combining constants of src/kernels/partition_loops-inl.h.
// No include guard on purpose: src/kernels/batch_loops-inl.h includes it inside each
// tier's namespace, so it compiles with what that tier provides (the tier
// contract: src/kernels/kernel_table-inl.h) and, inside a Highway target
// namespace, with that target's instructions.

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
// write-combining lines, as in CombiningScatter (partition_loops-inl.h), streamed past the caches
// where scratch is aligned to its elements.
//
// A range here is the blocks one multiply-shift of the block index maps to
// the same part (BuildRanges): ranges of nearly equal size, each a run of
// blocks, computed a key at a time in the scatter loop. It cost 0.4-0.8
// ns/key less than PartLocator's exact ranges through the vector pipeline of
// the radix partition (block offsets, then parts, each an array a chunk),
// measured (docs/benchmarks.md, "the one-pass build"); the build needs no
// exact ranges.
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
