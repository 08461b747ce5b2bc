// SPDX-License-Identifier: Apache-2.0
// parquet_value.h, values of a source kind into a typed column
// (bb_parquet_encode_value, bb_parquet_hash_typed_value,
// bb_parquet_hash_typed_column, bb_parquet_type_of_source): every cell of the
// table of docs/formats.md ("Values into a typed filter") with the bytes
// worked out here by hand (little-endian integers, IEEE bits from Python's
// struct, day numbers from Python's datetime: 2024-01-31 = 19753, Julian day
// of 1970-01-01 = 2440588), each refusal with its code, the range limits of
// every integer annotation, unit overflow, instants before the epoch; the
// column call equal row for row to the scalar call on random columns with
// nulls, on every ISA tier; and values of one column given as different
// sources (int32 or int64, ns or us timestamps, 1.0 for 1) hash alike, so a
// probe never misses what the build inserted.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "blockbloom/column.h"
#include "blockbloom/parquet_value.h"
#include "support/column_cases.h"

namespace {

using Bytes = std::string;
__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

bb_parquet_column Type(const std::string& name) {
  bb_parquet_column t;
  std::memset(&t, 0, sizeof t);
  t.struct_size = sizeof t;
  EXPECT_EQ(bb_parquet_type_parse(name.data(), name.size(), &t), BB_OK) << name;
  return t;
}

bb_value_source Src(uint32_t kind, int32_t unit = 0, int32_t zone = 0, int32_t scale = 0,
                    int32_t bits = 0) {
  bb_value_source s;
  std::memset(&s, 0, sizeof s);
  s.struct_size = sizeof s;
  s.kind = kind;
  s.unit = unit;
  s.zone = zone;
  s.scale = scale;
  s.bits = bits;
  return s;
}

constexpr int MS = BB_PARQUET_UNIT_MILLIS, US = BB_PARQUET_UNIT_MICROS, NS = BB_PARQUET_UNIT_NANOS,
              SEC = BB_VALUE_UNIT_SECONDS, UTC = BB_VALUE_ZONE_UTC;
constexpr int NOT_IN = BB_VALUE_NOT_IN_TYPE;

struct Result {
  int rc;
  Bytes bytes;
  std::string error;
};

Result Encode(const std::string& type, const bb_value_source& src, const void* value, size_t len,
              uint32_t flags = 0) {
  const bb_parquet_column t = Type(type);
  uint8_t out[256];
  size_t n = 999;
  char error[BB_PARQUET_VALUE_ERROR_MAX] = "";
  Result r;
  r.rc = bb_parquet_encode_value(&t, &src, value, len, flags, out, sizeof out, &n, error,
                                 sizeof error);
  if (r.rc == BB_OK) r.bytes.assign(reinterpret_cast<const char*>(out), n);
  if (r.rc != BB_OK) {
    EXPECT_EQ(n, 999u) << "nothing written unless BB_OK";
  }
  r.error = error;
  return r;
}

Result Int(const std::string& type, int64_t v, uint32_t flags = 0) {
  return Encode(type, Src(BB_VALUE_INT), &v, 0, flags);
}
Result Uint(const std::string& type, uint64_t v) { return Encode(type, Src(BB_VALUE_UINT), &v, 0); }
Result Float(const std::string& type, double v) { return Encode(type, Src(BB_VALUE_FLOAT), &v, 0); }
Result Dec(const std::string& type, const std::string& text) {
  return Encode(type, Src(BB_VALUE_DECIMAL), text.data(), text.size());
}
Result Count(const std::string& type, uint32_t kind, int64_t v, int unit, int zone = 0,
             uint32_t flags = 0) {
  return Encode(type, Src(kind, unit, zone), &v, 0, flags);
}
Result Text(const std::string& type, const std::string& text, uint32_t flags = 0) {
  return Encode(type, Src(BB_VALUE_TEXT), text.data(), text.size(), flags);
}
Result Raw(const std::string& type, const std::string& bytes) {
  return Encode(type, Src(BB_VALUE_BYTES), bytes.data(), bytes.size());
}

Bytes LE(uint64_t v, int width) {
  Bytes b;
  for (int i = 0; i < width; ++i) b.push_back(static_cast<char>(v >> (8 * i)));
  return b;
}
Bytes Hex(const std::string& h) {
  Bytes b;
  for (size_t i = 0; i < h.size(); i += 2) b.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
  return b;
}
Bytes F32(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return LE(u, 4);
}
Bytes F64(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return LE(u, 8);
}

std::string HexOf(const Bytes& b) {
  std::string h;
  for (unsigned char c : b) h += "0123456789abcdef"[c >> 4], h += "0123456789abcdef"[c & 15];
  return h;
}

// Checks that take a further message with <<, as gtest's own do.
#define EXPECT_BYTES(result, expected)                                            \
  switch (0)                                                                      \
  case 0:                                                                         \
  default:                                                                        \
    if (const Result r_ = (result); false) {                                      \
    } else                                                                        \
      EXPECT_TRUE(r_.rc == BB_OK && r_.bytes == (expected))                       \
          << "rc " << r_.rc << " (" << r_.error << ") bytes " << HexOf(r_.bytes)  \
          << " want " << HexOf(expected) << " "
#define EXPECT_RC(result, code)                                                   \
  switch (0)                                                                      \
  case 0:                                                                         \
  default:                                                                        \
    if (const Result r_ = (result); false) {                                      \
    } else                                                                        \
      EXPECT_TRUE(r_.rc == (code) && ((code) >= 0 || !r_.error.empty()))         \
          << "rc " << r_.rc << " want " << (code) << " (" << r_.error << ") "

const char* const kTemporal[] = {"date", "time(ms)", "time(ns)", "timestamp(us)",
                                 "timestamp(ns,utc)", "int96"};
const char* const kByteTypes[] = {"string", "binary", "fixed(4)", "uuid", "interval", "enum",
                                  "json", "bson"};
const char* const kNumeric[] = {"int32", "int64", "uint8", "float", "double", "float16",
                                "decimal(9,2)"};

// ------------------------------------------------------------ INT / UINT

TEST(TypedValue, IntoIntegersByTheAnnotationsRange) {
  struct { const char* type; int64_t lo, hi; int width; } kRanges[] = {
      {"int8", -128, 127, 4}, {"int16", -32768, 32767, 4},
      {"int32", INT32_MIN, INT32_MAX, 4}, {"uint8", 0, 255, 4}, {"uint16", 0, 65535, 4},
      {"uint32", 0, 4294967295, 4}, {"int64", INT64_MIN, INT64_MAX, 8}};
  for (const auto& k : kRanges) {
    EXPECT_BYTES(Int(k.type, k.lo), LE(static_cast<uint64_t>(k.lo), k.width)) << k.type;
    EXPECT_BYTES(Int(k.type, k.hi), LE(static_cast<uint64_t>(k.hi), k.width)) << k.type;
    if (k.lo != INT64_MIN) {
      EXPECT_RC(Int(k.type, k.lo - 1), NOT_IN) << k.type;
    }
    if (k.hi != INT64_MAX) {
      EXPECT_RC(Int(k.type, k.hi + 1), NOT_IN) << k.type;
    }
  }
  // UINT_32 max is stored as the INT32 -1; UINT_64 max as the INT64 -1.
  EXPECT_BYTES(Uint("uint32", 4294967295u), Hex("ffffffff"));
  EXPECT_BYTES(Uint("uint64", UINT64_MAX), Hex("ffffffffffffffff"));
  EXPECT_RC(Uint("int64", uint64_t{1} << 63), NOT_IN);
  EXPECT_RC(Int("uint64", -1), NOT_IN);
  EXPECT_BYTES(Uint("int8", 127), LE(127, 4));
  EXPECT_RC(Uint("int8", 128), NOT_IN);
}

TEST(TypedValue, IntoFloatsAsTheNearestValue) {
  EXPECT_BYTES(Int("float", 16777216), F32(16777216.0f));
  EXPECT_BYTES(Int("float", 16777217), F32(16777216.0f));  // nearest, as the text
  EXPECT_BYTES(Int("double", int64_t{1} << 53), F64(9007199254740992.0));
  EXPECT_BYTES(Int("double", (int64_t{1} << 53) + 1), F64(9007199254740992.0));
  EXPECT_BYTES(Uint("double", UINT64_MAX - 2047), F64(18446744073709549568.0));
  EXPECT_BYTES(Uint("double", UINT64_MAX), F64(18446744073709551616.0));
  EXPECT_BYTES(Int("float16", 2048), Hex("0068"));
  EXPECT_BYTES(Int("float16", 2049), Hex("0068"));  // ties to even: 2048
  EXPECT_BYTES(Int("float16", -65504), Hex("fffb"));
  EXPECT_BYTES(Int("float16", 65505), Hex("ff7b"));  // 65504, the nearest
  EXPECT_RC(Int("float16", 65520), NOT_IN);  // rounds past the largest half
}

TEST(TypedValue, IntoDecimalsAsTheNumberTimesTenToTheScale) {
  EXPECT_BYTES(Int("decimal(9,2)", 12345), LE(1234500, 4));
  EXPECT_BYTES(Int("decimal(9,2)", -1), LE(static_cast<uint64_t>(-100), 4));
  EXPECT_RC(Int("decimal(6,2)", 12345), NOT_IN);  // 12345.00 is 7 digits
  EXPECT_BYTES(Int("decimal(18,0)", 999999999999999999), LE(999999999999999999, 8));
  EXPECT_RC(Int("decimal(18,0)", 1000000000000000000), NOT_IN);
  // FIXED_LEN_BYTE_ARRAY: big-endian, sign-extended; BYTE_ARRAY: the fewest bytes.
  EXPECT_BYTES(Int("decimal(38,1)", -2), Hex("ffffffffffffffffffffffffffffffec"));
  EXPECT_BYTES(Int("decimal(10,2,binary)", 1), Hex("64"));
  EXPECT_BYTES(Int("decimal(10,2,binary)", 2), Hex("00c8"));
  EXPECT_BYTES(Uint("decimal(20,0)", UINT64_MAX), Hex("00ffffffffffffffff"));  // 9 bytes hold 20 digits
}

TEST(TypedValue, IntegersOnDatesTimesAndTimestampsAreAmbiguous) {
  for (const char* t : kTemporal) {
    EXPECT_RC(Int(t, 5), BB_ERR_VALUE_AMBIGUOUS) << t;
    EXPECT_RC(Uint(t, 5), BB_ERR_VALUE_AMBIGUOUS) << t;
  }
  const Result r = Int("timestamp(us)", 1700000000);
  EXPECT_NE(r.error.find("1700000000"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("TIMESTAMP"), std::string::npos) << r.error;
  // Physical: the stored value, by the physical type's range.
  EXPECT_BYTES(Int("date", 19753, BB_PARQUET_TEXT_PHYSICAL), LE(19753, 4));
  EXPECT_BYTES(Int("timestamp(us)", -5, BB_PARQUET_TEXT_PHYSICAL), LE(static_cast<uint64_t>(-5), 8));
  EXPECT_RC(Int("date", int64_t{1} << 31, BB_PARQUET_TEXT_PHYSICAL), NOT_IN);
  EXPECT_BYTES(Int("uint8", 300, BB_PARQUET_TEXT_PHYSICAL), LE(300, 4));
}

TEST(TypedValue, IntegersOnByteTypesAreRefused) {
  EXPECT_EQ(Int("string", 42).error,
            "an integer (42), which cannot be compared with a BYTE_ARRAY STRING column (it takes "
            "any bytes)");
  for (const char* t : kByteTypes) {
    EXPECT_RC(Int(t, 5), BB_ERR_VALUE_KIND) << t;
    EXPECT_RC(Uint(t, 5), BB_ERR_VALUE_KIND) << t;
  }
}

// ----------------------------------------------------------------- FLOAT

TEST(TypedValue, FloatsIntoIntegersWhenIntegral) {
  EXPECT_BYTES(Float("int64", 1.0), LE(1, 8));
  EXPECT_BYTES(Float("int64", -0.0), LE(0, 8));
  EXPECT_BYTES(Float("int32", -2147483648.0), LE(0x80000000u, 4));
  EXPECT_RC(Float("int32", 2147483648.0), NOT_IN);
  EXPECT_RC(Float("int64", 1.5), NOT_IN);
  EXPECT_RC(Float("int64", 9223372036854775808.0), NOT_IN);
  EXPECT_BYTES(Float("uint64", 18446744073709549568.0), Hex("00f8ffffffffffff"));
  EXPECT_RC(Float("int64", std::nan("")), NOT_IN);
  EXPECT_RC(Float("int64", INFINITY), NOT_IN);
  EXPECT_BYTES(Float("decimal(9,2)", 1.0), LE(100, 4));
}

TEST(TypedValue, FloatsIntoFloatTypes) {
  EXPECT_BYTES(Float("double", 0.1), Hex("9a9999999999b93f"));
  const double payload_nan = [] {
    const uint64_t bits = 0x7ff8000000000123;
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }();
  EXPECT_BYTES(Float("double", payload_nan), Hex("230100000000f87f"));  // as is
  EXPECT_BYTES(Float("float", 0.5), Hex("0000003f"));
  // A double that is no float: the float its shortest text (0.1) means, as
  // the text "0.1" finds it; never a miss of the float32 0.1 a column holds.
  EXPECT_BYTES(Float("float", 0.1), Hex("cdcccc3d"));
  EXPECT_BYTES(Float("float", static_cast<double>(0.1f)), Hex("cdcccc3d"));
  EXPECT_RC(Float("float", 1e300), NOT_IN);
  EXPECT_BYTES(Float("float", -INFINITY), Hex("000080ff"));
  EXPECT_BYTES(Float("float16", 0.5), Hex("0038"));
  EXPECT_BYTES(Float("float16", 65504.0), Hex("ff7b"));
  EXPECT_BYTES(Float("float16", std::ldexp(1.0, -24)), Hex("0100"));
  EXPECT_RC(Float("float16", std::ldexp(1.0, -25)), NOT_IN);
  EXPECT_BYTES(Float("float16", 1.0 / 3), Hex("5535"));  // the nearest half
  EXPECT_BYTES(Float("float16", 0.1), Text("float16", "0.1").bytes);
  EXPECT_BYTES(Float("float16", -0.0), Hex("0080"));
  // A binary NaN keeps its bits as a writer hashes them: into FLOAT the
  // float the cast makes (sign and top payload bits), into FLOAT16 the quiet
  // NaN of its sign. Only the text "nan" is the positive quiet NaN.
  const auto float_bits = [](uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return static_cast<double>(f);
  };
  EXPECT_BYTES(Float("float", float_bits(0xffc00000)), Hex("0000c0ff"));  // x86's default NaN
  EXPECT_BYTES(Float("float", float_bits(0x7fc00123)), Hex("2301c07f"));
  EXPECT_BYTES(Float("float", payload_nan), Hex("0000c07f"));  // the payload is below a float's
  EXPECT_BYTES(Float("float16", float_bits(0xffc00000)), Hex("00fe"));
  EXPECT_BYTES(Float("float16", payload_nan), Hex("007e"));
  EXPECT_BYTES(Text("float", "nan"), Hex("0000c07f"));
  EXPECT_BYTES(Text("float", "-nan"), Hex("0000c07f"));
}

TEST(TypedValue, FloatsIntoDecimalsByTheirShortestText) {
  EXPECT_BYTES(Float("decimal(9,2)", 0.1), LE(10, 4));  // 0.1, not 0.1000000000000000055...
  EXPECT_BYTES(Float("decimal(9,3)", -1.25), LE(static_cast<uint64_t>(-1250), 4));
  EXPECT_RC(Float("decimal(9,2)", 0.125), NOT_IN);
  EXPECT_RC(Float("decimal(9,2)", 1e20), NOT_IN);
  EXPECT_RC(Float("decimal(9,2)", std::nan("")), NOT_IN);
  EXPECT_BYTES(Float("decimal(38,0)", 1e20), Hex("00000000000000056bc75e2d63100000"));
}

TEST(TypedValue, FloatsOnOtherTypesAreRefused) {
  for (const char* t : kTemporal) EXPECT_RC(Float(t, 1.0), BB_ERR_VALUE_KIND) << t;
  for (const char* t : kByteTypes) EXPECT_RC(Float(t, 1.0), BB_ERR_VALUE_KIND) << t;
}

// --------------------------------------------------------------- DECIMAL

TEST(TypedValue, DecimalsIntoIntegersWhenIntegral) {
  EXPECT_BYTES(Dec("int32", "12"), LE(12, 4));
  EXPECT_BYTES(Dec("int32", "12.000"), LE(12, 4));
  EXPECT_BYTES(Dec("int32", "1.2E+1"), LE(12, 4));
  EXPECT_BYTES(Dec("int64", "-9223372036854775808"), LE(uint64_t{1} << 63, 8));
  EXPECT_RC(Dec("int64", "9223372036854775808"), NOT_IN);
  EXPECT_RC(Dec("int32", "12.5"), NOT_IN);
  EXPECT_RC(Dec("int8", "128"), NOT_IN);
  EXPECT_BYTES(Dec("uint32", "4294967295"), Hex("ffffffff"));
  EXPECT_RC(Dec("int64", "1e99999999999"), NOT_IN);
  EXPECT_BYTES(Dec("int64", "0e99999999999"), LE(0, 8));
}

TEST(TypedValue, DecimalsIntoFloatsNearest) {
  EXPECT_BYTES(Dec("double", "0.1"), F64(0.1));
  EXPECT_BYTES(Dec("float", "0.1"), F32(0.1f));
  EXPECT_BYTES(Dec("double", "-2.5e-3"), F64(-0.0025));
  EXPECT_BYTES(Dec("float16", "1"), Hex("003c"));
  EXPECT_RC(Dec("double", "1e400"), NOT_IN);
  EXPECT_RC(Dec("float", "1e39"), NOT_IN);
}

// -0.0 and +0.0 are different keys of a float column: a decimal zero keeps its
// sign there (Python's Decimal('-0') once hashed as +0.0: a false negative
// for an inserted -0.0), while integer and DECIMAL types have one zero.
TEST(TypedValue, DecimalNegativeZeroIsNegativeZeroOnlyInFloatTypes) {
  for (const char* z : {"-0", "-0.0", "-0E+5", "-0e-7", "-000.000"}) {
    EXPECT_BYTES(Dec("double", z), F64(-0.0)) << z;
    EXPECT_BYTES(Dec("float", z), F32(-0.0f)) << z;
    EXPECT_BYTES(Dec("float16", z), Hex("0080")) << z;
    EXPECT_BYTES(Dec("decimal(9,2)", z), LE(0, 4)) << z;
    EXPECT_BYTES(Dec("int64", z), LE(0, 8)) << z;
  }
  EXPECT_BYTES(Dec("double", "0E+5"), F64(0.0));
  EXPECT_BYTES(Dec("float16", "0"), Hex("0000"));
}

TEST(TypedValue, DecimalsIntoDecimalsRescaledExactly) {
  EXPECT_BYTES(Dec("decimal(9,2)", "1.230"), LE(123, 4));
  EXPECT_BYTES(Dec("decimal(9,2)", "1.2"), LE(120, 4));
  EXPECT_RC(Dec("decimal(9,2)", "1.235"), NOT_IN);
  EXPECT_RC(Dec("decimal(3,2)", "10"), NOT_IN);
  EXPECT_BYTES(Dec("decimal(3,2)", "-9.99"), LE(static_cast<uint64_t>(-999), 4));
  EXPECT_BYTES(Dec("decimal(38,1)", "12345678901234567.1"), Hex("000000000000000001b69b4ba630f347"));
  EXPECT_RC(Dec("decimal(9,2)", "1.2.3"), BB_ERR_VALUE_SYNTAX);
  EXPECT_RC(Dec("decimal(9,2)", "abc"), BB_ERR_VALUE_SYNTAX);
  EXPECT_RC(Dec("decimal(9,2)", ".5"), BB_ERR_VALUE_SYNTAX);
  EXPECT_RC(Dec("decimal(9,2)", "1e"), BB_ERR_VALUE_SYNTAX);
}

TEST(TypedValue, DecimalsOnOtherTypesAreRefused) {
  for (const char* t : kTemporal) EXPECT_RC(Dec(t, "1"), BB_ERR_VALUE_KIND) << t;
  for (const char* t : kByteTypes) EXPECT_RC(Dec(t, "1"), BB_ERR_VALUE_KIND) << t;
}

// ------------------------------------------------------------------ DATE

TEST(TypedValue, DatesIntoDates) {
  EXPECT_BYTES(Count("date", BB_VALUE_DATE, 19753, 0), LE(19753, 4));
  EXPECT_BYTES(Count("date", BB_VALUE_DATE, -719162, BB_VALUE_UNIT_DAYS), LE(static_cast<uint64_t>(-719162), 4));
  EXPECT_RC(Count("date", BB_VALUE_DATE, int64_t{1} << 31, 0), NOT_IN);
  EXPECT_BYTES(Count("date", BB_VALUE_DATE, 19753LL * 86400000, MS), LE(19753, 4));  // date64
  EXPECT_BYTES(Count("date", BB_VALUE_DATE, -86400000, MS), LE(static_cast<uint64_t>(-1), 4));
  // A date64 that is not a whole day: its day, truncated toward zero as
  // Arrow's Parquet writer and bb_parquet_hash_column store it.
  EXPECT_BYTES(Count("date", BB_VALUE_DATE, 86400001, MS), LE(1, 4));
  EXPECT_BYTES(Count("date", BB_VALUE_DATE, -1, MS), LE(0, 4));
  EXPECT_BYTES(Count("date", BB_VALUE_DATE, -86400001, MS), LE(static_cast<uint64_t>(-1), 4));
  EXPECT_BYTES(Count("timestamp(ms)", BB_VALUE_DATE, 86400001, MS), LE(86400000, 8));
}

TEST(TypedValue, DatesIntoTimestampsAsMidnightOnlyWhereLocal) {
  EXPECT_BYTES(Count("timestamp(us)", BB_VALUE_DATE, 1, 0), LE(86400000000, 8));
  EXPECT_BYTES(Count("timestamp(ms)", BB_VALUE_DATE, -1, 0), LE(static_cast<uint64_t>(-86400000), 8));
  EXPECT_RC(Count("timestamp(ns)", BB_VALUE_DATE, 106752, 0), NOT_IN);  // past 2262-04-11
  EXPECT_RC(Count("timestamp(us,utc)", BB_VALUE_DATE, 1, 0), BB_ERR_VALUE_AMBIGUOUS);
  EXPECT_BYTES(Count("int96", BB_VALUE_DATE, 1, 0), LE(0, 8) + LE(2440589, 4));
}

TEST(TypedValue, DatesOnOtherTypesAreRefused) {
  for (const char* t : {"int32", "int64", "double", "decimal(9,2)", "time(ms)", "string", "fixed(4)"}) {
    EXPECT_RC(Count(t, BB_VALUE_DATE, 1, 0), BB_ERR_VALUE_KIND) << t;
  }
  EXPECT_BYTES(Count("int32", BB_VALUE_DATE, 7, 0, 0, BB_PARQUET_TEXT_PHYSICAL), LE(7, 4));
}

// ------------------------------------------------------------- TIMESTAMP

TEST(TypedValue, NaiveTimestampsIntoTimestampsByExactUnitChange) {
  for (const char* t : {"timestamp(us)", "timestamp(us,utc)"}) {  // UTC: the count read as UTC
    EXPECT_BYTES(Count(t, BB_VALUE_TIMESTAMP, 5, US), LE(5, 8)) << t;
    EXPECT_BYTES(Count(t, BB_VALUE_TIMESTAMP, 1000, NS), LE(1, 8)) << t;
    EXPECT_RC(Count(t, BB_VALUE_TIMESTAMP, 1001, NS), NOT_IN) << t;
    EXPECT_BYTES(Count(t, BB_VALUE_TIMESTAMP, -1, SEC), LE(static_cast<uint64_t>(-1000000), 8)) << t;
    EXPECT_BYTES(Count(t, BB_VALUE_TIMESTAMP, 7, MS), LE(7000, 8)) << t;
    EXPECT_RC(Count(t, BB_VALUE_TIMESTAMP, INT64_MAX / 1000 + 1, MS), NOT_IN) << t;  // overflow
  }
  EXPECT_BYTES(Count("timestamp(ms)", BB_VALUE_TIMESTAMP, 1, SEC), LE(1000, 8));  // Arrow s -> ms
  EXPECT_RC(Count("timestamp(ms)", BB_VALUE_TIMESTAMP, -1, NS), NOT_IN);
  EXPECT_BYTES(Count("timestamp(ns)", BB_VALUE_TIMESTAMP, INT64_MIN / 1000, US),
               LE(static_cast<uint64_t>(INT64_MIN / 1000 * 1000), 8));
  EXPECT_RC(Count("timestamp(ns)", BB_VALUE_TIMESTAMP, INT64_MIN / 1000 - 1, US), NOT_IN);
}

TEST(TypedValue, NaiveTimestampsIntoDatesAndInt96) {
  EXPECT_BYTES(Count("date", BB_VALUE_TIMESTAMP, 86400, SEC), LE(1, 4));
  EXPECT_BYTES(Count("date", BB_VALUE_TIMESTAMP, -86400000000000, NS), LE(static_cast<uint64_t>(-1), 4));
  EXPECT_RC(Count("date", BB_VALUE_TIMESTAMP, 86401, SEC), NOT_IN);
  EXPECT_RC(Count("date", BB_VALUE_TIMESTAMP, -1, NS), NOT_IN);
  // INT96: nanoseconds of the day, then the Julian day; -1 ns is 1969-12-31 23:59:59.999999999.
  EXPECT_BYTES(Count("int96", BB_VALUE_TIMESTAMP, -1, NS), LE(86399999999999, 8) + LE(2440587, 4));
  EXPECT_BYTES(Count("int96", BB_VALUE_TIMESTAMP, 1706659200, SEC), LE(0, 8) + LE(2440588 + 19753, 4));
  // 3000-01-01 (day 376200) is past int64 nanoseconds, not past INT96.
  EXPECT_BYTES(Count("int96", BB_VALUE_TIMESTAMP, 32503680000000, MS), LE(0, 8) + LE(2440588 + 376200, 4));
  EXPECT_RC(Count("int96", BB_VALUE_TIMESTAMP, INT64_MAX, MS), NOT_IN);  // past the Julian day's int32
}

TEST(TypedValue, TzAwareTimestampsOnlyIntoUtcColumns) {
  EXPECT_BYTES(Count("timestamp(ns,utc)", BB_VALUE_TIMESTAMP, 3, US, UTC), LE(3000, 8));
  EXPECT_RC(Count("timestamp(ms,utc)", BB_VALUE_TIMESTAMP, 3, US, UTC), NOT_IN);
  for (const char* t : {"timestamp(us)", "int96", "date"}) {
    const Result r = Count(t, BB_VALUE_TIMESTAMP, 3, US, UTC);
    EXPECT_EQ(r.rc, BB_ERR_VALUE_AMBIGUOUS) << t;
    EXPECT_NE(r.error.find("tz-aware"), std::string::npos) << r.error;
  }
  const Result local = Count("timestamp(us)", BB_VALUE_TIMESTAMP, 3, US, UTC);
  EXPECT_NE(local.error.find("not adjusted to UTC"), std::string::npos) << local.error;
}

TEST(TypedValue, TimestampsOnOtherTypesAreRefused) {
  for (int zone : {0, UTC}) {
    for (const char* t : {"int64", "double", "decimal(18,0)", "time(us)", "string", "fixed(8)"}) {
      EXPECT_RC(Count(t, BB_VALUE_TIMESTAMP, 1, US, zone), BB_ERR_VALUE_KIND) << t;
    }
  }
  EXPECT_BYTES(Count("int64", BB_VALUE_TIMESTAMP, 5, NS, 0, BB_PARQUET_TEXT_PHYSICAL), LE(5, 8));
}

// ------------------------------------------------------------------ TIME

TEST(TypedValue, TimesIntoTimesByExactUnitChange) {
  EXPECT_BYTES(Count("time(ms)", BB_VALUE_TIME, 1, SEC), LE(1000, 4));
  EXPECT_BYTES(Count("time(ms)", BB_VALUE_TIME, 86399999, MS), LE(86399999, 4));
  EXPECT_RC(Count("time(ms)", BB_VALUE_TIME, 1500, US), NOT_IN);
  // 24:00:00 is a time some engines store; past it no time of day.
  EXPECT_BYTES(Count("time(ms)", BB_VALUE_TIME, 86400, SEC), LE(86400000, 4));
  EXPECT_BYTES(Count("time(us)", BB_VALUE_TIME, 86400000000, US), LE(86400000000, 8));
  EXPECT_RC(Count("time(ms)", BB_VALUE_TIME, 86401, SEC), NOT_IN);
  EXPECT_RC(Count("time(us)", BB_VALUE_TIME, 86400000001, US), NOT_IN);
  EXPECT_RC(Count("time(ns)", BB_VALUE_TIME, -1, NS), NOT_IN);
  EXPECT_BYTES(Count("time(ns)", BB_VALUE_TIME, 1, US), LE(1000, 8));
  EXPECT_BYTES(Count("time(us,utc)", BB_VALUE_TIME, 1, US, UTC), LE(1, 8));
  EXPECT_RC(Count("time(us)", BB_VALUE_TIME, 1, US, UTC), BB_ERR_VALUE_AMBIGUOUS);
  for (const char* t : {"int32", "double", "decimal(9,2)", "date", "timestamp(us)", "string"}) {
    EXPECT_RC(Count(t, BB_VALUE_TIME, 1, US), BB_ERR_VALUE_KIND) << t;
  }
}

// ------------------------------------------------------------ TEXT / BYTES / BOOL

TEST(TypedValue, TextFollowsTheTextRulesExactly) {
  EXPECT_BYTES(Text("int64", "12"), LE(12, 8));
  EXPECT_BYTES(Text("date", "2024-01-31"), LE(19753, 4));
  EXPECT_BYTES(Text("decimal(9,2)", "1.5"), LE(150, 4));
  EXPECT_BYTES(Text("string", "h\xc3\xa9"), Bytes("h\xc3\xa9"));
  EXPECT_BYTES(Text("binary", "0aff", BB_PARQUET_TEXT_HEX), Hex("0aff"));
  EXPECT_RC(Text("int64", "1.0"), BB_ERR_VALUE_SYNTAX);
  EXPECT_RC(Text("int8", "300"), BB_ERR_VALUE_RANGE);
  EXPECT_RC(Text("fixed(4)", "abc"), BB_ERR_VALUE_SYNTAX);
  EXPECT_RC(Text("timestamp(us)", "2024-01-31 00:00:00Z"), BB_ERR_VALUE_SYNTAX);
  EXPECT_BYTES(Text("uuid", "00112233-4455-6677-8899-aabbccddeeff"), Hex("00112233445566778899aabbccddeeff"));
}

TEST(TypedValue, TextWithHexTakesTheStoredBytesAsTheTextRuleDoes) {
  // A DECIMAL of 39 digits has no text of its own, but its stored bytes
  // (BYTE_ARRAY) can be named with HEX: the TEXT source answers exactly as
  // bb_parquet_encode_text (it refused such a column as unsupported before).
  bb_parquet_column t = Type("decimal(38,2,binary)");
  t.precision = 39;  // past what bb_parquet_type_parse names, as a file may hold it
  const bb_value_source src = Src(BB_VALUE_TEXT);
  for (uint32_t flags : {0u, uint32_t{BB_PARQUET_TEXT_HEX}}) {
    for (const char* text : {"0aff", "0af", "zz", "1.5"}) {
      uint8_t by_text[64], by_value[64];
      size_t n_text = 0, n_value = 0;
      const int rc_text = bb_parquet_encode_text(&t, text, std::strlen(text), flags, by_text,
                                                 sizeof by_text, &n_text, nullptr, 0);
      const int rc_value = bb_parquet_encode_value(&t, &src, text, std::strlen(text), flags,
                                                   by_value, sizeof by_value, &n_value, nullptr, 0);
      EXPECT_EQ(rc_value, rc_text) << text << " flags " << flags;
      if (rc_text == BB_OK && rc_value == BB_OK) {
        EXPECT_EQ(Bytes(reinterpret_cast<char*>(by_value), n_value),
                  Bytes(reinterpret_cast<char*>(by_text), n_text));
      }
    }
  }
  uint8_t out[8];
  size_t n = 0;
  ASSERT_EQ(bb_parquet_encode_value(&t, &src, "0aff", 4, BB_PARQUET_TEXT_HEX, out, sizeof out, &n,
                                    nullptr, 0),
            BB_OK);
  EXPECT_EQ(Bytes(reinterpret_cast<char*>(out), n), Hex("0aff"));
  EXPECT_EQ(bb_parquet_encode_value(&t, &src, "1.5", 3, 0, out, sizeof out, &n, nullptr, 0),
            BB_ERR_PARQUET_UNSUPPORTED);
}

TEST(TypedValue, BytesOnlyIntoByteTypes) {
  EXPECT_BYTES(Raw("binary", Bytes("\x00\x01", 2)), Bytes("\x00\x01", 2));
  EXPECT_BYTES(Raw("string", "abc"), Bytes("abc"));
  EXPECT_BYTES(Raw("fixed(4)", "abcd"), Bytes("abcd"));
  EXPECT_RC(Raw("fixed(4)", "abc"), NOT_IN);
  EXPECT_BYTES(Raw("uuid", Bytes(16, 'x')), Bytes(16, 'x'));
  EXPECT_BYTES(Raw("int96", Bytes(12, 'y')), Bytes(12, 'y'));
  EXPECT_RC(Raw("int96", Bytes(8, 'y')), NOT_IN);
  for (const char* t : {"int64", "double", "decimal(9,2)", "date", "time(ms)", "timestamp(us)", "float16"}) {
    EXPECT_RC(Raw(t, "abcd"), BB_ERR_VALUE_KIND) << t;
  }
}

TEST(TypedValue, BooleansAreRefusedEverywhere) {
  const int yes = 1;
  for (const char* t : kNumeric) EXPECT_RC(Encode(t, Src(BB_VALUE_BOOL), &yes, 0), BB_ERR_VALUE_KIND) << t;
  for (const char* t : kTemporal) EXPECT_RC(Encode(t, Src(BB_VALUE_BOOL), &yes, 0), BB_ERR_VALUE_KIND) << t;
  for (const char* t : kByteTypes) EXPECT_RC(Encode(t, Src(BB_VALUE_BOOL), &yes, 0), BB_ERR_VALUE_KIND) << t;
  EXPECT_RC(Encode("boolean", Src(BB_VALUE_BOOL), &yes, 0), BB_ERR_PARQUET_UNSUPPORTED);
  EXPECT_RC(Int("boolean", 1), BB_ERR_PARQUET_UNSUPPORTED);
}

TEST(TypedValue, BadArgumentsAreRefused) {
  const bb_parquet_column t = Type("int64");
  bb_value_source s = Src(BB_VALUE_INT);
  int64_t v = 1;
  uint8_t out[16];
  size_t n = 0;
  EXPECT_EQ(bb_parquet_encode_value(nullptr, &s, &v, 0, 0, out, 16, &n, nullptr, 0), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_encode_value(&t, &s, nullptr, 0, 0, out, 16, &n, nullptr, 0), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_encode_value(&t, &s, &v, 0, 0, out, 4, &n, nullptr, 0), BB_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(bb_parquet_encode_value(&t, &s, &v, 0, 8, out, 16, &n, nullptr, 0), BB_ERR_PARQUET_UNSUPPORTED);
  s.struct_size = 4;
  EXPECT_EQ(bb_parquet_encode_value(&t, &s, &v, 0, 0, out, 16, &n, nullptr, 0), BB_ERR_BUFFER_TOO_SMALL);
  EXPECT_RC(Encode("int64", Src(99), &v, 0), BB_ERR_VALUE_KIND);
  EXPECT_RC(Encode("timestamp(us)", Src(BB_VALUE_TIMESTAMP, 9), &v, 0), BB_ERR_VALUE_KIND);
  EXPECT_RC(Encode("timestamp(us)", Src(BB_VALUE_TIMESTAMP, US, 2), &v, 0), BB_ERR_VALUE_KIND);
  EXPECT_RC(Int("decimal(39,2)", 1), BB_ERR_PARQUET_UNSUPPORTED);
}

// A kind of no bb_value_kind has no size: the message names the source and
// quotes nothing of the value (reading `len` bytes of an 8-byte value would
// run past it).
TEST(TypedValue, AnUnknownKindIsRefusedWithoutReadingTheValue) {
  const int64_t v = 0x4141414141414141;
  const Result r = Encode("int64", Src(99), &v, 40);
  EXPECT_EQ(r.rc, BB_ERR_VALUE_KIND);
  EXPECT_NE(r.error.find("is of no bb_value_kind"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find('\''), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find("AAAA"), std::string::npos) << r.error;
}

TEST(TypedValue, HashIsTheHashOfTheBytes) {
  const bb_parquet_column t = Type("decimal(38,1)");
  const bb_value_source s = Src(BB_VALUE_DECIMAL);
  uint64_t h = 7;
  ASSERT_EQ(bb_parquet_hash_typed_value(&t, &s, "-0.5", 4, 0, &h, nullptr, 0), BB_OK);
  const Bytes b = Hex("fffffffffffffffffffffffffffffffb");
  EXPECT_EQ(h, XXH64(b.data(), b.size(), 0));
  h = 7;
  EXPECT_EQ(bb_parquet_hash_typed_value(&t, &s, "-0.55", 5, 0, &h, nullptr, 0), NOT_IN);
  EXPECT_EQ(h, 7u);
}

TEST(TypedValue, TypeOfSourceIsWhatArrowsWriterMakes) {
  struct { bb_value_source src; const char* type; } kCases[] = {
      {Src(BB_VALUE_INT, 0, 0, 0, 8), "int8"}, {Src(BB_VALUE_INT, 0, 0, 0, 32), "int32"},
      {Src(BB_VALUE_INT), "int64"}, {Src(BB_VALUE_UINT, 0, 0, 0, 16), "uint16"},
      {Src(BB_VALUE_UINT, 0, 0, 0, 64), "uint64"}, {Src(BB_VALUE_FLOAT, 0, 0, 0, 32), "float"},
      {Src(BB_VALUE_FLOAT), "double"}, {Src(BB_VALUE_FLOAT, 0, 0, 0, 16), "float16"},
      {Src(BB_VALUE_DATE), "date"}, {Src(BB_VALUE_TIMESTAMP, SEC), "timestamp(ms)"},
      {Src(BB_VALUE_TIMESTAMP, NS, UTC), "timestamp(ns,utc)"}, {Src(BB_VALUE_TIME, SEC), "time(ms)"},
      {Src(BB_VALUE_TIME, US), "time(us)"}, {Src(BB_VALUE_TEXT), "string"},
      {Src(BB_VALUE_BYTES), "binary"}};
  for (const auto& k : kCases) {
    bb_parquet_column got;
    std::memset(&got, 0xab, sizeof got);
    got.struct_size = sizeof got;
    ASSERT_EQ(bb_parquet_type_of_source(&k.src, &got), BB_OK) << k.type;
    const bb_parquet_column want = Type(k.type);
    EXPECT_EQ(got.path, nullptr);
    EXPECT_EQ(std::memcmp(&got.physical_type, &want.physical_type, 10 * sizeof(int32_t)), 0)
        << k.type;
  }
  bb_value_source d = Src(BB_VALUE_DECIMAL, 0, 0, 2);
  d.precision = 20;
  bb_parquet_column got = Type("int8");
  ASSERT_EQ(bb_parquet_type_of_source(&d, &got), BB_OK);
  const bb_parquet_column want = Type("decimal(20,2)");
  EXPECT_EQ(got.physical_type, want.physical_type);
  EXPECT_EQ(got.type_length, want.type_length);
  EXPECT_EQ(got.precision, 20);
  EXPECT_EQ(got.scale, 2);
  // Arrow's Parquet writer (and pyarrow's default) stores every decimal128 /
  // 256 as FIXED_LEN_BYTE_ARRAY of the fewest bytes, INT32 / INT64 ranges too.
  const struct { int precision, bytes; } kFixed[] = {{1, 1}, {2, 1}, {3, 2}, {9, 4}, {10, 5}, {18, 8}, {38, 16}};
  d.scale = 0;
  for (const auto& k : kFixed) {
    d.precision = k.precision;
    ASSERT_EQ(bb_parquet_type_of_source(&d, &got), BB_OK) << k.precision;
    EXPECT_EQ(got.physical_type, BB_PARQUET_FIXED_LEN_BYTE_ARRAY) << k.precision;
    EXPECT_EQ(got.type_length, k.bytes) << k.precision;
    EXPECT_EQ(got.logical_type, BB_PARQUET_LOGICAL_DECIMAL) << k.precision;
    EXPECT_EQ(got.precision, k.precision);
  }
  d.precision = 0;
  EXPECT_EQ(bb_parquet_type_of_source(&d, &got), BB_ERR_VALUE_KIND);
  const bb_value_source b = Src(BB_VALUE_BOOL);
  EXPECT_EQ(bb_parquet_type_of_source(&b, &got), BB_ERR_VALUE_KIND);
}

// ------------------------ one value from different sources: no silent misses

uint64_t HashOf(const std::string& type, const bb_value_source& s, const void* v, size_t len = 0) {
  const bb_parquet_column t = Type(type);
  uint64_t h = 0;
  EXPECT_EQ(bb_parquet_hash_typed_value(&t, &s, v, len, 0, &h, nullptr, 0), BB_OK) << type;
  return h;
}

struct ColumnHashes {
  int rc;
  std::vector<uint64_t> hashes;
  std::vector<uint8_t> in_type;
  size_t count;
};

ColumnHashes HashColumn(const bb_parquet_column& t, const bb_value_source& s, const bb_column& c,
                        uint32_t flags = 0) {
  ColumnHashes r;
  r.hashes.assign(c.length + 1, 0);
  r.in_type.assign((c.length + 7) / 8 + 1, 0xee);
  r.count = 12345;
  char error[BB_PARQUET_VALUE_ERROR_MAX] = "";
  r.rc = bb_parquet_hash_typed_column(&t, &s, &c, flags, r.hashes.data(), r.in_type.data(),
                                      &r.count, error, sizeof error);
  EXPECT_EQ(r.in_type.back(), 0xee) << "wrote past (length + 7) / 8 bytes";
  return r;
}

bb_column Col(uint32_t type, const void* values, size_t n, size_t width = 0) {
  bb_column c = BB_COLUMN_INIT;
  c.type = type;
  c.values = values;
  c.length = n;
  c.width = width;
  return c;
}

std::vector<uint64_t> Plain(const bb_column& c) {
  std::vector<uint64_t> h(c.length);
  size_t n = 0;
  EXPECT_EQ(bb_parquet_hash_column(&c, h.data(), &n), BB_OK);
  return h;
}

TEST(SilentMisses, Int32AndInt64SourcesMeetInEitherIntegerType) {
  const int32_t narrow[] = {7, -1, 2147483647, 0};
  const int64_t wide[] = {7, -1, 2147483647, 0};
  const int64_t v = 7;
  EXPECT_EQ(HashOf("int64", Src(BB_VALUE_INT, 0, 0, 0, 32), &v), HashOf("int64", Src(BB_VALUE_INT), &v));
  const bb_column c32 = Col(BB_TYPE_INT32, narrow, 4), c64 = Col(BB_TYPE_INT64, wide, 4);
  const ColumnHashes into64 = HashColumn(Type("int64"), Src(BB_VALUE_INT), c32);
  ASSERT_EQ(into64.rc, BB_OK);
  EXPECT_EQ(std::vector<uint64_t>(into64.hashes.begin(), into64.hashes.end() - 1), Plain(c64));
  const ColumnHashes into32 = HashColumn(Type("int32"), Src(BB_VALUE_INT), c64);
  ASSERT_EQ(into32.rc, BB_OK);
  EXPECT_EQ(std::vector<uint64_t>(into32.hashes.begin(), into32.hashes.end() - 1), Plain(c32));
  EXPECT_EQ(into32.count, 4u);
}

TEST(SilentMisses, NanosecondAndMicrosecondTimestampsMeet) {
  const int64_t us[] = {1706659200000000, -1, 0};
  const int64_t ns[] = {1706659200000000000, -1000, 0};
  const bb_parquet_column t = Type("timestamp(us)");
  const ColumnHashes a = HashColumn(t, Src(BB_VALUE_TIMESTAMP, US), Col(BB_TYPE_TIMESTAMP, us, 3));
  const ColumnHashes b = HashColumn(t, Src(BB_VALUE_TIMESTAMP, NS), Col(BB_TYPE_INT64, ns, 3));
  ASSERT_EQ(a.rc, BB_OK);
  ASSERT_EQ(b.rc, BB_OK);
  EXPECT_EQ(a.hashes, b.hashes);
  EXPECT_EQ(a.in_type[0], 7);
  EXPECT_EQ(b.in_type[0], 7);
  // ... and the text "2024-01-31" on the same column (midnight).
  uint64_t text = 0;
  ASSERT_EQ(bb_parquet_hash_text(&t, "2024-01-31 00:00:00", 19, 0, &text, nullptr, 0), BB_OK);
  EXPECT_EQ(a.hashes[0], text);
  const int64_t day = 19753;
  EXPECT_EQ(HashOf("timestamp(us)", Src(BB_VALUE_DATE), &day), text);
}

TEST(SilentMisses, OnePointZeroIsOneOnAnIntegerColumn) {
  const double one = 1.0;
  const int64_t i = 1;
  EXPECT_EQ(HashOf("int64", Src(BB_VALUE_FLOAT), &one), HashOf("int64", Src(BB_VALUE_INT), &i));
  const double values[] = {1.0, 1.5, 2.0};
  const ColumnHashes r = HashColumn(Type("int64"), Src(BB_VALUE_FLOAT), Col(BB_TYPE_DOUBLE, values, 3));
  ASSERT_EQ(r.rc, BB_OK);
  EXPECT_EQ(r.in_type[0], 5);  // 1.5 is not in the type
  EXPECT_EQ(r.hashes[0], HashOf("int64", Src(BB_VALUE_INT), &i));
}

TEST(SilentMisses, LongDecimalsStayDistinct) {
  const std::string a = "12345678901234567.1", b = "12345678901234567.2", c = "12345678901234568";
  const uint64_t ha = HashOf("decimal(38,1)", Src(BB_VALUE_DECIMAL), a.data(), a.size());
  EXPECT_NE(ha, HashOf("decimal(38,1)", Src(BB_VALUE_DECIMAL), b.data(), b.size()));
  EXPECT_NE(ha, HashOf("decimal(38,1)", Src(BB_VALUE_DECIMAL), c.data(), c.size()));
  const double f = 12345678901234567.1;  // the double is 12345678901234568
  EXPECT_NE(ha, HashOf("decimal(38,1)", Src(BB_VALUE_FLOAT), &f));
  // An Arrow decimal128(38,1) column of the same value: the same hash.
  const Bytes le = [] {
    Bytes x = Hex("000000000000000001b69b4ba630f347");
    return Bytes(x.rbegin(), x.rend());
  }();
  const ColumnHashes col = HashColumn(Type("decimal(38,1)"), Src(BB_VALUE_DECIMAL, 0, 0, 1),
                                      Col(BB_TYPE_FIXED_LEN_BYTE_ARRAY, le.data(), 1, 16));
  ASSERT_EQ(col.rc, BB_OK);
  EXPECT_EQ(col.hashes[0], ha);
}

TEST(TypedValue, DecimalColumnsRescaleAtThePrecisionsEdge) {
  struct { int32_t scale; int64_t v; bool in; int64_t unscaled; } kRows[] = {
      {2, 999999999, true, 999999999},   {2, 1000000000, false, 0},
      {2, -999999999, true, -999999999}, {2, -1000000000, false, 0},
      {3, 1230, true, 123},              {3, 1235, false, 0},
      {3, -9999999990, true, -999999999}, {0, 9999999, true, 999999900},
      {0, 10000000, false, 0},           {1, -99999999, true, -999999990}};
  const bb_parquet_column t = Type("decimal(9,2)");
  for (const auto& k : kRows) {
    const ColumnHashes r = HashColumn(t, Src(BB_VALUE_DECIMAL, 0, 0, k.scale), Col(BB_TYPE_INT64, &k.v, 1));
    ASSERT_EQ(r.rc, BB_OK);
    EXPECT_EQ(r.in_type[0], k.in ? 1 : 0) << k.v << " scale " << k.scale;
    const Bytes b = LE(static_cast<uint64_t>(k.unscaled), 4);
    if (k.in) {
      EXPECT_EQ(r.hashes[0], XXH64(b.data(), b.size(), 0)) << k.v;
    }
  }
  // decimal128 at its extremes: -2^127 and 2^127 - 1 are past any precision.
  const Bytes extremes = Hex("00000000000000000000000000000080") + Hex("ffffffffffffffffffffffffffffff7f");
  const ColumnHashes r = HashColumn(Type("decimal(38,0)"), Src(BB_VALUE_DECIMAL),
                                    Col(BB_TYPE_FIXED_LEN_BYTE_ARRAY, extremes.data(), 2, 16));
  ASSERT_EQ(r.rc, BB_OK);
  EXPECT_EQ(r.in_type[0], 0);
}

TEST(TypedValue, Decimal256ColumnsBeyond128BitsRescale) {
  // 10^40 and -3 * 10^40 at scale 40 (Arrow decimal256, little-endian): 1 and -3.
  const Bytes values = Hex("000000000061f5b9abbfa45cc3f129631d000000000000000000000000000000") +
                       Hex("0000000000dd1fd2fcc011eab52a82d6a7ffffffffffffffffffffffffffffff");
  const ColumnHashes r = HashColumn(Type("decimal(9,2)"), Src(BB_VALUE_DECIMAL, 0, 0, 40),
                                    Col(BB_TYPE_FIXED_LEN_BYTE_ARRAY, values.data(), 2, 32));
  ASSERT_EQ(r.rc, BB_OK);
  EXPECT_EQ(r.in_type[0], 3);
  const Bytes one = LE(100, 4), minus3 = LE(static_cast<uint64_t>(-300), 4);
  EXPECT_EQ(r.hashes[0], XXH64(one.data(), one.size(), 0));
  EXPECT_EQ(r.hashes[1], XXH64(minus3.data(), minus3.size(), 0));
  // At scale 0 they are past DECIMAL(38)'s 38 digits: absent.
  const ColumnHashes wide = HashColumn(Type("decimal(38,0)"), Src(BB_VALUE_DECIMAL),
                                       Col(BB_TYPE_FIXED_LEN_BYTE_ARRAY, values.data(), 2, 32));
  ASSERT_EQ(wide.rc, BB_OK);
  EXPECT_EQ(wide.in_type[0], 0);
  EXPECT_EQ(wide.count, 0u);
}

TEST(SilentMisses, UtcValuesOnALocalColumnAreRefused) {
  const int64_t v[] = {1700000000000000};
  const bb_parquet_column t = Type("timestamp(us)");
  EXPECT_EQ(HashColumn(t, Src(BB_VALUE_TIMESTAMP, US, UTC), Col(BB_TYPE_TIMESTAMP, v, 1)).rc,
            BB_ERR_VALUE_AMBIGUOUS);
  EXPECT_RC(Count("timestamp(us)", BB_VALUE_TIMESTAMP, v[0], US, UTC), BB_ERR_VALUE_AMBIGUOUS);
}

TEST(SilentMisses, AnIntegerIsTheNumberOnADecimalColumnInEveryContainer) {
  const int64_t v = 12345;
  EXPECT_BYTES(Int("decimal(9,2)", v), LE(1234500, 4));
  const int64_t values[] = {12345};
  const ColumnHashes r = HashColumn(Type("decimal(9,2)"), Src(BB_VALUE_INT), Col(BB_TYPE_INT64, values, 1));
  ASSERT_EQ(r.rc, BB_OK);
  const Bytes b = LE(1234500, 4);
  EXPECT_EQ(r.hashes[0], XXH64(b.data(), b.size(), 0));
  // As unscaled integers (an Arrow decimal with scale 2), the same numbers are 123.45.
  const ColumnHashes u = HashColumn(Type("decimal(9,2)"), Src(BB_VALUE_DECIMAL, 0, 0, 2),
                                    Col(BB_TYPE_INT64, values, 1));
  const Bytes c = LE(12345, 4);
  EXPECT_EQ(u.hashes[0], XXH64(c.data(), c.size(), 0));
}

TEST(SilentMisses, SecondsTimestampsHashAsMilliseconds) {
  const int64_t s = 1706659200;
  uint64_t text = 0;
  const bb_parquet_column t = Type("timestamp(ms)");
  ASSERT_EQ(bb_parquet_hash_text(&t, "2024-01-31 00:00:00", 19, 0, &text, nullptr, 0), BB_OK);
  EXPECT_EQ(HashOf("timestamp(ms)", Src(BB_VALUE_TIMESTAMP, SEC), &s), text);
}

// A date64 column: each row's day truncated toward zero, as the scalar call
// and bb_parquet_hash_column hash it: every row in the type.
TEST(SilentMisses, Date64RowsThatAreNoWholeDayHashAsTheirDay) {
  const int64_t ms[] = {86400001, -1, -86400001, 19753LL * 86400000 + 5};
  const bb_column c = Col(BB_TYPE_DATE64, ms, 4);
  const ColumnHashes got = HashColumn(Type("date"), Src(BB_VALUE_DATE, MS), c);
  ASSERT_EQ(got.rc, BB_OK);
  EXPECT_EQ(got.count, 4u);
  EXPECT_EQ(got.in_type[0], 0x0f);
  const std::vector<uint64_t> plain = Plain(c);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(got.hashes[i], plain[i]) << i;
    EXPECT_EQ(got.hashes[i], HashOf("date", Src(BB_VALUE_DATE, MS), &ms[i])) << i;
  }
}

// float32 NaNs with a sign or a payload keep their bits, as a writer hashes
// the float it stores.
TEST(SilentMisses, Float32NaNsKeepTheirBits) {
  const uint32_t bits[] = {0xffc00000, 0x7fc00001, 0x7f800001, 0x7fc00000, 0x3f800000};
  const bb_column c = Col(BB_TYPE_FLOAT, bits, 5);
  const ColumnHashes got = HashColumn(Type("float"), Src(BB_VALUE_FLOAT), c);
  ASSERT_EQ(got.rc, BB_OK);
  EXPECT_EQ(got.count, 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(got.hashes[i], XXH64(&bits[i], 4, 0)) << i;  // little-endian host, as the kernels
  }
}

// TIME 24:00:00 (a count of one whole day) is in the type, row and scalar.
TEST(SilentMisses, TimeOfTwentyFourHoursIsInTheType) {
  const int64_t us[] = {86400000000, 86400000001, 0};
  const bb_column c = Col(BB_TYPE_TIME64, us, 3);
  const ColumnHashes got = HashColumn(Type("time(us)"), Src(BB_VALUE_TIME, US), c);
  ASSERT_EQ(got.rc, BB_OK);
  EXPECT_EQ(got.count, 2u);
  EXPECT_EQ(got.in_type[0], 0x05);
  EXPECT_EQ(got.hashes[0], HashOf("time(us)", Src(BB_VALUE_TIME, US), &us[0]));
  const int32_t ms[] = {86400000};
  const ColumnHashes narrow = HashColumn(Type("time(ms)"), Src(BB_VALUE_TIME, MS), Col(BB_TYPE_TIME32, ms, 1));
  ASSERT_EQ(narrow.rc, BB_OK);
  EXPECT_EQ(narrow.count, 1u);
}

// A decimal's exponent is exact however many fraction digits come first;
// huge exponents are still decided at once.
TEST(SilentMisses, DecimalExponentsPastTheFractionStayExact) {
  const std::string one = "0." + std::string(100001, '0') + "1e100002";
  EXPECT_BYTES(Dec("decimal(9,2)", one), LE(100, 4));
  EXPECT_BYTES(Dec("decimal(9,2)", "-" + one), LE(static_cast<uint64_t>(-100), 4));
  EXPECT_BYTES(Dec("decimal(9,2)", "0." + std::string(100001, '0') + "1e100001"), LE(10, 4));
  EXPECT_RC(Dec("decimal(9,2)", "0." + std::string(100001, '0') + "1e99999"), NOT_IN);
  EXPECT_RC(Dec("decimal(9,2)", "1e99999999999999999999999999"), NOT_IN);
  EXPECT_RC(Dec("decimal(9,2)", "1e-99999999999999999999999999"), NOT_IN);
  EXPECT_BYTES(Dec("decimal(9,2)", "0e99999999999999999999999999"), LE(0, 4));
}

// --------------------------------------------- the column call = the scalar call

struct Combo {
  const char* type;
  bb_value_source src;
  uint32_t col_type;
  size_t width;
  uint32_t flags;
};

// Values that hit every branch: small, unit multiples, range limits, random.
int64_t Pick(std::mt19937_64& rng) {
  static const int64_t kEdges[] = {0, 1, -1, 127, 128, -129, 255, 65536, INT32_MAX, INT32_MIN,
                                   4294967295, INT64_MAX, INT64_MIN, 86400, 86400000,
                                   86400000000, 86400000000000, 1000, 1000000};
  switch (rng() % 6) {
    case 0: return kEdges[rng() % (sizeof kEdges / sizeof kEdges[0])];
    case 1: return static_cast<int64_t>(rng() % 2001) - 1000;
    case 2: return (static_cast<int64_t>(rng() % 200001) - 100000) * 1000;
    case 3: return (static_cast<int64_t>(rng() % 201) - 100) * 86400000000;
    case 4: return static_cast<int64_t>(rng() % 86400000);
    default: return static_cast<int64_t>(rng());
  }
}

struct RandomColumn {
  std::vector<uint8_t> values, validity, data;
  std::vector<int32_t> offsets;
  bb_column col;
};

RandomColumn MakeColumn(const Combo& k, size_t n, std::mt19937_64& rng, bool nulls) {
  RandomColumn r;
  r.col = BB_COLUMN_INIT;
  r.col.type = k.col_type;
  r.col.length = n;
  r.col.width = k.width;
  if (k.col_type == BB_TYPE_BYTE_ARRAY) {
    r.offsets.push_back(0);
    for (size_t i = 0; i < n; ++i) {
      std::string s = std::to_string(Pick(rng) % 100000);
      if (rng() % 5 == 0) s = "x" + s;  // not an integer: a syntax error when valid
      r.data.insert(r.data.end(), s.begin(), s.end());
      r.offsets.push_back(static_cast<int32_t>(r.data.size()));
    }
    r.col.offsets = r.offsets.data();
    r.col.data = r.data.data();
    r.col.data_len = r.data.size();
  } else {
    static const size_t kWidth[] = {0, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 4, 8, 4, 8, 8};
    const size_t w = k.width ? k.width : kWidth[k.col_type];
    r.values.resize(n * w + 1);
    for (size_t i = 0; i < n; ++i) {
      if (k.col_type == BB_TYPE_DOUBLE || k.col_type == BB_TYPE_FLOAT) {
        const int64_t p = Pick(rng);
        double d = rng() % 3 == 0 ? static_cast<double>(p) / 8 : static_cast<double>(p % 100000) / 100;
        if (rng() % 50 == 0) d = std::nan("");
        if (k.col_type == BB_TYPE_FLOAT) {
          const float f = static_cast<float>(d);
          std::memcpy(&r.values[i * 4], &f, 4);
        } else {
          std::memcpy(&r.values[i * 8], &d, 8);
        }
      } else {
        for (size_t b = 0; b < w; b += 8) {
          const int64_t v = Pick(rng);
          std::memcpy(&r.values[i * w + b], &v, std::min<size_t>(8, w - b));
        }
        if (w > 8 && rng() % 2) {  // a sign-extended small decimal
          const int64_t v = Pick(rng) % 1000000000;
          std::memset(&r.values[i * w], v < 0 ? 0xff : 0, w);
          std::memcpy(&r.values[i * w], &v, 8);
        }
      }
    }
    r.col.values = r.values.data();
  }
  if (nulls) {
    r.validity.resize(n / 8 + 2);
    for (auto& b : r.validity) b = static_cast<uint8_t>(rng());
    r.col.validity = r.validity.data();
    r.col.validity_offset = 3;
    r.validity.resize(n / 8 + 2);
  }
  return r;
}

// The scalar call on row i.
int ScalarRow(const Combo& k, const bb_parquet_column& t, const RandomColumn& r, size_t i,
              uint64_t* hash) {
  const bb_column& c = r.col;
  const uint8_t* p = r.values.data();
  int64_t iv = 0;
  uint64_t uv = 0;
  double dv = 0;
  std::string text;
  const void* value = &iv;
  switch (k.col_type) {
    case BB_TYPE_INT8: iv = static_cast<int8_t>(p[i]); break;
    case BB_TYPE_INT16: { int16_t x; std::memcpy(&x, p + 2 * i, 2); iv = x; break; }
    case BB_TYPE_INT32: case BB_TYPE_DATE32: case BB_TYPE_TIME32: { int32_t x; std::memcpy(&x, p + 4 * i, 4); iv = x; break; }
    case BB_TYPE_UINT8: uv = p[i]; value = &uv; break;
    case BB_TYPE_UINT16: { uint16_t x; std::memcpy(&x, p + 2 * i, 2); uv = x; value = &uv; break; }
    case BB_TYPE_UINT32: { uint32_t x; std::memcpy(&x, p + 4 * i, 4); uv = x; value = &uv; break; }
    case BB_TYPE_UINT64: std::memcpy(&uv, p + 8 * i, 8); value = &uv; break;
    case BB_TYPE_FLOAT: { float f; std::memcpy(&f, p + 4 * i, 4); dv = f; value = &dv; break; }
    case BB_TYPE_DOUBLE: std::memcpy(&dv, p + 8 * i, 8); value = &dv; break;
    case BB_TYPE_BYTE_ARRAY:
      text.assign(reinterpret_cast<const char*>(r.data.data()) + r.offsets[i], r.offsets[i + 1] - r.offsets[i]);
      value = text.data();
      break;
    case BB_TYPE_FIXED_LEN_BYTE_ARRAY:
      text.assign(reinterpret_cast<const char*>(p) + i * c.width, c.width);
      value = text.data();
      break;
    default: std::memcpy(&iv, p + 8 * i, 8);
  }
  bb_value_source s = k.src;
  if (k.src.kind == BB_VALUE_DECIMAL) {  // the unscaled integer as decimal text
    I128 v = 0;
    if (k.col_type == BB_TYPE_FIXED_LEN_BYTE_ARRAY) {
      // Only values that fit 128 bits: the wider ones are tested by hand above.
      std::memcpy(&v, p + i * c.width, 16);
      for (size_t b = 16; b < c.width; ++b) {
        if (p[i * c.width + b] != (v < 0 ? 0xff : 0)) return -1000;
      }
    } else {
      v = iv;
    }
    const bool neg = v < 0;
    U128 m = neg ? -static_cast<U128>(v) : static_cast<U128>(v);
    std::string digits;
    do digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10))), m /= 10; while (m);
    text = (neg ? "-" : "") + digits + "e" + std::to_string(-s.scale);
    value = text.data();
    s.scale = 0;
  }
  return bb_parquet_hash_typed_value(&t, &s, value, text.size(), k.flags, hash, nullptr, 0);
}

