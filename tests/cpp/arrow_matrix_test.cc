// SPDX-License-Identifier: Apache-2.0
// arrow.hpp's one table: every Arrow format, built by hand as the
// spec lays it out (sliced, with nulls), into every kind of Parquet type.
// For each (array, type) the filter and the probe answers are exactly those
// of the library's scalar rule (bb_parquet_hash_typed_value) for each row's
// value, given as the source the format is (written out here by hand, not
// taken from arrow.hpp): a row the rule converts is hashed as the rule
// hashes it, a row the rule finds not in the type is not inserted and
// answers 0, and a source the rule refuses is refused with the rule's code,
// nothing inserted. Never a different hash.
#include "blockbloom/arrow.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "cpp/arrow_test_arrays.h"
#include "blockbloom/parquet_value.h"

namespace {

using namespace blockbloom_test;  // NOLINT: the array builders

__extension__ typedef __int128 int128;  // GCC and Clang: 38-digit decimals

// One row's value as bb_parquet_hash_typed_value takes it.
struct Scalar {
  int64_t i = 0;      // INT, DATE, TIMESTAMP, TIME
  uint64_t u = 0;     // UINT
  double d = 0;       // FLOAT
  std::string bytes;  // TEXT, BYTES; DECIMAL: its text
};

// An Arrow array, the source its format is, and each row's value.
struct Rows {
  std::string name;
  std::unique_ptr<Arrow> array;
  bb_value_source source{sizeof(bb_value_source), 0, 0, 0, 0, 0, 0};
  std::vector<bool> valid;
  std::vector<Scalar> values;
};

bb_value_source Source(uint32_t kind, int32_t bits = 0, int32_t unit = 0, int32_t zone = 0, int32_t scale = 0,
                       int32_t precision = 0) {
  return bb_value_source{sizeof(bb_value_source), kind, bits, unit, zone, scale, precision};
}

// Every 4th row null, its bytes left as whatever they are.
std::vector<bool> EveryFourthNull(std::size_t n) {
  std::vector<bool> valid(n);
  for (std::size_t i = 0; i < n; ++i) valid[i] = i % 4 != 2;
  return valid;
}

// Fixed-width rows: the values' low `width` little-endian bytes (this test
// checks it runs little-endian), a null row's bytes 0xAB.
template <class T>
Rows Fixed(const std::string& format, bb_value_source source, std::size_t width, const std::vector<T>& values,
           const std::vector<Scalar>& scalars) {
  Rows r;
  r.name = format;
  r.source = source;
  r.valid = EveryFourthNull(values.size());
  r.values = scalars;
  Bytes data(values.size() * width, 0xAB);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (r.valid[i]) std::memcpy(data.data() + i * width, &values[i], width);
  }
  r.array = FixedArrow(format, data, width, r.valid);
  return r;
}

Rows Ints(const std::string& format, int32_t bits, std::vector<int64_t> candidates) {
  const int64_t lo = bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1));
  const int64_t hi = bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
  std::vector<int64_t> values;
  std::vector<Scalar> scalars;
  for (int64_t v : candidates) {
    if (v < lo || v > hi) continue;
    values.push_back(v);
    scalars.emplace_back();
    scalars.back().i = v;
  }
  return Fixed(format, Source(BB_VALUE_INT, bits), static_cast<std::size_t>(bits / 8), values, scalars);
}

Rows Uints(const std::string& format, int32_t bits) {
  const uint64_t hi = bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
  std::vector<uint64_t> values;
  std::vector<Scalar> scalars;
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{42}, uint64_t{127}, uint64_t{128}, uint64_t{255},
                     uint64_t{256}, uint64_t{65535}, uint64_t{2147483647}, uint64_t{2147483648},
                     uint64_t{4294967295}, uint64_t{4294967296}, uint64_t{1} << 63, ~uint64_t{0}}) {
    if (v > hi) continue;
    values.push_back(v);
    scalars.emplace_back();
    scalars.back().u = v;
  }
  return Fixed(format, Source(BB_VALUE_UINT, bits), static_cast<std::size_t>(bits / 8), values, scalars);
}

const std::vector<int64_t> kIntegers = {0,
                                        1,
                                        -1,
                                        42,
                                        127,
                                        -128,
                                        255,
                                        32767,
                                        -32768,
                                        65535,
                                        86399,
                                        86400,
                                        2147483647,
                                        -2147483647 - 1,
                                        4294967295,
                                        1700000000,
                                        86400000,
                                        1000000000000,
                                        1700000000123456,
                                        86400000000000,
                                        std::numeric_limits<int64_t>::max(),
                                        std::numeric_limits<int64_t>::min()};

