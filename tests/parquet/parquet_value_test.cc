// SPDX-License-Identifier: Apache-2.0
// parquet_value.h: type names (bb_parquet_type_parse), the bb_column_type of
// a type's stored values (bb_parquet_stored_column_type), and values as text
// (bb_parquet_encode_text / _hash_text / _value_form): every type's accepted
// forms against bytes worked out outside the library (Python's struct,
// datetime and uuid; day numbers: 2024-01-31 = 19753, 0001-01-01 = -719162),
// and each refusal's code.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <clocale>
#include <cstdlib>
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


struct TextCase {
  const char* type;
  uint32_t flags;
  const char* text;
  const char* hex;  // the bytes expected, or nullptr for an error
  int code;         // BB_OK or the error
};

constexpr uint32_t H = BB_PARQUET_TEXT_HEX, P = BB_PARQUET_TEXT_PHYSICAL;
constexpr int S = BB_ERR_VALUE_SYNTAX, R = BB_ERR_VALUE_RANGE, U = BB_ERR_PARQUET_UNSUPPORTED;

const TextCase kText[] = {
    {"int8", 0, "127", "7f000000", BB_OK},
    {"int8", 0, "-128", "80ffffff", BB_OK},
    {"int8", 0, "0", "00000000", BB_OK},
    {"int8", 0, "128", nullptr, R},
    {"int8", 0, "-129", nullptr, R},
    {"int8", 0, " 5", nullptr, S},
    {"int8", 0, "5 ", nullptr, S},
    {"int8", 0, "+5", nullptr, S},
    {"int8", 0, "05", nullptr, S},
    {"int8", 0, "-0", nullptr, S},
    {"int8", 0, "", nullptr, S},
    {"int8", 0, "0x10", nullptr, S},
    {"uint8", 0, "255", "ff000000", BB_OK},
    {"uint8", 0, "-1", nullptr, R},
    {"uint8", 0, "256", nullptr, R},
    {"int16", 0, "-32768", "0080ffff", BB_OK},
    {"uint16", 0, "65535", "ffff0000", BB_OK},
    {"int32", 0, "-2147483648", "00000080", BB_OK},
    {"uint32", 0, "4294967295", "ffffffff", BB_OK},
    {"uint32", 0, "4294967296", nullptr, R},
    {"int64", 0, "-9223372036854775808", "0000000000000080", BB_OK},
    {"int64", 0, "9223372036854775808", nullptr, R},
    {"uint64", 0, "18446744073709551615", "ffffffffffffffff", BB_OK},
    {"uint64", 0, "18446744073709551616", nullptr, R},
    {"uint64", 0, "99999999999999999999999999999999999999999", nullptr, R},
    {"double", 0, "1.5", "000000000000f83f", BB_OK},
    {"double", 0, "-0.0", "0000000000000080", BB_OK},
    {"double", 0, "0x1p-1", "000000000000e03f", BB_OK},
    {"double", 0, "NaN", "000000000000f87f", BB_OK},
    {"double", 0, "-INF", "000000000000f0ff", BB_OK},
    {"double", 0, "1e400", nullptr, R},
    {"double", 0, "1e-400", nullptr, R},
    {"double", 0, "1.5x", nullptr, S},
    {"double", 0, " 1", nullptr, S},
    {"double", 0, "nan(1)", nullptr, S},
    {"float", 0, "1.5", "0000c03f", BB_OK},
    {"float", 0, "inf", "0000807f", BB_OK},
    {"float", 0, "1e39", nullptr, R},
    {"float16", 0, "1", "003c", BB_OK},
    {"float16", 0, "-2", "00c0", BB_OK},
    {"float16", 0, "65504", "ff7b", BB_OK},
    {"float16", 0, "0.1", "662e", BB_OK},
    {"float16", 0, "0.5", "0038", BB_OK},
    {"float16", 0, "nan", "007e", BB_OK},
    {"float16", 0, "-inf", "00fc", BB_OK},
    {"float16", 0, "1e6", nullptr, R},
    {"float16", 0, "1e-10", nullptr, R},
    {"decimal(9,2)", 0, "123", "0c300000", BB_OK},  // unscaled 12300
    {"decimal(9,2)", 0, "-1.5", "6affffff", BB_OK},  // -150
    {"decimal(9,2)", 0, "0.05", "05000000", BB_OK},
    {"decimal(9,2)", 0, "1234567890", nullptr, R},
    {"decimal(9,2)", 0, "1.234", nullptr, S},
    {"decimal(9,2)", 0, "1.", nullptr, S},
    {"decimal(9,2)", 0, ".5", nullptr, S},
    {"decimal(9,2)", 0, "+1", nullptr, S},
    {"decimal(9,2)", 0, "1e2", "10270000", BB_OK},  // 100.00: exponents are exact
    {"decimal(4,1)", 0, "99999", nullptr, R},
    {"decimal(4,1)", 0, "999.9", "0f270000", BB_OK},
    {"decimal(18,2)", 0, "1.00", "6400000000000000", BB_OK},
    {"decimal(5,2,fixed(4))", 0, "-1.00", "ffffff9c", BB_OK},
    {"decimal(5,2,fixed(4))", 0, "1.00", "00000064", BB_OK},
    {"decimal(10,2,binary)", 0, "1.27", "7f", BB_OK},
    {"decimal(10,2,binary)", 0, "1.28", "0080", BB_OK},
    {"decimal(10,2,binary)", 0, "-1.28", "80", BB_OK},
    {"decimal(10,2,binary)", 0, "-1.29", "ff7f", BB_OK},
    {"decimal(10,2,binary)", 0, "0", "00", BB_OK},
    {"decimal(38,0)", 0, "99999999999999999999999999999999999999",
     "4b3b4ca85a86c47a098a223fffffffff", BB_OK},
    {"decimal(38,0)", 0, "-1", "ffffffffffffffffffffffffffffffff", BB_OK},
    {"date", 0, "2024-01-31", "294d0000", BB_OK},  // 19753
    {"date", 0, "1970-01-01", "00000000", BB_OK},
    {"date", 0, "0001-01-01", "c606f5ff", BB_OK},  // -719162
    {"date", 0, "9999-12-31", "a0c02c00", BB_OK},
    {"date", 0, "2024-02-29", "464d0000", BB_OK},
    {"date", 0, "2023-02-29", nullptr, R},
    {"date", 0, "2024-13-01", nullptr, R},
    {"date", 0, "0000-01-01", nullptr, R},
    {"date", 0, "2024-1-01", nullptr, S},
    {"date", 0, "2024-01-31 ", nullptr, S},
    {"date", P, "19753", "294d0000", BB_OK},
    {"time(ms)", 0, "12:34:56.789", "952cb302", BB_OK},
    {"time(ms)", 0, "00:00:00", "00000000", BB_OK},
    {"time(ms)", 0, "24:00:00", nullptr, R},
    {"time(ms)", 0, "12:60:00", nullptr, R},
    {"time(ms)", 0, "12:34:56.7891", nullptr, S},
    {"time(ms)", 0, "12:34:56.", nullptr, S},
    {"time(ms)", 0, "12:34", nullptr, S},
    {"time(us)", 0, "00:00:01.5", "60e3160000000000", BB_OK},
    {"time(ns)", 0, "00:00:00.000000001", "0100000000000000", BB_OK},
    {"timestamp(ms,utc)", 0, "1970-01-01T00:00:00Z", "0000000000000000", BB_OK},
    {"timestamp(ms,utc)", 0, "1970-01-01 01:00:00+01:00", "0000000000000000", BB_OK},
    {"timestamp(ms,utc)", 0, "1969-12-31 23:00:00-01:00", "0000000000000000", BB_OK},
    {"timestamp(ms)", 0, "2024-01-31T12:00:00.5", "f4eb635f8d010000", BB_OK},
    {"timestamp(ms)", 0, "1970-01-01T00:00:00Z", nullptr, S},
    {"timestamp(ms)", 0, "1970-01-01T00:00:00+01:00", nullptr, S},
    {"timestamp(us)", 0, "0001-01-01 00:00:00", "0040d400014023ff", BB_OK},
    {"timestamp(ns)", 0, "2262-04-12 00:00:00", nullptr, R},
    {"timestamp(ms)", 0, "2024-01-31X12:00:00", nullptr, S},
    {"timestamp(ms,utc)", 0, "1970-01-01T00:00:00+24:00", nullptr, R},
    {"timestamp(ms)", P, "-1", "ffffffffffffffff", BB_OK},
    {"int96", 0, "1970-01-01 00:00:01", "00ca9a3b000000008c3d2500", BB_OK},
    {"int96", 0, "1970-01-01 00:00:01Z", nullptr, S},
    {"int96", H, "00ca9a3b000000008c3d2500", "00ca9a3b000000008c3d2500", BB_OK},
    {"uuid", 0, "123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000", BB_OK},
    {"uuid", 0, "123E4567E89B12D3A456426614174000", "123e4567e89b12d3a456426614174000", BB_OK},
    {"uuid", 0, "123e4567-e89b-12d3-a456-42661417400", nullptr, S},
    {"uuid", 0, "123e4567-e89b-12d3-a456-42661417400g", nullptr, S},
    {"uuid", 0, "123e4567e-89b-12d3-a456-426614174000", nullptr, S},
    {"interval", 0, "1 months 2 days 3 ms", "010000000200000003000000", BB_OK},
    {"interval", 0, "1 month 2 days 3 ms", "010000000200000003000000", BB_OK},
    {"interval", 0, "1 months 2 days", "010000000200000000000000", BB_OK},
    {"interval", 0, "2 days 1 months", nullptr, S},
    {"interval", 0, "1 months  2 days", nullptr, S},
    {"interval", 0, "1 months 2 days ", nullptr, S},
    {"interval", 0, "", nullptr, S},
    {"interval", 0, "4294967296 months 0 days 0 ms", nullptr, R},
    {"string", 0, "h\xc3\xa9", "68c3a9", BB_OK},
    {"string", H, "68C3A9", "68c3a9", BB_OK},
    {"string", H, "68c", nullptr, S},
    {"string", H, "zz", nullptr, S},
    {"string", 0, "", "", BB_OK},
    {"binary", 0, "ab", "6162", BB_OK},
    {"fixed(3)", 0, "abc", "616263", BB_OK},
    {"fixed(3)", 0, "abcd", nullptr, S},
    {"int32", H, "00000000", nullptr, S},

    // Values as engines print them (docs/formats.md, "What engines print").
    // DuckDB: TIMESTAMPTZ with an hours-only offset, INTERVAL, TIMETZ, floats.
    {"timestamp(us,utc)", 0, "2024-01-31 12:00:00+00", "00104a9e3c100600", BB_OK},
    {"timestamp(us,utc)", 0, "2024-01-31 17:30:00+05:30", "00104a9e3c100600", BB_OK},
    {"timestamp(us,utc)", 0, "2024-01-31 12:00:00+0", nullptr, S},
    {"interval", 0, "1 month 2 days 00:00:01", "0100000002000000e8030000", BB_OK},
    {"interval", 0, "1 year 2 months 3 days 04:05:06.789", "0e000000030000006568e000", BB_OK},
    {"interval", 0, "25:00:00", "0000000000000000804a5d05", BB_OK},
    {"time(us,utc)", 0, "12:00:00+00", "00b0eb0e0a000000", BB_OK},
    {"double", 0, "inf", "000000000000f07f", BB_OK},
    {"double", 0, "-inf", "000000000000f0ff", BB_OK},
    // PostgreSQL: timestamptz (also a historical seconds offset), interval
    // (IntervalStyle postgres and iso_8601), float8 and numeric specials,
    // timetz, infinite and BC dates.
    {"timestamp(us,utc)", 0, "2024-01-31 12:00:00.123456+05:30", "40ec1f0238100600", BB_OK},
    {"timestamp(us,utc)", 0, "1890-01-01 00:53:28+00:53:28", "00e0cd02f607f7ff", BB_OK},
    {"timestamp(us,utc)", 0, "2024-01-31 12:00:00+05:3", nullptr, S},
    {"timestamp(us,utc)", 0, "2024-01-31 12:00:00+05:60", nullptr, R},
    {"interval", 0, "1 mon 2 days 00:00:01", "0100000002000000e8030000", BB_OK},
    {"interval", 0, "1 year 2 mons", "0e0000000000000000000000", BB_OK},
    {"interval", 0, "00:00:00", "000000000000000000000000", BB_OK},
    {"interval", 0, "-1 days", nullptr, R},
    {"interval", 0, "-00:00:01", nullptr, R},
    {"interval", 0, "00:00:00.000001", nullptr, S},
    {"interval", 0, "00:00:00.5000", "0000000000000000f4010000", BB_OK},
    {"interval", 0, "00:60:00", nullptr, R},
    {"interval", 0, "P1Y2M3DT4H5M6.789S", "0e000000030000006568e000", BB_OK},
    {"interval", 0, "P2WT1.5S", "000000000e000000dc050000", BB_OK},
    {"interval", 0, "PT0S", "000000000000000000000000", BB_OK},
    {"interval", 0, "P1M2DT1S", "0100000002000000e8030000", BB_OK},
    {"interval", 0, "P-1D", nullptr, R},
    {"interval", 0, "-P1D", nullptr, R},
    {"interval", 0, "P1D2M", nullptr, S},
    {"interval", 0, "P1.5D", nullptr, S},
    {"interval", 0, "PT", nullptr, S},
    {"interval", 0, "P", nullptr, S},
    {"interval", 0, "PTT1S", nullptr, S},
    {"interval", 0, "P4294967296M", nullptr, R},
    {"interval", 0, "P358Y", "c81000000000000000000000", BB_OK},  // 4296 months
    {"interval", 0, "P357913942Y", nullptr, R},  // 4294967304 months
    {"double", 0, "NaN", "000000000000f87f", BB_OK},
    {"double", 0, "Infinity", "000000000000f07f", BB_OK},
    {"double", 0, "-Infinity", "000000000000f0ff", BB_OK},
    {"float", 0, "-Infinity", "000080ff", BB_OK},
    {"decimal(9,2)", 0, "NaN", nullptr, R},
    {"decimal(9,2)", 0, "-Infinity", nullptr, R},
    {"time(us,utc)", 0, "12:00:00+05:30", "00aabf7205000000", BB_OK},
    {"time(us,utc)", 0, "01:00:00+02:00", "00bc434713000000", BB_OK},  // 23:00 UTC
    {"time(us)", 0, "12:00:00+05:30", nullptr, S},
    {"date", 0, "infinity", nullptr, R},
    {"date", 0, "0044-03-15 BC", nullptr, R},
    {"timestamp(us)", 0, "-infinity", nullptr, R},
    // Spark SQL: a UTC-adjusted timestamp printed in the session time zone
    // (set to UTC) without an offset; Java BigDecimal's exponent forms.
    {"timestamp(us,utc)", 0, "2024-01-31 12:00:00", "00104a9e3c100600", BB_OK},
    {"decimal(38,10)", 0, "0E-10", "00000000000000000000000000000000", BB_OK},
    {"decimal(9,2)", 0, "1.2E+3", "c0d40100", BB_OK},   // 1200.00
    {"decimal(9,2)", 0, "1.5e3", "f0490200", BB_OK},    // 1500.00
    {"decimal(9,2)", 0, "12E-1", "78000000", BB_OK},    // 1.20
    {"decimal(9,2)", 0, "1E-3", nullptr, S},
    {"decimal(9,2)", 0, "1E", nullptr, S},
    {"decimal(9,2)", 0, "1E+", nullptr, S},
    {"decimal(9,2)", 0, "E5", nullptr, S},
    {"decimal(9,2)", 0, "1E5E5", nullptr, S},
    // Trino: a zone after a space, UTC or an offset; a zone name is refused.
    {"timestamp(ms,utc)", 0, "2024-01-31 12:00:00.000 UTC", "00ea635f8d010000", BB_OK},
    {"timestamp(ms,utc)", 0, "2024-01-31 17:30:00.000 +05:30", "00ea635f8d010000", BB_OK},
    {"timestamp(ms,utc)", 0, "2024-01-31 12:00:00.000 Europe/Berlin", nullptr, S},
    {"timestamp(ms,utc)", 0, "2024-01-31 12:00:00 CET", nullptr, S},
    {"timestamp(ms)", 0, "2024-01-31 12:00:00.000 UTC", nullptr, S},
    // pandas: Timestamp's str() with +00:00, nanoseconds, nan.
    {"timestamp(ms,utc)", 0, "2024-01-31 12:00:00+00:00", "00ea635f8d010000", BB_OK},
    {"timestamp(ns,utc)", 0, "2024-01-31 12:00:00.123456789+00:00", "154daa58ca6caf17", BB_OK},
    {"double", 0, "nan", "000000000000f87f", BB_OK},
    // pyarrow: a zoned timestamp ends in Z; a finer unit's zeros are exact.
    {"timestamp(ns,utc)", 0, "2024-01-31 12:00:00.123456789Z", "154daa58ca6caf17", BB_OK},
    {"timestamp(ns,utc)", 0, "2024-01-31T12:00:00.123456789Z", "154daa58ca6caf17", BB_OK},
    {"timestamp(us,utc)", 0, "2024-01-31 12:00:00.123456000Z", "40f24b9e3c100600", BB_OK},
    {"timestamp(us,utc)", 0, "2024-01-31 12:00:00.123456789Z", nullptr, S},
    {"time(ms)", 0, "12:34:56.789000", "952cb302", BB_OK},
    // BigQuery: " UTC"; Snowflake: " +0000" / " -0800"; ClickHouse: local ms.
    {"timestamp(us,utc)", 0, "2024-01-31 12:00:00.123456 UTC", "40f24b9e3c100600", BB_OK},
    {"timestamp(us,utc)", 0, "2024-01-31 12:00:00 GMT", "00104a9e3c100600", BB_OK},
    {"timestamp(ms,utc)", 0, "2024-01-31 12:00:00.000 +0000", "00ea635f8d010000", BB_OK},
    {"timestamp(ms,utc)", 0, "2024-01-31 04:00:00.000 -0800", "00ea635f8d010000", BB_OK},
    {"timestamp(ms,utc)", 0, "2024-01-31 12:00:00.000  +0000", nullptr, S},
    {"timestamp(ms)", 0, "2024-01-31 12:00:00.000", "00ea635f8d010000", BB_OK},
    // SQL Server / .NET print a UUID in braces (uppercase); Python's uuid.urn.
    {"uuid", 0, "{123E4567-E89B-12D3-A456-426614174000}", "123e4567e89b12d3a456426614174000", BB_OK},
    {"uuid", 0, "urn:uuid:123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000", BB_OK},
    {"uuid", 0, "{123e4567-e89b-12d3-a456-426614174000", nullptr, S},
    {"uuid", 0, "{123e4567e89b12d3a456426614174000}", nullptr, S},
    // One NaN: every spelling is the positive quiet NaN; other stored bits by hex.
    {"double", 0, "-nan", "000000000000f87f", BB_OK},
    {"double", 0, "+NaN", "000000000000f87f", BB_OK},
    {"double", P, "-nan", "000000000000f87f", BB_OK},
    {"float", 0, "-NaN", "0000c07f", BB_OK},
    {"float16", 0, "-nan", "007e", BB_OK},
    {"double", H, "000000000000f8ff", "000000000000f8ff", BB_OK},
    {"double", H, "010000000000f87f", "010000000000f87f", BB_OK},
    {"float", H, "0000c0ff", "0000c0ff", BB_OK},
    {"float", H, "0000c0", nullptr, S},
    {"double", 0, "--1", nullptr, S},
    {"double", 0, "+-1", nullptr, S},
    {"double", 0, "+1.5", "000000000000f83f", BB_OK},
    {"double", 0, "0x1.8p1", "0000000000000840", BB_OK},
    {"double", 0, "0x", nullptr, S},
    {"double", 0, "0x-1p0", nullptr, S},
    {"double", 0, "1,5", nullptr, S},
    {"double", 0, "4.9e-324", "0100000000000000", BB_OK},
    {"double", 0, "inf(1)", nullptr, S},
    // Trailing zeros past the scale are exact; a huge exponent is
    // decided from its size.
    // FLOAT16 from the decimal text's exact value, rounded once: these texts
    // round to a double that is exactly midway between two halves.
    {"float16", 0, "1.00048828125", "003c", BB_OK},  // the midpoint: ties to even
    {"float16", 0, "1.000488281250000000000000000001", "013c", BB_OK},
    {"float16", 0, "1.00146484375", "023c", BB_OK},  // midway 0x3c01 .. 0x3c02: even
    {"float16", 0, "1.001464843749999999999999999999", "013c", BB_OK},
    {"float16", 0, "-1.001464843749999999999999999999", "01bc", BB_OK},
    {"float16", 0, "65519.99999999999999999999", "ff7b", BB_OK},  // below 65520: 65504
    {"float16", 0, "65520", nullptr, R},  // the midpoint rounds to even: infinity
    {"float16", 0, "2.98023223876953125e-08", nullptr, R},  // 2^-25: rounds to 0
    {"float16", 0, "2.980232238769531250000000001e-08", "0100", BB_OK},
    {"float16", 0, "0.0000000298023223876953125000000001", "0100", BB_OK},
    {"float16", 0, "0x1.002p0", "003c", BB_OK},  // hex: exactly the midpoint, to even
    {"float16", 0, "0x1.004p0", "013c", BB_OK},
    {"decimal(9,2)", 0, "1.230", "7b000000", BB_OK},
    {"decimal(9,2)", 0, "1.235", nullptr, S},
    {"decimal(9,2)", 0, "1E+999999999", nullptr, R},
    {"decimal(9,2)", 0, "1E-999999999", nullptr, S},
    {"decimal(9,2)", 0, "0E+99999999999999999999999", "00000000", BB_OK},
    {"decimal(9,2)", 0, "-0.000E5", "00000000", BB_OK},
    {"int32", 4, "1", nullptr, U},
    {"boolean", 0, "true", nullptr, U},
    {"boolean", P, "1", nullptr, U},
};

