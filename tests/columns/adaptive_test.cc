// SPDX-License-Identifier: Apache-2.0
// The adaptive runtime filter (blockbloom/adaptive.h), through the public
// API: when it decides, what it decides, what it counts, and what the
// wrappers write once the filter is off.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "blockbloom/adaptive.h"
#include "blockbloom/adaptive.hpp"
#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "blockbloom/kudu.h"

namespace {

// An int64 column of n values, no validity.
bb_column Int64Column(const int64_t* values, size_t n) {
  bb_column col = BB_COLUMN_INIT;
  col.type = BB_TYPE_INT64;
  col.length = n;
  col.values = values;
  return col;
}

bb_adaptive Fresh(uint64_t sample_rows, double fraction) {
  bb_adaptive a;
  EXPECT_EQ(bb_adaptive_init(&a, sample_rows, fraction), BB_OK);
  return a;
}

// ------------------------------------------------------------- the struct

TEST(AdaptiveStruct, LayoutIsFixedWidthAndSixtyFourBytes) {
  // Public, caller-allocated: its size and offsets are ABI.
  EXPECT_EQ(sizeof(bb_adaptive), 64u);
  EXPECT_EQ(offsetof(bb_adaptive, sample_rows), 0u);
  EXPECT_EQ(offsetof(bb_adaptive, min_reject_fraction), 8u);
  EXPECT_EQ(offsetof(bb_adaptive, rows_probed), 16u);
  EXPECT_EQ(offsetof(bb_adaptive, rows_passed), 24u);
  EXPECT_EQ(offsetof(bb_adaptive, rows_not_probed), 32u);
  EXPECT_EQ(offsetof(bb_adaptive, decision_rows), 40u);
  EXPECT_EQ(offsetof(bb_adaptive, decision_rejected), 48u);
  EXPECT_EQ(offsetof(bb_adaptive, state), 56u);
  EXPECT_EQ(offsetof(bb_adaptive, reserved), 60u);
}

TEST(AdaptiveInit, StartsUndecidedWithEveryCounterZero) {
  bb_adaptive a;
  std::memset(&a, 0xab, sizeof a);  // init overwrites garbage
  ASSERT_EQ(bb_adaptive_init(&a, 1000, 0.25), BB_OK);
  EXPECT_EQ(a.sample_rows, 1000u);
  EXPECT_EQ(a.min_reject_fraction, 0.25);
  EXPECT_EQ(a.rows_probed, 0u);
  EXPECT_EQ(a.rows_passed, 0u);
  EXPECT_EQ(a.rows_not_probed, 0u);
  EXPECT_EQ(a.decision_rows, 0u);
  EXPECT_EQ(a.decision_rejected, 0u);
  EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_SAMPLING));
  EXPECT_EQ(a.reserved, 0u);
}

TEST(AdaptiveInit, RefusesBadParametersWithDistinctCodesAndLeavesTheStructUntouched) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    uint64_t sample_rows;
    double fraction;
    int status;
  };
  const Case cases[] = {
      {0, 0.1, BB_ERR_INVALID_ROW_COUNT},
      {0, nan, BB_ERR_INVALID_ROW_COUNT},  // the row count is checked first
      {1, -0.0001, BB_ERR_INVALID_REJECT_FRACTION},
      {1, 1.0000001, BB_ERR_INVALID_REJECT_FRACTION},
      {1, nan, BB_ERR_INVALID_REJECT_FRACTION},
      {1, -nan, BB_ERR_INVALID_REJECT_FRACTION},
      {1, inf, BB_ERR_INVALID_REJECT_FRACTION},
      {1, -inf, BB_ERR_INVALID_REJECT_FRACTION},
  };
  for (const Case& c : cases) {
    bb_adaptive a;
    std::memset(&a, 0x5c, sizeof a);
    unsigned char before[sizeof a];
    std::memcpy(before, &a, sizeof a);
    EXPECT_EQ(bb_adaptive_init(&a, c.sample_rows, c.fraction), c.status)
        << c.sample_rows << " " << c.fraction;
    EXPECT_EQ(std::memcmp(before, &a, sizeof a), 0);
  }
  EXPECT_NE(BB_ERR_INVALID_ROW_COUNT, BB_ERR_INVALID_REJECT_FRACTION);
  EXPECT_EQ(bb_adaptive_init(nullptr, 1, 0.1), BB_ERR_NULL_POINTER);
  bb_adaptive a;
  EXPECT_EQ(bb_adaptive_init(&a, 1, 0.0), BB_OK);
  EXPECT_EQ(bb_adaptive_init(&a, 1, 1.0), BB_OK);
  EXPECT_EQ(bb_adaptive_init(&a, 1, -0.0), BB_OK);
  EXPECT_EQ(bb_adaptive_init(&a, UINT64_MAX, 0.5), BB_OK);
}

// ------------------------------------------------------ the generic protocol