Rows Floats() {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> values = {0.0f, -0.0f, 1.0f, -2.5f, 0.1f, 1e10f, 3e38f, inf, -inf,
                               std::numeric_limits<float>::quiet_NaN(), 16777216.0f, 127.0f, 1.5f};
  std::vector<Scalar> scalars(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) scalars[i].d = static_cast<double>(values[i]);
  return Fixed("f", Source(BB_VALUE_FLOAT, 32), 4, values, scalars);
}

Rows Doubles() {
  std::vector<double> values = {0.0, -0.0, 1.0, 0.1, 1e300, 2.5, 12345.678, -1.0,
                                std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                                9007199254740993.0, 1.5, 123.45, 4294967295.0, 1e-310};
  std::vector<Scalar> scalars(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) scalars[i].d = values[i];
  return Fixed("g", Source(BB_VALUE_FLOAT, 64), 8, values, scalars);
}

// IEEE halves and the values they are (facts of the format).
Rows Halves() {
  struct Half {
    uint16_t bits;
    double value;
  };
  const Half halves[] = {{0x3C00, 1.0},          {0xC100, -2.5},     {0x0000, 0.0},
                         {0x7BFF, 65504.0},      {0x0001, std::ldexp(1.0, -24)}, {0x8000, -0.0},
                         {0x3555, 0.333251953125}, {0x7C00, std::numeric_limits<double>::infinity()},
                         {0x7E00, std::numeric_limits<double>::quiet_NaN()}, {0x5640, 100.0}};
  std::vector<uint16_t> values;
  std::vector<Scalar> scalars;
  for (const Half& h : halves) {
    values.push_back(h.bits);
    scalars.emplace_back();
    scalars.back().d = h.value;
  }
  return Fixed("e", Source(BB_VALUE_FLOAT, 16), 2, values, scalars);
}

// Integers of a temporal kind, as int32 or int64.
Rows Counts(const std::string& format, bb_value_source source, std::size_t width, const std::vector<int64_t>& counts) {
  std::vector<int64_t> values;
  std::vector<Scalar> scalars;
  for (int64_t v : counts) {
    if (width == 4 && (v < INT32_MIN || v > INT32_MAX)) continue;
    values.push_back(v);
    scalars.emplace_back();
    scalars.back().i = v;
  }
  return Fixed(format, source, width, values, scalars);
}

std::string Int128Text(int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    digits.insert(digits.begin(), static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  return negative ? "-" + digits : digits;
}

// The unscaled value as decimal text with `scale` fraction digits.
std::string DecimalText(int128 unscaled, int scale) {
  std::string t = Int128Text(unscaled);
  const bool negative = t[0] == '-';
  if (negative) t.erase(0, 1);
  if (scale > 0) {
    if (t.size() <= static_cast<std::size_t>(scale)) t.insert(0, static_cast<std::size_t>(scale) + 1 - t.size(), '0');
    t.insert(t.size() - static_cast<std::size_t>(scale), ".");
  }
  return negative ? "-" + t : t;
}

int128 Pow10(int n) {
  int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

// Arrow decimals of precision p, scale s, bw bits: unscaled values within p
// digits, little-endian two's complement of bw / 8 bytes.
Rows Decimals(int p, int s, int bw, bool default_width = false) {
  const int128 limit = Pow10(p < 38 ? p : 38);  // values past 38 digits are not needed to show the rule
  const std::vector<int128> candidates = {0, 1, -1, 5, 12345, -12345, 100, 123450, 999999999, -999999999,
                                          123456789012345678, Pow10(18) + 7, -Pow10(20), Pow10(37) + 3,
                                          limit - 1, -(limit - 1)};
  const std::size_t width = static_cast<std::size_t>(bw / 8);
  std::vector<int128> values;
  std::vector<Scalar> scalars;
  for (int128 v : candidates) {
    if (v >= limit || v <= -limit) continue;
    values.push_back(v);
    scalars.emplace_back();
    scalars.back().bytes = DecimalText(v, s);
  }
  Rows r;
  r.name = "d:" + std::to_string(p) + "," + std::to_string(s) + (default_width ? "" : "," + std::to_string(bw));
  r.source = Source(BB_VALUE_DECIMAL, 0, 0, 0, s, p);
  r.valid = EveryFourthNull(values.size());
  r.values = scalars;
  Bytes data(values.size() * width, 0xAB);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!r.valid[i]) continue;
    uint8_t le[32];
    const uint8_t fill = values[i] < 0 ? 0xFF : 0x00;
    std::memset(le, fill, sizeof le);
    std::memcpy(le, &values[i], width < 16 ? width : 16);
    std::memcpy(data.data() + i * width, le, width);
  }
  r.array = FixedArrow(r.name, data, width, r.valid);
  return r;
}

