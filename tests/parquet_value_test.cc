// SPDX-License-Identifier: Apache-2.0
// parquet_value.h: type names (bb_parquet_type_parse) and the bb_column_type
// of a type's stored values (bb_parquet_stored_column_type).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "blockbloom/column.h"
#include "blockbloom/parquet_value.h"

namespace {

struct TypeCase {
  const char* name;
  int physical, length, logical, converted, bits, is_signed, unit, utc, precision, scale;
};

constexpr int N = BB_PARQUET_CONVERTED_NONE;

bb_parquet_column Fresh() {
  bb_parquet_column t;
  std::memset(&t, 0, sizeof t);
  t.struct_size = sizeof t;
  return t;
}

const TypeCase kTypes[] = {
    {"int8", BB_PARQUET_INT32, 0, BB_PARQUET_LOGICAL_INTEGER, N, 8, 1, 0, 0, 0, 0},
    {"INT16", BB_PARQUET_INT32, 0, BB_PARQUET_LOGICAL_INTEGER, N, 16, 1, 0, 0, 0, 0},
    {"int32", BB_PARQUET_INT32, 0, BB_PARQUET_LOGICAL_INTEGER, N, 32, 1, 0, 0, 0, 0},
    {"int64", BB_PARQUET_INT64, 0, BB_PARQUET_LOGICAL_INTEGER, N, 64, 1, 0, 0, 0, 0},
    {"uint8", BB_PARQUET_INT32, 0, BB_PARQUET_LOGICAL_INTEGER, N, 8, 0, 0, 0, 0, 0},
    {"uint16", BB_PARQUET_INT32, 0, BB_PARQUET_LOGICAL_INTEGER, N, 16, 0, 0, 0, 0, 0},
    {"UInt32", BB_PARQUET_INT32, 0, BB_PARQUET_LOGICAL_INTEGER, N, 32, 0, 0, 0, 0, 0},
    {"uint64", BB_PARQUET_INT64, 0, BB_PARQUET_LOGICAL_INTEGER, N, 64, 0, 0, 0, 0, 0},
    {"float", BB_PARQUET_FLOAT, 0, 0, N, 0, 0, 0, 0, 0, 0},
    {"double", BB_PARQUET_DOUBLE, 0, 0, N, 0, 0, 0, 0, 0, 0},
    {"float16", BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 2, BB_PARQUET_LOGICAL_FLOAT16, N, 0, 0, 0, 0, 0, 0},
    {"string", BB_PARQUET_BYTE_ARRAY, 0, BB_PARQUET_LOGICAL_STRING, N, 0, 0, 0, 0, 0, 0},
    {"enum", BB_PARQUET_BYTE_ARRAY, 0, BB_PARQUET_LOGICAL_ENUM, N, 0, 0, 0, 0, 0, 0},
    {"json", BB_PARQUET_BYTE_ARRAY, 0, BB_PARQUET_LOGICAL_JSON, N, 0, 0, 0, 0, 0, 0},
    {"bson", BB_PARQUET_BYTE_ARRAY, 0, BB_PARQUET_LOGICAL_BSON, N, 0, 0, 0, 0, 0, 0},
    {"binary", BB_PARQUET_BYTE_ARRAY, 0, 0, N, 0, 0, 0, 0, 0, 0},
    {"byte_array", BB_PARQUET_BYTE_ARRAY, 0, 0, N, 0, 0, 0, 0, 0, 0},
    {"fixed(3)", BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 3, 0, N, 0, 0, 0, 0, 0, 0},
    {"fixed_len_byte_array(40)", BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 40, 0, N, 0, 0, 0, 0, 0, 0},
    {"uuid", BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 16, BB_PARQUET_LOGICAL_UUID, N, 0, 0, 0, 0, 0, 0},
    {"int96", BB_PARQUET_INT96, 0, 0, N, 0, 0, 0, 0, 0, 0},
    {"interval", BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 12, 0, 21, 0, 0, 0, 0, 0, 0},
    {"date", BB_PARQUET_INT32, 0, BB_PARQUET_LOGICAL_DATE, N, 0, 0, 0, 0, 0, 0},
    {"time(ms)", BB_PARQUET_INT32, 0, BB_PARQUET_LOGICAL_TIME, N, 0, 0, 1, 0, 0, 0},
    {"time(us,utc)", BB_PARQUET_INT64, 0, BB_PARQUET_LOGICAL_TIME, N, 0, 0, 2, 1, 0, 0},
    {"time(ns)", BB_PARQUET_INT64, 0, BB_PARQUET_LOGICAL_TIME, N, 0, 0, 3, 0, 0, 0},
    {"timestamp(ms)", BB_PARQUET_INT64, 0, BB_PARQUET_LOGICAL_TIMESTAMP, N, 0, 0, 1, 0, 0, 0},
    {"TIMESTAMP(NS,UTC)", BB_PARQUET_INT64, 0, BB_PARQUET_LOGICAL_TIMESTAMP, N, 0, 0, 3, 1, 0, 0},
    {"decimal(9,2)", BB_PARQUET_INT32, 0, BB_PARQUET_LOGICAL_DECIMAL, N, 0, 0, 0, 0, 9, 2},
    {"decimal(10,0)", BB_PARQUET_INT64, 0, BB_PARQUET_LOGICAL_DECIMAL, N, 0, 0, 0, 0, 10, 0},
    {"decimal(18,18)", BB_PARQUET_INT64, 0, BB_PARQUET_LOGICAL_DECIMAL, N, 0, 0, 0, 0, 18, 18},
    {"decimal(19,4)", BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 9, BB_PARQUET_LOGICAL_DECIMAL, N, 0, 0, 0, 0, 19, 4},
    {"decimal(38,10)", BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 16, BB_PARQUET_LOGICAL_DECIMAL, N, 0, 0, 0, 0, 38, 10},
    {"decimal(4,1,int64)", BB_PARQUET_INT64, 0, BB_PARQUET_LOGICAL_DECIMAL, N, 0, 0, 0, 0, 4, 1},
    {"decimal(4,1,binary)", BB_PARQUET_BYTE_ARRAY, 0, BB_PARQUET_LOGICAL_DECIMAL, N, 0, 0, 0, 0, 4, 1},
    {"decimal(4,1,fixed(2))", BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 2, BB_PARQUET_LOGICAL_DECIMAL, N, 0, 0, 0, 0, 4, 1},
    {"boolean", BB_PARQUET_BOOLEAN, 0, 0, N, 0, 0, 0, 0, 0, 0},
};

TEST(ParquetTypeParse, Names) {
  for (const TypeCase& c : kTypes) {
    SCOPED_TRACE(c.name);
    bb_parquet_column t;
    std::memset(&t, 0x5a, sizeof t);
    t.struct_size = sizeof t;
    ASSERT_EQ(bb_parquet_type_parse(c.name, std::strlen(c.name), &t), BB_OK);
    EXPECT_EQ(t.struct_size, sizeof t);
    EXPECT_EQ(t.path_len, 0u);
    EXPECT_EQ(t.physical_type, c.physical);
    EXPECT_EQ(t.type_length, c.length);
    EXPECT_EQ(t.logical_type, c.logical);
    EXPECT_EQ(t.converted_type, c.converted);
    EXPECT_EQ(t.bit_width, c.bits);
    EXPECT_EQ(t.is_signed, c.is_signed);
    EXPECT_EQ(t.time_unit, c.unit);
    EXPECT_EQ(t.is_adjusted_to_utc, c.utc);
    EXPECT_EQ(t.precision, c.precision);
    EXPECT_EQ(t.scale, c.scale);
  }
}

TEST(ParquetTypeParse, Refusals) {
  const char* const bad[] = {"",          "int",          "int 8",          " int8",
                             "int8 ",     "fixed(0)",     "fixed(01)",      "fixed()",
                             "time(s)",   "time(ms,UTX)", "timestamp",      "timestamp(ms,utc,x)",
                             "decimal(0,0)", "decimal(4,5)", "decimal(10,2,int32)",
                             "decimal(19,2,int64)", "decimal(5,1,fixed(2))", "decimal(4,1,float)",
                             "decimal(4)", "decimal(4,-1)", "variant"};
  for (const char* name : bad) {
    SCOPED_TRACE(name);
    bb_parquet_column t = Fresh();
    EXPECT_EQ(bb_parquet_type_parse(name, std::strlen(name), &t), BB_ERR_UNKNOWN_TYPE_NAME);
  }
  bb_parquet_column t = Fresh();
  EXPECT_EQ(bb_parquet_type_parse("int8\0", 5, &t), BB_ERR_UNKNOWN_TYPE_NAME);
  EXPECT_EQ(bb_parquet_type_parse(nullptr, 1, &t), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_type_parse("int8", 4, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_type_parse(nullptr, 0, &t), BB_ERR_UNKNOWN_TYPE_NAME);
  t.struct_size = sizeof t - 1;
  EXPECT_EQ(bb_parquet_type_parse("int8", 4, &t), BB_ERR_BUFFER_TOO_SMALL);
}

TEST(ParquetStoredColumnType, EachPhysicalType) {
  const struct {
    const char* name;
    uint32_t type;
    size_t width;
  } cases[] = {{"int8", BB_TYPE_INT32, 0},           {"uint32", BB_TYPE_INT32, 0},
               {"date", BB_TYPE_INT32, 0},           {"time(ms)", BB_TYPE_INT32, 0},
               {"decimal(9,2)", BB_TYPE_INT32, 0},   {"uint64", BB_TYPE_INT64, 0},
               {"timestamp(us)", BB_TYPE_INT64, 0},  {"float", BB_TYPE_FLOAT, 0},
               {"double", BB_TYPE_DOUBLE, 0},        {"int96", BB_TYPE_INT96, 12},
               {"string", BB_TYPE_BYTE_ARRAY, 0},    {"decimal(30,2,binary)", BB_TYPE_BYTE_ARRAY, 0},
               {"uuid", BB_TYPE_FIXED_LEN_BYTE_ARRAY, 16},
               {"float16", BB_TYPE_FIXED_LEN_BYTE_ARRAY, 2}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    bb_parquet_column t = Fresh();
    ASSERT_EQ(bb_parquet_type_parse(c.name, std::strlen(c.name), &t), BB_OK);
    uint32_t type = 999;
    size_t width = 999;
    ASSERT_EQ(bb_parquet_stored_column_type(&t, &type, &width), BB_OK);
    EXPECT_EQ(type, c.type);
    EXPECT_EQ(width, c.width);
  }
  bb_parquet_column t = Fresh();
  ASSERT_EQ(bb_parquet_type_parse("boolean", 7, &t), BB_OK);
  uint32_t type = 0;
  size_t width = 0;
  EXPECT_EQ(bb_parquet_stored_column_type(&t, &type, &width), BB_ERR_PARQUET_UNSUPPORTED);
  t.physical_type = 8;
  EXPECT_EQ(bb_parquet_stored_column_type(&t, &type, &width), BB_ERR_PARQUET_UNSUPPORTED);
  EXPECT_EQ(bb_parquet_stored_column_type(nullptr, &type, &width), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_stored_column_type(&t, nullptr, &width), BB_ERR_NULL_POINTER);
}

}  // namespace