TEST(AdaptiveDecision, IsTakenExactlyWhenSampleRowsHaveBeenProbed) {
  // 100 rows at 0.5: 50 rejected is enough (>=), 49 is not. The 100th row
  // decides: passed or rejected.
  for (size_t last_passed : {size_t{0}, size_t{1}}) {
    bb_adaptive a = Fresh(100, 0.5);
    ASSERT_EQ(bb_adaptive_record(&a, 60, 20), BB_OK);
    ASSERT_EQ(bb_adaptive_record(&a, 39, 30), BB_OK);
    EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_SAMPLING)) << "99 of 100 rows";
    EXPECT_EQ(a.decision_rows, 0u);
    EXPECT_EQ(bb_adaptive_should_probe(&a, 1), 1);
    ASSERT_EQ(bb_adaptive_record(&a, 1, last_passed), BB_OK);
    EXPECT_EQ(a.decision_rows, 100u);
    EXPECT_EQ(a.decision_rejected, 50u - last_passed);
    EXPECT_EQ(a.state, static_cast<uint32_t>(last_passed == 0 ? BB_ADAPTIVE_KEPT
                                                              : BB_ADAPTIVE_DISABLED));
    EXPECT_EQ(bb_adaptive_should_probe(&a, 5), last_passed == 0 ? 1 : 0);
  }
}

TEST(AdaptiveDecision, RejectingExactlyTheFractionKeepsTheFilter) {
  for (uint64_t rejected = 0; rejected <= 10; ++rejected) {
    bb_adaptive a = Fresh(10, 0.3);
    ASSERT_EQ(bb_adaptive_record(&a, 10, 10 - rejected), BB_OK);
    EXPECT_EQ(a.state, static_cast<uint32_t>(rejected >= 3 ? BB_ADAPTIVE_KEPT
                                                           : BB_ADAPTIVE_DISABLED))
        << rejected;
    EXPECT_EQ(a.decision_rejected, rejected);
  }
}

TEST(AdaptiveDecision, BatchThatStraddlesSampleRowsIsCountedWhole) {
  // sample 100 in batches of 64: the decision comes after the second batch,
  // over its 128 rows; 40 rejected of 128 is 31%: kept at 0.3, off at 0.32.
  for (double fraction : {0.3, 0.32}) {
    bb_adaptive a = Fresh(100, fraction);
    ASSERT_EQ(bb_adaptive_should_probe(&a, 64), 1);
    ASSERT_EQ(bb_adaptive_record(&a, 64, 64), BB_OK);  // nothing rejected yet
    EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_SAMPLING));
    ASSERT_EQ(bb_adaptive_should_probe(&a, 64), 1);
    ASSERT_EQ(bb_adaptive_record(&a, 64, 24), BB_OK);
    EXPECT_EQ(a.decision_rows, 128u);
    EXPECT_EQ(a.decision_rejected, 40u);
    EXPECT_EQ(a.state, static_cast<uint32_t>(fraction == 0.3 ? BB_ADAPTIVE_KEPT
                                                             : BB_ADAPTIVE_DISABLED));
  }
  // One batch larger than the whole sample.
  bb_adaptive a = Fresh(10, 0.5);
  ASSERT_EQ(bb_adaptive_record(&a, 1000, 100), BB_OK);
  EXPECT_EQ(a.decision_rows, 1000u);
  EXPECT_EQ(a.decision_rejected, 900u);
  EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_KEPT));
}

TEST(AdaptiveDecision, FractionZeroNeverDisablesAndOneDisablesUnlessEverythingWasRejected) {
  bb_adaptive zero = Fresh(5, 0.0);
  ASSERT_EQ(bb_adaptive_record(&zero, 5, 5), BB_OK);  // rejected nothing
  EXPECT_EQ(zero.state, static_cast<uint32_t>(BB_ADAPTIVE_KEPT));

  bb_adaptive all = Fresh(5, 1.0);
  ASSERT_EQ(bb_adaptive_record(&all, 5, 0), BB_OK);
  EXPECT_EQ(all.state, static_cast<uint32_t>(BB_ADAPTIVE_KEPT));
  bb_adaptive one_passed = Fresh(5, 1.0);
  ASSERT_EQ(bb_adaptive_record(&one_passed, 5, 1), BB_OK);
  EXPECT_EQ(one_passed.state, static_cast<uint32_t>(BB_ADAPTIVE_DISABLED));
}

TEST(AdaptiveDecision, FractionOneIsExactAtCountsBeyondDoublePrecision) {
  if (sizeof(size_t) < 8) GTEST_SKIP() << "needs a 64-bit size_t to record 2^60 rows at once";
  // 2^60 - 1 rejected of 2^60: as doubles both are 2^60 and the filter would
  // wrongly stay on.
  const uint64_t rows = uint64_t{1} << 60;
  bb_adaptive a = Fresh(rows, 1.0);
  ASSERT_EQ(bb_adaptive_record(&a, static_cast<size_t>(rows), 1), BB_OK);
  EXPECT_EQ(a.decision_rejected, rows - 1);
  EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_DISABLED));
}