Rows Strings(const std::string& format, uint32_t kind, const std::vector<std::string>& s) {
  Rows r;
  r.name = format;
  r.source = Source(kind);
  r.valid = EveryFourthNull(s.size());
  for (const std::string& v : s) {
    r.values.emplace_back();
    r.values.back().bytes = v;
  }
  if (format == "u" || format == "z") {
    r.array = StringArrow<int32_t>(format, s, r.valid);
  } else if (format == "U" || format == "Z") {
    r.array = StringArrow<int64_t>(format, s, r.valid);
  } else {
    r.array = ViewArrow(format, s, r.valid);
  }
  return r;
}

Rows FixedBinary(std::size_t n) {
  const std::vector<std::string> s = {std::string(n, 'a'), std::string(n, '\0'), std::string(n, '\xff'),
                                      std::string(n, 'q'), std::string(n, '7')};
  Rows r;
  r.name = "w:" + std::to_string(n);
  r.source = Source(BB_VALUE_BYTES);
  r.valid = EveryFourthNull(s.size());
  Bytes data;
  for (const std::string& v : s) {
    r.values.emplace_back();
    r.values.back().bytes = v;
    data.insert(data.end(), v.begin(), v.end());
  }
  r.array = FixedArrow(r.name, data, n, r.valid);
  return r;
}

// A dictionary-encoded array: rows of `entries` by index, some indices null.
Rows Dictionary(Rows entries) {
  const std::size_t d = entries.values.size();
  Rows r;
  r.name = "dictionary of " + entries.name;
  r.source = entries.source;
  std::vector<int64_t> idx;
  for (std::size_t i = 0; i < 2 * d; ++i) {
    const std::size_t k = (i * 5 + 1) % d;
    idx.push_back(static_cast<int64_t>(k));
    r.valid.push_back(i % 3 != 1 && entries.valid[k]);
    r.values.push_back(entries.values[k]);
  }
  std::vector<bool> index_valid(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) index_valid[i] = i % 3 != 1;
  r.array = Indices("i", 4, idx, index_valid);
  r.array->dictionary = std::move(entries.array);
  r.array->Finish(r.array->array.length, r.array->array.offset, r.array->array.null_count);
  return r;
}

const std::vector<std::string> kTexts = {"12", "-7", "", "2024-01-31", "12:30:00", "2024-01-31 12:30:00",
                                         "1.5", "hello", "0123456789abcdef", "nan", std::string(20, 'x')};
const std::vector<std::string> kNumberTexts = {"12", "-7", "0", "100", "1.25", "-0.5"};
const std::vector<std::string> kTimestampTexts = {"2024-01-31 12:30:00", "1970-01-01 00:00:00.001",
                                                  "2024-01-31T00:00:00", "1999-12-31 23:59:59.999999"};

