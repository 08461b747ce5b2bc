// SPDX-License-Identifier: Apache-2.0
// The typed-value rule: a value of a source kind (bb_value_source) into the
// bytes a column's type stores, by the table of parquet_value.h and
// docs/formats.md ("Values into a typed filter"). value_convert.cc holds the
// table; value_column.cc runs it over a bb_column, with fast paths for the
// conversions that are integer arithmetic.
#ifndef BLOCKBLOOM_PARQUET_VALUES_VALUE_CONVERT_H_
#define BLOCKBLOOM_PARQUET_VALUES_VALUE_CONVERT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "src/parquet/values/value_rules.h"
#include "blockbloom/parquet_value.h"

namespace blockbloom::internal::parquet_value {

// An exact decimal number: -1^negative * digits * 10^exponent, digits without
// leading or trailing zeros ("" for zero, which keeps the sign it was written
// with: -0 is -0.0 in a float type, 0 in an integer or DECIMAL one).
struct Exact {
  bool negative = false;
  std::string digits;
  int64_t exponent = 0;
};

// "[-]digits[.digits][(e|E)[+-]digits]" (Python's str(Decimal) of a finite
// value): false if s is not of that form.
bool ExactFromText(std::string_view s, Exact* e);

// An integer, or a little-endian two's complement of n bytes, times 10^-scale.
Exact ExactFromInteger(Int128 v, int scale);
Exact ExactFromTwosComplement(const uint8_t* bytes, size_t n, int scale);

// A type and what the caller's values are, checked once for a value or a
// column: rc BB_OK, or the table's refusal (BB_ERR_VALUE_KIND,
// BB_ERR_VALUE_AMBIGUOUS) or BB_ERR_PARQUET_UNSUPPORTED with why.
struct Plan {
  int rc = BB_OK;
  std::string why;
  Rules rules;              // the type's rules (flags' PHYSICAL applied, HEX not)
  bb_parquet_column type{};
  bb_value_source src{};
  uint32_t flags = 0;
  int target_unit = 0;      // kTime, kTimestamp, kInt96: BB_PARQUET_UNIT_*
};
Plan MakePlan(const bb_parquet_column& type, const bb_value_source& src, uint32_t flags);

// One value of plan.src's kind. Which member is read follows the kind: i for
// INT, DATE, TIMESTAMP, TIME; u for UINT; d for FLOAT; exact for DECIMAL;
// bytes for TEXT and BYTES.
struct Value {
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  const Exact* exact = nullptr;
  std::string_view bytes;
};

// The value's stored bytes into *out (cleared first) for a plan whose rc is
// BB_OK: BB_OK, BB_VALUE_NOT_IN_TYPE, or for TEXT the text rule's error with
// the phrase in *why.
int Convert(const Plan& plan, const Value& v, std::string* out, std::string* why);

// A DECIMAL source held as v * 10^-scale (an Arrow decimal128 or an integer
// column) into a DECIMAL type (plan.rules.kind kDecimal), as Convert would
// with the same value as an Exact, by Int128 arithmetic: BB_OK or
// BB_VALUE_NOT_IN_TYPE.
int RescaledInto(const Plan& plan, Int128 v, int scale, std::string* out);

// "an integer", "a tz-aware (UTC) timestamp", ...: the source kind in words.
std::string SourceWords(const bb_value_source& src);

// The units per second of BB_PARQUET_UNIT_* / BB_VALUE_UNIT_SECONDS (0 for
// anything else).
int64_t PerSecond(int unit);

// NUL-terminated into error[0 .. capacity) (nothing if error is NULL or
// capacity is 0), cut to fit.
void SayError(const std::string& s, char* error, size_t capacity);

}  // namespace blockbloom::internal::parquet_value

#endif  // BLOCKBLOOM_PARQUET_VALUES_VALUE_CONVERT_H_
