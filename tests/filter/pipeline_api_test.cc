// SPDX-License-Identifier: Apache-2.0
// The pipeline probes through the public API (blockbloom.h, kudu.h,
// blockbloom.hpp): the answers equal the dense probes restricted to the
// selected rows, filters chain, in-place compaction, Kudu's always-false
// state, and every bad input refused with its code before anything is
// written. (Bit-exactness on every tier: tests/kernels/pipeline_kernel_test.cc.)
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/blockbloom.hpp"
#include "blockbloom/kudu.h"
#include "support/oracle.h"

namespace {

constexpr size_t kRows = 1000;

// A Parquet filter holding every other one of kRows hashes.
struct ParquetCase {
  bb_filter f{};
  std::vector<uint64_t> hashes = oracle::Hashes(21, kRows);
  ParquetCase() {
    EXPECT_EQ(bb_filter_init(&f, 4096), BB_OK);
    for (size_t i = 0; i < kRows; i += 2) EXPECT_EQ(bb_insert(&f, hashes[i]), BB_OK);
  }
  ~ParquetCase() { bb_filter_release(&f); }
  bool Found(size_t row) const { return bb_find(&f, hashes[row]) > 0; }
};

std::vector<uint32_t> EveryThirdRow(size_t n) {
  std::vector<uint32_t> sel;
  for (size_t i = 0; i < n; i += 3) sel.push_back(static_cast<uint32_t>(i));
  return sel;
}

TEST(SelectFrom, KeepsTheSelectedRowsTheFilterMayHoldInOrder) {
  ParquetCase c;
  // Unsorted, with repeats.
  std::vector<uint32_t> sel = {999, 0, 2, 1, 2, 500, 3, 998, 0};
  std::vector<uint32_t> want;
  for (uint32_t row : sel) {
    if (c.Found(row)) want.push_back(row);
  }
  std::vector<uint32_t> out(sel.size(), 0);
  size_t hits = 12345;
  ASSERT_EQ(bb_find_batch_select_from(&c.f, c.hashes.data(), kRows, sel.data(), sel.size(),
                                      out.data(), &hits),
            BB_OK);
  ASSERT_EQ(hits, want.size());
  out.resize(hits);
  EXPECT_EQ(out, want);
  // hits may be NULL.
  EXPECT_EQ(bb_find_batch_select_from(&c.f, c.hashes.data(), kRows, sel.data(), sel.size(),
                                      out.data(), nullptr),
            BB_OK);
}

TEST(SelectFrom, CompactsInPlaceAndChainsFilters) {
  ParquetCase c;
  bb_filter second;
  ASSERT_EQ(bb_filter_init(&second, 2048), BB_OK);
  for (size_t i = 0; i < kRows; i += 3) ASSERT_EQ(bb_insert(&second, c.hashes[i]), BB_OK);
  // A dense probe, then the second filter over its survivors, in place.
  std::vector<uint32_t> sel(kRows);
  size_t hits = 0;
  ASSERT_EQ(bb_find_batch_select(&c.f, c.hashes.data(), kRows, sel.data(), &hits), BB_OK);
  size_t left = 0;
  ASSERT_EQ(bb_find_batch_select_from(&second, c.hashes.data(), kRows, sel.data(), hits, sel.data(),
                                      &left),
            BB_OK);
  std::vector<uint32_t> want;
  for (size_t i = 0; i < kRows; ++i) {
    if (c.Found(i) && bb_find(&second, c.hashes[i]) > 0) want.push_back(static_cast<uint32_t>(i));
  }
  EXPECT_GE(want.size(), kRows / 6);  // rows 0, 6, 12, ... are in both
  sel.resize(left);
  EXPECT_EQ(sel, want);
  bb_filter_release(&second);
}

TEST(SelectFrom, OutputRightAfterOrBeforeTheInputIsNoOverlap) {
  ParquetCase c;
  const std::vector<uint32_t> rows = EveryThirdRow(kRows);
  const size_t m = rows.size();
  std::vector<uint32_t> buffer(3 * m, 0);
  std::memcpy(buffer.data() + m, rows.data(), m * sizeof(uint32_t));
  size_t hits_after = 0, hits_before = 0;
  EXPECT_EQ(bb_find_batch_select_from(&c.f, c.hashes.data(), kRows, buffer.data() + m, m,
                                      buffer.data() + 2 * m, &hits_after),
            BB_OK);
  EXPECT_EQ(bb_find_batch_select_from(&c.f, c.hashes.data(), kRows, buffer.data() + m, m,
                                      buffer.data(), &hits_before),
            BB_OK);
  EXPECT_EQ(hits_after, hits_before);
  EXPECT_EQ(std::vector<uint32_t>(buffer.begin(), buffer.begin() + hits_before),
            std::vector<uint32_t>(buffer.begin() + 2 * m, buffer.begin() + 2 * m + hits_after));
}

TEST(SelectFrom, PartlyOverlappingOutputIsRefusedAndNothingWritten) {
  ParquetCase c;
  const std::vector<uint32_t> rows = EveryThirdRow(kRows);
  const size_t m = rows.size();
  std::vector<uint32_t> buffer(3 * m, 0);
  std::memcpy(buffer.data() + m, rows.data(), m * sizeof(uint32_t));
  const std::vector<uint32_t> before(buffer);
  for (ptrdiff_t shift : {ptrdiff_t{1}, ptrdiff_t{-1}, ptrdiff_t(m) - 1, -ptrdiff_t(m) + 1}) {
    size_t hits = 777;
    EXPECT_EQ(bb_find_batch_select_from(&c.f, c.hashes.data(), kRows, buffer.data() + m, m,
                                        buffer.data() + m + shift, &hits),
              BB_ERR_SELECTION_OVERLAP)
        << "shift " << shift;
    EXPECT_EQ(hits, 777u);
    EXPECT_EQ(buffer, before);
  }
  // A byte-wise partial overlap too (an odd address for sel_out).
  uint8_t* odd = reinterpret_cast<uint8_t*>(buffer.data() + m) + 2;
  EXPECT_EQ(bb_find_batch_select_from(&c.f, c.hashes.data(), kRows, buffer.data() + m, m,
                                      reinterpret_cast<uint32_t*>(odd), nullptr),
            BB_ERR_SELECTION_OVERLAP);
  EXPECT_EQ(buffer, before);
}

TEST(SelectFrom, AnIndexAtOrPastNIsRefusedBeforeAnythingIsWritten) {
  ParquetCase c;
  const std::vector<uint32_t> good = EveryThirdRow(kRows);
  for (size_t at : {size_t{0}, good.size() / 2, good.size() - 1}) {
    for (uint32_t bad : {static_cast<uint32_t>(kRows), static_cast<uint32_t>(kRows + 1), UINT32_MAX}) {
      std::vector<uint32_t> sel(good);
      sel[at] = bad;
      std::vector<uint32_t> out(sel.size(), 0x5555);
      size_t hits = 777;
      EXPECT_EQ(bb_find_batch_select_from(&c.f, c.hashes.data(), kRows, sel.data(), sel.size(),
                                          out.data(), &hits),
                BB_ERR_SELECTION_OUT_OF_RANGE)
          << "at " << at << " bad " << bad;
      EXPECT_EQ(hits, 777u);
      EXPECT_EQ(out, std::vector<uint32_t>(sel.size(), 0x5555));
      // In place: the selection itself is left as it was.
      const std::vector<uint32_t> before(sel);
      EXPECT_EQ(bb_find_batch_select_from(&c.f, c.hashes.data(), kRows, sel.data(), sel.size(),
                                          sel.data(), &hits),
                BB_ERR_SELECTION_OUT_OF_RANGE);
      EXPECT_EQ(sel, before);
    }
  }
  // n == 0: every index is out of range; hashes may then be NULL.
  const uint32_t zero = 0;
  uint32_t out = 9;
  EXPECT_EQ(bb_find_batch_select_from(&c.f, nullptr, 0, &zero, 1, &out, nullptr),
            BB_ERR_SELECTION_OUT_OF_RANGE);
  EXPECT_EQ(out, 9u);
  // The largest valid index is fine.
  const uint32_t last = kRows - 1;
  EXPECT_EQ(bb_find_batch_select_from(&c.f, c.hashes.data(), kRows, &last, 1, &out, nullptr), BB_OK);
}

TEST(SelectFrom, NullArgumentsAndOtherLayoutsAreRefused) {
  ParquetCase c;
  uint32_t sel[2] = {0, 1}, out[2];
  size_t hits = 5;
  EXPECT_EQ(bb_find_batch_select_from(nullptr, c.hashes.data(), kRows, sel, 2, out, &hits),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_find_batch_select_from(&c.f, nullptr, kRows, sel, 2, out, &hits), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_find_batch_select_from(&c.f, c.hashes.data(), kRows, nullptr, 2, out, &hits),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_find_batch_select_from(&c.f, c.hashes.data(), kRows, sel, 2, nullptr, &hits),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(hits, 5u);
  // m == 0: nothing needed but the filter.
  EXPECT_EQ(bb_find_batch_select_from(&c.f, nullptr, 0, nullptr, 0, nullptr, &hits), BB_OK);
  EXPECT_EQ(hits, 0u);
  bb_filter kudu;
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 8, 0), BB_OK);
  const uint32_t hashes32[2] = {1, 2};
  EXPECT_EQ(bb_find_batch_select_from(&kudu, c.hashes.data(), kRows, sel, 2, out, &hits),
            BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_kudu_find_batch_select_from(&c.f, hashes32, 2, sel, 2, out, &hits),
            BB_ERR_LAYOUT_MISMATCH);
  bb_filter_release(&kudu);
}