TEST(AdaptiveDecision, IsTakenOnceAndNeverRevisited) {
  bb_adaptive a = Fresh(10, 0.5);
  ASSERT_EQ(bb_adaptive_record(&a, 10, 0), BB_OK);  // kept
  ASSERT_EQ(bb_adaptive_record(&a, 1000, 1000), BB_OK);  // later rows all pass
  EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_KEPT));
  EXPECT_EQ(a.decision_rows, 10u);
  EXPECT_EQ(a.decision_rejected, 10u);
  EXPECT_EQ(bb_adaptive_should_probe(&a, 7), 1);
  EXPECT_EQ(a.rows_not_probed, 0u);

  bb_adaptive off = Fresh(10, 0.5);
  ASSERT_EQ(bb_adaptive_record(&off, 10, 10), BB_OK);
  ASSERT_EQ(off.state, static_cast<uint32_t>(BB_ADAPTIVE_DISABLED));
  // A caller that probes anyway is counted, and the decision stands.
  ASSERT_EQ(bb_adaptive_record(&off, 10, 0), BB_OK);
  EXPECT_EQ(off.state, static_cast<uint32_t>(BB_ADAPTIVE_DISABLED));
  EXPECT_EQ(off.rows_probed, 20u);
  EXPECT_EQ(off.decision_rows, 10u);
}

TEST(AdaptiveDecision, AScanShorterThanTheSampleNeverDecides) {
  bb_adaptive a = Fresh(1000, 0.9);
  for (int i = 0; i < 9; ++i) {
    ASSERT_EQ(bb_adaptive_should_probe(&a, 100), 1);
    ASSERT_EQ(bb_adaptive_record(&a, 100, 100), BB_OK);
  }
  EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_SAMPLING));
  EXPECT_EQ(a.rows_probed, 900u);
  EXPECT_EQ(a.decision_rows, 0u);
}

TEST(AdaptiveCounters, AreSixtyFourBitAndAddUp) {
  bb_adaptive a = Fresh(uint64_t{1} << 40, 0.5);
  const size_t batch = UINT32_MAX;  // fits any size_t
  for (int i = 0; i < 3; ++i) ASSERT_EQ(bb_adaptive_record(&a, batch, batch / 3), BB_OK);
  EXPECT_EQ(a.rows_probed, 3 * uint64_t{UINT32_MAX});
  EXPECT_EQ(a.rows_passed, 3 * uint64_t{UINT32_MAX / 3});
  EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_SAMPLING));

  bb_adaptive off = Fresh(4, 0.5);
  ASSERT_EQ(bb_adaptive_record(&off, 4, 4), BB_OK);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(bb_adaptive_should_probe(&off, batch), 0);
  EXPECT_EQ(off.rows_not_probed, 3 * uint64_t{UINT32_MAX});
  EXPECT_EQ(off.rows_probed, 4u);
}

TEST(AdaptiveProtocol, RefusesImpossibleCountsAndNullWithoutCounting) {
  bb_adaptive a = Fresh(10, 0.5);
  ASSERT_EQ(bb_adaptive_record(&a, 3, 1), BB_OK);
  const bb_adaptive before = a;
  EXPECT_EQ(bb_adaptive_record(&a, 5, 6), BB_ERR_INVALID_ROW_COUNT);
  EXPECT_EQ(bb_adaptive_record(&a, 0, 1), BB_ERR_INVALID_ROW_COUNT);
  EXPECT_EQ(std::memcmp(&before, &a, sizeof a), 0);
  EXPECT_EQ(bb_adaptive_record(nullptr, 1, 1), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_adaptive_should_probe(nullptr, 1), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_adaptive_record(&a, 0, 0), BB_OK);  // an empty batch is fine
  EXPECT_EQ(a.rows_probed, 3u);
}

// ---------------------------------------------------------------- wrappers

// A Parquet filter holding the even hashes of Hashes(n); the odd ones mostly miss.
struct ParquetFixture {
  bb_filter f{};
  std::vector<uint64_t> hashes;
  explicit ParquetFixture(size_t n) {
    EXPECT_EQ(bb_filter_init(&f, 4096), BB_OK);
    for (size_t i = 0; i < n; ++i) hashes.push_back((i + 1) * 0x9e3779b97f4a7c15ull);
    for (size_t i = 0; i < n; i += 2) EXPECT_EQ(bb_insert(&f, hashes[i]), BB_OK);
  }
  ~ParquetFixture() { bb_filter_release(&f); }
};

// The bytes a filter that lets everything through writes, plus a sentinel.
std::vector<uint8_t> AllSet(size_t n) {
  std::vector<uint8_t> bitmap((n + 7) / 8, 0xff);
  if (n % 8 != 0) bitmap.back() = static_cast<uint8_t>((1u << (n % 8)) - 1);
  bitmap.push_back(0xa5);
  return bitmap;
}

std::vector<uint32_t> Identity(size_t n) {
  std::vector<uint32_t> selection;
  for (size_t i = 0; i < n; ++i) selection.push_back(static_cast<uint32_t>(i));
  selection.push_back(0xdeadbeef);
  return selection;
}

bb_adaptive Disabled() {
  bb_adaptive a = Fresh(1, 0.5);
  EXPECT_EQ(bb_adaptive_record(&a, 1, 1), BB_OK);
  EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_DISABLED));
  return a;
}

