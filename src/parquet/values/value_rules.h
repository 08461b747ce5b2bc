// SPDX-License-Identifier: Apache-2.0
// What each Parquet column type's values are: the one description of a type
// (its kind, stored width, integer range, decimal precision and scale, time
// unit, UTC adjustment) that the text rule (value_text.cc) and the typed-value
// rule (value_convert.cc) both read, and the encoders of stored bytes they
// share.
#ifndef BLOCKBLOOM_PARQUET_VALUES_VALUE_RULES_H_
#define BLOCKBLOOM_PARQUET_VALUES_VALUE_RULES_H_

#include <cstdint>
#include <string>

#include "src/parquet/values/value_parse.h"
#include "blockbloom/parquet_value.h"

namespace blockbloom::internal::parquet_value {

constexpr int64_t kJulian1970 = 2440588;  // the Julian day of 1970-01-01 (INT96)
constexpr int kMaxPrecision = 38;         // the widest DECIMAL this library writes

enum class Kind {
  kUnsupported, kInteger, kFloat, kDouble, kFloat16, kDecimal, kDate, kTime, kTimestamp,
  kInt96, kUuid, kInterval, kBytes
};

// What a type's text is and becomes.
struct Rules {
  Kind kind = Kind::kUnsupported;
  std::string why;   // kUnsupported: why
  int width = 0;     // bytes of the stored value (0: any, BYTE_ARRAY)
  int physical = 0;
  Int128 min = 0, max = 0;  // kInteger
  int precision = 0, scale = 0;
  int digits = 0;    // kTime, kTimestamp, kInt96: fraction digits of the unit
  bool utc = false;  // kTime, kTimestamp: isAdjustedToUTC
  bool hex = false;
};

// Fraction digits of a BB_PARQUET_UNIT_* (3, 6, 9), 0 for anything else.
int UnitDigits(int unit);

// The rules of a column's values written with `flags` (BB_PARQUET_TEXT_*):
// the annotation's, or with PHYSICAL (HEX on a byte type, FLOAT or DOUBLE) the physical
// type's. kind kUnsupported (with why) for a type that cannot be hashed or
// an unknown flag.
Rules RulesFor(const bb_parquet_column& c, uint32_t flags);

// [-]digits of v.
std::string IntText(Int128 v);

// The low `width` bytes of v, little-endian.
void PutLittle(UInt128 v, int width, std::string* out);

// A DECIMAL's unscaled value as the column stores it: INT32 / INT64
// little-endian, FIXED_LEN_BYTE_ARRAY big-endian two's complement of the
// column's length (sign-extended), BYTE_ARRAY the fewest big-endian bytes.
// BB_ERR_VALUE_RANGE when v does not fit the column's bytes.
int PutUnscaled(const Rules& r, Int128 v, std::string* out, std::string* why);

// bb_parquet_encode_text's work (value_text.cc): the bytes of text into
// *bytes, or the code with the phrase in *why; for callers that keep the
// bytes, without a buffer of the text's size between them and the rule.
int EncodeText(const bb_parquet_column* type, const char* text, size_t len, uint32_t flags,
               std::string* bytes, std::string* why);

}  // namespace blockbloom::internal::parquet_value

#endif  // BLOCKBLOOM_PARQUET_VALUES_VALUE_RULES_H_
