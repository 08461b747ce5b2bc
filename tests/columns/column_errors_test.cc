// SPDX-License-Identifier: Apache-2.0
// Bad bb_column descriptors and arguments: every one refused by all five
// column calls (both hashes, insert, both probes, on both layouts where the
// code applies) with the code column.h lists, in its order, with every
// output, out-parameter and filter byte untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "blockbloom/kudu.h"

namespace {

// The outputs every call may write, pre-filled with a pattern.
struct Outputs {
  std::vector<uint64_t> hashes = std::vector<uint64_t>(64, 0xabababababababab);
  std::vector<uint32_t> kudu_hashes = std::vector<uint32_t>(64, 0xabababab);
  std::vector<uint8_t> bitmap = std::vector<uint8_t>(64, 0xab);
  std::vector<uint32_t> selection = std::vector<uint32_t>(64, 0xabababab);
  size_t count = 777;

  bool Untouched() const {
    return count == 777 &&
           std::all_of(hashes.begin(), hashes.end(), [](uint64_t h) { return h == 0xabababababababab; }) &&
           std::all_of(kudu_hashes.begin(), kudu_hashes.end(), [](uint32_t h) { return h == 0xabababab; }) &&
           std::all_of(bitmap.begin(), bitmap.end(), [](uint8_t b) { return b == 0xab; }) &&
           std::all_of(selection.begin(), selection.end(), [](uint32_t s) { return s == 0xabababab; });
  }
};

class Filters {
 public:
  Filters() {
    EXPECT_EQ(bb_filter_init(&parquet, 1024), BB_OK);
    EXPECT_EQ(bb_kudu_filter_init(&kudu, 10, 3), BB_OK);
    std::memset(parquet.data, 0x5c, parquet.num_bytes);
    std::memset(kudu.data, 0x5c, kudu.num_bytes);
  }
  ~Filters() {
    bb_filter_release(&parquet);
    bb_filter_release(&kudu);
  }
  Filters(const Filters&) = delete;
  Filters& operator=(const Filters&) = delete;

  bool Untouched() const {
    auto same = [](const bb_filter& f) {
      return std::all_of(f.data, f.data + f.num_bytes, [](uint8_t b) { return b == 0x5c; });
    };
    return same(parquet) && same(kudu) && (kudu.flags & BB_FILTER_ALWAYS_FALSE) != 0;
  }