std::vector<Rows> AllRows() {
  std::vector<Rows> all;
  all.push_back(Ints("c", 8, kIntegers));
  all.push_back(Ints("s", 16, kIntegers));
  all.push_back(Ints("i", 32, kIntegers));
  all.push_back(Ints("l", 64, kIntegers));
  all.push_back(Uints("C", 8));
  all.push_back(Uints("S", 16));
  all.push_back(Uints("I", 32));
  all.push_back(Uints("L", 64));
  all.push_back(Halves());
  all.push_back(Floats());
  all.push_back(Doubles());
  const std::vector<int64_t> days = {0, 1, -1, 19753, 2932896, -719162, -719163, 3000000, 25000};
  all.push_back(Counts("tdD", Source(BB_VALUE_DATE, 0, BB_VALUE_UNIT_DAYS), 4, days));
  all.push_back(Counts("tdm", Source(BB_VALUE_DATE, 0, BB_PARQUET_UNIT_MILLIS), 8,
                       {0, 86400000, -86400000, int64_t{19753} * 86400000, 1234, -1, int64_t{2932896} * 86400000}));
  all.push_back(Counts("tts", Source(BB_VALUE_TIME, 0, BB_VALUE_UNIT_SECONDS), 4, {0, 1, 59, 86399, 86400, -1, 43200}));
  all.push_back(Counts("ttm", Source(BB_VALUE_TIME, 0, BB_PARQUET_UNIT_MILLIS), 4,
                       {0, 1, 1000, 86399999, 86400000, -5, 45296789}));
  all.push_back(Counts("ttu", Source(BB_VALUE_TIME, 0, BB_PARQUET_UNIT_MICROS), 8,
                       {0, 1, 1000, 1500, 86399999999, 86400000000, 45296789000}));
  all.push_back(Counts("ttn", Source(BB_VALUE_TIME, 0, BB_PARQUET_UNIT_NANOS), 8,
                       {0, 1, 1000, 1000000, 86399999999999, 86400000000000, 45296789123456}));
  const char units[] = "smun";
  const int32_t unit_codes[] = {BB_VALUE_UNIT_SECONDS, BB_PARQUET_UNIT_MILLIS, BB_PARQUET_UNIT_MICROS,
                                BB_PARQUET_UNIT_NANOS};
  for (int u = 0; u < 4; ++u) {
    for (const char* zone : {"", "UTC", "Asia/Tokyo"}) {
      const std::string format = std::string("ts") + units[u] + ":" + zone;
      all.push_back(Counts(format,
                           Source(BB_VALUE_TIMESTAMP, 0, unit_codes[u],
                                  zone[0] != '\0' ? BB_VALUE_ZONE_UTC : BB_VALUE_ZONE_NAIVE),
                           8, kIntegers));
    }
  }
  all.push_back(Decimals(9, 2, 32));
  all.push_back(Decimals(18, 4, 64));
  all.push_back(Decimals(38, 10, 128, true));
  all.push_back(Decimals(9, 2, 128));
  all.push_back(Decimals(5, 0, 128));
  all.push_back(Decimals(40, 5, 256));
  all.push_back(Decimals(18, 18, 64));
  for (const char* f : {"u", "U", "vu"}) all.push_back(Strings(f, BB_VALUE_TEXT, kTexts));
  all.push_back(Strings("u", BB_VALUE_TEXT, kNumberTexts));
  all.push_back(Strings("vu", BB_VALUE_TEXT, kTimestampTexts));
  const std::vector<std::string> binary = {"", "abc", std::string("\0\1\2", 3), "0123456789abcdef",
                                           std::string(12, 'b'), std::string(16, '\x80')};
  for (const char* f : {"z", "Z", "vz"}) all.push_back(Strings(f, BB_VALUE_BYTES, binary));
  all.push_back(FixedBinary(16));
  all.push_back(FixedBinary(3));
  all.push_back(Dictionary(Strings("u", BB_VALUE_TEXT, kNumberTexts)));
  all.push_back(Dictionary(Counts("tsm:UTC", Source(BB_VALUE_TIMESTAMP, 0, BB_PARQUET_UNIT_MILLIS, BB_VALUE_ZONE_UTC),
                                  8, {0, 1700000000123, -5, 86400000})));
  all.push_back(Dictionary(Decimals(9, 2, 128)));
  return all;
}

const char* const kTypes[] = {
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float", "double", "float16",
    "decimal(9,2)", "decimal(9,2,int64)", "decimal(9,2,fixed(16))", "decimal(18,4)", "decimal(18,4,fixed(16))",
    "decimal(38,10)", "date", "time(ms)", "time(us)", "time(ns)", "timestamp(ms)", "timestamp(us)",
    "timestamp(ns)", "timestamp(ms,utc)", "timestamp(us,utc)", "timestamp(ns,utc)", "int96", "string", "binary",
    "fixed(16)", "fixed(3)", "uuid"};

bb_parquet_column Type(const std::string& name) {
  bb_parquet_column t{};
  t.struct_size = sizeof t;
  EXPECT_EQ(bb_parquet_type_parse(name.data(), name.size(), &t), BB_OK) << name;
  return t;
}