TEST(BitmapAnd, EqualsTheDenseBitmapAndedInAndKeepsTheBitsPastN) {
  ParquetCase c;
  for (size_t n : {size_t{1}, size_t{9}, size_t{255}, size_t{256}, size_t{257}, kRows - 3}) {
    SCOPED_TRACE(n);
    std::vector<uint8_t> bitmap((n + 7) / 8);
    const std::vector<uint64_t> noise = oracle::Hashes(n, bitmap.size());
    for (size_t b = 0; b < bitmap.size(); ++b) bitmap[b] = static_cast<uint8_t>(noise[b]);
    std::vector<uint8_t> dense(bitmap.size());
    ASSERT_EQ(bb_find_batch_bitmap(&c.f, c.hashes.data(), n, dense.data(), nullptr), BB_OK);
    std::vector<uint8_t> want(bitmap);
    size_t want_hits = 0;
    for (size_t b = 0; b < want.size(); ++b) {
      const uint32_t rows = n - 8 * b >= 8 ? 0xffu : (1u << (n % 8)) - 1;  // bits that are rows
      want[b] = static_cast<uint8_t>((want[b] & dense[b]) | (want[b] & ~rows));
      want_hits += static_cast<size_t>(__builtin_popcount(want[b] & rows));
    }
    size_t hits = 0;
    ASSERT_EQ(bb_find_batch_bitmap_and(&c.f, c.hashes.data(), n, bitmap.data(), &hits), BB_OK);
    EXPECT_EQ(bitmap, want);
    EXPECT_EQ(hits, want_hits);
  }
}