  bb_filter parquet{};
  bb_filter kudu{};
};

// Which calls should refuse: the two hashes and the Parquet filter's calls
// (kParquet), the Kudu hash and Kudu filter's calls (kKudu), or all.
enum Scope { kAll, kParquetOnly, kKuduOnly };

// Runs every call on col, expects `code` from those in scope, and nothing written.
void ExpectRefused(const bb_column* col, int code, const std::string& what, Scope scope = kAll) {
  Filters filters;
  Outputs out;
  const bool parquet = scope != kKuduOnly, kudu = scope != kParquetOnly;
  if (parquet) {
    EXPECT_EQ(bb_parquet_hash_column(col, out.hashes.data(), &out.count), code) << what;
    EXPECT_EQ(bb_insert_column(&filters.parquet, col), code) << what;
    EXPECT_EQ(bb_find_column_bitmap(&filters.parquet, col, out.bitmap.data(), &out.count), code) << what;
    EXPECT_EQ(bb_find_column_select(&filters.parquet, col, out.selection.data(), &out.count), code)
        << what;
  }
  if (kudu) {
    EXPECT_EQ(bb_kudu_hash_column(col, 3, out.kudu_hashes.data(), &out.count), code) << what;
    EXPECT_EQ(bb_insert_column(&filters.kudu, col), code) << what;
    EXPECT_EQ(bb_find_column_bitmap(&filters.kudu, col, out.bitmap.data(), &out.count), code) << what;
    EXPECT_EQ(bb_find_column_select(&filters.kudu, col, out.selection.data(), &out.count), code)
        << what;
  }
  EXPECT_TRUE(out.Untouched()) << what << ": an output was written";
  EXPECT_TRUE(filters.Untouched()) << what << ": a filter was written";
}

// Runs every call on col and expects success.
void ExpectAccepted(const bb_column* col, const std::string& what) {
  Filters filters;
  Outputs out;
  EXPECT_EQ(bb_parquet_hash_column(col, out.hashes.data(), &out.count), BB_OK) << what;
  EXPECT_EQ(bb_kudu_hash_column(col, 3, out.kudu_hashes.data(), &out.count), BB_OK) << what;
  EXPECT_EQ(bb_insert_column(&filters.parquet, col), BB_OK) << what;
  EXPECT_EQ(bb_find_column_bitmap(&filters.kudu, col, out.bitmap.data(), &out.count), BB_OK) << what;
}

const int64_t kValues[8] = {1, 2, 3, 4, 5, 6, 7, 8};

bb_column Int64Column(size_t n = 8) {
  bb_column col = BB_COLUMN_INIT;
  col.type = BB_TYPE_INT64;
  col.length = n;
  col.values = kValues;
  return col;
}

const char kData[] = "abcdefgh";
const int32_t kOffsets32[] = {0, 2, 4, 8};
const int64_t kOffsets64[] = {0, 2, 4, 8};

bb_column Strings(bool large) {
  bb_column col = BB_COLUMN_INIT;
  col.type = large ? BB_TYPE_LARGE_BYTE_ARRAY : BB_TYPE_BYTE_ARRAY;
  col.length = 3;
  col.offsets = large ? static_cast<const void*>(kOffsets64) : kOffsets32;
  col.data = kData;
  col.data_len = 8;
  return col;
}

TEST(ColumnErrors, TheDescriptorsUsedHereAreAcceptedAsTheyStand) {
  const bb_column int64s = Int64Column(), strings = Strings(false), large = Strings(true);
  ExpectAccepted(&int64s, "int64");
  ExpectAccepted(&strings, "byte_array");
  ExpectAccepted(&large, "large_byte_array");
}

TEST(ColumnErrors, NullColumnFilterOrBitsetIsNullPointer) {
  ExpectRefused(nullptr, BB_ERR_NULL_POINTER, "NULL col");
  const bb_column col = Int64Column();
  uint8_t bitmap[1];
  uint32_t selection[8];
  EXPECT_EQ(bb_insert_column(nullptr, &col), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_find_column_bitmap(nullptr, &col, bitmap, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_find_column_select(nullptr, &col, selection, nullptr), BB_ERR_NULL_POINTER);
  bb_filter no_bitset{};  // zeroed: data NULL
  EXPECT_EQ(bb_insert_column(&no_bitset, &col), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_find_column_bitmap(&no_bitset, &col, bitmap, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_find_column_select(&no_bitset, &col, selection, nullptr), BB_ERR_NULL_POINTER);
}

TEST(ColumnErrors, AStructSizeThisLibraryDoesNotKnowIsInvalidColumn) {
  for (uint32_t size : {0u, 1u, static_cast<uint32_t>(sizeof(bb_column) - 8),
                        static_cast<uint32_t>(sizeof(bb_column) + 8), 0xffffffffu}) {
    bb_column col = Int64Column();
    col.struct_size = size;
    ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "struct_size " + std::to_string(size));
  }
}

TEST(ColumnErrors, ATypeThatIsNotABbColumnTypeIsUnknownColumnType) {
  for (uint32_t type : {0u, 20u, 1000u, 0xffffffffu}) {
    bb_column col = Int64Column();
    col.type = type;
    ExpectRefused(&col, BB_ERR_UNKNOWN_COLUMN_TYPE, "type " + std::to_string(type));
  }
}

TEST(ColumnErrors, AWidthThatIsNotTheTypesIsInvalidColumnWidth) {
  const struct {
    uint32_t type;
    size_t width;
  } bad[] = {{BB_TYPE_FIXED_LEN_BYTE_ARRAY, 0}, {BB_TYPE_INT64, 4}, {BB_TYPE_INT64, 16},
             {BB_TYPE_INT8, 4},  {BB_TYPE_INT96, 8},  {BB_TYPE_INT96, 16}, {BB_TYPE_DOUBLE, 4},
             {BB_TYPE_BYTE_ARRAY, 4}, {BB_TYPE_LARGE_BYTE_ARRAY, 8}};
  for (const auto& b : bad) {
    bb_column col = b.type == BB_TYPE_BYTE_ARRAY || b.type == BB_TYPE_LARGE_BYTE_ARRAY
                        ? Strings(b.type == BB_TYPE_LARGE_BYTE_ARRAY)
                        : Int64Column(2);
    col.type = b.type;
    col.width = b.width;
    ExpectRefused(&col, BB_ERR_INVALID_COLUMN_WIDTH,
                  "type " + std::to_string(b.type) + " width " + std::to_string(b.width));
  }
  // 0 or the type's own width are both fine.
  for (const auto& ok : {std::pair<uint32_t, size_t>{BB_TYPE_INT64, 8}, {BB_TYPE_INT8, 1},
                         {BB_TYPE_INT16, 2}, {BB_TYPE_DOUBLE, 8}, {BB_TYPE_DATE32, 4},
                         {BB_TYPE_FIXED_LEN_BYTE_ARRAY, 3}}) {
    bb_column col = Int64Column(2);
    col.type = ok.first;
    col.width = ok.second;
    ExpectAccepted(&col, "type " + std::to_string(ok.first) + " width " + std::to_string(ok.second));
  }
  bb_column int96 = Int64Column(1);
  int96.type = BB_TYPE_INT96;
  int96.width = 12;
  uint64_t hash = 0;
  EXPECT_EQ(bb_parquet_hash_column(&int96, &hash, nullptr), BB_OK);
}

TEST(ColumnErrors, AFieldTheTypeDoesNotUseIsInvalidColumn) {
  bb_column col = Int64Column();
  col.offsets = kOffsets32;
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "int64 with offsets");
  col = Int64Column();
  col.data = kData;
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "int64 with data");
  col = Int64Column();
  col.data_len = 8;
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "int64 with data_len");
  col = Strings(false);
  col.values = kValues;
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "byte_array with values");
}