const Combo kCombos[] = {
    {"int8", Src(BB_VALUE_INT), BB_TYPE_INT16, 0, 0},
    {"int32", Src(BB_VALUE_INT), BB_TYPE_INT64, 0, 0},
    {"int32", Src(BB_VALUE_INT), BB_TYPE_INT32, 0, 0},
    {"int32", Src(BB_VALUE_INT), BB_TYPE_INT8, 0, 0},
    {"int64", Src(BB_VALUE_INT), BB_TYPE_INT64, 0, 0},
    {"int64", Src(BB_VALUE_INT), BB_TYPE_INT32, 0, 0},
    {"uint32", Src(BB_VALUE_INT), BB_TYPE_INT64, 0, 0},
    {"uint64", Src(BB_VALUE_INT), BB_TYPE_INT64, 0, 0},
    {"int64", Src(BB_VALUE_UINT), BB_TYPE_UINT64, 0, 0},
    {"uint64", Src(BB_VALUE_UINT), BB_TYPE_UINT64, 0, 0},
    {"uint32", Src(BB_VALUE_UINT), BB_TYPE_UINT32, 0, 0},
    {"int32", Src(BB_VALUE_UINT), BB_TYPE_UINT32, 0, 0},
    {"int8", Src(BB_VALUE_UINT), BB_TYPE_UINT8, 0, 0},
    {"uint16", Src(BB_VALUE_UINT), BB_TYPE_UINT16, 0, 0},
    {"double", Src(BB_VALUE_INT), BB_TYPE_INT64, 0, 0},
    {"float", Src(BB_VALUE_INT), BB_TYPE_INT32, 0, 0},
    {"decimal(9,2)", Src(BB_VALUE_INT), BB_TYPE_INT64, 0, 0},
    {"decimal(20,3)", Src(BB_VALUE_UINT), BB_TYPE_UINT64, 0, 0},
    {"double", Src(BB_VALUE_FLOAT), BB_TYPE_DOUBLE, 0, 0},
    {"float", Src(BB_VALUE_FLOAT), BB_TYPE_DOUBLE, 0, 0},
    {"float", Src(BB_VALUE_FLOAT), BB_TYPE_FLOAT, 0, 0},
    {"double", Src(BB_VALUE_FLOAT), BB_TYPE_FLOAT, 0, 0},
    {"float16", Src(BB_VALUE_FLOAT), BB_TYPE_FLOAT, 0, 0},
    {"int64", Src(BB_VALUE_FLOAT), BB_TYPE_DOUBLE, 0, 0},
    {"decimal(9,2)", Src(BB_VALUE_FLOAT), BB_TYPE_DOUBLE, 0, 0},
    {"timestamp(us)", Src(BB_VALUE_TIMESTAMP, US), BB_TYPE_TIMESTAMP, 0, 0},
    {"timestamp(ns)", Src(BB_VALUE_TIMESTAMP, US), BB_TYPE_TIMESTAMP, 0, 0},
    {"timestamp(ms)", Src(BB_VALUE_TIMESTAMP, SEC), BB_TYPE_INT64, 0, 0},
    {"timestamp(ms,utc)", Src(BB_VALUE_TIMESTAMP, NS, UTC), BB_TYPE_TIMESTAMP, 0, 0},
    {"timestamp(us,utc)", Src(BB_VALUE_TIMESTAMP, MS), BB_TYPE_INT32, 0, 0},
    {"date", Src(BB_VALUE_TIMESTAMP, US), BB_TYPE_TIMESTAMP, 0, 0},
    {"int96", Src(BB_VALUE_TIMESTAMP, NS), BB_TYPE_TIMESTAMP, 0, 0},
    {"int64", Src(BB_VALUE_TIMESTAMP, NS), BB_TYPE_TIMESTAMP, 0, BB_PARQUET_TEXT_PHYSICAL},
    {"time(ms)", Src(BB_VALUE_TIME, MS), BB_TYPE_TIME32, 0, 0},
    {"time(ms)", Src(BB_VALUE_TIME, US), BB_TYPE_TIME64, 0, 0},
    {"time(ns)", Src(BB_VALUE_TIME, SEC), BB_TYPE_INT32, 0, 0},
    {"time(us)", Src(BB_VALUE_TIME, US), BB_TYPE_TIME64, 0, 0},
    {"date", Src(BB_VALUE_DATE), BB_TYPE_DATE32, 0, 0},
    {"date", Src(BB_VALUE_DATE), BB_TYPE_INT64, 0, 0},
    {"date", Src(BB_VALUE_DATE, MS), BB_TYPE_DATE64, 0, 0},
    {"timestamp(us)", Src(BB_VALUE_DATE), BB_TYPE_DATE32, 0, 0},
    {"timestamp(ns)", Src(BB_VALUE_DATE, MS), BB_TYPE_DATE64, 0, 0},
    {"int96", Src(BB_VALUE_DATE), BB_TYPE_DATE32, 0, 0},
    {"date", Src(BB_VALUE_DATE, MS), BB_TYPE_DATE64, 0, BB_PARQUET_TEXT_PHYSICAL},
    {"time(ms)", Src(BB_VALUE_TIME, US), BB_TYPE_INT64, 0, BB_PARQUET_TEXT_PHYSICAL},
    {"decimal(9,2)", Src(BB_VALUE_DECIMAL, 0, 0, 2), BB_TYPE_INT64, 0, 0},
    {"decimal(18,4)", Src(BB_VALUE_DECIMAL, 0, 0, 2), BB_TYPE_INT32, 0, 0},
    {"decimal(38,4)", Src(BB_VALUE_DECIMAL, 0, 0, 6), BB_TYPE_FIXED_LEN_BYTE_ARRAY, 16, 0},
    {"decimal(20,2,binary)", Src(BB_VALUE_DECIMAL, 0, 0, 3), BB_TYPE_FIXED_LEN_BYTE_ARRAY, 32, 0},
    {"int64", Src(BB_VALUE_DECIMAL, 0, 0, 3), BB_TYPE_INT64, 0, 0},
    {"double", Src(BB_VALUE_DECIMAL, 0, 0, 2), BB_TYPE_INT64, 0, 0},
    {"string", Src(BB_VALUE_TEXT), BB_TYPE_BYTE_ARRAY, 0, 0},
    {"string", Src(BB_VALUE_BYTES), BB_TYPE_BYTE_ARRAY, 0, 0},
    {"fixed(4)", Src(BB_VALUE_BYTES), BB_TYPE_BYTE_ARRAY, 0, 0},
    {"fixed(4)", Src(BB_VALUE_BYTES), BB_TYPE_FIXED_LEN_BYTE_ARRAY, 4, 0},
};

