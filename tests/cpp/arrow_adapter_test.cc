// SPDX-License-Identifier: Apache-2.0
// arrow.hpp: Arrow C Data Interface arrays, built here by hand as the spec
// lays them out (sliced, with nulls, dictionary-encoded, string views), give
// the filter and the probe answers of the typed-column call (column.h) of the
// same logical values; every format or layout it cannot take is refused with
// its own code and nothing inserted.
#include "blockbloom/arrow.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cpp/arrow_test_arrays.h"
#include "support/thrown_status.h"
#include "blockbloom/kudu.h"

namespace {

using namespace blockbloom_test;  // NOLINT: the array builders


// Fixed-width values: n values of `width` bytes (the i-th distinct).
Bytes FixedValues(std::size_t n, std::size_t width, uint8_t salt) {
  Bytes v(n * width);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i * 37u + salt + i / width);
  return v;
}

std::vector<std::string> SomeStrings(std::size_t n) {
  std::vector<std::string> s(n);
  for (std::size_t i = 0; i < n; ++i) {
    s[i] = i % 5 == 0 ? std::string() : "value-" + std::to_string(i * 7919) + std::string(i % 17, 'x');
  }
  return s;
}

// The typed column (column.h) of the same logical rows, compact, validity from bit 0.
struct Expected {
  Bytes values;
  std::vector<int64_t> offsets;
  Bytes data;
  Bytes validity;
  bb_column column = BB_COLUMN_INIT;
};

std::unique_ptr<Expected> FixedExpected(uint32_t type, std::size_t width, const Bytes& values,
                                        const std::vector<bool>& valid) {
  auto e = std::make_unique<Expected>();
  e->values = values;
  e->validity = PackedValidity(valid);
  e->column.type = type;
  e->column.length = valid.size();
  e->column.width = type == BB_TYPE_FIXED_LEN_BYTE_ARRAY ? width : 0;
  e->column.values = e->values.data();
  e->column.validity = e->validity.data();
  return e;
}

std::unique_ptr<Expected> StringExpected(const std::vector<std::string>& s, const std::vector<bool>& valid) {
  auto e = std::make_unique<Expected>();
  e->offsets.push_back(0);
  for (const std::string& v : s) {
    e->data.insert(e->data.end(), v.begin(), v.end());
    e->offsets.push_back(static_cast<int64_t>(e->data.size()));
  }
  if (e->data.empty()) e->data.push_back(0);
  e->validity = PackedValidity(valid);
  e->column.type = BB_TYPE_LARGE_BYTE_ARRAY;
  e->column.length = s.size();
  e->column.offsets = e->offsets.data();
  e->column.data = e->data.data();
  e->column.data_len = static_cast<std::size_t>(e->offsets.back());
  e->column.validity = e->validity.data();
  return e;
}

// The array and the typed column give the same filter, and probing the
// filter (built from half of the rows' values, so both answers occur) gives
// the same bitmap and selection.
void ExpectSameAsColumn(const Arrow& a, const bb_column& col, bb_layout layout) {
  TestFilter by_arrow(layout), by_column(layout);
  ASSERT_EQ(blockbloom::arrow::insert(by_arrow.get(), &a.schema, &a.array), BB_OK);
  ASSERT_EQ(bb_insert_column(by_column.get(), &col), BB_OK);
  EXPECT_EQ(by_arrow.bytes(), by_column.bytes());
  EXPECT_FALSE(by_arrow.AllZero());

  // A filter of the first half of the rows: probes of the second half mostly miss.
  TestFilter half(layout);
  bb_column first_half = col;
  first_half.length = col.length / 2;
  ASSERT_EQ(bb_insert_column(half.get(), &first_half), BB_OK);
  const std::size_t n = col.length;
  Bytes got((n + 7) / 8 + 1, 0xEE), want((n + 7) / 8 + 1, 0xEE);
  std::size_t got_hits = 99, want_hits = 77;
  ASSERT_EQ(blockbloom::arrow::find_bitmap(half.get(), &a.schema, &a.array, got.data(), &got_hits), BB_OK);
  ASSERT_EQ(bb_find_column_bitmap(half.get(), &col, want.data(), &want_hits), BB_OK);
  EXPECT_EQ(got, want);
  EXPECT_EQ(got_hits, want_hits);
  EXPECT_GT(want_hits, 0u);
  std::vector<uint32_t> got_sel(n + 1, 0), want_sel(n + 1, 0);
  ASSERT_EQ(blockbloom::arrow::find_select(half.get(), &a.schema, &a.array, got_sel.data(), &got_hits), BB_OK);
  ASSERT_EQ(bb_find_column_select(half.get(), &col, want_sel.data(), &want_hits), BB_OK);
  ASSERT_EQ(got_hits, want_hits);
  got_sel.resize(got_hits);
  want_sel.resize(want_hits);
  EXPECT_EQ(got_sel, want_sel);
}

struct FixedFormat {
  const char* format;
  uint32_t type;
  std::size_t width;
  bool kudu;     // Kudu has a cell of this type
  bool parquet;  // any bytes are a value its own Parquet type stores as they are (the
                 // others are converted: arrow_matrix_test)
};