TEST(ColumnErrors, ALengthTooLargeForItsBuffersIsInvalidColumn) {
  bb_column col = Int64Column(SIZE_MAX / 8 + 1);
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "int64 values past SIZE_MAX");
  col = Int64Column(SIZE_MAX / 16 + 1);
  col.type = BB_TYPE_FIXED_LEN_BYTE_ARRAY;
  col.width = 16;
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "flba(16) values past SIZE_MAX");
  col = Strings(false);
  col.length = SIZE_MAX / 4;  // length + 1 offsets
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "int32 offsets past SIZE_MAX");
  col = Strings(true);
  col.length = SIZE_MAX / 8;
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "int64 offsets past SIZE_MAX");
  const uint8_t validity[2] = {0xff, 0xff};
  col = Int64Column(8);
  col.validity = validity;
  col.validity_offset = SIZE_MAX - 7 - 7;  // + length 8 is beyond SIZE_MAX - 7
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "validity bits past SIZE_MAX");
  // A length past SIZE_MAX - 7 with any offset: a 1-byte type passes the
  // width bound, so the validity bound alone must refuse it, before any read.
  for (bb_column_type one_byte : {BB_TYPE_INT8, BB_TYPE_UINT8}) {
    col = Int64Column(SIZE_MAX - 3);
    col.type = one_byte;
    col.validity = validity;
    col.validity_offset = 16;
    ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "validity with length SIZE_MAX - 3");
    col.validity_offset = 0;
    ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "validity with length SIZE_MAX - 3, offset 0");
  }
  col = Int64Column(8);
  col.validity = validity;
  col.validity_offset = SIZE_MAX - 7 - 7;
  col.validity = nullptr;  // the offset means nothing without a bitmap
  ExpectAccepted(&col, "validity_offset without validity");
}

