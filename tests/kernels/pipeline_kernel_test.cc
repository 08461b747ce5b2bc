// SPDX-License-Identifier: Apache-2.0
// The pipeline probe kernels (src/kernels/batch_loops-inl.h: FindBatchSelectFrom,
// FindBatchBitmapAnd) and the selection range check (max_u32) on every ISA,
// both layouts: bit for bit what the oracle says, around the 256-key chunk's
// edges, for a small filter and a 1 MiB one with every prefetch hint and
// distances around the chunk; in-place compaction; random, sorted, repeated
// selections; bitmaps with zero bytes and zero chunks, windows of every
// density in one call; guard entries after every output. And what is not
// probed is not touched: rows outside the selection, or whose bit (or
// byte) is 0, hash into a part of the filter mapped with no access at all.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "support/chunk_edges.h"
#include "src/core/kernel_table.h"
#include "support/isa_params.h"
#include "support/oracle.h"
#include "support/prefetch_settings_guard.h"

namespace {

using PipelineKernelPerIsa = bbtest::PerIsa;
using bbtest::PrefetchSettingsGuard;

// Rows (n) and selection lengths (m) on and around the chunk's edges.
using bbtest::kChunkEdgeLengths;
constexpr size_t kMaxLength = bbtest::kMaxChunkEdgeLength;

struct Parquet {
  using Hash = uint64_t;
  static const char* Name() { return "parquet"; }
  static std::vector<Hash> Hashes(uint64_t seed, size_t n) { return oracle::Hashes(seed, n); }
  static void OracleInsert(std::vector<uint8_t>& bytes, Hash h) { oracle::Insert(bytes, h); }
  static bool OracleFind(const std::vector<uint8_t>& bytes, Hash h) { return oracle::Find(bytes, h); }
  static uint64_t OracleBlock(Hash h, uint64_t blocks) { return oracle::ParquetBlock(h, blocks); }
  static auto SelectFrom(const bbi_kernel_table& k) { return k.find_batch_select_from; }
  static auto BitmapAnd(const bbi_kernel_table& k) { return k.find_batch_bitmap_and; }
};

struct Kudu {
  using Hash = uint32_t;
  static const char* Name() { return "kudu"; }
  static std::vector<Hash> Hashes(uint64_t seed, size_t n) { return oracle::Hashes32(seed, n); }
  static void OracleInsert(std::vector<uint8_t>& bytes, Hash h) { oracle::KuduInsert(bytes, h); }
  static bool OracleFind(const std::vector<uint8_t>& bytes, Hash h) { return oracle::KuduFind(bytes, h); }
  static uint64_t OracleBlock(Hash h, uint64_t blocks) { return oracle::KuduBlock(h, blocks); }
  static auto SelectFrom(const bbi_kernel_table& k) { return k.kudu_find_batch_select_from; }
  static auto BitmapAnd(const bbi_kernel_table& k) { return k.kudu_find_batch_bitmap_and; }
};

// A filter holding every other one of the probe hashes, so about half the
// rows are found.
template <class L>
struct Probe {
  std::vector<uint8_t> bytes;
  std::vector<typename L::Hash> hashes;  // kMaxLength probe hashes, by row
  std::vector<bool> found;               // the oracle's answer per row
};

template <class L>
Probe<L> MakeProbe(uint32_t blocks, uint64_t seed, size_t rows = kMaxLength) {
  Probe<L> p;
  p.bytes.assign(32ull * blocks, 0);
  p.hashes = L::Hashes(seed, rows);
  for (size_t i = 0; i < rows; i += 2) L::OracleInsert(p.bytes, p.hashes[i]);
  for (typename L::Hash h : p.hashes) p.found.push_back(L::OracleFind(p.bytes, h));
  return p;
}

// Selections of rows [0, n): every row, a sorted subset of about `percent`
// percent, and m random rows in any order with repeats.
std::vector<std::vector<uint32_t>> Selections(size_t n, uint64_t seed) {
  std::vector<std::vector<uint32_t>> out;
  if (n == 0) return {{}};
  const std::vector<uint64_t> random = oracle::Hashes(seed, 3 * kMaxLength);
  std::vector<uint32_t> all(n);
  for (size_t i = 0; i < n; ++i) all[i] = static_cast<uint32_t>(i);
  out.push_back(all);
  for (uint64_t percent : {10u, 50u}) {
    std::vector<uint32_t> subset;
    for (size_t i = 0; i < n; ++i) {
      if (random[i] % 100 < percent) subset.push_back(static_cast<uint32_t>(i));
    }
    out.push_back(subset);
  }
  for (size_t m : kChunkEdgeLengths) {
    std::vector<uint32_t> any(m);
    for (size_t k = 0; k < m; ++k) any[k] = static_cast<uint32_t>(random[kMaxLength + k] % n);
    out.push_back(any);
  }
  return out;
}

template <class L>
void CheckSelectFrom(const bbi_kernel_table& k, uint32_t blocks, const Probe<L>& p,
                     const std::string& where) {
  for (size_t n : kChunkEdgeLengths) {
    for (const std::vector<uint32_t>& sel : Selections(n, 7 + n)) {
      const size_t m = sel.size();
      SCOPED_TRACE(where + " " + L::Name() + " n=" + std::to_string(n) + " m=" + std::to_string(m));
      std::vector<uint32_t> want;
      for (uint32_t row : sel) {
        if (p.found[row]) want.push_back(row);
      }
      // Into a separate array, with a guard entry past its m entries.
      std::vector<uint32_t> out(m + 1, 0xdeadbeef);
      const size_t hits = L::SelectFrom(k)(p.bytes.data(), blocks, p.hashes.data(), sel.data(), m,
                                           out.data());
      EXPECT_EQ(out.back(), 0xdeadbeefu) << "wrote past sel_out";
      ASSERT_EQ(hits, want.size());
      out.resize(hits);
      EXPECT_EQ(out, want);
      // In place: sel_out == sel_in.
      std::vector<uint32_t> in_place(sel);
      in_place.push_back(0xfeedface);
      const size_t hits_in_place = L::SelectFrom(k)(p.bytes.data(), blocks, p.hashes.data(),
                                                    in_place.data(), m, in_place.data());
      EXPECT_EQ(in_place.back(), 0xfeedfaceu) << "wrote past the selection";
      ASSERT_EQ(hits_in_place, want.size());
      in_place.resize(hits_in_place);
      EXPECT_EQ(in_place, want);
    }
  }
}

// Input bitmaps for n rows: all ones, random at 50% and 10%, zero bytes
// between full ones, a whole zero chunk (rows 256 .. 511) in a random one;
// the bits past n random too, since they must survive.
std::vector<std::vector<uint8_t>> Bitmaps(size_t n, uint64_t seed) {
  const size_t bytes = (n + 7) / 8;
  const std::vector<uint64_t> random = oracle::Hashes(seed, 4 * bytes + 8);
  std::vector<std::vector<uint8_t>> out;
  out.emplace_back(bytes, 0xff);
  std::vector<uint8_t> half(bytes), tenth(bytes, 0), stripes(bytes), zero_chunk(bytes);
  for (size_t b = 0; b < bytes; ++b) {
    half[b] = static_cast<uint8_t>(random[b]);
    for (int j = 0; j < 8; ++j) {
      if ((random[bytes + b] >> (8 * j)) % 10 == 0) tenth[b] = static_cast<uint8_t>(tenth[b] | (1u << j));
    }
    stripes[b] = b % 3 == 1 ? 0 : static_cast<uint8_t>(random[2 * bytes + b] | 1);
    zero_chunk[b] = b >= 32 && b < 64 ? 0 : static_cast<uint8_t>(random[3 * bytes + b]);
  }
  out.push_back(half);
  out.push_back(tenth);
  out.push_back(stripes);
  out.push_back(zero_chunk);
  out.emplace_back(bytes, 0);
  return out;
}

// One bitmap AND of n rows checked against the oracle, with a guard byte.
template <class L>
void CheckOneBitmapAnd(const bbi_kernel_table& k, uint32_t blocks, const Probe<L>& p, size_t n,
                       const std::vector<uint8_t>& in) {
  std::vector<uint8_t> want(in);
  size_t want_hits = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool bit = ((in[i / 8] >> (i % 8)) & 1) != 0 && p.found[i];
    if (!bit) want[i / 8] = static_cast<uint8_t>(want[i / 8] & ~(1u << (i % 8)));
    want_hits += bit;
  }
  std::vector<uint8_t> bitmap(in);
  bitmap.push_back(0xa5);  // a guard byte
  const size_t hits = L::BitmapAnd(k)(p.bytes.data(), blocks, p.hashes.data(), n, bitmap.data());
  EXPECT_EQ(bitmap.back(), 0xa5) << "wrote past the bitmap";
  bitmap.pop_back();
  EXPECT_EQ(hits, want_hits);
  EXPECT_EQ(bitmap, want);  // bits past n included: as they were
}