TEST(AdaptiveWrappers, WhileOnTheyAnswerAsTheCallTheyWrap) {
  ParquetFixture p(300);
  bb_adaptive a = Fresh(1000000, 0.1);
  for (size_t start = 0; start < 300; start += 100) {
    std::vector<uint8_t> want(13, 0xa5), got(13, 0xa5);
    size_t want_hits = 0, got_hits = 0;
    ASSERT_EQ(bb_find_batch_bitmap(&p.f, p.hashes.data() + start, 100, want.data(), &want_hits),
              BB_OK);
    ASSERT_EQ(bb_adaptive_find_batch_bitmap(&a, &p.f, p.hashes.data() + start, 100, got.data(),
                                            &got_hits),
              BB_OK);
    EXPECT_EQ(got, want);
    EXPECT_EQ(got_hits, want_hits);
    std::vector<uint32_t> want_sel(100), got_sel(100);
    ASSERT_EQ(bb_find_batch_select(&p.f, p.hashes.data() + start, 100, want_sel.data(),
                                   &want_hits),
              BB_OK);
    ASSERT_EQ(bb_adaptive_find_batch_select(&a, &p.f, p.hashes.data() + start, 100,
                                            got_sel.data(), &got_hits),
              BB_OK);
    EXPECT_EQ(got_hits, want_hits);
    EXPECT_EQ(std::vector<uint32_t>(got_sel.begin(), got_sel.begin() + got_hits),
              std::vector<uint32_t>(want_sel.begin(), want_sel.begin() + want_hits));
  }
  EXPECT_EQ(a.rows_probed, 600u);
  EXPECT_GE(a.rows_passed, 300u);  // the 150 inserted hashes, twice, and false positives
  EXPECT_LT(a.rows_passed, 400u);
  EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_SAMPLING));
}

TEST(AdaptiveWrappers, PassThroughOutputsAreBitExact) {
  ParquetFixture p(1100);
  std::vector<int64_t> values(1100);
  std::vector<uint32_t> kudu_hashes(1100);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<int64_t>(i * 7919);
    kudu_hashes[i] = static_cast<uint32_t>(p.hashes[i]);
  }
  bb_filter kudu;
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 12, 0), BB_OK);
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{63}, size_t{64},
                   size_t{65}, size_t{1023}, size_t{1024}, size_t{1025}, size_t{1100}}) {
    SCOPED_TRACE(n);
    const std::vector<uint8_t> all_set = AllSet(n);
    const std::vector<uint32_t> identity = Identity(n);
    const bb_column col = Int64Column(values.data(), n);
    const auto check_bitmap = [&](auto call) {
      bb_adaptive a = Disabled();
      std::vector<uint8_t> bitmap(n / 8 + 2, 0xa5);
      size_t hits = 12345;
      ASSERT_EQ(call(&a, bitmap.data(), &hits), BB_OK);
      EXPECT_EQ(std::vector<uint8_t>(bitmap.begin(), bitmap.begin() + all_set.size()), all_set);
      EXPECT_EQ(hits, n);
      EXPECT_EQ(a.rows_not_probed, n);
      EXPECT_EQ(a.rows_probed, 1u);  // only the batch that decided
      ASSERT_EQ(call(&a, bitmap.data(), nullptr), BB_OK);  // hits may be NULL
      EXPECT_EQ(a.rows_not_probed, 2 * n);
    };
    const auto check_select = [&](auto call) {
      bb_adaptive a = Disabled();
      std::vector<uint32_t> selection(n + 1, 0xdeadbeef);
      size_t hits = 12345;
      ASSERT_EQ(call(&a, selection.data(), &hits), BB_OK);
      EXPECT_EQ(selection, identity);
      EXPECT_EQ(hits, n);
      EXPECT_EQ(a.rows_not_probed, n);
    };
    check_bitmap([&](bb_adaptive* a, uint8_t* out, size_t* hits) {
      return bb_adaptive_find_batch_bitmap(a, &p.f, p.hashes.data(), n, out, hits);
    });
    check_bitmap([&](bb_adaptive* a, uint8_t* out, size_t* hits) {
      return bb_adaptive_kudu_find_batch_bitmap(a, &kudu, kudu_hashes.data(), n, out, hits);
    });
    check_bitmap([&](bb_adaptive* a, uint8_t* out, size_t* hits) {
      return bb_adaptive_find_column_bitmap(a, &p.f, &col, out, hits);
    });
    check_bitmap([&](bb_adaptive* a, uint8_t* out, size_t* hits) {
      return bb_adaptive_find_column_bitmap(a, &kudu, &col, out, hits);
    });
    check_select([&](bb_adaptive* a, uint32_t* out, size_t* hits) {
      return bb_adaptive_find_batch_select(a, &p.f, p.hashes.data(), n, out, hits);
    });
    check_select([&](bb_adaptive* a, uint32_t* out, size_t* hits) {
      return bb_adaptive_kudu_find_batch_select(a, &kudu, kudu_hashes.data(), n, out, hits);
    });
    check_select([&](bb_adaptive* a, uint32_t* out, size_t* hits) {
      return bb_adaptive_find_column_select(a, &p.f, &col, out, hits);
    });
    check_select([&](bb_adaptive* a, uint32_t* out, size_t* hits) {
      return bb_adaptive_find_column_select(a, &kudu, &col, out, hits);
    });
  }
  bb_filter_release(&kudu);
}