const FixedFormat kFixedFormats[] = {
    {"c", BB_TYPE_INT8, 1, true, true},         {"C", BB_TYPE_UINT8, 1, false, true},
    {"s", BB_TYPE_INT16, 2, true, true},        {"S", BB_TYPE_UINT16, 2, false, true},
    {"i", BB_TYPE_INT32, 4, true, true},        {"I", BB_TYPE_UINT32, 4, false, true},
    {"l", BB_TYPE_INT64, 8, true, true},        {"L", BB_TYPE_UINT64, 8, false, true},
    {"f", BB_TYPE_FLOAT, 4, true, false},       {"g", BB_TYPE_DOUBLE, 8, true, false},
    {"tdD", BB_TYPE_DATE32, 4, true, false},    {"tdm", BB_TYPE_DATE64, 8, true, false},
    {"tts", BB_TYPE_TIME32, 4, false, false},   {"ttm", BB_TYPE_TIME32, 4, false, false},
    {"ttu", BB_TYPE_TIME64, 8, false, false},   {"ttn", BB_TYPE_TIME64, 8, false, false},
    {"tss:", BB_TYPE_TIMESTAMP, 8, true, false}, {"tsm:UTC", BB_TYPE_TIMESTAMP, 8, true, true},
    {"tsu:", BB_TYPE_TIMESTAMP, 8, true, true},
    {"tsu:Europe/Paris", BB_TYPE_TIMESTAMP, 8, true, true}, {"tsn:+07:30", BB_TYPE_TIMESTAMP, 8, true, true},
    {"w:3", BB_TYPE_FIXED_LEN_BYTE_ARRAY, 3, true, true},   {"w:16", BB_TYPE_FIXED_LEN_BYTE_ARRAY, 16, true, true},
};

TEST(ArrowAdapter, EveryFixedWidthFormatHashesAsItsTypedColumnSlicedWithNulls) {
  for (const FixedFormat& ff : kFixedFormats) {
    SCOPED_TRACE(ff.format);
    const std::vector<bool> valid = SomeNulls(41);
    const Bytes values = FixedValues(valid.size(), ff.width, 5);
    const auto a = FixedArrow(ff.format, values, ff.width, valid);
    const auto e = FixedExpected(ff.type, ff.width, values, valid);
    if (ff.parquet) ExpectSameAsColumn(*a, e->column, BB_LAYOUT_PARQUET);
    if (ff.kudu) ExpectSameAsColumn(*a, e->column, BB_LAYOUT_KUDU);
  }
}

TEST(ArrowAdapter, NoValidityBufferMeansEveryRowIsValid) {
  const std::vector<bool> valid(30, true);
  const Bytes values = FixedValues(valid.size(), 4, 9);
  auto a = FixedArrow("i", values, 4, valid);
  a->buffers[0].clear();
  a->Finish(30, kPad, 0);
  const auto e = FixedExpected(BB_TYPE_INT32, 4, values, valid);
  ExpectSameAsColumn(*a, e->column, BB_LAYOUT_PARQUET);
}

TEST(ArrowAdapter, Utf8AndBinaryWithInt32AndInt64OffsetsHashAsByteArrays) {
  const std::vector<std::string> s = SomeStrings(50);
  const std::vector<bool> valid = SomeNulls(s.size());
  const auto e = StringExpected(s, valid);
  for (const char* format : {"u", "z"}) {
    SCOPED_TRACE(format);
    const auto a = StringArrow<int32_t>(format, s, valid);
    ExpectSameAsColumn(*a, e->column, BB_LAYOUT_PARQUET);
    ExpectSameAsColumn(*a, e->column, BB_LAYOUT_KUDU);
  }
  for (const char* format : {"U", "Z"}) {
    SCOPED_TRACE(format);
    const auto a = StringArrow<int64_t>(format, s, valid);
    ExpectSameAsColumn(*a, e->column, BB_LAYOUT_PARQUET);
    ExpectSameAsColumn(*a, e->column, BB_LAYOUT_KUDU);
  }
}

TEST(ArrowAdapter, StringAndBinaryViewsHashAsTheirBytesInlineOrNot) {
  const std::vector<std::string> s = SomeStrings(60);
  const std::vector<bool> valid = SomeNulls(s.size());
  const auto e = StringExpected(s, valid);
  for (const char* format : {"vu", "vz"}) {
    SCOPED_TRACE(format);
    const auto a = ViewArrow(format, s, valid);
    ExpectSameAsColumn(*a, e->column, BB_LAYOUT_PARQUET);
    ExpectSameAsColumn(*a, e->column, BB_LAYOUT_KUDU);
  }
}

TEST(ArrowAdapter, ViewArraysLongerThanAChunkKeepRowNumbers) {
  const std::vector<std::string> s = SomeStrings(10000);
  const std::vector<bool> valid = SomeNulls(s.size());
  const auto a = ViewArrow("vu", s, valid);
  ExpectSameAsColumn(*a, StringExpected(s, valid)->column, BB_LAYOUT_PARQUET);
}

struct IndexFormat {
  const char* format;
  std::size_t width;
};
const IndexFormat kIndexFormats[] = {{"c", 1}, {"C", 1}, {"s", 2}, {"S", 2},
                                     {"i", 4}, {"I", 4}, {"l", 8}, {"L", 8}};