template <class L>
void CheckBitmapAnd(const bbi_kernel_table& k, uint32_t blocks, const Probe<L>& p,
                    const std::string& where) {
  for (size_t n : kChunkEdgeLengths) {
    int which = 0;
    for (const std::vector<uint8_t>& in : Bitmaps(n, 11 + n)) {
      SCOPED_TRACE(where + " " + L::Name() + " n=" + std::to_string(n) + " bitmap " +
                   std::to_string(which++));
      CheckOneBitmapAnd(k, blocks, p, n, in);
    }
  }
}

// The kernel takes each window of 2048 rows densely or lists its live rows,
// by its share of live rows (from 3/8, or 1/2 for filters of 1 MiB and
// more). Windows of every density in one call: dense runs with empty
// windows inside and around them, sparse windows collected across empty
// ones and probed when their list (2048 rows) fills, a partial last window.
constexpr size_t kWindowRows = 2048;
const int kWindowPercents[] = {100, 0, 90, 30, 0, 35, 36, 33, 0, 0, 95, 70, 10, 60, 80, 5, 0, 45, 20};
constexpr size_t kWindowedRows = std::size(kWindowPercents) * kWindowRows - 3;

std::vector<uint8_t> WindowedBitmap(uint64_t seed) {
  std::vector<uint8_t> bitmap((kWindowedRows + 7) / 8, 0);
  const std::vector<uint64_t> random = oracle::Hashes(seed, kWindowedRows);
  for (size_t i = 0; i < kWindowedRows; ++i) {
    if (random[i] % 100 < static_cast<uint64_t>(kWindowPercents[i / kWindowRows])) {
      bitmap[i / 8] = static_cast<uint8_t>(bitmap[i / 8] | (1u << (i % 8)));
    }
  }
  bitmap.back() = static_cast<uint8_t>(bitmap.back() | 0xe0);  // the bits past n: kept
  return bitmap;
}