void CheckColumnAgainstScalar(const Combo& k, size_t n, std::mt19937_64& rng) {
  const bb_parquet_column t = Type(k.type);
  for (bool nulls : {false, true}) {
    const RandomColumn r = MakeColumn(k, n, rng, nulls);
    const ColumnHashes got = HashColumn(t, k.src, r.col, k.flags);
    ASSERT_EQ(got.rc, BB_OK) << k.type << " n=" << n;
    size_t ones = 0;
    for (size_t i = 0; i < n; ++i) {
      const bool valid = !nulls || coltest::BitAt(r.validity.data(), 3 + i);
      uint64_t h = 0;
      const int rc = ScalarRow(k, t, r, i, &h);
      if (rc == -1000) continue;  // past 128 bits: not modelled here
      ASSERT_GE(rc, 0) << k.type << " row " << i;
      const bool in = valid && rc == BB_OK;
      ASSERT_EQ(coltest::BitAt(got.in_type.data(), i), in) << k.type << " n=" << n << " row " << i;
      if (in) {
        ASSERT_EQ(got.hashes[i], h) << k.type << " n=" << n << " row " << i;
      }
      ones += in;
    }
    if (k.width <= 16) {
      EXPECT_EQ(got.count, ones) << k.type;
    }
    for (size_t i = n; i < 8 * ((n + 7) / 8); ++i) ASSERT_FALSE(coltest::BitAt(got.in_type.data(), i));
  }
}