// Rows i of a dictionary of d entries: some index repeated, nulls among the
// indices (whose index is out of range: never read) and among the entries.
void DictionaryRows(std::size_t n, std::size_t d, std::vector<int64_t>* idx, std::vector<bool>* valid) {
  idx->resize(n);
  *valid = SomeNulls(n);
  for (std::size_t i = 0; i < n; ++i) (*idx)[i] = (*valid)[i] ? static_cast<int64_t>((i * 7) % d) : 127;
}

TEST(ArrowAdapter, DictionaryOfStringsHashesByValueForEveryIndexWidth) {
  const std::vector<std::string> dict = SomeStrings(11);
  std::vector<bool> dict_valid(dict.size(), true);
  dict_valid[4] = false;  // a null entry: rows pointing at it are null
  std::vector<int64_t> idx;
  std::vector<bool> valid;
  DictionaryRows(70, dict.size(), &idx, &valid);
  std::vector<std::string> rows(idx.size());
  std::vector<bool> row_valid(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) {
    row_valid[i] = valid[i] && dict_valid[static_cast<std::size_t>(idx[i])];
    if (row_valid[i]) rows[i] = dict[static_cast<std::size_t>(idx[i])];
  }
  const auto e = StringExpected(rows, row_valid);
  for (const IndexFormat& f : kIndexFormats) {
    SCOPED_TRACE(f.format);
    for (const char* values_format : {"u", "U", "vu"}) {
      SCOPED_TRACE(values_format);
      auto a = Indices(f.format, f.width, idx, valid);
      a->dictionary = std::string(values_format) == "u"   ? StringArrow<int32_t>("u", dict, dict_valid)
                      : std::string(values_format) == "U" ? StringArrow<int64_t>("U", dict, dict_valid)
                                                          : ViewArrow("vu", dict, dict_valid);
      a->Finish(a->array.length, a->array.offset, a->array.null_count);
      ExpectSameAsColumn(*a, e->column, BB_LAYOUT_PARQUET);
      ExpectSameAsColumn(*a, e->column, BB_LAYOUT_KUDU);
    }
  }
}

TEST(ArrowAdapter, DictionaryOfFixedWidthValuesHashesByValueAcrossChunks) {
  const std::size_t d = 300;
  const Bytes dict = FixedValues(d, 8, 1);
  std::vector<bool> dict_valid(d, true);
  dict_valid[0] = false;
  std::vector<int64_t> idx;
  std::vector<bool> valid;
  DictionaryRows(9000, d, &idx, &valid);
  Bytes rows(idx.size() * 8, 0);
  std::vector<bool> row_valid(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) {
    row_valid[i] = valid[i] && dict_valid[static_cast<std::size_t>(idx[i])];
    if (row_valid[i]) std::memcpy(rows.data() + i * 8, dict.data() + static_cast<std::size_t>(idx[i]) * 8, 8);
  }
  const auto e = FixedExpected(BB_TYPE_INT64, 8, rows, row_valid);
  for (const IndexFormat& f : {IndexFormat{"s", 2}, IndexFormat{"I", 4}, IndexFormat{"l", 8}}) {
    SCOPED_TRACE(f.format);
    auto a = Indices(f.format, f.width, idx, valid);
    a->dictionary = FixedArrow("l", dict, 8, dict_valid);  // the dictionary is itself a slice
    a->Finish(a->array.length, a->array.offset, a->array.null_count);
    ExpectSameAsColumn(*a, e->column, BB_LAYOUT_PARQUET);
    ExpectSameAsColumn(*a, e->column, BB_LAYOUT_KUDU);
  }
}

// A dictionary of long strings: its rows are gathered in chunks that end (on a
// multiple of 8 rows) at arrow.hpp's kChunkBytes, not at 4096 rows, and the
// answers do not depend on where the chunks end.
TEST(ArrowAdapter, DictionaryOfLongValuesHashesByValueAcrossByteCappedChunks) {
  std::vector<std::string> dict(40);  // 40 KB values: a chunk ends at 32 rows
  for (std::size_t i = 0; i < dict.size(); ++i) dict[i] = std::string(40000 + i * 37, static_cast<char>('a' + i % 26)) + std::to_string(i);
  const std::vector<bool> dict_valid(dict.size(), true);
  std::vector<int64_t> idx(150);
  std::vector<bool> valid(idx.size(), true);
  std::vector<std::string> rows(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) {
    idx[i] = static_cast<int64_t>((i * 7) % dict.size());
    valid[i] = i % 11 != 3;
    if (valid[i]) rows[i] = dict[static_cast<std::size_t>(idx[i])];
  }
  const auto e = StringExpected(rows, valid);
  auto a = Indices("i", 4, idx, valid);
  a->dictionary = StringArrow<int32_t>("u", dict, dict_valid);
  a->Finish(a->array.length, a->array.offset, a->array.null_count);
  ExpectSameAsColumn(*a, e->column, BB_LAYOUT_PARQUET);
  ExpectSameAsColumn(*a, e->column, BB_LAYOUT_KUDU);
}

