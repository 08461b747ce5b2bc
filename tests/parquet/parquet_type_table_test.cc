// SPDX-License-Identifier: Apache-2.0
// The Parquet type tables (parquet_types.h, src/parquet/values/type_table.h): every
// code is parquet.thrift's, every width the plain encoding's
// (docs/formats.md; /work/shared/design/facts.md "Hashes"), and each place
// that used to keep its own copy of a code, a width or the hex rule answers
// through the table as it did before: type names, bb_parquet_hash_value's
// length check, bb_parquet_stored_column_type, the value rules' widths and
// the hex refusal.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "src/parquet/values/type_table.h"
#include "blockbloom/hashing.h"
#include "blockbloom/parquet_file.h"
#include "blockbloom/parquet_types.h"
#include "blockbloom/parquet_value.h"

namespace {

namespace types = blockbloom::internal::parquet_types;

struct Expected {
  const char* name;
  int code;
};

// parquet.thrift `enum Type`, written out here from the spec, not from the
// header, with each type's plain-encoding width.
struct ExpectedPhysical {
  const char* name;
  int code;
  int width;
  bool hex;
};
const ExpectedPhysical kSpecPhysical[] = {
    {"BOOLEAN", 0, BB_PARQUET_WIDTH_NONE, false},
    {"INT32", 1, 4, false},
    {"INT64", 2, 8, false},
    {"INT96", 3, 12, true},
    {"FLOAT", 4, 4, true},
    {"DOUBLE", 5, 8, true},
    {"BYTE_ARRAY", 6, BB_PARQUET_WIDTH_VARIABLE, true},
    {"FIXED_LEN_BYTE_ARRAY", 7, BB_PARQUET_WIDTH_TYPE_LENGTH, true},
};

// parquet.thrift `union LogicalType` field ids (9 was INTERVAL, reserved).
const Expected kSpecLogical[] = {
    {"STRING", 1},  {"MAP", 2},      {"LIST", 3},     {"ENUM", 4},     {"DECIMAL", 5},
    {"DATE", 6},    {"TIME", 7},     {"TIMESTAMP", 8}, {"INTEGER", 10}, {"UNKNOWN", 11},
    {"JSON", 12},   {"BSON", 13},    {"UUID", 14},    {"FLOAT16", 15}, {"VARIANT", 16},
    {"GEOMETRY", 17}, {"GEOGRAPHY", 18},
};

// parquet.thrift `enum ConvertedType`.
const Expected kSpecConverted[] = {
    {"UTF8", 0},         {"MAP", 1},          {"MAP_KEY_VALUE", 2},     {"LIST", 3},
    {"ENUM", 4},         {"DECIMAL", 5},      {"DATE", 6},              {"TIME_MILLIS", 7},
    {"TIME_MICROS", 8},  {"TIMESTAMP_MILLIS", 9}, {"TIMESTAMP_MICROS", 10}, {"UINT_8", 11},
    {"UINT_16", 12},     {"UINT_32", 13},     {"UINT_64", 14},          {"INT_8", 15},
    {"INT_16", 16},      {"INT_32", 17},      {"INT_64", 18},           {"JSON", 19},
    {"BSON", 20},        {"INTERVAL", 21},
};

TEST(ParquetTypeTable, PhysicalRowsAreTheSpecs) {
  ASSERT_EQ(std::size(types::kPhysicalTypes), std::size(kSpecPhysical));
  for (size_t i = 0; i < std::size(kSpecPhysical); ++i) {
    const ExpectedPhysical& e = kSpecPhysical[i];
    const types::PhysicalRow& row = types::kPhysicalTypes[i];
    EXPECT_STREQ(row.name, e.name);
    EXPECT_EQ(row.code, e.code) << e.name;
    EXPECT_EQ(row.width, e.width) << e.name;
    EXPECT_EQ(row.hex, e.hex) << e.name;
    EXPECT_EQ(types::FindPhysical(e.code), &row);
  }
  EXPECT_EQ(types::FindPhysical(8), nullptr);
  EXPECT_EQ(types::FindPhysical(-1), nullptr);
}

TEST(ParquetTypeTable, EnumsAreMadeFromTheRows) {
  // A few by name, so that a generated enum that lost its prefix or shifted
  // a value fails to compile or fails here.
  static_assert(BB_PARQUET_BOOLEAN == 0 && BB_PARQUET_INT96 == 3 &&
                    BB_PARQUET_FIXED_LEN_BYTE_ARRAY == 7,
                "physical codes");
  static_assert(BB_PARQUET_LOGICAL_NONE == 0 && BB_PARQUET_LOGICAL_STRING == 1 &&
                    BB_PARQUET_LOGICAL_INTEGER == 10 && BB_PARQUET_LOGICAL_GEOGRAPHY == 18,
                "logical field ids");
  static_assert(BB_PARQUET_CONVERTED_NONE == -1 && BB_PARQUET_CONVERTED_UTF8 == 0 &&
                    BB_PARQUET_CONVERTED_UINT_8 == 11 && BB_PARQUET_CONVERTED_INT_8 == 15 &&
                    BB_PARQUET_CONVERTED_INT_64 == 18 && BB_PARQUET_CONVERTED_INTERVAL == 21,
                "converted codes");
  static_assert(BB_PARQUET_UNIT_MILLIS == 1 && BB_PARQUET_UNIT_NANOS == 3, "time units");
}

TEST(ParquetTypeTable, LogicalAndConvertedRowsAreTheSpecs) {
  ASSERT_EQ(std::size(types::kLogicalTypes), std::size(kSpecLogical));
  for (size_t i = 0; i < std::size(kSpecLogical); ++i) {
    EXPECT_STREQ(types::kLogicalTypes[i].name, kSpecLogical[i].name);
    EXPECT_EQ(types::kLogicalTypes[i].code, kSpecLogical[i].code) << kSpecLogical[i].name;
  }
  ASSERT_EQ(std::size(types::kConvertedTypes), std::size(kSpecConverted));
  for (size_t i = 0; i < std::size(kSpecConverted); ++i) {
    EXPECT_STREQ(types::kConvertedTypes[i].name, kSpecConverted[i].name);
    EXPECT_EQ(types::kConvertedTypes[i].code, kSpecConverted[i].code) << kSpecConverted[i].name;
  }
  EXPECT_EQ(types::NameOf(types::kLogicalTypes, 9), nullptr);
  EXPECT_EQ(types::NameOf(types::kConvertedTypes, 22), nullptr);
}

bb_parquet_column Column(int physical, int type_length = 0) {
  bb_parquet_column c;
  std::memset(&c, 0, sizeof c);
  c.struct_size = sizeof c;
  c.path = "";
  c.physical_type = physical;
  c.type_length = type_length;
  c.converted_type = BB_PARQUET_CONVERTED_NONE;
  return c;
}

std::string Name(int (*name_of)(const bb_parquet_column*, char*, size_t),
                 const bb_parquet_column& c) {
  char out[BB_PARQUET_TYPE_NAME_MAX] = "";
  EXPECT_EQ(name_of(&c, out, sizeof out), BB_OK);
  return out;
}

// type_names.cc: the names it gave from its own arrays, now the table's.
TEST(ParquetTypeTable, NamesAreTheTables) {
  for (const ExpectedPhysical& e : kSpecPhysical) {
    const std::string want = std::string(e.name) + (e.code == 7 ? "(5)" : "");
    EXPECT_EQ(Name(bb_parquet_physical_type_name, Column(e.code, 5)), want);
  }
  EXPECT_EQ(Name(bb_parquet_physical_type_name, Column(8)), "TYPE(8)");
  for (const Expected& e : kSpecConverted) {
    bb_parquet_column c = Column(BB_PARQUET_INT32);
    c.converted_type = e.code;
    c.precision = 9;
    c.scale = 2;
    EXPECT_EQ(Name(bb_parquet_logical_type_name, c),
              std::string(e.name) + (e.code == 5 ? "(9,2)" : ""));
  }
  bb_parquet_column c = Column(BB_PARQUET_BYTE_ARRAY);
  c.converted_type = 22;
  EXPECT_EQ(Name(bb_parquet_logical_type_name, c), "CONVERTED(22)");
  for (const Expected& e : {kSpecLogical[0], kSpecLogical[12], kSpecLogical[16]}) {
    c.logical_type = e.code;
    EXPECT_EQ(Name(bb_parquet_logical_type_name, c), e.name);
  }
  c.logical_type = 9;
  EXPECT_EQ(Name(bb_parquet_logical_type_name, c), "LOGICAL(9)");
}

// src/parquet/format/parquet_file.cc: bb_parquet_hash_value takes exactly the table's width.
TEST(ParquetTypeTable, HashValueTakesTheTablesWidth) {
  const uint8_t bytes[16] = {1, 2, 3};
  uint64_t hash = 0;
  for (const ExpectedPhysical& e : kSpecPhysical) {
    for (size_t len = 0; len <= 13; ++len) {
      const int rc = bb_parquet_hash_value(e.code, 5, bytes, len, &hash);
      const bool fits = e.width > 0 ? len == static_cast<size_t>(e.width)
                        : e.width == BB_PARQUET_WIDTH_VARIABLE ? true
                        : e.width == BB_PARQUET_WIDTH_TYPE_LENGTH ? len == 5
                                                                   : false;
      EXPECT_EQ(rc, fits ? BB_OK : BB_ERR_PARQUET_UNSUPPORTED) << e.name << " len " << len;
      if (fits) {
        EXPECT_EQ(hash, bb_parquet_hash_bytes(bytes, len));
      }
    }
  }
  EXPECT_EQ(bb_parquet_hash_value(BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 0, bytes, 0, &hash),
            BB_ERR_PARQUET_UNSUPPORTED);
  EXPECT_EQ(bb_parquet_hash_value(8, 0, bytes, 0, &hash), BB_ERR_PARQUET_UNSUPPORTED);
}

// type_parse.cc: the stored column type's width, INT96 and FLBA only.
TEST(ParquetTypeTable, StoredColumnWidth) {
  uint32_t column_type = 0;
  size_t width = 99;
  bb_parquet_column c = Column(BB_PARQUET_INT96);
  ASSERT_EQ(bb_parquet_stored_column_type(&c, &column_type, &width), BB_OK);
  EXPECT_EQ(width, 12u);
  c = Column(BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 7);
  ASSERT_EQ(bb_parquet_stored_column_type(&c, &column_type, &width), BB_OK);
  EXPECT_EQ(width, 7u);
  for (int p : {BB_PARQUET_INT32, BB_PARQUET_INT64, BB_PARQUET_FLOAT, BB_PARQUET_DOUBLE,
                BB_PARQUET_BYTE_ARRAY}) {
    c = Column(p);
    ASSERT_EQ(bb_parquet_stored_column_type(&c, &column_type, &width), BB_OK);
    EXPECT_EQ(width, 0u) << p;
  }
  c = Column(BB_PARQUET_BOOLEAN);
  EXPECT_EQ(bb_parquet_stored_column_type(&c, &column_type, &width), BB_ERR_PARQUET_UNSUPPORTED);
}

// value_rules.cc: the physical form of each type encodes to the table's
// width, and hex is accepted exactly where the table's hex column says.
TEST(ParquetTypeTable, ValueRulesReadTheTable) {
  for (const ExpectedPhysical& e : kSpecPhysical) {
    const bb_parquet_column c = Column(e.code, 5);
    uint8_t out[64];
    size_t out_len = 0;
    char why[BB_PARQUET_VALUE_ERROR_MAX] = "";
    const std::string hex(2 * static_cast<size_t>(e.width > 0 ? e.width : 5), 'a');
    const int rc = bb_parquet_encode_text(&c, hex.data(), hex.size(), BB_PARQUET_TEXT_HEX, out,
                                          sizeof out, &out_len, why, sizeof why);
    if (e.code == BB_PARQUET_BOOLEAN) {
      EXPECT_EQ(rc, BB_ERR_PARQUET_UNSUPPORTED);
    } else if (e.hex) {
      ASSERT_EQ(rc, BB_OK) << e.name << ": " << why;
      EXPECT_EQ(out_len, hex.size() / 2) << e.name;
    } else {
      EXPECT_EQ(rc, BB_ERR_VALUE_SYNTAX) << e.name;
      EXPECT_STREQ(why, "cannot be given as hex: hex is for INT96, FLOAT, DOUBLE, BYTE_ARRAY and "
                        "FIXED_LEN_BYTE_ARRAY");
      // Its number form is the width the table gives.
      ASSERT_EQ(bb_parquet_encode_text(&c, "-1", 2, BB_PARQUET_TEXT_PHYSICAL, out, sizeof out,
                                       &out_len, why, sizeof why),
                BB_OK);
      EXPECT_EQ(out_len, static_cast<size_t>(e.width)) << e.name;
    }
  }
  EXPECT_EQ(types::HexTypeList(), "INT96, FLOAT, DOUBLE, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY");
  EXPECT_EQ(types::ValueWidth(BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 0), -1);
  EXPECT_EQ(types::ValueWidth(BB_PARQUET_BYTE_ARRAY, 3), 0);
  EXPECT_EQ(types::ValueWidth(BB_PARQUET_BOOLEAN, 0), -1);
}

// The converted codes the value rules read (value_rules.cc kept them as its
// own constants): each legacy annotation still gives its type's rule.
TEST(ParquetTypeTable, ConvertedAnnotationsKeepTheirRules) {
  struct Case {
    int physical, type_length, converted;
    const char* text;
    std::vector<uint8_t> bytes;
  };
  const Case cases[] = {
      {BB_PARQUET_INT32, 0, BB_PARQUET_CONVERTED_UINT_8, "255", {0xff, 0, 0, 0}},
      {BB_PARQUET_INT32, 0, BB_PARQUET_CONVERTED_INT_8, "-1", {0xff, 0xff, 0xff, 0xff}},
      {BB_PARQUET_INT64, 0, BB_PARQUET_CONVERTED_UINT_64, "1", {1, 0, 0, 0, 0, 0, 0, 0}},
      {BB_PARQUET_INT32, 0, BB_PARQUET_CONVERTED_DATE, "1970-01-02", {1, 0, 0, 0}},
      {BB_PARQUET_INT32, 0, BB_PARQUET_CONVERTED_TIME_MILLIS, "00:00:01", {0xe8, 3, 0, 0}},
      {BB_PARQUET_INT64, 0, BB_PARQUET_CONVERTED_TIMESTAMP_MILLIS, "1970-01-01 00:00:01",
       {0xe8, 3, 0, 0, 0, 0, 0, 0}},
      {BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 12, BB_PARQUET_CONVERTED_INTERVAL, "1 months 2 days 3 ms",
       {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}},
      {BB_PARQUET_BYTE_ARRAY, 0, BB_PARQUET_CONVERTED_UTF8, "ab", {'a', 'b'}},
  };
  for (const Case& k : cases) {
    bb_parquet_column c = Column(k.physical, k.type_length);
    c.converted_type = k.converted;
    uint8_t out[32];
    size_t out_len = 0;
    char why[BB_PARQUET_VALUE_ERROR_MAX] = "";
    ASSERT_EQ(bb_parquet_encode_text(&c, k.text, std::strlen(k.text), 0, out, sizeof out,
                                     &out_len, why, sizeof why),
              BB_OK)
        << k.text << ": " << why;
    EXPECT_EQ(std::vector<uint8_t>(out, out + out_len), k.bytes) << k.text;
  }
  bb_parquet_column c = Column(BB_PARQUET_INT32);
  c.converted_type = BB_PARQUET_CONVERTED_UINT_8;
  uint8_t out[8];
  size_t out_len = 0;
  EXPECT_EQ(bb_parquet_encode_text(&c, "256", 3, 0, out, sizeof out, &out_len, nullptr, 0),
            BB_ERR_VALUE_RANGE);
}

// The five names of hashing.h's types: exactly these, in this order (the
// Python package's ValueType follows it), each a name bb_parquet_type_parse
// knows as that physical type.
TEST(ParquetTypeTable, HashingTypeNames) {
  struct Row {
    const char* name;
    int physical;
  };
#define ROW(name, physical) {#name, BB_PARQUET_##physical},
  const Row rows[] = {BB_PARQUET_HASHING_TYPES(ROW)};
#undef ROW
  const Row want[] = {{"int32", 1}, {"int64", 2}, {"float", 4}, {"double", 5}, {"string", 6}};
  ASSERT_EQ(std::size(rows), std::size(want));
  for (size_t i = 0; i < std::size(want); ++i) {
    EXPECT_STREQ(rows[i].name, want[i].name);
    EXPECT_EQ(rows[i].physical, want[i].physical) << want[i].name;
    bb_parquet_column c = Column(0);
    ASSERT_EQ(bb_parquet_type_parse(rows[i].name, std::strlen(rows[i].name), &c), BB_OK);
    EXPECT_EQ(c.physical_type, rows[i].physical) << rows[i].name;
  }
}

}  // namespace