TEST(BitmapAnd, NullArgumentsAndOtherLayoutsAreRefusedUntouched) {
  ParquetCase c;
  uint8_t bitmap[2] = {0xff, 0xff};
  size_t hits = 5;
  EXPECT_EQ(bb_find_batch_bitmap_and(nullptr, c.hashes.data(), 9, bitmap, &hits), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_find_batch_bitmap_and(&c.f, nullptr, 9, bitmap, &hits), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_find_batch_bitmap_and(&c.f, c.hashes.data(), 9, nullptr, &hits), BB_ERR_NULL_POINTER);
  const uint32_t hashes32[9] = {};
  EXPECT_EQ(bb_kudu_find_batch_bitmap_and(&c.f, hashes32, 9, bitmap, &hits), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(hits, 5u);
  EXPECT_EQ(bitmap[0], 0xff);
  EXPECT_EQ(bitmap[1], 0xff);
  EXPECT_EQ(bb_find_batch_bitmap_and(&c.f, nullptr, 0, nullptr, &hits), BB_OK);
  EXPECT_EQ(hits, 0u);
}

TEST(KuduPipeline, AnswersEqualTheDenseProbesRestrictedToTheLiveRows) {
  bb_filter f;
  ASSERT_EQ(bb_kudu_filter_init(&f, 12, 7), BB_OK);
  const std::vector<uint32_t> hashes = oracle::Hashes32(5, kRows);
  for (size_t i = 0; i < kRows; i += 2) ASSERT_EQ(bb_kudu_insert(&f, hashes[i]), BB_OK);
  const std::vector<uint32_t> sel = EveryThirdRow(kRows);
  std::vector<uint32_t> out(sel.size());
  size_t hits = 0;
  ASSERT_EQ(bb_kudu_find_batch_select_from(&f, hashes.data(), kRows, sel.data(), sel.size(),
                                           out.data(), &hits),
            BB_OK);
  std::vector<uint32_t> want;
  for (uint32_t row : sel) {
    if (bb_kudu_find(&f, hashes[row]) > 0) want.push_back(row);
  }
  out.resize(hits);
  EXPECT_EQ(out, want);
  std::vector<uint8_t> bitmap(kRows / 8, 0xff), dense(kRows / 8);
  ASSERT_EQ(bb_kudu_find_batch_bitmap(&f, hashes.data(), kRows, dense.data(), &hits), BB_OK);
  size_t and_hits = 0;
  ASSERT_EQ(bb_kudu_find_batch_bitmap_and(&f, hashes.data(), kRows, bitmap.data(), &and_hits), BB_OK);
  EXPECT_EQ(bitmap, dense);
  EXPECT_EQ(and_hits, hits);
  bb_filter_release(&f);
}

// An always-false filter over a directory mapped with no access: any read
// of it would be a SIGSEGV.
TEST(KuduPipeline, AlwaysFalseAnswersZeroForEveryRowWithoutReadingTheFilter) {
  void* p = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  bb_filter f;
  ASSERT_EQ(bb_kudu_filter_init_view_readonly(&f, p, 4096, 1, 0), BB_OK);
  const std::vector<uint32_t> hashes = oracle::Hashes32(6, kRows);
  std::vector<uint32_t> sel = EveryThirdRow(kRows);
  std::vector<uint32_t> out(sel.size(), 0x4444);
  size_t hits = 99;
  ASSERT_EQ(bb_kudu_find_batch_select_from(&f, hashes.data(), kRows, sel.data(), sel.size(),
                                           out.data(), &hits),
            BB_OK);
  EXPECT_EQ(hits, 0u);
  EXPECT_EQ(out, std::vector<uint32_t>(sel.size(), 0x4444));  // no row written
  // The selection is still checked.
  sel.back() = kRows;
  EXPECT_EQ(bb_kudu_find_batch_select_from(&f, hashes.data(), kRows, sel.data(), sel.size(),
                                           out.data(), &hits),
            BB_ERR_SELECTION_OUT_OF_RANGE);
  // 1003 rows: bytes 0 .. 124 cleared, bits 3 .. 7 of byte 125 kept.
  std::vector<uint8_t> bitmap(126, 0xff);
  hits = 99;
  ASSERT_EQ(bb_kudu_find_batch_bitmap_and(&f, hashes.data(), 1003, bitmap.data(), &hits), BB_OK);
  EXPECT_EQ(hits, 0u);
  std::vector<uint8_t> want(126, 0);
  want[125] = 0xf8;
  EXPECT_EQ(bitmap, want);
  munmap(p, 4096);
}

TEST(CppPipeline, WrappersReturnTheHitsAndThrowTheCodes) {
  blockbloom::Filter filter(4096);
  const std::vector<uint64_t> hashes = oracle::Hashes(8, kRows);
  filter.insert_batch(hashes.data(), kRows / 2);  // rows 0 .. 499
  std::vector<uint32_t> sel = {0, 499, 500, 999};
  const blockbloom::ConstView view(filter.data(), filter.num_bytes());
  const size_t kept = view.find_batch_select_from(hashes.data(), kRows, sel.data(), sel.size(), sel.data());
  ASSERT_GE(kept, 2u);  // no false negatives: rows 0 and 499
  EXPECT_EQ(sel[0], 0u);
  EXPECT_EQ(sel[1], 499u);
  std::vector<uint8_t> bitmap(kRows / 8, 0x0f);
  const size_t left = filter.find_batch_bitmap_and(hashes.data(), kRows, bitmap.data());
  EXPECT_GE(left, kRows / 4);  // the low half of bytes 0 .. 62 holds inserted rows
  EXPECT_EQ(bitmap[0], 0x0f);
  uint32_t bad = kRows;
  try {
    view.find_batch_select_from(hashes.data(), kRows, &bad, 1, &bad);
    ADD_FAILURE() << "no exception";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_SELECTION_OUT_OF_RANGE);
  }
  EXPECT_THROW(view.find_batch_bitmap_and(hashes.data(), kRows, nullptr), blockbloom::Error);
}

}  // namespace