// One 1 MiB value repeated by 128 dictionary indices (a valid, ordinary array:
// dictionary_encode() of a repeated long string) costs what its chunks hold,
// not 128 copies of the value (128 MiB before chunks were capped by bytes).
// Measured in a child, whose peak RSS is its own.
TEST(ArrowAdapter, ARepeatedLongDictionaryValueIsNotCopiedPerRow) {
  if (const char* wrapper = std::getenv("BLOCKBLOOM_TEST_WRAPPER"); wrapper != nullptr && wrapper[0] != '\0') {
    GTEST_SKIP() << "the peak RSS under an emulator is the emulator's (" << wrapper << ")";
  }
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ASan keeps freed blocks in its quarantine: the peak RSS says nothing here";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "ASan keeps freed blocks in its quarantine: the peak RSS says nothing here";
#endif
#endif
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const std::vector<std::string> dict = {std::string(std::size_t{1} << 20, 'v')};
    auto a = Indices("i", 4, std::vector<int64_t>(128, 0), std::vector<bool>(128, true));
    a->dictionary = StringArrow<int32_t>("u", dict, {true});
    a->Finish(a->array.length, a->array.offset, a->array.null_count);
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    bb_filter f{};
    if (bb_filter_init(&f, 8192) != BB_OK) _exit(3);
    if (blockbloom::arrow::insert(&f, &a->schema, &a->array) != BB_OK) _exit(4);
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    // ru_maxrss is in KiB; the cap (1 MiB) plus 8 rows of 1 MiB, well under 48 MiB more.
    _exit(after.ru_maxrss - before.ru_maxrss < 48 * 1024 ? 0 : 5);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "3/4: the insert failed, 5: the child grew by 48 MiB or more";
}

// The low `cell` bytes of each `stride`-byte value (this test runs little-endian).
Bytes Narrowed(const Bytes& values, std::size_t stride, std::size_t cell) {
  Bytes out;
  for (std::size_t i = 0; i < values.size(); i += stride) out.insert(out.end(), &values[i], &values[i] + cell);
  return out;
}

TEST(ArrowAdapter, KuduDecimalsHashAsTheCellKuduKeepsForTheirPrecision) {
  const uint16_t one = 1;
  uint8_t first_byte;
  std::memcpy(&first_byte, &one, 1);
  ASSERT_EQ(first_byte, 1) << "the expected cells below are the low bytes of little-endian values";
  const std::vector<bool> valid = SomeNulls(20);
  struct Decimal {
    const char* format;
    std::size_t arrow_bytes;
    uint32_t type;  // Kudu's cell
    std::size_t cell;
  };
  for (const Decimal& d : {Decimal{"d:9,2,32", 4, BB_TYPE_INT32, 4}, Decimal{"d:18,3,64", 8, BB_TYPE_INT64, 8},
                           Decimal{"d:38,10", 16, BB_TYPE_FIXED_LEN_BYTE_ARRAY, 16},
                           Decimal{"d:38,10,128", 16, BB_TYPE_FIXED_LEN_BYTE_ARRAY, 16},
                           Decimal{"d:5,2", 16, BB_TYPE_INT32, 4}, Decimal{"d:12,-2,128", 16, BB_TYPE_INT64, 8},
                           Decimal{"d:7,0,64", 8, BB_TYPE_INT32, 4},
                           Decimal{"d:30,4,256", 32, BB_TYPE_FIXED_LEN_BYTE_ARRAY, 16}}) {
    SCOPED_TRACE(d.format);
    const Bytes values = FixedValues(valid.size(), d.arrow_bytes, 3);
    const auto a = FixedArrow(d.format, values, d.arrow_bytes, valid);
    const auto cells = FixedExpected(d.type, d.cell, Narrowed(values, d.arrow_bytes, d.cell), valid);
    ExpectSameAsColumn(*a, cells->column, BB_LAYOUT_KUDU);
  }
  TestFilter kudu(BB_LAYOUT_KUDU);
  for (const char* format : {"d:40,2,256", "d:12,2,32", "d:20,2,64", "d:0,0", "d:5", "d:-5,2", "d:5,2,16",
                             "d:5,2,128,1", "d:5,,128"}) {
    SCOPED_TRACE(format);
    const auto a = FixedArrow(format, FixedValues(valid.size(), 32, 3), 32, valid);
    EXPECT_EQ(blockbloom::arrow::insert(kudu.get(), &a->schema, &a->array), BB_ERR_ARROW_UNSUPPORTED_TYPE);
  }
  EXPECT_TRUE(kudu.AllZero());

  // A dictionary of narrowed decimals: gathered by index, then narrowed.
  const Bytes dict = FixedValues(4, 16, 8);
  std::vector<int64_t> idx;
  std::vector<bool> rows_valid;
  DictionaryRows(30, 4, &idx, &rows_valid);
  Bytes rows(idx.size() * 4, 0);
  for (std::size_t i = 0; i < idx.size(); ++i) {
    if (rows_valid[i]) std::memcpy(rows.data() + i * 4, dict.data() + static_cast<std::size_t>(idx[i]) * 16, 4);
  }
  auto a = Indices("i", 4, idx, rows_valid);
  a->dictionary = FixedArrow("d:9,2", dict, 16, {true, true, true, true});
  a->Finish(a->array.length, a->array.offset, a->array.null_count);
  ExpectSameAsColumn(*a, FixedExpected(BB_TYPE_INT32, 4, rows, rows_valid)->column, BB_LAYOUT_KUDU);
}