std::string ToHex(const uint8_t* p, size_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += kDigits[p[i] >> 4];
    s += kDigits[p[i] & 15];
  }
  return s;
}

TEST(ParquetEncodeText, EveryType) {
  for (const TextCase& c : kText) {
    SCOPED_TRACE(std::string(c.type) + " '" + c.text + "'");
    bb_parquet_column t = Fresh();
    ASSERT_EQ(bb_parquet_type_parse(c.type, std::strlen(c.type), &t), BB_OK);
    uint8_t out[64];
    size_t n = 999;
    char why[BB_PARQUET_VALUE_ERROR_MAX] = "";
    const int rc = bb_parquet_encode_text(&t, c.text, std::strlen(c.text), c.flags, out,
                                          sizeof out, &n, why, sizeof why);
    ASSERT_EQ(rc, c.code) << why;
    uint64_t h = 0;
    const int hrc = bb_parquet_hash_text(&t, c.text, std::strlen(c.text), c.flags, &h, nullptr, 0);
    EXPECT_EQ(hrc, c.code);
    if (c.code != BB_OK) {
      EXPECT_EQ(n, 999u);
      EXPECT_GT(std::strlen(why), 5u);
      continue;
    }
    EXPECT_EQ(ToHex(out, n), c.hex);
    uint64_t expected = 0;
    ASSERT_EQ(bb_parquet_hash_value(t.physical_type, t.type_length, out, n, &expected), BB_OK);
    EXPECT_EQ(h, expected);
  }
}