// Read-only views of both layouts over a page nobody may read: a probe of
// either would fault.
struct NoAccessFilters {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* mem = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  bb_filter parquet{}, kudu{};
  NoAccessFilters() {
    EXPECT_NE(mem, MAP_FAILED);
    EXPECT_EQ(bb_filter_init_view_readonly(&parquet, mem, page), BB_OK);
    EXPECT_EQ(bb_kudu_filter_init_view_readonly(&kudu, mem, page, 0, 0), BB_OK);
    EXPECT_EQ(mprotect(mem, page, PROT_NONE), 0);
  }
  ~NoAccessFilters() { EXPECT_EQ(munmap(mem, page), 0); }
};

TEST(AdaptiveWrappers, PassThroughNeverReadsTheBitset) {
  NoAccessFilters views;
  bb_filter& parquet = views.parquet;
  bb_filter& kudu = views.kudu;

  const uint64_t hashes[3] = {1, 2, 3};
  const uint32_t hashes32[3] = {1, 2, 3};
  const int64_t values[3] = {1, 2, 3};
  uint8_t bitmap[1];
  uint32_t selection[3];
  size_t hits = 0;
  const bb_column col = Int64Column(values, 3);
  bb_adaptive a = Disabled();
  EXPECT_EQ(bb_adaptive_find_batch_bitmap(&a, &parquet, hashes, 3, bitmap, &hits), BB_OK);
  EXPECT_EQ(bb_adaptive_find_batch_select(&a, &parquet, hashes, 3, selection, &hits), BB_OK);
  EXPECT_EQ(bb_adaptive_kudu_find_batch_bitmap(&a, &kudu, hashes32, 3, bitmap, &hits), BB_OK);
  EXPECT_EQ(bb_adaptive_kudu_find_batch_select(&a, &kudu, hashes32, 3, selection, &hits), BB_OK);
  EXPECT_EQ(bb_adaptive_find_column_bitmap(&a, &parquet, &col, bitmap, &hits), BB_OK);
  EXPECT_EQ(bb_adaptive_find_column_select(&a, &kudu, &col, selection, &hits), BB_OK);
  EXPECT_EQ(bitmap[0], 0x07);
  EXPECT_EQ(hits, 3u);
  EXPECT_EQ(a.rows_not_probed, 18u);
}

TEST(AdaptiveWrappers, UnselectiveFilterTurnsItselfOffAtTheBoundaryOnBothLayouts) {
  // Every probed hash was inserted: nothing is rejected, so at 10% the
  // filter goes off once 256 rows were probed (four batches of 64).
  bb_filter parquet, kudu;
  ASSERT_EQ(bb_filter_init(&parquet, 1024), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 10, 99), BB_OK);
  std::vector<int64_t> values(64 * 8);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i);
  const bb_column all = Int64Column(values.data(), values.size());
  ASSERT_EQ(bb_insert_column(&parquet, &all), BB_OK);
  ASSERT_EQ(bb_insert_column(&kudu, &all), BB_OK);
  for (const bb_filter* f : {&parquet, &kudu}) {
    SCOPED_TRACE(f->layout);
    bb_adaptive a = Fresh(256, 0.1);
    for (size_t batch = 0; batch < 8; ++batch) {
      std::vector<uint32_t> selection(64);
      size_t hits = 0;
      const bb_column col = Int64Column(values.data() + 64 * batch, 64);
      ASSERT_EQ(bb_adaptive_find_column_select(&a, f, &col, selection.data(), &hits), BB_OK);
      EXPECT_EQ(hits, 64u);
      std::vector<uint32_t> identity = Identity(64);
      identity.pop_back();  // the sentinel
      EXPECT_EQ(selection, identity);
      EXPECT_EQ(a.state, static_cast<uint32_t>(batch < 3 ? BB_ADAPTIVE_SAMPLING
                                                          : BB_ADAPTIVE_DISABLED))
          << batch;
    }
    EXPECT_EQ(a.rows_probed, 256u);
    EXPECT_EQ(a.rows_passed, 256u);
    EXPECT_EQ(a.rows_not_probed, 256u);
    EXPECT_EQ(a.decision_rows, 256u);
    EXPECT_EQ(a.decision_rejected, 0u);
  }
  bb_filter_release(&parquet);
  bb_filter_release(&kudu);
}

TEST(AdaptiveWrappers, SelectiveFilterStaysOnAndKeepsFiltering) {
  ParquetFixture p(2000);
  bb_adaptive a = Fresh(1000, 0.3);  // about half of the rows are rejected
  size_t total_hits = 0;
  for (size_t start = 0; start < 2000; start += 250) {
    std::vector<uint8_t> bitmap(32);
    size_t hits = 0;
    ASSERT_EQ(bb_adaptive_find_batch_bitmap(&a, &p.f, p.hashes.data() + start, 250,
                                            bitmap.data(), &hits),
              BB_OK);
    EXPECT_LT(hits, 250u);
    total_hits += hits;
  }
  EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_KEPT));
  EXPECT_EQ(a.decision_rows, 1000u);
  EXPECT_GE(a.decision_rejected, 300u);
  EXPECT_EQ(a.rows_probed, 2000u);
  EXPECT_EQ(a.rows_passed, total_hits);
  EXPECT_EQ(a.rows_not_probed, 0u);
}