TEST(ArrowAdapter, EmptyArraysInsertNothingAndFindNothing) {
  const auto a = FixedArrow("i", Bytes(), 4, {});
  a->buffers[1].clear();
  a->Finish(0, 0, 0);
  TestFilter f(BB_LAYOUT_PARQUET);
  EXPECT_EQ(blockbloom::arrow::insert(f.get(), &a->schema, &a->array), BB_OK);
  EXPECT_TRUE(f.AllZero());
  std::size_t hits = 5;
  EXPECT_EQ(blockbloom::arrow::find_bitmap(f.get(), &a->schema, &a->array, nullptr, &hits), BB_OK);
  EXPECT_EQ(hits, 0u);
}

TEST(ArrowAdapter, TheLayoutsRefusalsComeThroughBothPaths) {
  const std::vector<bool> valid = SomeNulls(10);
  auto a = FixedArrow("L", FixedValues(10, 8, 1), 8, valid);
  TestFilter kudu(BB_LAYOUT_KUDU);
  EXPECT_EQ(blockbloom::arrow::insert(kudu.get(), &a->schema, &a->array), BB_ERR_TYPE_NOT_IN_LAYOUT);
  a = Indices("i", 4, std::vector<int64_t>(10, 0), valid);
  a->dictionary = FixedArrow("ttu", FixedValues(1, 8, 1), 8, {true});
  a->Finish(10, kPad, Nulls(valid));
  EXPECT_EQ(blockbloom::arrow::insert(kudu.get(), &a->schema, &a->array), BB_ERR_TYPE_NOT_IN_LAYOUT);
  EXPECT_TRUE(kudu.AllZero());

  std::vector<uint8_t> bytes(256, 0);
  bb_filter ro{};
  ASSERT_EQ(bb_filter_init_view_readonly(&ro, bytes.data(), bytes.size()), BB_OK);
  const auto any_int64 = FixedArrow("l", FixedValues(10, 8, 1), 8, valid);  // every value in its type
  EXPECT_EQ(blockbloom::arrow::insert(&ro, &any_int64->schema, &any_int64->array), BB_ERR_READ_ONLY);
}

int InsertInto(const Arrow& a) {
  TestFilter f(BB_LAYOUT_PARQUET);
  const int status = blockbloom::arrow::insert(f.get(), &a.schema, &a.array);
  EXPECT_TRUE(status == BB_OK || f.AllZero()) << "refused but inserted";
  Bytes bitmap(64, 0);
  std::vector<uint32_t> selection(512, 0);
  const std::size_t n = a.array.length > 0 ? static_cast<std::size_t>(a.array.length) : 0;
  if (n <= 512) {
    EXPECT_EQ(blockbloom::arrow::find_bitmap(f.get(), &a.schema, &a.array, bitmap.data(), nullptr), status);
    EXPECT_EQ(blockbloom::arrow::find_select(f.get(), &a.schema, &a.array, selection.data(), nullptr), status);
  }
  return status;
}

TEST(ArrowAdapter, FormatsWithoutATypedColumnAreRefusedAsUnsupported) {
  for (const char* format : {"b", "n", "tDs", "tiM", "tin", "+l", "+s", "+m", "w:0", "w:x", "d:1",
                             "ts", "tsx:", "ttx", "q", "ii", ""}) {
    SCOPED_TRACE(format);
    const auto a = FixedArrow(format, FixedValues(10, 4, 1), 4, SomeNulls(10));
    EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_UNSUPPORTED_TYPE);
  }
  // Indices that are not integers, and a dictionary of a dictionary.
  auto a = FixedArrow("f", FixedValues(10, 4, 1), 4, SomeNulls(10));
  a->dictionary = FixedArrow("i", FixedValues(1, 4, 1), 4, {true});
  a->Finish(10, kPad, 4);
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_UNSUPPORTED_TYPE);
  a = Indices("c", 1, std::vector<int64_t>(10, 0), SomeNulls(10));
  a->dictionary = Indices("c", 1, {0}, {true});
  a->dictionary->dictionary = FixedArrow("i", FixedValues(1, 4, 1), 4, {true});
  a->dictionary->Finish(1, kPad, 0);
  a->Finish(10, kPad, 4);
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_UNSUPPORTED_TYPE);
}

