// SPDX-License-Identifier: Apache-2.0
// Two decisions of the value-text rules (docs/formats.md, "Which error"):
// - a text with two faults, one of form and one of range, is a syntax error
//   (a text not of the type's form is a syntax error whatever its numbers;
//   the range is checked only for well-formed text), for every type that
//   has both kinds of error; each row also shows that each fault alone gives
//   its own code, so a row cannot pass by accident;
// - a UTC offset applies before the range check: a timestamp whose instant
//   falls before 0001-01-01T00:00:00Z or after 9999-12-31T23:59:59.999...Z
//   is a range error, whatever its wall clock reads.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "blockbloom/parquet_value.h"

namespace {

bb_parquet_column TypeNamed(const char* name) {
  bb_parquet_column t;
  std::memset(&t, 0, sizeof t);
  t.struct_size = sizeof t;
  EXPECT_EQ(bb_parquet_type_parse(name, std::strlen(name), &t), BB_OK) << name;
  return t;
}

int Encode(const char* type, const std::string& text, std::string* bytes = nullptr) {
  const bb_parquet_column t = TypeNamed(type);
  uint8_t out[64];
  size_t n = 0;
  char why[BB_PARQUET_VALUE_ERROR_MAX];
  const int rc = bb_parquet_encode_text(&t, text.data(), text.size(), 0, out, sizeof out, &n, why,
                                        sizeof why);
  if (bytes != nullptr && rc == BB_OK) bytes->assign(reinterpret_cast<char*>(out), n);
  return rc;
}

struct TwoFaults {
  const char* type;
  const char* both;         // a fault of form and one of range
  const char* form_fault;   // the fault of form alone
  const char* range_fault;  // the fault of range alone
};

const TwoFaults kTwoFaults[] = {
    // date
    {"date", "2024/13/01", "2024/01/01", "2024-13-01"},
    {"date", "0000-01-0x", "2024-01-0x", "0000-01-01"},
    {"date", "24-01-01 BC", "24-01-01", "0024-01-01 BC"},
    {"date", "2024-02-30x", "2024-02-03x", "2024-02-30"},
    // time: the clock's form is read before the zone's range
    {"time(ms,utc)", "1x:00:00+24:00", "1x:00:00+01:00", "12:00:00+24:00"},
    {"time(ms)", "24:00:00.0001", "12:00:00.0001", "24:00:00"},
    {"time(us,utc)", "12:60:00+05:3", "12:00:00+05:3", "12:60:00+05:30"},
    {"time(us)", "25:00:00Z", "12:00:00Z", "25:00:00"},
    // timestamp: the date's range no longer wins over the clock's form
    {"timestamp(us,utc)", "2024-13-01 1x:00:00", "2024-01-01 1x:00:00", "2024-13-01 12:00:00"},
    {"timestamp(us)", "2024-02-30T12:00:00.1234567", "2024-02-03T12:00:00.1234567",
     "2024-02-30T12:00:00.123456"},
    {"timestamp(ms,utc)", "2024-01-01 12:00 BC", "2024-01-01 12:00", "2024-01-01 12:00:00 BC"},
    {"timestamp(ms,utc)", "2024-01-01 24:00:00 Europe/Berlin", "2024-01-01 12:00:00 Europe/Berlin",
     "2024-01-01 24:00:00"},
    {"timestamp(ns)", "2300-01-01 12:00:00Z", "2000-01-01 12:00:00Z", "2300-01-01 12:00:00"},
    {"timestamp(us,utc)", "0001-01-01T00:30:00+01:0", "0001-01-01T01:30:00+01:0",
     "0001-01-01T00:30:00+01:00"},
    {"int96", "2024-13-01 12:00:00+01:00", "2024-01-01 12:00:00+01:00", "2024-13-01 12:00:00"},
    // decimal: digits past the scale are a fault of form
    {"decimal(4,1)", "99999.55", "1.55", "99999"},
    {"decimal(9,2)", "1E+999999999x", "1E+9x", "1E+999999999"},
    {"decimal(9,2)", "+12345678901", "+1", "12345678901"},
    {"decimal(2,0,fixed(1))", "-0100", "-010", "-100"},
    // integers
    {"int8", "+128", "+12", "128"},
    {"int8", "0128", "012", "128"},
    {"uint32", "4294967296 ", "42 ", "4294967296"},
    {"uint8", "-1.0", "1.0", "-1"},
    {"int64", "9223372036854775808x", "9x", "9223372036854775808"},
    // interval: a negative part or a field past 59 no longer wins over the form
    {"interval", "-1 days x", "1 days x", "-1 days"},
    {"interval", "-P1D ", "P1D ", "-P1D"},
    {"interval", "00:60:00.5x", "00:00:00.5x", "00:60:00"},
    {"interval", "4294967296 months 1 fortnight", "1 months 1 fortnight", "4294967296 months"},
    // floating point
    {"double", "1e400x", "1e4x", "1e400"},
    {"float16", "65520,", "6552,", "65520"},
};

TEST(ValueTextOrder, AFormFaultIsASyntaxErrorWhateverTheRangeFault) {
  for (const TwoFaults& row : kTwoFaults) {
    SCOPED_TRACE(std::string(row.type) + " '" + row.both + "'");
    EXPECT_EQ(Encode(row.type, row.form_fault), BB_ERR_VALUE_SYNTAX) << row.form_fault;
    EXPECT_EQ(Encode(row.type, row.range_fault), BB_ERR_VALUE_RANGE) << row.range_fault;
    EXPECT_EQ(Encode(row.type, row.both), BB_ERR_VALUE_SYNTAX);
  }
}

TEST(ValueTextOrder, UuidRefusalsAreAllOfForm) {
  // Every 16 bytes are a UUID: a UUID text has no range error to order.
  for (const char* text : {"123e4567-e89b-12d3-a456-42661417400g", "{123e4567e89b12d3a456426614174000}",
                           "urn:uuid:123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-4266141740001",
                           "123e4567-e89b-12d3-a456-42661417400", " 123e4567-e89b-12d3-a456-426614174000"}) {
    EXPECT_EQ(Encode("uuid", text), BB_ERR_VALUE_SYNTAX) << text;
  }
  EXPECT_EQ(Encode("uuid", "{123E4567-E89B-12D3-A456-426614174000}"), BB_OK);
}

std::string Le64(int64_t v) {
  std::string s;
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>(static_cast<uint64_t>(v) >> (8 * i)));
  return s;
}