// The scalar rule for row i of r into t: BB_OK (*hash), BB_VALUE_NOT_IN_TYPE or an error.
int ScalarRule(const bb_parquet_column& t, const Rows& r, std::size_t i, uint64_t* hash) {
  const Scalar& v = r.values[i];
  const void* p = nullptr;
  std::size_t len = 0;
  switch (r.source.kind) {
    case BB_VALUE_UINT: p = &v.u; break;
    case BB_VALUE_FLOAT: p = &v.d; break;
    case BB_VALUE_TEXT:
    case BB_VALUE_BYTES:
    case BB_VALUE_DECIMAL:
      p = v.bytes.data();
      len = v.bytes.size();
      break;
    default: p = &v.i; break;
  }
  // A DECIMAL scalar is its text: scale and precision 0.
  bb_value_source src = r.source;
  if (src.kind == BB_VALUE_DECIMAL) src.scale = src.precision = 0;
  char why[BB_PARQUET_VALUE_ERROR_MAX];
  return bb_parquet_hash_typed_value(&t, &src, p, len, 0, hash, why, sizeof why);
}

class Filter {
 public:
  Filter() { EXPECT_EQ(bb_filter_init(&f_, 8192), BB_OK); }
  ~Filter() { bb_filter_release(&f_); }
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;
  bb_filter* get() { return &f_; }
  Bytes bytes() const { return Bytes(f_.data, f_.data + f_.num_bytes); }
  bool empty() const { return bytes() == Bytes(f_.num_bytes, 0); }

 private:
  bb_filter f_{};
};

// What the scalar rule says of rows r into type t, and that the adapter agrees.
void ExpectTheScalarRule(const Rows& r, const bb_parquet_column& t) {
  const std::size_t n = r.values.size();
  Filter want;
  std::vector<bool> in_type(n, false);
  int error = BB_OK;
  std::size_t first_outside = n;  // the first valid row whose value is not of the type
  for (std::size_t i = 0; i < n; ++i) {
    if (!r.valid[i]) continue;
    uint64_t hash = 0;
    const int st = ScalarRule(t, r, i, &hash);
    if (st < 0 && error == BB_OK) error = st;
    if (st == BB_VALUE_NOT_IN_TYPE && first_outside == n) first_outside = i;
    if (st == BB_OK) {
      ASSERT_EQ(bb_insert(want.get(), hash), BB_OK);
      in_type[i] = true;
    }
  }
  Filter got;
  std::string why;
  const int inserted = blockbloom::arrow::insert(got.get(), &t, &r.array->schema, &r.array->array, &why);
  Bytes bitmap((n + 7) / 8, 0xEE);
  std::size_t hits = 0;
  std::string find_why;
  const int found = blockbloom::arrow::find_bitmap(want.get(), &t, &r.array->schema, &r.array->array,
                                                   bitmap.data(), &hits, &find_why);
  if (error != BB_OK) {
    EXPECT_EQ(inserted, error) << why;
    EXPECT_EQ(found, error) << find_why;
    EXPECT_TRUE(got.empty()) << "refused but inserted";
    const Arrow& values = r.array->dictionary ? *r.array->dictionary : *r.array;
    EXPECT_NE(why.find("Arrow format '" + values.format + "'"), std::string::npos) << why;
    return;
  }
  ASSERT_EQ(found, BB_OK) << find_why;
  if (first_outside < n) {  // inserting would lose that row: refused, nothing inserted
    EXPECT_EQ(inserted, BB_ERR_VALUE_RANGE) << why;
    EXPECT_TRUE(got.empty()) << "refused but inserted";
    EXPECT_NE(why.find("row " + std::to_string(first_outside) + " "), std::string::npos) << why;
    EXPECT_NE(why.find("Arrow format '"), std::string::npos) << why;
  } else {
    ASSERT_EQ(inserted, BB_OK) << why;
    EXPECT_EQ(got.bytes(), want.bytes()) << "a row hashed otherwise than the scalar rule";
  }
  std::size_t expected_hits = 0;
  for (std::size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(((bitmap[i / 8] >> (i % 8)) & 1) != 0, in_type[i]);
    expected_hits += in_type[i] ? 1 : 0;
  }
  EXPECT_EQ(hits, expected_hits);
}

TEST(ArrowMatrix, EveryFormatIntoEveryTypeFollowsTheScalarRule) {
  const uint16_t one = 1;
  uint8_t first_byte;
  std::memcpy(&first_byte, &one, 1);
  ASSERT_EQ(first_byte, 1) << "the arrays below are built little-endian";
  const std::vector<Rows> all = AllRows();
  std::size_t converted = 0, refused = 0;
  for (const Rows& r : all) {
    SCOPED_TRACE(r.name);
    for (const char* name : kTypes) {
      SCOPED_TRACE(name);
      const bb_parquet_column t = Type(name);
      ExpectTheScalarRule(r, t);
      uint64_t h;
      (ScalarRule(t, r, 0, &h) < 0 ? refused : converted) += 1;
    }
  }
  // The matrix has both outcomes in bulk (not all refused by a broken setup).
  EXPECT_GT(converted, 200u);
  EXPECT_GT(refused, 200u);
}