TEST(AdaptiveWrappers, KuduAlwaysFalseFilterRejectsEverythingAndIsAlwaysKept) {
  bb_filter kudu;
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 6, 0), BB_OK);  // nothing inserted
  ASSERT_NE(kudu.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  const uint32_t hashes[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  for (double fraction : {0.0, 0.5, 1.0}) {
    bb_adaptive a = Fresh(16, fraction);
    uint8_t bitmap[2] = {0xff, 0xff};
    size_t hits = 99;
    ASSERT_EQ(bb_adaptive_kudu_find_batch_bitmap(&a, &kudu, hashes, 16, bitmap, &hits), BB_OK);
    EXPECT_EQ(hits, 0u);
    EXPECT_EQ(bitmap[0] | bitmap[1], 0);
    EXPECT_EQ(a.decision_rejected, 16u);
    EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_KEPT)) << fraction;
  }
  bb_filter_release(&kudu);
}

TEST(AdaptiveWrappers, BadCallsFailAlikeBeforeAndAfterTheDecisionAndCountNothing) {
  ParquetFixture p(8);
  bb_filter kudu;
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 6, 0), BB_OK);
  bb_filter released;
  ASSERT_EQ(bb_filter_init(&released, 64), BB_OK);
  bb_filter_release(&released);
  const uint64_t* h = p.hashes.data();
  const uint32_t h32[8] = {};
  const int64_t v[8] = {};
  const size_t huge = size_t{UINT32_MAX} + 1;
  const bb_column no_values = Int64Column(nullptr, 8), huge_col = Int64Column(v, huge),
                  col = Int64Column(v, 8);
  for (const bool disabled : {false, true}) {
    SCOPED_TRACE(disabled);
    bb_adaptive a = disabled ? Disabled() : Fresh(1000, 0.5);
    const bb_adaptive before = a;
    uint8_t bitmap[4] = {0xa5, 0xa5, 0xa5, 0xa5};
    uint32_t sel[8] = {};
    size_t hits = 77;
    EXPECT_EQ(bb_adaptive_find_batch_bitmap(nullptr, &p.f, h, 8, bitmap, &hits),
              BB_ERR_NULL_POINTER);
    EXPECT_EQ(bb_adaptive_find_batch_bitmap(&a, nullptr, h, 8, bitmap, &hits),
              BB_ERR_NULL_POINTER);
    EXPECT_EQ(bb_adaptive_find_batch_bitmap(&a, &released, h, 8, bitmap, &hits),
              BB_ERR_NULL_POINTER);
    EXPECT_EQ(bb_adaptive_find_batch_bitmap(&a, &p.f, nullptr, 8, bitmap, &hits),
              BB_ERR_NULL_POINTER);
    EXPECT_EQ(bb_adaptive_find_batch_bitmap(&a, &p.f, h, 8, nullptr, &hits),
              BB_ERR_NULL_POINTER);
    EXPECT_EQ(bb_adaptive_find_batch_bitmap(&a, &kudu, h, 8, bitmap, &hits),
              BB_ERR_LAYOUT_MISMATCH);
    EXPECT_EQ(bb_adaptive_find_batch_select(&a, &kudu, h, 8, sel, &hits),
              BB_ERR_LAYOUT_MISMATCH);
    EXPECT_EQ(bb_adaptive_find_batch_select(&a, &p.f, h, 8, nullptr, &hits),
              BB_ERR_NULL_POINTER);
    EXPECT_EQ(bb_adaptive_find_batch_select(&a, &p.f, h, huge, sel, &hits),
              BB_ERR_BATCH_TOO_LARGE);
    EXPECT_EQ(bb_adaptive_kudu_find_batch_bitmap(&a, &p.f, h32, 8, bitmap, &hits),
              BB_ERR_LAYOUT_MISMATCH);
    EXPECT_EQ(bb_adaptive_kudu_find_batch_select(&a, &p.f, h32, 8, sel, &hits),
              BB_ERR_LAYOUT_MISMATCH);
    EXPECT_EQ(bb_adaptive_kudu_find_batch_select(&a, &kudu, h32, huge, sel, &hits),
              BB_ERR_BATCH_TOO_LARGE);
    EXPECT_EQ(bb_adaptive_find_column_bitmap(&a, &p.f, &no_values, bitmap, &hits),
              BB_ERR_NULL_POINTER);
    EXPECT_EQ(bb_adaptive_find_column_select(&a, &kudu, &huge_col, sel, &hits),
              BB_ERR_BATCH_TOO_LARGE);
    EXPECT_EQ(bb_adaptive_find_column_select(&a, nullptr, &col, sel, &hits),
              BB_ERR_NULL_POINTER);
    EXPECT_EQ(std::memcmp(&before, &a, sizeof a), 0);
    EXPECT_EQ(hits, 77u);
    EXPECT_EQ(bitmap[0], 0xa5);
  }
  bb_filter_release(&kudu);
}

// ------------------------------------------------------ typed columns