TEST(ParquetEncodeText, ConvertedAnnotations) {
  bb_parquet_column t = Fresh();
  t.physical_type = BB_PARQUET_INT32;
  t.converted_type = 15;  // INT_8
  uint8_t out[16];
  size_t n = 0;
  EXPECT_EQ(bb_parquet_encode_text(&t, "128", 3, 0, out, sizeof out, &n, nullptr, 0), R);
  t.converted_type = 11;  // UINT_8
  EXPECT_EQ(bb_parquet_encode_text(&t, "255", 3, 0, out, sizeof out, &n, nullptr, 0), BB_OK);
  t.converted_type = 6;  // DATE
  ASSERT_EQ(bb_parquet_encode_text(&t, "2024-01-31", 10, 0, out, sizeof out, &n, nullptr, 0),
            BB_OK);
  EXPECT_EQ(ToHex(out, n), "294d0000");
  t.converted_type = 5;  // DECIMAL, scale and precision from the SchemaElement
  t.precision = 9;
  t.scale = 2;
  ASSERT_EQ(bb_parquet_encode_text(&t, "123", 3, 0, out, sizeof out, &n, nullptr, 0), BB_OK);
  EXPECT_EQ(ToHex(out, n), "0c300000");
  t.converted_type = 7;  // TIME_MILLIS
  EXPECT_EQ(bb_parquet_encode_text(&t, "00:00:01", 8, 0, out, sizeof out, &n, nullptr, 0), BB_OK);
  EXPECT_EQ(ToHex(out, n), "e8030000");
  t.physical_type = BB_PARQUET_INT64;
  t.converted_type = 9;  // TIMESTAMP_MILLIS: UTC-adjusted
  const char* ts = "1970-01-01T00:00:01Z";
  ASSERT_EQ(bb_parquet_encode_text(&t, ts, std::strlen(ts), 0, out, sizeof out, &n, nullptr, 0),
            BB_OK);
  EXPECT_EQ(ToHex(out, n), "e803000000000000");
  t.converted_type = 15;  // INT_8 on INT64: does not fit
  EXPECT_EQ(bb_parquet_encode_text(&t, "1", 1, 0, out, sizeof out, &n, nullptr, 0), U);
  t.converted_type = BB_PARQUET_CONVERTED_NONE;
  for (int logical : {16, 17, 18, 42}) {  // VARIANT, GEOMETRY, GEOGRAPHY, unknown
    t.logical_type = logical;
    EXPECT_EQ(bb_parquet_encode_text(&t, "1", 1, 0, out, sizeof out, &n, nullptr, 0), U);
    EXPECT_EQ(bb_parquet_encode_text(&t, "1", 1, P, out, sizeof out, &n, nullptr, 0), BB_OK);
  }
}