TEST(ArrowAdapter, ArraysNotLaidOutAsTheSpecSaysAreRefusedAsMalformed) {
  const std::vector<bool> valid = SomeNulls(10);
  const auto fixed = [&] { return FixedArrow("i", FixedValues(10, 4, 1), 4, valid); };
  auto a = fixed();
  a->array.release = nullptr;
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "a released array";
  a = fixed();
  a->schema.release = nullptr;
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "a released schema";
  a = fixed();
  a->array.length = -1;
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "negative length";
  a = fixed();
  a->array.offset = -2;
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "negative offset";
  a = fixed();
  a->array.n_buffers = 3;
  a->pointers.push_back(nullptr);
  a->array.buffers = a->pointers.data();
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "three buffers for int32";
  a = fixed();
  a->pointers[1] = nullptr;
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "no values";
  a = fixed();
  a->pointers[0] = nullptr;
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "nulls counted, no validity";
  a = fixed();
  a->array.buffers = nullptr;
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "no buffer array";

  const std::vector<std::string> s = SomeStrings(10);
  auto str = StringArrow<int32_t>("u", s, valid);
  str->array.n_buffers = 2;
  EXPECT_EQ(InsertInto(*str), BB_ERR_ARROW_MALFORMED) << "two buffers for utf8";
  str = StringArrow<int32_t>("u", s, valid);
  int32_t* off = reinterpret_cast<int32_t*>(str->buffers[1].data());
  std::swap(off[kPad + 3], off[kPad + 4]);
  EXPECT_EQ(InsertInto(*str), BB_ERR_ARROW_MALFORMED) << "decreasing offsets (row 3)";
  str = StringArrow<int32_t>("u", s, valid);
  off = reinterpret_cast<int32_t*>(str->buffers[1].data());
  off[kPad] = -1;
  EXPECT_EQ(InsertInto(*str), BB_ERR_ARROW_MALFORMED) << "negative first offset";
  str = StringArrow<int32_t>("u", s, valid);
  off = reinterpret_cast<int32_t*>(str->buffers[1].data());
  off[kPad + 2] = off[kPad + 10] + 1;
  EXPECT_EQ(InsertInto(*str), BB_ERR_ARROW_MALFORMED) << "an offset past the last";
  str = StringArrow<int32_t>("u", s, valid);
  str->pointers[2] = nullptr;
  EXPECT_EQ(InsertInto(*str), BB_ERR_ARROW_MALFORMED) << "no data for non-empty values";
  auto large = StringArrow<int64_t>("U", s, valid);
  int64_t* off64 = reinterpret_cast<int64_t*>(large->buffers[1].data());
  std::swap(off64[kPad + 2], off64[kPad + 3]);
  EXPECT_EQ(InsertInto(*large), BB_ERR_ARROW_MALFORMED) << "decreasing int64 offsets";

  std::vector<std::string> long_values(10, std::string(20, 'L'));
  auto view = ViewArrow("vu", long_values, std::vector<bool>(10, true));
  view->array.n_buffers = 2;
  EXPECT_EQ(InsertInto(*view), BB_ERR_ARROW_MALFORMED) << "views without their sizes buffer";
  view = ViewArrow("vu", long_values, std::vector<bool>(10, true));
  const int32_t bad_index = 2;
  std::memcpy(view->buffers[1].data() + 16 * (kPad + 5) + 8, &bad_index, 4);
  EXPECT_EQ(InsertInto(*view), BB_ERR_ARROW_MALFORMED) << "a view of a buffer that is not there";
  view = ViewArrow("vu", long_values, std::vector<bool>(10, true));
  const int32_t bad_offset = 1000;
  std::memcpy(view->buffers[1].data() + 16 * (kPad + 5) + 12, &bad_offset, 4);
  EXPECT_EQ(InsertInto(*view), BB_ERR_ARROW_MALFORMED) << "a view past its buffer's size";

  a = Indices("i", 4, std::vector<int64_t>(10, 0), valid);
  a->schema.dictionary = nullptr;
  a->dictionary = FixedArrow("i", FixedValues(1, 4, 1), 4, {true});
  a->array.dictionary = &a->dictionary->array;
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "a dictionary the schema does not describe";
}

// An offset (or length) past what a size_t can address must not wrap the
// bound checks around: such arrays are refused before any pointer is formed.
TEST(ArrowAdapter, OffsetsAndLengthsPastAddressableMemoryAreRefused) {
  const std::vector<bool> valid(1, true);
  const int64_t huge = INT64_MAX / 2;
  for (const char* format : {"i", "w:1000000", "vu"}) {
    SCOPED_TRACE(format);
    auto a = std::string(format) == "vu" ? ViewArrow(format, {"x"}, valid)
                                         : FixedArrow(format, FixedValues(1, std::string(format) == "i" ? 4 : 1000000, 1),
                                                      std::string(format) == "i" ? 4 : 1000000, valid);
    a->array.offset = huge;
    EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "offset 2^62";
  }
  auto a = FixedArrow("w:1000000", FixedValues(1, 1000000, 1), 1000000, valid);
  a->array.offset = 0;
  a->array.length = huge / 1024;  // length * width past SIZE_MAX, length itself below it
  a->array.null_count = 0;
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "length * width";
  // Dictionary indices at an offset past the bound.
  a = Indices("i", 4, {0}, valid);
  a->dictionary = FixedArrow("i", FixedValues(1, 4, 1), 4, {true});
  a->Finish(1, huge, 0);
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "indices at offset 2^62";
  a->Finish(huge, 0, 0);
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_MALFORMED) << "2^62 indices";
}

TEST(ArrowAdapter, DictionaryIndicesOutsideTheDictionaryAreRefused) {
  const std::vector<bool> valid = SomeNulls(10);
  for (int64_t bad : {int64_t{3}, int64_t{-1}, int64_t{1000}}) {
    SCOPED_TRACE(bad);
    std::vector<int64_t> idx(10, 1);
    idx[8] = bad;  // row 8 is valid
    auto a = Indices("s", 2, idx, valid);
    a->dictionary = FixedArrow("i", FixedValues(3, 4, 1), 4, {true, true, true});
    a->Finish(10, kPad, Nulls(valid));
    EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_DICTIONARY_INDEX);
  }
  // An unsigned index above INT64_MAX.
  std::vector<int64_t> idx(10, 0);
  idx[0] = -5;  // as uint64: 2^64 - 5
  auto a = Indices("L", 8, idx, valid);
  a->dictionary = FixedArrow("i", FixedValues(3, 4, 1), 4, {true, true, true});
  a->Finish(10, kPad, Nulls(valid));
  EXPECT_EQ(InsertInto(*a), BB_ERR_ARROW_DICTIONARY_INDEX);
}