// 0001-01-01T00:00:00Z and 9999-12-31T00:00:00Z in seconds since 1970
// (day numbers -719162 and 2932896).
constexpr int64_t kFirstSecond = int64_t{-719162} * 86400;
constexpr int64_t kLastDaySecond = int64_t{2932896} * 86400;

TEST(ValueTextOrder, TheYearRangeIsTheUtcInstants) {
  // Before: these read as their wall clock's year and were accepted.
  EXPECT_EQ(Encode("timestamp(us,utc)", "0001-01-01T00:30:00+01:00"), BB_ERR_VALUE_RANGE);
  EXPECT_EQ(Encode("timestamp(ms,utc)", "0001-01-01 00:00:00+00:00:01"), BB_ERR_VALUE_RANGE);
  EXPECT_EQ(Encode("timestamp(us,utc)", "9999-12-31T23:30:00-01:00"), BB_ERR_VALUE_RANGE);
  EXPECT_EQ(Encode("timestamp(ms,utc)", "9999-12-31 23:59:59.999 -00:00:01"), BB_ERR_VALUE_RANGE);
  // The refusal names the rule.
  const bb_parquet_column t = TypeNamed("timestamp(us,utc)");
  uint8_t out[8];
  size_t n = 0;
  char why[BB_PARQUET_VALUE_ERROR_MAX];
  ASSERT_EQ(bb_parquet_encode_text(&t, "0001-01-01T00:30:00+01:00", 25, 0, out, sizeof out, &n, why,
                                   sizeof why),
            BB_ERR_VALUE_RANGE);
  EXPECT_NE(std::string(why).find("converted to UTC"), std::string::npos) << why;

  // The first and last instants are accepted, whatever offset names them.
  std::string bytes;
  ASSERT_EQ(Encode("timestamp(us,utc)", "0001-01-01T01:00:00+01:00", &bytes), BB_OK);
  EXPECT_EQ(bytes, Le64(kFirstSecond * 1000000));
  ASSERT_EQ(Encode("timestamp(us,utc)", "0001-01-01 00:00:00-00:30", &bytes), BB_OK);
  EXPECT_EQ(bytes, Le64((kFirstSecond + 1800) * 1000000));
  ASSERT_EQ(Encode("timestamp(ms,utc)", "9999-12-31T22:59:59.999-01:00", &bytes), BB_OK);
  EXPECT_EQ(bytes, Le64((kLastDaySecond + 86399) * 1000 + 999));
  ASSERT_EQ(Encode("timestamp(us,utc)", "9999-12-31T23:59:59.999999+00:30", &bytes), BB_OK);
  EXPECT_EQ(bytes, Le64((kLastDaySecond + 86399 - 1800) * 1000000 + 999999));

  // A local timestamp has no offset: its wall clock is its value.
  ASSERT_EQ(Encode("timestamp(us)", "0001-01-01 00:30:00", &bytes), BB_OK);
  EXPECT_EQ(bytes, Le64((kFirstSecond + 1800) * 1000000));
  // A TIME has no date: an offset wraps it within the day (00:30+01:00 is 23:30).
  ASSERT_EQ(Encode("time(us,utc)", "00:30:00+01:00", &bytes), BB_OK);
  EXPECT_EQ(bytes, Le64(int64_t{23 * 3600 + 30 * 60} * 1000000));
}

}  // namespace