TEST(ParquetEncodeText, ErrorsAndCapacity) {
  bb_parquet_column t = Fresh();
  ASSERT_EQ(bb_parquet_type_parse("date", 4, &t), BB_OK);
  uint8_t out[4];
  size_t n = 7;
  char why[BB_PARQUET_VALUE_ERROR_MAX];
  EXPECT_EQ(bb_parquet_encode_text(&t, "2024-01-31", 10, 0, out, 3, &n, why, sizeof why),
            BB_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(n, 7u);
  EXPECT_EQ(bb_parquet_encode_text(&t, "2024-13-01", 10, 0, out, 4, &n, why, sizeof why), R);
  EXPECT_STREQ(why, "is not a date: no such month (wants YYYY-MM-DD (0001-01-01 .. 9999-12-31))");
  char tiny[4];
  EXPECT_EQ(bb_parquet_encode_text(&t, "x", 1, 0, out, 4, &n, tiny, sizeof tiny), S);
  EXPECT_EQ(std::strlen(tiny), 3u);
  EXPECT_EQ(bb_parquet_encode_text(nullptr, "x", 1, 0, out, 4, &n, nullptr, 0),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_encode_text(&t, "x", 1, 0, nullptr, 4, &n, nullptr, 0),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_encode_text(&t, "x", 1, 0, out, 4, nullptr, nullptr, 0),
            BB_ERR_NULL_POINTER);
  uint64_t h = 0;
  EXPECT_EQ(bb_parquet_hash_text(&t, "x", 1, 0, nullptr, nullptr, 0), BB_ERR_NULL_POINTER);
  t.struct_size = sizeof t - 1;
  EXPECT_EQ(bb_parquet_hash_text(&t, "2024-01-31", 10, 0, &h, nullptr, 0),
            BB_ERR_BUFFER_TOO_SMALL);
}

TEST(ParquetValueForm, Strings) {
  const struct {
    const char* type;
    uint32_t flags;
    const char* form;
    int code;
  } cases[] = {
      {"int8", 0, "an integer -128 .. 127", BB_OK},
      {"uint64", 0, "an integer 0 .. 18446744073709551615", BB_OK},
      {"date", 0, "YYYY-MM-DD (0001-01-01 .. 9999-12-31)", BB_OK},
      {"date", P, "an integer -2147483648 .. 2147483647", BB_OK},
      {"decimal(9,2)", 0, "[-]digits[.digits][E[-]digits], at most 7 integer and 2 fraction digits", BB_OK},
      {"uuid", 0, "8-4-4-4-12 or 32 hex digits (optionally in {} or after urn:uuid:)", BB_OK},
      {"fixed(3)", 0, "exactly 3 bytes", BB_OK},
      {"string", H, "hex digits, two a byte, any bytes", BB_OK},
      {"boolean", 0, "the column is BOOLEAN: Parquet defines no Bloom filter hash for booleans",
       U},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.type);
    bb_parquet_column t = Fresh();
    ASSERT_EQ(bb_parquet_type_parse(c.type, std::strlen(c.type), &t), BB_OK);
    char out[BB_PARQUET_VALUE_FORM_MAX];
    ASSERT_EQ(bb_parquet_value_form(&t, c.flags, out, sizeof out), c.code);
    EXPECT_STREQ(out, c.form);
  }
  bb_parquet_column t = Fresh();
  ASSERT_EQ(bb_parquet_type_parse("date", 4, &t), BB_OK);
  char small[8] = "keep";
  EXPECT_EQ(bb_parquet_value_form(&t, 0, small, sizeof small), BB_ERR_BUFFER_TOO_SMALL);
  EXPECT_STREQ(small, "keep");
}

}  // namespace

