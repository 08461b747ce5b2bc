// SPDX-License-Identifier: Apache-2.0
// bb_insert_column, bb_find_column_bitmap and bb_find_column_select on both
// layouts, for every column type with and without nulls, on every tier,
// against the reference: the valid rows' hashes (tests/support/column_cases.h)
// inserted or probed with the batch calls. Null rows are never inserted and
// never found; the bitmap may replace the validity bits in place.
#include <algorithm>

#include "blockbloom/blockbloom.hpp"
#include "blockbloom/kudu.h"
#include "support/column_cases.h"

namespace {

using coltest::AllCases;
using coltest::BitAt;
using coltest::Case;
using coltest::CasePtr;
using coltest::MakeValidity;
using coltest::Validity;

constexpr size_t kRows = 2500;
constexpr uint32_t kKuduSeed = 0x5eed;

// A zeroed 8 KiB filter of either layout (Kudu: always-false, seed kKuduSeed).
class TestFilter {
 public:
  explicit TestFilter(bb_layout layout) {
    const int status = layout == BB_LAYOUT_KUDU ? bb_kudu_filter_init(&f_, 13, kKuduSeed)
                                                : bb_filter_init(&f_, 8192);
    EXPECT_EQ(status, BB_OK);
  }
  ~TestFilter() { bb_filter_release(&f_); }
  TestFilter(const TestFilter&) = delete;
  TestFilter& operator=(const TestFilter&) = delete;
  bb_filter* get() { return &f_; }
  bool operator==(const TestFilter& o) const {
    return f_.flags == o.f_.flags && std::memcmp(f_.data, o.f_.data, f_.num_bytes) == 0;
  }
  bool AllZero() const {
    return std::all_of(f_.data, f_.data + f_.num_bytes, [](uint8_t b) { return b == 0; });
  }

 private:
  bb_filter f_{};
};

const bb_layout kLayouts[] = {BB_LAYOUT_PARQUET, BB_LAYOUT_KUDU};
const char* LayoutName(bb_layout l) { return l == BB_LAYOUT_KUDU ? "kudu" : "parquet"; }

// Inserts the rows `take` accepts with the batch calls and the reference hashes.
template <typename Take>
void ReferenceInsert(bb_filter* f, const Case& c, Take&& take) {
  std::vector<uint64_t> parquet;
  std::vector<uint32_t> kudu;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!take(i)) continue;
    if (f->layout == BB_LAYOUT_KUDU) {
      kudu.push_back(c.KuduHash(i, f->hash_seed));
    } else {
      parquet.push_back(c.ParquetHash(i));
    }
  }
  if (f->layout == BB_LAYOUT_KUDU) {
    ASSERT_EQ(bb_kudu_insert_batch(f, kudu.data(), kudu.size()), BB_OK);
  } else {
    ASSERT_EQ(bb_insert_batch(f, parquet.data(), parquet.size()), BB_OK);
  }
}

bool ReferenceFind(const bb_filter* f, const Case& c, size_t row) {
  return f->layout == BB_LAYOUT_KUDU ? bb_kudu_find(f, c.KuduHash(row, f->hash_seed)) > 0
                                     : bb_find(f, c.ParquetHash(row)) > 0;
}

bb_column WithValidity(const Case& c, const Validity& v) {
  bb_column col = c.col;
  col.validity = v.bytes.data();
  col.validity_offset = v.offset;
  return col;
}

class ColumnFilter : public coltest::PerTier {};