// Without a type, each array goes into the type Arrow's Parquet writer
// stores it as (written out here), by the same rule.
TEST(ArrowMatrix, WithoutATypeAnArrayTakesTheTypeArrowsParquetWriterStores) {
  struct Case {
    const char* format;
    const char* type;
  };
  const Case cases[] = {{"c", "int8"}, {"S", "uint16"}, {"I", "uint32"}, {"l", "int64"}, {"L", "uint64"},
                        {"e", "float16"}, {"f", "float"}, {"g", "double"}, {"tdD", "date"}, {"tdm", "date"},
                        {"tts", "time(ms)"}, {"ttm", "time(ms)"}, {"ttu", "time(us)"}, {"ttn", "time(ns)"},
                        {"tss:", "timestamp(ms)"}, {"tsm:", "timestamp(ms)"}, {"tsu:", "timestamp(us)"},
                        {"tsn:", "timestamp(ns)"}, {"tss:UTC", "timestamp(ms,utc)"},
                        {"tsu:Asia/Tokyo", "timestamp(us,utc)"}, {"d:9,2,32", "decimal(9,2,fixed(4))"},
                        {"d:18,4,64", "decimal(18,4,fixed(8))"}, {"d:38,10", "decimal(38,10,fixed(16))"},
                        {"d:9,2,128", "decimal(9,2,fixed(4))"},
{"u", "string"}, {"vu", "string"}, {"z", "binary"},
                        {"Z", "binary"}, {"w:16", "fixed(16)"}, {"w:3", "fixed(3)"}};
  const std::vector<Rows> all = AllRows();
  std::size_t inserted = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.format);
    const Rows* rows = nullptr;
    for (const Rows& r : all) {
      if (r.name == c.format) rows = &r;
    }
    ASSERT_NE(rows, nullptr);
    const bb_parquet_column want = Type(c.type);
    bb_parquet_column got{};
    got.struct_size = sizeof got;
    ASSERT_EQ(blockbloom::arrow::parquet_type_of(&rows->array->schema, &got), BB_OK);
    EXPECT_EQ(got.physical_type, want.physical_type);
    EXPECT_EQ(got.type_length, want.type_length);
    EXPECT_EQ(got.logical_type, want.logical_type);
    EXPECT_EQ(got.time_unit, want.time_unit);
    EXPECT_EQ(got.is_adjusted_to_utc, want.is_adjusted_to_utc);
    EXPECT_EQ(got.scale, want.scale);
    EXPECT_EQ(got.precision, want.precision);
    EXPECT_EQ(got.bit_width, want.bit_width);
    EXPECT_EQ(got.is_signed, want.is_signed);
    Filter untyped, typed;
    std::string why;
    const int own = blockbloom::arrow::insert(untyped.get(), &rows->array->schema, &rows->array->array, &why);
    EXPECT_EQ(blockbloom::arrow::insert(typed.get(), &want, &rows->array->schema, &rows->array->array), own);
    EXPECT_EQ(untyped.bytes(), typed.bytes());
    if (own == BB_OK) {
      ++inserted;
      EXPECT_FALSE(untyped.empty());
    } else {  // a row out of even its own type (a date64 past int32 days, ...): refused whole
      EXPECT_EQ(own, BB_ERR_VALUE_RANGE) << why;
      EXPECT_TRUE(untyped.empty());
    }
  }
  EXPECT_GT(inserted, 20u);
  // Past 38 digits the library writes no DECIMAL of its own: such an array needs a type.
  const Rows wide = Decimals(40, 5, 256);
  Filter f;
  std::string why;
  EXPECT_EQ(blockbloom::arrow::insert(f.get(), &wide.array->schema, &wide.array->array, &why), BB_ERR_VALUE_KIND);
  EXPECT_NE(why.find("Arrow format 'd:40,5,256'"), std::string::npos) << why;
  EXPECT_TRUE(f.empty());
}