// The kind a binding writes its objects as, for each type by name, and the
// converted-only annotations resolved as the text rules resolve them.
TEST(ParquetValueKind, EachTypeAndTheConvertedAnnotations) {
  struct Case {
    const char* name;
    int32_t kind, unit, utc;
  };
  const Case cases[] = {
      {"int8", BB_PARQUET_KIND_INTEGER, 0, 0},       {"uint64", BB_PARQUET_KIND_INTEGER, 0, 0},
      {"float", BB_PARQUET_KIND_FLOAT, 0, 0},        {"float16", BB_PARQUET_KIND_FLOAT, 0, 0},
      {"decimal(9,2)", BB_PARQUET_KIND_DECIMAL, 0, 0}, {"date", BB_PARQUET_KIND_DATE, 0, 0},
      {"time(us)", BB_PARQUET_KIND_TIME, BB_PARQUET_UNIT_MICROS, 0},
      {"timestamp(ms,utc)", BB_PARQUET_KIND_TIMESTAMP, BB_PARQUET_UNIT_MILLIS, 1},
      {"timestamp(ns)", BB_PARQUET_KIND_TIMESTAMP, BB_PARQUET_UNIT_NANOS, 0},
      {"int96", BB_PARQUET_KIND_TIMESTAMP, BB_PARQUET_UNIT_NANOS, 0},
      {"uuid", BB_PARQUET_KIND_UUID, 0, 0},          {"interval", BB_PARQUET_KIND_INTERVAL, 0, 0},
      {"string", BB_PARQUET_KIND_BYTES, 0, 0},       {"fixed(3)", BB_PARQUET_KIND_BYTES, 0, 0},
  };
  for (const Case& c : cases) {
    bb_parquet_column t = Fresh();
    ASSERT_EQ(bb_parquet_type_parse(c.name, std::strlen(c.name), &t), BB_OK) << c.name;
    int32_t kind = -1, unit = -1, utc = -1;
    ASSERT_EQ(bb_parquet_value_kind(&t, 0, &kind, &unit, &utc), BB_OK) << c.name;
    EXPECT_EQ(kind, c.kind) << c.name;
    EXPECT_EQ(unit, c.unit) << c.name;
    EXPECT_EQ(utc, c.utc) << c.name;
  }
  bb_parquet_column t = Fresh();
  t.physical_type = BB_PARQUET_INT64;
  t.converted_type = 10;  // TIMESTAMP_MICROS: UTC-adjusted
  int32_t kind = 0, unit = 0, utc = 0;
  ASSERT_EQ(bb_parquet_value_kind(&t, 0, &kind, &unit, &utc), BB_OK);
  EXPECT_EQ(kind, BB_PARQUET_KIND_TIMESTAMP);
  EXPECT_EQ(unit, BB_PARQUET_UNIT_MICROS);
  EXPECT_EQ(utc, 1);
  // With BB_PARQUET_TEXT_PHYSICAL the stored integer is what is written.
  ASSERT_EQ(bb_parquet_value_kind(&t, BB_PARQUET_TEXT_PHYSICAL, &kind, nullptr, nullptr), BB_OK);
  EXPECT_EQ(kind, BB_PARQUET_KIND_INTEGER);
  t.physical_type = BB_PARQUET_BOOLEAN;
  t.converted_type = BB_PARQUET_CONVERTED_NONE;
  kind = 7;
  EXPECT_EQ(bb_parquet_value_kind(&t, 0, &kind, nullptr, nullptr), BB_ERR_PARQUET_UNSUPPORTED);
  EXPECT_EQ(kind, 7);
  EXPECT_EQ(bb_parquet_value_kind(nullptr, 0, &kind, nullptr, nullptr), BB_ERR_NULL_POINTER);
}