TEST_P(ColumnFilter, InsertLeavesOutNullsAndEqualsInsertingTheValidRowsHashes) {
  for (const CasePtr& c : AllCases(kRows)) {
    for (bb_layout layout : kLayouts) {
      if (layout == BB_LAYOUT_KUDU && !c->kudu) continue;
      for (int pattern : {0, 1, 2, 3, 4}) {
        for (size_t offset : {0, 3, 7, 13}) {
          const Validity v = MakeValidity(kRows, offset, pattern, 31 * pattern + offset);
          TestFilter fused(layout), reference(layout);
          const bb_column col = WithValidity(*c, v);
          ASSERT_EQ(bb_insert_column(fused.get(), &col), BB_OK);
          ReferenceInsert(reference.get(), *c, [&](size_t i) { return v.Valid(i); });
          ASSERT_TRUE(fused == reference) << c->name << " " << LayoutName(layout) << " pattern "
                                          << pattern << " offset " << offset;
        }
      }
      // No bitmap: every row.
      TestFilter fused(layout), reference(layout);
      ASSERT_EQ(bb_insert_column(fused.get(), &c->col), BB_OK);
      ReferenceInsert(reference.get(), *c, [](size_t) { return true; });
      ASSERT_TRUE(fused == reference) << c->name << " " << LayoutName(layout);
      EXPECT_FALSE(fused.AllZero());
    }
  }
}

TEST_P(ColumnFilter, AColumnOfOnlyNullsInsertsNothing) {
  for (const CasePtr& c : AllCases(kRows)) {
    for (bb_layout layout : kLayouts) {
      if (layout == BB_LAYOUT_KUDU && !c->kudu) continue;
      for (size_t offset : {0, 5}) {
        const Validity v = MakeValidity(kRows, offset, 1, 9);
        TestFilter f(layout);
        const bb_column col = WithValidity(*c, v);
        ASSERT_EQ(bb_insert_column(f.get(), &col), BB_OK);
        EXPECT_TRUE(f.AllZero()) << c->name << " " << LayoutName(layout);
        if (layout == BB_LAYOUT_KUDU) {
          // Nothing was inserted, so the filter is still always-false.
          EXPECT_NE(f.get()->flags & BB_FILTER_ALWAYS_FALSE, 0u) << c->name;
        }
      }
    }
  }
}

// Probes of a filter holding every other row: bit i (and selection entry i)
// iff row i is valid and the reference finds it; bytes past the bitmap
// untouched.
TEST_P(ColumnFilter, ProbesAnswerNoForNullsAndTheFiltersAnswerForValidRows) {
  for (const CasePtr& c : AllCases(kRows)) {
    for (bb_layout layout : kLayouts) {
      if (layout == BB_LAYOUT_KUDU && !c->kudu) continue;
      TestFilter f(layout);
      ReferenceInsert(f.get(), *c, [](size_t i) { return i % 2 == 0; });
      for (int pattern : {0, 1, 2, 3, 4}) {
        for (size_t offset : {0, 1, 2, 3, 4, 5, 6, 7, 1000}) {
          const Validity v = MakeValidity(kRows, offset, pattern, 17 * pattern + offset);
          const bb_column col = WithValidity(*c, v);
          const size_t bytes = (kRows + 7) / 8;
          std::vector<uint8_t> bitmap(bytes + 1, 0xcc);
          std::vector<uint32_t> selection(kRows, 0);
          size_t bitmap_hits = 0, select_hits = 0;
          ASSERT_EQ(bb_find_column_bitmap(f.get(), &col, bitmap.data(), &bitmap_hits), BB_OK);
          ASSERT_EQ(bb_find_column_select(f.get(), &col, selection.data(), &select_hits), BB_OK);
          std::vector<uint32_t> expected;
          for (size_t i = 0; i < kRows; ++i) {
            const bool hit = v.Valid(i) && ReferenceFind(f.get(), *c, i);
            ASSERT_EQ(BitAt(bitmap.data(), i), hit)
                << c->name << " " << LayoutName(layout) << " pattern " << pattern << " offset "
                << offset << " row " << i;
            if (hit) expected.push_back(static_cast<uint32_t>(i));
          }
          for (size_t i = kRows; i < 8 * bytes; ++i) ASSERT_FALSE(BitAt(bitmap.data(), i));
          EXPECT_EQ(bitmap[bytes], 0xcc) << "wrote past (length + 7) / 8 bytes";
          ASSERT_EQ(bitmap_hits, expected.size());
          ASSERT_EQ(select_hits, expected.size());
          ASSERT_TRUE(std::equal(expected.begin(), expected.end(), selection.begin()))
              << c->name << " " << LayoutName(layout) << " pattern " << pattern;
          if (pattern == 1) {
            EXPECT_EQ(bitmap_hits, 0u);
          }
        }
      }
    }
  }
}