class TypedColumn : public coltest::PerTier {};

TEST_P(TypedColumn, EqualsTheScalarCallRowForRow) {
  std::mt19937_64 rng(33);
  std::vector<size_t> lengths;
  for (size_t n = 0; n <= 40; ++n) lengths.push_back(n);
  for (size_t n : {1023u, 1024u, 1025u, 2049u}) lengths.push_back(n);
  for (const Combo& k : kCombos) {
    if (k.src.kind == BB_VALUE_TEXT) continue;  // a syntax error is the column's answer
    for (size_t n : lengths) {
      CheckColumnAgainstScalar(k, n, rng);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(TypedColumn, TextRowsAreTheTextRuleOrTheRowsError) {
  const char* rows[] = {"12", "-7", "300"};
  std::string data;
  std::vector<int32_t> offsets = {0};
  for (const char* s : rows) data += s, offsets.push_back(static_cast<int32_t>(data.size()));
  bb_column c = BB_COLUMN_INIT;
  c.type = BB_TYPE_BYTE_ARRAY;
  c.length = 3;
  c.offsets = offsets.data();
  c.data = data.data();
  c.data_len = data.size();
  const ColumnHashes ok = HashColumn(Type("int16"), Src(BB_VALUE_TEXT), c);
  ASSERT_EQ(ok.rc, BB_OK);
  EXPECT_EQ(ok.in_type[0], 7);
  const int64_t twelve = 12;
  EXPECT_EQ(ok.hashes[0], HashOf("int16", Src(BB_VALUE_INT), &twelve));
  std::vector<uint64_t> h(3);
  char error[BB_PARQUET_VALUE_ERROR_MAX] = "";
  const bb_parquet_column i8 = Type("int8");
  const bb_value_source text = Src(BB_VALUE_TEXT);
  EXPECT_EQ(bb_parquet_hash_typed_column(&i8, &text, &c, 0, h.data(), nullptr, nullptr, error,
                                         sizeof error),
            BB_ERR_VALUE_RANGE);
  EXPECT_NE(std::string(error).find("row 2"), std::string::npos) << error;
}

TEST_P(TypedColumn, RefusalsComeBeforeAnythingIsWritten) {
  const int64_t v[] = {1, 2, 3};
  const bb_column c = Col(BB_TYPE_INT64, v, 3);
  uint64_t h[3] = {9, 9, 9};
  uint8_t bits = 0x5a;
  size_t count = 77;
  const bb_parquet_column date = Type("date");
  const bb_value_source i = Src(BB_VALUE_INT), f = Src(BB_VALUE_FLOAT), ts = Src(BB_VALUE_TIMESTAMP, US);
  EXPECT_EQ(bb_parquet_hash_typed_column(&date, &i, &c, 0, h, &bits, &count, nullptr, 0),
            BB_ERR_VALUE_AMBIGUOUS);
  EXPECT_EQ(bb_parquet_hash_typed_column(&date, &f, &c, 0, h, &bits, &count, nullptr, 0),
            BB_ERR_VALUE_KIND);
  const bb_parquet_column i64 = Type("int64");
  // An element type that cannot hold the kind: a float source in an int64 column.
  EXPECT_EQ(bb_parquet_hash_typed_column(&i64, &f, &c, 0, h, &bits, &count, nullptr, 0),
            BB_ERR_VALUE_KIND);
  EXPECT_EQ(bb_parquet_hash_typed_column(&i64, &ts, &c, 0, h, &bits, &count, nullptr, 0),
            BB_ERR_VALUE_KIND);
  bb_column bad = c;
  bad.width = 3;
  EXPECT_EQ(bb_parquet_hash_typed_column(&i64, &i, &bad, 0, h, &bits, &count, nullptr, 0),
            BB_ERR_INVALID_COLUMN_WIDTH);
  EXPECT_EQ(bb_parquet_hash_typed_column(&i64, &i, &c, 0, nullptr, &bits, &count, nullptr, 0),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(h[0], 9u);
  EXPECT_EQ(bits, 0x5a);
  EXPECT_EQ(count, 77u);
}

COLTEST_INSTANTIATE_PER_TIER(TypedColumn);

}  // namespace