// int32 rows 0 .. n-1 with every third row null, the validity at bit offset 3
// of its bitmap (an Arrow slice).
struct NullableColumn {
  std::vector<int32_t> values;
  std::vector<uint8_t> validity;
  bb_column col = BB_COLUMN_INIT;
  explicit NullableColumn(size_t n) : validity((n + 3 + 7) / 8 + 1, 0) {
    for (size_t i = 0; i < n; ++i) {
      values.push_back(static_cast<int32_t>(i));
      const size_t bit = i + 3;
      if (i % 3 != 1) validity[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
    }
    col.type = BB_TYPE_INT32;
    col.length = n;
    col.values = values.data();
    col.validity = validity.data();
    col.validity_offset = 3;
  }
  bool Valid(size_t i) const { return i % 3 != 1; }
  size_t NumValid() const {
    size_t k = 0;
    for (size_t i = 0; i < values.size(); ++i) k += Valid(i);
    return k;
  }
};

TEST(AdaptiveColumns, WhileOnTheyAnswerAsTheColumnProbeAndCountOnlyValidRows) {
  const size_t n = 2500;  // more than two 1024-row chunks
  NullableColumn c(n);
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 8192), BB_OK);
  ASSERT_EQ(bb_insert_column(&f, &c.col), BB_OK);
  std::vector<uint8_t> expect_bits((n + 7) / 8), bits((n + 7) / 8);
  std::vector<uint32_t> expect_sel(n), sel(n);
  size_t expect_hits = 0, hits = 0, expect_sel_hits = 0, sel_hits = 0;
  ASSERT_EQ(bb_find_column_bitmap(&f, &c.col, expect_bits.data(), &expect_hits), BB_OK);
  ASSERT_EQ(bb_find_column_select(&f, &c.col, expect_sel.data(), &expect_sel_hits), BB_OK);
  bb_adaptive a = Fresh(1000000, 0.5);
  ASSERT_EQ(bb_adaptive_find_column_bitmap(&a, &f, &c.col, bits.data(), &hits), BB_OK);
  ASSERT_EQ(bb_adaptive_find_column_select(&a, &f, &c.col, sel.data(), &sel_hits), BB_OK);
  EXPECT_EQ(bits, expect_bits);
  EXPECT_EQ(hits, expect_hits);
  EXPECT_EQ(hits, c.NumValid());  // every valid value was inserted: no false negatives
  ASSERT_EQ(sel_hits, expect_sel_hits);
  EXPECT_TRUE(std::equal(sel.begin(), sel.begin() + sel_hits, expect_sel.begin()));
  EXPECT_EQ(a.rows_probed, 2 * c.NumValid());
  EXPECT_EQ(a.rows_passed, 2 * hits);
  EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_SAMPLING));
  bb_filter_release(&f);
}

TEST(AdaptiveColumns, NullsDoNotCountAsRejectedInTheDecision) {
  // The filter holds every valid value, so it rejects nothing that a filter
  // could reject; a third of the rows are null. Counting the nulls as
  // rejected would keep it at a 30% threshold.
  NullableColumn c(3000);
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 8192), BB_OK);
  ASSERT_EQ(bb_insert_column(&f, &c.col), BB_OK);
  std::vector<uint8_t> bits(3000 / 8 + 1);
  bb_adaptive a = Fresh(1000, 0.3);
  size_t hits = 0;
  ASSERT_EQ(bb_adaptive_find_column_bitmap(&a, &f, &c.col, bits.data(), &hits), BB_OK);
  EXPECT_EQ(a.state, static_cast<uint32_t>(BB_ADAPTIVE_DISABLED));
  EXPECT_EQ(a.decision_rows, c.NumValid());
  EXPECT_EQ(a.decision_rejected, 0u);
  bb_filter_release(&f);
}

TEST(AdaptiveColumns, OffTheValidRowsPassAndNullsDoNotWithoutReadingTheBitset) {
  NoAccessFilters views;
  bb_filter& parquet = views.parquet;
  bb_filter& kudu = views.kudu;
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{1024}, size_t{2051}}) {
    SCOPED_TRACE(n);
    NullableColumn c(n);
    for (const bb_filter* f : {&parquet, &kudu}) {
      bb_adaptive a = Disabled();
      std::vector<uint8_t> bits((n + 7) / 8 + 1, 0xa5);
      std::vector<uint32_t> sel(n + 1, 0xdeadbeef);
      size_t bit_hits = 99, sel_hits = 99;
      ASSERT_EQ(bb_adaptive_find_column_bitmap(&a, f, &c.col, bits.data(), &bit_hits), BB_OK);
      ASSERT_EQ(bb_adaptive_find_column_select(&a, f, &c.col, sel.data(), &sel_hits), BB_OK);
      EXPECT_EQ(bit_hits, c.NumValid());
      EXPECT_EQ(sel_hits, c.NumValid());
      size_t k = 0;
      for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ((bits[i / 8] >> (i % 8)) & 1u, c.Valid(i) ? 1u : 0u) << i;
        if (c.Valid(i)) EXPECT_EQ(sel[k++], i);
      }
      if (n % 8 != 0) EXPECT_EQ(bits[n / 8] >> (n % 8), 0u);  // unused high bits 0
      EXPECT_EQ(bits[(n + 7) / 8], 0xa5);                     // nothing past the bitmap
      EXPECT_EQ(sel[k], 0xdeadbeefu);                          // nothing past the hits
      EXPECT_EQ(a.rows_not_probed, 2 * n);  // every row of both calls, nulls too
    }
  }
}