// A null row whose bytes are in the filter is still not found.
TEST_P(ColumnFilter, NullsAreNotFoundEvenWhenTheirValuesWereInserted) {
  for (const CasePtr& c : AllCases(kRows)) {
    for (bb_layout layout : kLayouts) {
      if (layout == BB_LAYOUT_KUDU && !c->kudu) continue;
      TestFilter f(layout);
      ASSERT_EQ(bb_insert_column(f.get(), &c->col), BB_OK);  // every row, no bitmap
      const Validity v = MakeValidity(kRows, 6, 0, 3);
      const bb_column col = WithValidity(*c, v);
      std::vector<uint8_t> bitmap((kRows + 7) / 8);
      size_t hits = 0;
      ASSERT_EQ(bb_find_column_bitmap(f.get(), &col, bitmap.data(), &hits), BB_OK);
      for (size_t i = 0; i < kRows; ++i) ASSERT_EQ(BitAt(bitmap.data(), i), v.Valid(i)) << c->name;
      EXPECT_EQ(hits, v.CountValid());
    }
  }
}

// bitmap == validity + offset / 8 with offset % 8 == 0: the probe's result
// replaces the validity bits, equal to the result written elsewhere.
TEST_P(ColumnFilter, TheBitmapMayReplaceTheValidityBitsInPlace) {
  for (const CasePtr& c : AllCases(kRows)) {
    TestFilter f(BB_LAYOUT_PARQUET);
    ReferenceInsert(f.get(), *c, [](size_t i) { return i % 3 != 0; });
    for (size_t offset : {0, 8, 1024, 4096}) {
      Validity v = MakeValidity(kRows, offset, 0, offset);
      const bb_column col = WithValidity(*c, v);
      std::vector<uint8_t> apart((kRows + 7) / 8);
      size_t hits_apart = 0, hits_in_place = 0;
      ASSERT_EQ(bb_find_column_bitmap(f.get(), &col, apart.data(), &hits_apart), BB_OK);
      uint8_t* in_place = v.bytes.data() + offset / 8;
      ASSERT_EQ(bb_find_column_bitmap(f.get(), &col, in_place, &hits_in_place), BB_OK);
      ASSERT_TRUE(std::equal(apart.begin(), apart.end(), in_place)) << c->name << " offset " << offset;
      EXPECT_EQ(hits_in_place, hits_apart);
    }
  }
}

TEST_P(ColumnFilter, AnAlwaysFalseKuduFilterFindsNothing) {
  for (const CasePtr& c : AllCases(300)) {
    if (!c->kudu) continue;
    TestFilter f(BB_LAYOUT_KUDU);
    std::memset(f.get()->data, 0xff, f.get()->num_bytes);  // bits set, but always-false
    std::vector<uint8_t> bitmap(38, 0xcc);
    std::vector<uint32_t> selection(300);
    size_t hits = 1;
    ASSERT_EQ(bb_find_column_bitmap(f.get(), &c->col, bitmap.data(), &hits), BB_OK);
    EXPECT_EQ(hits, 0u);
    EXPECT_TRUE(std::all_of(bitmap.begin(), bitmap.end(), [](uint8_t b) { return b == 0; }));
    hits = 1;
    ASSERT_EQ(bb_find_column_select(f.get(), &c->col, selection.data(), &hits), BB_OK);
    EXPECT_EQ(hits, 0u);
  }
}

COLTEST_INSTANTIATE_PER_TIER(ColumnFilter);