// An Arrow array of counts in `format` for the instants of `ms` milliseconds
// (each divisible as the unit needs).
std::unique_ptr<Arrow> Instants(const std::string& format, const std::vector<int64_t>& ms, int64_t per_ms_num,
                                int64_t per_ms_den, std::size_t width) {
  const std::vector<bool> valid = EveryFourthNull(ms.size());
  Bytes data(ms.size() * width, 0);
  for (std::size_t i = 0; i < ms.size(); ++i) {
    const int64_t v = ms[i] * per_ms_num / per_ms_den;
    std::memcpy(data.data() + i * width, &v, width);
  }
  return FixedArrow(format, data, width, valid);
}

TEST(ArrowMatrix, SecondsHashAsTheMillisecondsArrowsParquetWriterStores) {
  const std::vector<int64_t> ms = {0, 1000, -1000, 1700000000000, 86400000, -86400000 * int64_t{365}, 5000};
  for (const char* zone : {"", "UTC"}) {
    SCOPED_TRACE(zone);
    const auto seconds = Instants(std::string("tss:") + zone, ms, 1, 1000, 8);
    const auto millis = Instants(std::string("tsm:") + zone, ms, 1, 1, 8);
    const auto micros = Instants(std::string("tsu:") + zone, ms, 1000, 1, 8);
    Filter s, m;
    ASSERT_EQ(blockbloom::arrow::insert(s.get(), &seconds->schema, &seconds->array), BB_OK);
    ASSERT_EQ(blockbloom::arrow::insert(m.get(), &millis->schema, &millis->array), BB_OK);
    EXPECT_EQ(s.bytes(), m.bytes());
    EXPECT_FALSE(s.empty());
    // Into a typed filter of any unit, seconds, milliseconds and microseconds agree.
    for (const char* unit : {"ms", "us", "ns"}) {
      SCOPED_TRACE(unit);
      const bb_parquet_column t = Type(std::string("timestamp(") + unit + (zone[0] ? ",utc)" : ")"));
      Filter a, b, c;
      ASSERT_EQ(blockbloom::arrow::insert(a.get(), &t, &seconds->schema, &seconds->array), BB_OK);
      ASSERT_EQ(blockbloom::arrow::insert(b.get(), &t, &millis->schema, &millis->array), BB_OK);
      ASSERT_EQ(blockbloom::arrow::insert(c.get(), &t, &micros->schema, &micros->array), BB_OK);
      EXPECT_EQ(a.bytes(), b.bytes());
      EXPECT_EQ(a.bytes(), c.bytes());
    }
  }
  // time32[s] and time32[ms] of the same times of day.
  const std::vector<int64_t> day_ms = {0, 1000, 45296000, 86399000};
  const auto tts = Instants("tts", day_ms, 1, 1000, 4);
  const auto ttm = Instants("ttm", day_ms, 1, 1, 4);
  Filter s, m;
  ASSERT_EQ(blockbloom::arrow::insert(s.get(), &tts->schema, &tts->array), BB_OK);
  ASSERT_EQ(blockbloom::arrow::insert(m.get(), &ttm->schema, &ttm->array), BB_OK);
  EXPECT_EQ(s.bytes(), m.bytes());
}

TEST(ArrowMatrix, Decimal128IntoAFixedDecimalColumnIsTheTextRulesBytes) {
  const Rows r = Decimals(38, 10, 128, true);
  const bb_parquet_column t = Type("decimal(38,10)");
  ASSERT_EQ(t.physical_type, BB_PARQUET_FIXED_LEN_BYTE_ARRAY);
  ASSERT_EQ(t.type_length, 16);
  Filter by_text, by_arrow;
  for (std::size_t i = 0; i < r.values.size(); ++i) {
    if (!r.valid[i]) continue;
    uint64_t h = 0;
    char why[BB_PARQUET_VALUE_ERROR_MAX];
    const std::string& text = r.values[i].bytes;
    ASSERT_EQ(bb_parquet_hash_text(&t, text.data(), text.size(), 0, &h, why, sizeof why), BB_OK) << text << why;
    ASSERT_EQ(bb_insert(by_text.get(), h), BB_OK);
  }
  ASSERT_EQ(blockbloom::arrow::insert(by_arrow.get(), &t, &r.array->schema, &r.array->array), BB_OK);
  EXPECT_EQ(by_arrow.bytes(), by_text.bytes());
  EXPECT_FALSE(by_arrow.empty());
  // And without a type: the same column type, so the same filter.
  Filter untyped;
  ASSERT_EQ(blockbloom::arrow::insert(untyped.get(), &r.array->schema, &r.array->array), BB_OK);
  EXPECT_EQ(untyped.bytes(), by_text.bytes());
}