TEST(ColumnErrors, NullBuffersWithRowsAreNullPointerAndWithoutRowsAreFine) {
  bb_column col = Int64Column();
  col.values = nullptr;
  ExpectRefused(&col, BB_ERR_NULL_POINTER, "values NULL");
  col = Strings(false);
  col.offsets = nullptr;
  ExpectRefused(&col, BB_ERR_NULL_POINTER, "offsets NULL");
  col = Strings(true);
  col.data = nullptr;
  ExpectRefused(&col, BB_ERR_NULL_POINTER, "data NULL with data_len 8");

  // No rows: no buffer is needed (not even offsets[0]), no output either.
  Filters filters;
  for (bb_column empty : {Int64Column(0), Strings(false), Strings(true)}) {
    empty.length = 0;
    empty.values = nullptr;
    empty.offsets = nullptr;
    empty.data = nullptr;
    empty.data_len = 0;
    size_t count = 5;
    EXPECT_EQ(bb_parquet_hash_column(&empty, nullptr, &count), BB_OK);
    EXPECT_EQ(count, 0u);
    EXPECT_EQ(bb_kudu_hash_column(&empty, 0, nullptr, nullptr), BB_OK);
    EXPECT_EQ(bb_insert_column(&filters.kudu, &empty), BB_OK);
    EXPECT_EQ(bb_find_column_bitmap(&filters.parquet, &empty, nullptr, nullptr), BB_OK);
    EXPECT_EQ(bb_find_column_select(&filters.kudu, &empty, nullptr, nullptr), BB_OK);
  }
  // An empty insert changes nothing, not even Kudu's always-false state.
  EXPECT_TRUE(filters.Untouched());
}

TEST(ColumnErrors, ANullOutputWithRowsIsNullPointer) {
  Filters filters;
  const bb_column col = Int64Column();
  size_t count = 777;
  EXPECT_EQ(bb_parquet_hash_column(&col, nullptr, &count), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_kudu_hash_column(&col, 0, nullptr, &count), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_find_column_bitmap(&filters.parquet, &col, nullptr, &count), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_find_column_select(&filters.kudu, &col, nullptr, &count), BB_ERR_NULL_POINTER);
  EXPECT_EQ(count, 777u);
}

TEST(ColumnErrors, InsertIntoAReadOnlyViewIsReadOnlyAndProbesOfItWork) {
  std::vector<uint8_t> bits(1024, 0x5c);
  bb_filter view;
  ASSERT_EQ(bb_filter_init_view_readonly(&view, bits.data(), bits.size()), BB_OK);
  const bb_column col = Int64Column();
  EXPECT_EQ(bb_insert_column(&view, &col), BB_ERR_READ_ONLY);
  EXPECT_TRUE(std::all_of(bits.begin(), bits.end(), [](uint8_t b) { return b == 0x5c; }));
  uint8_t bitmap[1];
  EXPECT_EQ(bb_find_column_bitmap(&view, &col, bitmap, nullptr), BB_OK);
  // A NULL values pointer is reported before the read-only view.
  bb_column no_values = col;
  no_values.values = nullptr;
  EXPECT_EQ(bb_insert_column(&view, &no_values), BB_ERR_NULL_POINTER);
}

TEST(ColumnErrors, ASelectionOfMoreThanUint32MaxRowsIsBatchTooLargeBeforeAnyRowIsRead) {
  if (SIZE_MAX <= UINT32_MAX) GTEST_SKIP() << "size_t cannot hold 2^32 on this target";
  Filters filters;
  bb_column col = BB_COLUMN_INIT;
  col.type = BB_TYPE_INT8;
  col.length = size_t{UINT32_MAX} + 1;
  col.values = kValues;  // 64 bytes: reading row 64 would be out of bounds (ASan)
  uint32_t selection[8] = {};
  size_t hits = 777;
  EXPECT_EQ(bb_find_column_select(&filters.parquet, &col, selection, &hits), BB_ERR_BATCH_TOO_LARGE);
  EXPECT_EQ(bb_find_column_select(&filters.kudu, &col, selection, &hits), BB_ERR_BATCH_TOO_LARGE);
  EXPECT_EQ(hits, 777u);
}

TEST(ColumnErrors, AFilterOfNoKnownLayoutIsLayoutMismatch) {
  Filters filters;
  filters.parquet.layout = 7;
  const bb_column col = Int64Column();
  uint8_t bitmap[1] = {0xab};
  uint32_t selection[8];
  EXPECT_EQ(bb_insert_column(&filters.parquet, &col), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_find_column_bitmap(&filters.parquet, &col, bitmap, nullptr), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_find_column_select(&filters.parquet, &col, selection, nullptr), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bitmap[0], 0xab);
  filters.parquet.layout = BB_LAYOUT_PARQUET;
  EXPECT_TRUE(filters.Untouched());
}