TEST_P(PipelineKernelPerIsa, BitmapAndMatchesTheOracleAcrossWindowsOfEveryDensity) {
  PrefetchSettingsGuard guard;
  for (uint32_t blocks : bbtest::kChunkEdgeBlockCounts) {
    const Probe<Parquet> parquet = MakeProbe<Parquet>(blocks, 41, kWindowedRows);
    const Probe<Kudu> kudu = MakeProbe<Kudu>(blocks, 42, kWindowedRows);
    const std::vector<uint8_t> in = WindowedBitmap(43);
    bbtest::ForEachPrefetchSetting(blocks, [&](const std::string& where) {
      SCOPED_TRACE(where);
      CheckOneBitmapAnd(kernels(), blocks, parquet, kWindowedRows, in);
      CheckOneBitmapAnd(kernels(), blocks, kudu, kWindowedRows, in);
    });
  }
}

TEST_P(PipelineKernelPerIsa, SelectFromAndBitmapAndMatchTheOracleAtChunkEdgesForEveryPrefetchSetting) {
  PrefetchSettingsGuard guard;
  for (uint32_t blocks : bbtest::kChunkEdgeBlockCounts) {
    const Probe<Parquet> parquet = MakeProbe<Parquet>(blocks, 31);
    const Probe<Kudu> kudu = MakeProbe<Kudu>(blocks, 32);
    bbtest::ForEachPrefetchSetting(blocks, [&](const std::string& where) {
      CheckSelectFrom(kernels(), blocks, parquet, where);
      CheckSelectFrom(kernels(), blocks, kudu, where);
      CheckBitmapAnd(kernels(), blocks, parquet, where);
      CheckBitmapAnd(kernels(), blocks, kudu, where);
    });
  }
}

TEST_P(PipelineKernelPerIsa, OddParquetBlockCountsMatchTheOracle) {
  for (uint32_t blocks : {1u, 3u, 1000u, 40961u}) {
    const Probe<Parquet> p = MakeProbe<Parquet>(blocks, 5);
    CheckSelectFrom(kernels(), blocks, p, "blocks=" + std::to_string(blocks));
    CheckBitmapAnd(kernels(), blocks, p, "blocks=" + std::to_string(blocks));
  }
}

// A filter of `blocks` blocks whose second half is mapped with no access:
// a probe of a block there is a SIGSEGV. (Prefetches never fault.)
class HalfForbiddenFilter {
 public:
  explicit HalfForbiddenFilter(uint32_t blocks) : bytes_(32ull * blocks) {
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data_ = p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
    if (data_ != nullptr) std::fill(data_, data_ + bytes_ / 2, uint8_t{0xff});  // every find: 1
    if (data_ != nullptr && mprotect(data_ + bytes_ / 2, bytes_ / 2, PROT_NONE) != 0) {
      munmap(data_, bytes_);
      data_ = nullptr;
    }
  }
  ~HalfForbiddenFilter() {
    if (data_ != nullptr) munmap(data_, bytes_);
  }
  const uint8_t* data() const { return data_; }