TEST(ColumnFilterArguments, HitsMayBeNullAndEmptyColumnsNeedNoBuffers) {
  TestFilter f(BB_LAYOUT_PARQUET);
  int64_t values[3] = {1, 2, 3};
  bb_column col = BB_COLUMN_INIT;
  col.type = BB_TYPE_INT64;
  col.length = 3;
  col.values = values;
  ASSERT_EQ(bb_insert_column(f.get(), &col), BB_OK);
  uint8_t bitmap = 0;
  uint32_t selection[3];
  EXPECT_EQ(bb_find_column_bitmap(f.get(), &col, &bitmap, nullptr), BB_OK);
  EXPECT_EQ(bitmap, 0x07);
  EXPECT_EQ(bb_find_column_select(f.get(), &col, selection, nullptr), BB_OK);
  EXPECT_EQ(selection[2], 2u);
  col.length = 0;
  col.values = nullptr;
  size_t hits = 9;
  EXPECT_EQ(bb_insert_column(f.get(), &col), BB_OK);
  EXPECT_EQ(bb_find_column_bitmap(f.get(), &col, nullptr, &hits), BB_OK);
  EXPECT_EQ(hits, 0u);
  hits = 9;
  EXPECT_EQ(bb_find_column_select(f.get(), &col, nullptr, &hits), BB_OK);
  EXPECT_EQ(hits, 0u);
  EXPECT_EQ(bb_parquet_hash_column(&col, nullptr, &hits), BB_OK);
  EXPECT_EQ(bb_kudu_hash_column(&col, 0, nullptr, &hits), BB_OK);
}

// The C++ layer (blockbloom.hpp) over the same calls.
TEST(ColumnCpp, ColumnsAndTheFilterMethods) {
  const int16_t values[] = {-1, 0, 300, 7, -32768};
  const uint8_t validity[] = {0x1b};  // rows 0, 1, 3, 4 valid; row 2 null
  const blockbloom::Column col = blockbloom::Column::of(values, 5).with_validity(validity, 0);
  EXPECT_EQ(col.type, BB_TYPE_INT16);
  blockbloom::Filter filter(1024);
  filter.insert_column(col);
  uint8_t bitmap = 0;
  EXPECT_EQ(filter.find_column_bitmap(col, &bitmap), 4u);
  EXPECT_EQ(bitmap, 0x1b);
  uint32_t selection[5];
  EXPECT_EQ(filter.find_column_select(col, selection), 4u);
  EXPECT_EQ(selection[2], 3u);
  uint64_t hashes[5];
  EXPECT_EQ(blockbloom::parquet_hash_column(col, hashes), 4u);
  EXPECT_EQ(hashes[0], bb_parquet_hash_int32(-1));
  EXPECT_EQ(hashes[2], bb_parquet_hash_int32(7));

  const int32_t days[] = {19000};
  const auto date = blockbloom::Column::typed(BB_TYPE_DATE32, days, 1);
  EXPECT_EQ(blockbloom::parquet_hash_column(date, hashes), 1u);
  EXPECT_EQ(hashes[0], bb_parquet_hash_int32(19000));

  const char data[] = "abcdef";
  const int64_t offsets[] = {0, 3, 6};
  const auto strings = blockbloom::Column::byte_array(data, 6, offsets, 2);
  EXPECT_EQ(strings.type, BB_TYPE_LARGE_BYTE_ARRAY);
  EXPECT_EQ(blockbloom::parquet_hash_column(strings, hashes), 2u);
  EXPECT_EQ(hashes[1], XXH64("def", 3, 0));

  const uint8_t uuids[32] = {1};
  const auto flba = blockbloom::Column::fixed_len_byte_array(uuids, 16, 2);
  EXPECT_EQ(blockbloom::parquet_hash_column(flba, hashes), 2u);
  EXPECT_EQ(hashes[0], XXH64(uuids, 16, 0));

  // Errors throw with the code.
  blockbloom::Column bad = col;
  bad.type = 0;
  try {
    filter.insert_column(bad);
    FAIL() << "no exception";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_UNKNOWN_COLUMN_TYPE);
  }
  blockbloom::ConstView view(filter.data(), filter.num_bytes());
  EXPECT_EQ(view.find_column_bitmap(col, &bitmap), 4u);
}

}  // namespace