TEST(ArrowAdapter, NullPointersAreRefused) {
  const auto a = FixedArrow("i", FixedValues(4, 4, 1), 4, {true, true, true, true});
  TestFilter f(BB_LAYOUT_PARQUET);
  uint8_t bitmap[1];
  uint32_t selection[4];
  EXPECT_EQ(blockbloom::arrow::insert(nullptr, &a->schema, &a->array), BB_ERR_NULL_POINTER);
  EXPECT_EQ(blockbloom::arrow::insert(f.get(), nullptr, &a->array), BB_ERR_NULL_POINTER);
  EXPECT_EQ(blockbloom::arrow::insert(f.get(), &a->schema, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(blockbloom::arrow::find_bitmap(f.get(), &a->schema, &a->array, nullptr, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(blockbloom::arrow::find_select(f.get(), &a->schema, &a->array, nullptr, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(blockbloom::arrow::find_bitmap(nullptr, &a->schema, &a->array, bitmap, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(blockbloom::arrow::find_select(nullptr, &a->schema, &a->array, selection, nullptr), BB_ERR_NULL_POINTER);
}

TEST(ArrowAdapter, CppFilterTakesArraysAndThrowsTheCodes) {
  const std::vector<bool> valid = SomeNulls(20);
  const Bytes values = FixedValues(20, 4, 2);
  const auto a = FixedArrow("i", values, 4, valid);
  blockbloom::Filter by_arrow(4096), by_column(4096);
  blockbloom::arrow::insert(by_arrow, a->schema, a->array);
  by_column.insert_column(FixedExpected(BB_TYPE_INT32, 4, values, valid)->column);
  EXPECT_EQ(by_arrow, by_column);
  uint8_t bitmap[3] = {0};
  uint32_t selection[20] = {0};
  const std::size_t expected_hits = static_cast<std::size_t>(20 - Nulls(valid));
  EXPECT_EQ(blockbloom::arrow::find_bitmap(by_arrow, a->schema, a->array, bitmap), expected_hits);
  EXPECT_EQ(blockbloom::arrow::find_select(by_arrow, a->schema, a->array, selection), expected_hits);
  EXPECT_EQ(selection[0], 0u);
  EXPECT_EQ(selection[1], 2u);  // row 1 is null

  const auto boolean = FixedArrow("b", Bytes{0xff, 0xff, 0xff}, 1, valid);
  try {
    blockbloom::arrow::insert(by_arrow, boolean->schema, boolean->array);
    FAIL() << "boolean accepted";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_ARROW_UNSUPPORTED_TYPE);
  }
}

// The C++ overloads' Error, and the C calls' why, name the Arrow format refused.
TEST(ArrowAdapter, RefusalMessagesNameTheArrowFormat) {
  const std::vector<bool> valid = SomeNulls(6);
  blockbloom::Filter f(1024);
  const auto boolean = FixedArrow("b", Bytes{0xff, 0xff, 0xff}, 1, valid);
  try {
    blockbloom::arrow::insert(f, boolean->schema, boolean->array);
    FAIL() << "boolean accepted";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_ARROW_UNSUPPORTED_TYPE);
    EXPECT_NE(std::string(e.what()).find("Arrow format 'b'"), std::string::npos) << e.what();
  }
  // A tz-aware timestamp into a local TIMESTAMP column: ambiguous, by the library's rule.
  const auto aware = FixedArrow("tsu:Europe/Paris", FixedValues(6, 8, 1), 8, valid);
  bb_parquet_column local{};
  local.struct_size = sizeof local;
  ASSERT_EQ(bb_parquet_type_parse("timestamp(us)", 13, &local), BB_OK);
  try {
    blockbloom::arrow::insert(f, local, aware->schema, aware->array);
    FAIL() << "a tz-aware array accepted by a local TIMESTAMP";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_VALUE_AMBIGUOUS);
    EXPECT_NE(std::string(e.what()).find("Arrow format 'tsu:Europe/Paris'"), std::string::npos) << e.what();
  }
  std::string why;
  uint8_t bitmap[1];
  EXPECT_EQ(blockbloom::arrow::find_bitmap(f.c_filter(), &local, &aware->schema, &aware->array, bitmap, nullptr, &why),
            BB_ERR_VALUE_AMBIGUOUS);
  EXPECT_NE(why.find("'tsu:Europe/Paris'"), std::string::npos) << why;
  // A dictionary whose indices are refused names them.
  auto a = FixedArrow("f", FixedValues(6, 4, 1), 4, valid);
  a->dictionary = FixedArrow("i", FixedValues(1, 4, 1), 4, {true});
  a->Finish(6, kPad, Nulls(valid));
  why.clear();
  EXPECT_EQ(blockbloom::arrow::insert(f.c_filter(), &a->schema, &a->array, &why), BB_ERR_ARROW_UNSUPPORTED_TYPE);
  EXPECT_NE(why.find("'f' (as dictionary indices)"), std::string::npos) << why;
  EXPECT_EQ(f, blockbloom::Filter(1024));
}

// A UTC timestamp into column types it cannot be compared with, a released
// array under a live schema and NULL arguments: every refusal's message
// names the Arrow format (or says there was none to name).
TEST(ArrowAdapter, EveryRefusalNamesTheFormatOrItsAbsence) {
  const std::vector<bool> valid = SomeNulls(6);
  blockbloom::Filter f(1024);
  const auto utc = FixedArrow("tsu:UTC", FixedValues(6, 8, 1), 8, valid);
  for (const char* name : {"date", "int32", "string", "timestamp(us)"}) {
    SCOPED_TRACE(name);
    bb_parquet_column type{};
    type.struct_size = sizeof type;
    ASSERT_EQ(bb_parquet_type_parse(name, std::strlen(name), &type), BB_OK);
    const std::string message = ThrownMessage([&] { blockbloom::arrow::insert(f, type, utc->schema, utc->array); });
    EXPECT_EQ(message.rfind("Arrow format 'tsu:UTC': ", 0), 0u) << message;
    uint8_t bitmap[1];
    std::string why;
    EXPECT_LT(blockbloom::arrow::find_bitmap(f.c_filter(), &type, &utc->schema, &utc->array, bitmap, nullptr, &why),
              0);
    EXPECT_EQ(why, message);
  }
  // A released array, its schema still live: the schema's format is named.
  auto released = FixedArrow("tsu:UTC", FixedValues(6, 8, 1), 8, valid);
  auto release = released->array.release;
  released->array.release = nullptr;
  std::string why;
  EXPECT_EQ(blockbloom::arrow::insert(f.c_filter(), &released->schema, &released->array, &why),
            BB_ERR_ARROW_MALFORMED);
  EXPECT_EQ(why.rfind("Arrow format 'tsu:UTC': ", 0), 0u) << why;
  EXPECT_NE(why.find("released"), std::string::npos) << why;
  released->array.release = release;
  // No schema to read a format from: the message says so instead of being empty.
  why.clear();
  EXPECT_EQ(blockbloom::arrow::insert(f.c_filter(), nullptr, &utc->array, &why), BB_ERR_NULL_POINTER);
  EXPECT_NE(why.find("no format"), std::string::npos) << why;
  EXPECT_NE(why.find(bb_status_message(BB_ERR_NULL_POINTER)), std::string::npos) << why;
  why.clear();
  EXPECT_EQ(blockbloom::arrow::validate(nullptr, &utc->array, BB_LAYOUT_PARQUET, &why), BB_ERR_NULL_POINTER);
  EXPECT_NE(why.find("no format"), std::string::npos) << why;
  EXPECT_EQ(f, blockbloom::Filter(1024));
}

// Kudu filters keep Kudu's cells: no float16 cell, and no Parquet type to convert into.
TEST(ArrowAdapter, KuduFiltersRefuseFloat16AndParquetTypes) {
  TestFilter kudu(BB_LAYOUT_KUDU);
  const auto half = FixedArrow("e", FixedValues(6, 2, 1), 2, SomeNulls(6));
  EXPECT_EQ(blockbloom::arrow::insert(kudu.get(), &half->schema, &half->array), BB_ERR_ARROW_UNSUPPORTED_TYPE);
  const auto ints = FixedArrow("i", FixedValues(6, 4, 1), 4, SomeNulls(6));
  bb_parquet_column t{};
  t.struct_size = sizeof t;
  ASSERT_EQ(bb_parquet_type_parse("int32", 5, &t), BB_OK);
  std::string why;
  EXPECT_EQ(blockbloom::arrow::insert(kudu.get(), &t, &ints->schema, &ints->array, &why), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_NE(why.find("Kudu"), std::string::npos) << why;
  uint8_t bitmap[1];
  EXPECT_EQ(blockbloom::arrow::find_bitmap(kudu.get(), &t, &ints->schema, &ints->array, bitmap, nullptr),
            BB_ERR_LAYOUT_MISMATCH);
  EXPECT_TRUE(kudu.AllZero());
  // Parquet decimals of a scale Parquet cannot hold are refused there.
  TestFilter parquet(BB_LAYOUT_PARQUET);
  for (const char* format : {"d:12,-2,128", "d:5,7,32"}) {
    SCOPED_TRACE(format);
    const auto d = FixedArrow(format, FixedValues(6, 16, 1), 16, SomeNulls(6));
    EXPECT_EQ(blockbloom::arrow::insert(parquet.get(), &d->schema, &d->array), BB_ERR_ARROW_UNSUPPORTED_TYPE);
  }
  EXPECT_TRUE(parquet.AllZero());
}

TEST(ArrowAdapter, StatusMessagesNameTheArrowProblems) {
  EXPECT_NE(std::string(bb_status_message(BB_ERR_ARROW_UNSUPPORTED_TYPE)).find("Arrow format"), std::string::npos);
  EXPECT_NE(std::string(bb_status_message(BB_ERR_ARROW_MALFORMED)).find("C Data Interface"), std::string::npos);
  EXPECT_NE(std::string(bb_status_message(BB_ERR_ARROW_DICTIONARY_INDEX)).find("dictionary index"),
            std::string::npos);
}

}  // namespace