TEST(AdaptiveColumns, OffTheBitmapMayOverwriteTheValidityBytes) {
  NullableColumn c(2051);
  c.col.validity_offset = 0;  // byte-aligned: in place is allowed
  std::vector<uint8_t> validity((2051 + 7) / 8);
  for (size_t i = 0; i < 2051; ++i) {
    if (c.Valid(i)) validity[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  const std::vector<uint8_t> expect = validity;
  c.col.validity = validity.data();
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 1024), BB_OK);
  bb_adaptive a = Disabled();
  size_t hits = 0;
  ASSERT_EQ(bb_adaptive_find_column_bitmap(&a, &f, &c.col, validity.data(), &hits), BB_OK);
  EXPECT_EQ(validity, expect);
  EXPECT_EQ(hits, c.NumValid());
  bb_filter_release(&f);
}

TEST(AdaptiveColumns, BadColumnsFailAlikeBeforeAndAfterTheDecisionAndCountNothing) {
  bb_filter parquet, kudu;
  ASSERT_EQ(bb_filter_init(&parquet, 1024), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 10, 0), BB_OK);
  const int64_t offsets_bad[3] = {0, 5, 2};  // decreasing
  const uint8_t data[8] = {0};
  uint8_t bits[8];
  uint32_t sel[8];
  for (bool off : {false, true}) {
    SCOPED_TRACE(off);
    bb_adaptive a = off ? Disabled() : Fresh(1000, 0.5);
    const bb_adaptive before = a;
    bb_column unknown = BB_COLUMN_INIT;
    unknown.type = 99;
    unknown.length = 1;
    bb_column strings = BB_COLUMN_INIT;
    strings.type = BB_TYPE_LARGE_BYTE_ARRAY;
    strings.length = 2;
    strings.offsets = offsets_bad;
    strings.data = data;
    strings.data_len = sizeof data;
    bb_column unsigned_col = BB_COLUMN_INIT;
    const uint32_t u[1] = {1};
    unsigned_col.type = BB_TYPE_UINT32;
    unsigned_col.length = 1;
    unsigned_col.values = u;
    EXPECT_EQ(bb_adaptive_find_column_bitmap(&a, &parquet, &unknown, bits, nullptr),
              BB_ERR_UNKNOWN_COLUMN_TYPE);
    EXPECT_EQ(bb_adaptive_find_column_select(&a, &parquet, &strings, sel, nullptr),
              BB_ERR_INVALID_OFFSETS);
    EXPECT_EQ(bb_adaptive_find_column_bitmap(&a, &kudu, &unsigned_col, bits, nullptr),
              BB_ERR_TYPE_NOT_IN_LAYOUT);
    EXPECT_EQ(bb_adaptive_find_column_bitmap(&a, &parquet, nullptr, bits, nullptr),
              BB_ERR_NULL_POINTER);
    EXPECT_EQ(bb_adaptive_find_column_select(&a, nullptr, &unsigned_col, sel, nullptr),
              BB_ERR_NULL_POINTER);
    EXPECT_EQ(bb_adaptive_find_column_select(nullptr, &parquet, &unsigned_col, sel, nullptr),
              BB_ERR_NULL_POINTER);
    EXPECT_EQ(std::memcmp(&a, &before, sizeof a), 0);
  }
  bb_filter_release(&parquet);
  bb_filter_release(&kudu);
}

// ---------------------------------------------------------------- C++

TEST(AdaptiveCpp, WrapsTheCObjectAndThrowsItsErrors) {
  EXPECT_THROW(blockbloom::Adaptive(0, 0.5), blockbloom::Error);
  EXPECT_THROW(blockbloom::Adaptive(10, 1.5), blockbloom::Error);
  blockbloom::Filter filter(4096);
  std::vector<uint64_t> hashes;
  for (uint64_t i = 1; i <= 64; ++i) hashes.push_back(i * 0x9e3779b97f4a7c15ull);
  filter.insert_batch(hashes.data(), hashes.size());  // every row passes: unselective
  blockbloom::Adaptive adaptive(64, 0.5);
  std::vector<uint32_t> selection(64);
  EXPECT_EQ(adaptive.find_batch_select(filter, hashes.data(), 64, selection.data()), 64u);
  EXPECT_TRUE(adaptive.disabled());
  EXPECT_EQ(adaptive.state(), BB_ADAPTIVE_DISABLED);
  EXPECT_FALSE(adaptive.should_probe(10));
  EXPECT_EQ(adaptive.counters().rows_not_probed, 10u);
  std::vector<uint8_t> bitmap(8);
  EXPECT_EQ(adaptive.find_batch_bitmap(filter, hashes.data(), 64, bitmap.data()), 64u);
  EXPECT_EQ(adaptive.counters().rows_not_probed, 74u);
  EXPECT_THROW(adaptive.record(1, 2), blockbloom::Error);
  const int32_t values[3] = {1, 2, 3};
  const bb_column col = blockbloom::Column::of(values, 3);
  EXPECT_EQ(adaptive.find_column_select(filter, col, selection.data()), 3u);
  EXPECT_EQ(adaptive.find_column_bitmap(filter, col, bitmap.data()), 3u);
}

}  // namespace