 private:
  size_t bytes_;
  uint8_t* data_;
};

// n hashes: live[i] ones in the first half of the blocks, the others in the
// forbidden second half.
template <class L>
std::vector<typename L::Hash> HashesByHalf(const std::vector<bool>& live, uint32_t blocks) {
  std::vector<typename L::Hash> out;
  const std::vector<typename L::Hash> pool = L::Hashes(77, 8 * live.size() + 64);
  size_t next = 0;
  for (bool want_first_half : live) {
    while ((L::OracleBlock(pool[next], blocks) < blocks / 2) != want_first_half) ++next;
    out.push_back(pool[next++]);
  }
  return out;
}

// Rows of n whose block is in the forbidden half must never be probed:
// those outside the selection, and for the bitmap AND those whose bit is 0
// (listed windows) or whose byte is 0 (dense windows).
template <class L>
void CheckDeadRowsAreNotTouched(const bbi_kernel_table& k, uint32_t blocks,
                                const std::vector<bool>& live) {
  HalfForbiddenFilter filter(blocks);
  ASSERT_NE(filter.data(), nullptr);
  const size_t n = live.size();
  const std::vector<typename L::Hash> hashes = HashesByHalf<L>(live, blocks);
  std::vector<uint8_t> bitmap((n + 7) / 8, 0);
  std::vector<uint32_t> sel;
  for (size_t i = 0; i < n; ++i) {
    if (live[i]) {
      bitmap[i / 8] = static_cast<uint8_t>(bitmap[i / 8] | (1u << (i % 8)));
      sel.push_back(static_cast<uint32_t>(i));
    }
  }
  const std::vector<uint8_t> want_bitmap(bitmap);
  EXPECT_EQ(L::BitmapAnd(k)(filter.data(), blocks, hashes.data(), n, bitmap.data()), sel.size());
  EXPECT_EQ(bitmap, want_bitmap);  // every live row's block is all ones
  std::vector<uint32_t> out(sel.size());
  EXPECT_EQ(L::SelectFrom(k)(filter.data(), blocks, hashes.data(), sel.data(), sel.size(), out.data()),
            sel.size());
  EXPECT_EQ(out, sel);
}

// 3 windows of rows: every third row live (listed: dead rows inside live
// bytes), then a dense window where 7 of 8 bytes are all live and every
// eighth byte is 0, then a window with nothing live.
std::vector<bool> LivePattern() {
  std::vector<bool> live(3 * 2048 - 5, false);
  for (size_t i = 0; i < 2048; ++i) live[i] = i % 3 == 0;
  for (size_t i = 2048; i < 4096; ++i) live[i] = (i / 8) % 8 != 0;
  return live;
}

TEST_P(PipelineKernelPerIsa, RowsThatAreNotLiveAreNeverProbed) {
  PrefetchSettingsGuard guard;
  const std::vector<bool> live = LivePattern();
  for (int hint : {BB_PREFETCH_NONE, BB_PREFETCH_L2}) {
    SCOPED_TRACE(std::string("hint ") + bb_prefetch_hint_name(hint));
    ASSERT_EQ(bb_set_prefetch_hint(hint), BB_OK);
    for (uint32_t blocks : {2048u, 32768u}) {  // 64 KiB and 1 MiB: both density thresholds
      SCOPED_TRACE(blocks);
      CheckDeadRowsAreNotTouched<Parquet>(kernels(), blocks, live);
      CheckDeadRowsAreNotTouched<Kudu>(kernels(), blocks, live);
    }
  }
}

TEST_P(PipelineKernelPerIsa, MaxU32FindsTheLargestAtEveryPositionAndLength) {
  const std::vector<uint64_t> random = oracle::Hashes(3, 200);
  for (size_t n = 1; n <= 67; ++n) {
    for (size_t at = 0; at < n; ++at) {
      std::vector<uint32_t> values(n);
      for (size_t i = 0; i < n; ++i) values[i] = static_cast<uint32_t>(random[i] % 1000);
      for (uint32_t top : {1000u, 0x80000000u, 0xffffffffu}) {
        values[at] = top;
        ASSERT_EQ(kernels().max_u32(values.data(), n), top) << "n=" << n << " at=" << at;
      }
    }
  }
  const uint32_t zeros[3] = {0, 0, 0};
  EXPECT_EQ(kernels().max_u32(zeros, 3), 0u);
}

BB_INSTANTIATE_PER_ISA(PipelineKernelPerIsa);

}  // namespace