TEST(ColumnErrors, TypesKuduHasNoMeaningForAreTypeNotInLayoutForKuduOnly) {
  const uint32_t types[] = {BB_TYPE_UINT8, BB_TYPE_UINT16, BB_TYPE_UINT32, BB_TYPE_UINT64,
                            BB_TYPE_INT96, BB_TYPE_TIME32, BB_TYPE_TIME64};
  for (uint32_t type : types) {
    bb_column col = Int64Column(4);
    col.type = type;
    ExpectRefused(&col, BB_ERR_TYPE_NOT_IN_LAYOUT, "kudu, type " + std::to_string(type), kKuduOnly);
    Filters filters;
    uint64_t hashes[4];
    EXPECT_EQ(bb_parquet_hash_column(&col, hashes, nullptr), BB_OK) << type;
    EXPECT_EQ(bb_insert_column(&filters.parquet, &col), BB_OK) << type;
  }
}

TEST(ColumnErrors, BadOffsetsAreInvalidOffsetsBeforeAnythingIsWritten) {
  const int32_t negative[] = {-1, 0, 2, 4};
  const int32_t decreasing[] = {0, 4, 2, 8};
  const int32_t past_the_data[] = {0, 2, 4, 9};
  const int32_t first_past[] = {9};
  const int64_t negative64[] = {INT64_MIN, 0, 2, 4};
  const int64_t decreasing64[] = {0, 4, 3, 8};
  const int64_t huge64[] = {0, 2, 4, INT64_MAX};
  const struct {
    const void* offsets;
    bool large;
    size_t length;
    const char* what;
  } bad[] = {{negative, false, 3, "negative first"},
             {decreasing, false, 3, "decreasing"},
             {past_the_data, false, 3, "last past data_len"},
             {first_past, false, 0, "no rows, offsets[0] past data_len"},
             {negative, false, 0, "no rows, offsets[0] negative"},
             {negative64, true, 3, "int64 negative first"},
             {decreasing64, true, 3, "int64 decreasing"},
             {huge64, true, 3, "int64 INT64_MAX"}};
  for (const auto& b : bad) {
    bb_column col = Strings(b.large);
    col.offsets = b.offsets;
    col.length = b.length;
    ExpectRefused(&col, BB_ERR_INVALID_OFFSETS, b.what);
  }
  // A null row's offsets are checked too (Arrow requires them ordered).
  const uint8_t validity[] = {0x05};  // row 1 (whose end decreases) is null
  bb_column col = Strings(false);
  col.offsets = decreasing;
  col.validity = validity;
  ExpectRefused(&col, BB_ERR_INVALID_OFFSETS, "decreasing under a null row");
}

// Each check of column.h's list wins over the ones after it.
TEST(ColumnErrors, ChecksComeInTheDocumentedOrder) {
  bb_column col = Int64Column();
  col.struct_size = 0;
  col.type = 0;
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "struct_size before type");
  col = Int64Column();
  col.type = 99;
  col.values = nullptr;
  ExpectRefused(&col, BB_ERR_UNKNOWN_COLUMN_TYPE, "type before NULL values");
  col = Int64Column();
  col.width = 3;
  col.offsets = kOffsets32;
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN_WIDTH, "width before unused fields");
  col = Int64Column();
  col.offsets = kOffsets32;
  col.values = nullptr;
  ExpectRefused(&col, BB_ERR_INVALID_COLUMN, "unused fields before NULL values");
  col = Int64Column();
  col.type = BB_TYPE_UINT64;
  col.values = nullptr;
  ExpectRefused(&col, BB_ERR_NULL_POINTER, "NULL values before the layout's types", kKuduOnly);
  col = Strings(false);
  col.offsets = kOffsets64;  // reads as int32 0, 0, 2, 0: decreasing
  Filters filters;
  filters.kudu.layout = 9;
  EXPECT_EQ(bb_insert_column(&filters.kudu, &col), BB_ERR_LAYOUT_MISMATCH) << "layout before offsets";
}

}  // namespace