// Text rows are converted by the text rules: a typo is an error (not
// "absent"), found in any chunk before anything is inserted, named by its row
// in the array.
TEST(ArrowMatrix, ATextRowTheTypeRefusesStopsTheInsertBeforeAnyRowIsInserted) {
  std::vector<std::string> texts(5000);
  for (std::size_t i = 0; i < texts.size(); ++i) texts[i] = std::to_string(i * 3);
  texts[4500] = "4500x";
  for (const char* format : {"u", "vu"}) {
    SCOPED_TRACE(format);
    const Rows r = Strings(format, BB_VALUE_TEXT, texts);
    const bb_parquet_column t = Type("int32");
    Filter f;
    std::string why;
    EXPECT_EQ(blockbloom::arrow::insert(f.get(), &t, &r.array->schema, &r.array->array, &why), BB_ERR_VALUE_SYNTAX);
    EXPECT_TRUE(f.empty()) << "rows of the first chunk inserted";
    EXPECT_NE(why.find("row 4500:"), std::string::npos) << why;
    EXPECT_NE(why.find("Arrow format '" + std::string(format) + "'"), std::string::npos) << why;
  }
}

TEST(ArrowMatrix, SelectionsAreTheBitmapsRows) {
  const std::vector<Rows> all = AllRows();
  for (const Rows& r : all) {
    SCOPED_TRACE(r.name);
    for (const char* name : {"int64", "decimal(18,4)", "timestamp(us)", "string"}) {
      const bb_parquet_column t = Type(name);
      Filter f;
      if (blockbloom::arrow::insert(f.get(), &t, &r.array->schema, &r.array->array) != BB_OK) continue;
      const std::size_t n = r.values.size();
      Bytes bitmap((n + 7) / 8, 0);
      std::vector<uint32_t> selection(n, 0);
      std::size_t bits = 0, selected = 0;
      ASSERT_EQ(blockbloom::arrow::find_bitmap(f.get(), &t, &r.array->schema, &r.array->array, bitmap.data(), &bits),
                BB_OK);
      ASSERT_EQ(blockbloom::arrow::find_select(f.get(), &t, &r.array->schema, &r.array->array, selection.data(),
                                               &selected),
                BB_OK);
      ASSERT_EQ(bits, selected);
      std::vector<uint32_t> from_bitmap;
      for (uint32_t i = 0; i < n; ++i) {
        if ((bitmap[i / 8] >> (i % 8)) & 1) from_bitmap.push_back(i);
      }
      selection.resize(selected);
      EXPECT_EQ(selection, from_bitmap);
    }
  }
}

// A typed insert whose valid row is no value of the type would lose it: the
// insert is refused whole (its row and format named), nothing inserted; a
// null row's bytes (0xAB.., far outside INT8) refuse nothing; a probe
// answers 0 for the rows outside.
TEST(ArrowMatrix, AnInsertWithARowOutsideTheTypeIsRefusedWhole) {
  const bb_parquet_column int8 = Type("int8");
  const Rows outside = Ints("l", 64, {5, 300, 7, 9, -1000, 42});  // row 2 null
  Filter f;
  std::string why;
  EXPECT_EQ(blockbloom::arrow::insert(f.get(), &int8, &outside.array->schema, &outside.array->array, &why),
            BB_ERR_VALUE_RANGE);
  EXPECT_TRUE(f.empty());
  EXPECT_NE(why.find("Arrow format 'l'"), std::string::npos) << why;
  EXPECT_NE(why.find("row 1 "), std::string::npos) << why;
  const Rows inside = Ints("l", 64, {5, -3, 7, 9, 42});  // row 2 null
  ASSERT_EQ(blockbloom::arrow::insert(f.get(), &int8, &inside.array->schema, &inside.array->array, &why), BB_OK)
      << why;
  EXPECT_FALSE(f.empty());
  uint8_t bitmap = 0xEE;
  std::size_t hits = 0;
  ASSERT_EQ(blockbloom::arrow::find_bitmap(f.get(), &int8, &outside.array->schema, &outside.array->array, &bitmap,
                                           &hits),
            BB_OK);
  EXPECT_EQ(bitmap, 0x29);  // rows 0 (5), 3 (9), 5 (42)
  EXPECT_EQ(hits, 3u);
}

}  // namespace