// Numbers are read the same whatever the process locale: under de_DE, whose
// decimal point is ',', "1.5" is still 1.5 and "1,5" still not a number (C's
// strtod would read them the other way round). The locale is compiled into
// a temporary directory with localedef (LOCPATH), as few systems ship it.
TEST(ParquetEncodeText, NumbersIgnoreTheProcessLocale) {
  if (std::system("command -v localedef >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "localedef is not installed: cannot make a de_DE.UTF-8 locale to test under";
  }
  char dir[] = "/tmp/blockbloom-locale-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string locale_dir = std::string(dir) + "/de_DE.UTF-8";
  const std::string make = "localedef -i de_DE -f UTF-8 " + locale_dir + " >/dev/null 2>&1";
  (void)std::system(make.c_str());  // exits 1 on mere warnings: the files decide
  struct stat st;
  if (stat((locale_dir + "/LC_NUMERIC").c_str(), &st) != 0) {
    (void)std::system(("rm -rf " + std::string(dir)).c_str());
    GTEST_SKIP() << "localedef could not make de_DE.UTF-8 (no de_DE locale source?)";
  }
  setenv("LOCPATH", dir, 1);
  ASSERT_NE(std::setlocale(LC_ALL, "de_DE.UTF-8"), nullptr);
  EXPECT_STREQ(std::localeconv()->decimal_point, ",");
  EXPECT_EQ(std::strtod("1,5", nullptr), 1.5);  // the locale is in force
  const struct {
    const char* type;
    const char* text;
    const char* hex;
  } cases[] = {
      {"double", "1.5", "000000000000f83f"}, {"double", "1,5", nullptr},
      {"double", "15e-1", "000000000000f83f"}, {"double", "0x1.8p0", "000000000000f83f"},
      {"double", "-0.0", "0000000000000080"}, {"double", "nan", "000000000000f87f"},
      {"double", "-Infinity", "000000000000f0ff"}, {"float", "1.5", "0000c03f"},
      {"float", "1,5", nullptr}, {"float16", "1.5", "003e"}, {"decimal(9,2)", "1.5", "96000000"},
      {"decimal(9,2)", "1,5", nullptr}, {"INT8", "-5", "fbffffff"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.type) + " '" + c.text + "'");
    bb_parquet_column t = Fresh();
    ASSERT_EQ(bb_parquet_type_parse(c.type, std::strlen(c.type), &t), BB_OK);
    uint8_t out[16];
    size_t n = 0;
    const int rc = bb_parquet_encode_text(&t, c.text, std::strlen(c.text), 0, out, sizeof out, &n,
                                          nullptr, 0);
    if (c.hex == nullptr) {
      EXPECT_EQ(rc, BB_ERR_VALUE_SYNTAX);
    } else {
      ASSERT_EQ(rc, BB_OK);
      EXPECT_EQ(ToHex(out, n), c.hex);
    }
  }
  std::setlocale(LC_ALL, "C");
  unsetenv("LOCPATH");
  (void)std::system(("rm -rf " + std::string(dir)).c_str());
}
