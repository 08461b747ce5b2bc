// SPDX-License-Identifier: Apache-2.0
// Strict parsers for the typed values of `--hash xxh64|fasthash32 --type T`
// input lines. No exceptions, no locale (the tool never calls setlocale, so
// the C locale's '.' is the decimal point), nothing silently rounded into a
// different integer or clamped.
//
// - int32, int64: decimal digits with an optional leading '-' or '+'. The
//   value must fit the type (int32: -2147483648 .. 2147483647).
// - float, double: what strtof / strtod accept, and the whole text must be
//   consumed: "1.5", "-2e10", "0x1.8p1", and also "inf", "-inf", "infinity"
//   and "nan" (any case; "nan" is the positive quiet NaN, 0x7fc00000 as a
//   float and 0x7ff8000000000000 as a double, "-nan" the same with the sign
//   bit set). A finite literal whose magnitude overflows the type (1e39 as a
//   float) or that underflows to zero (1e-50 as a float) is out of range;
//   results that are subnormal are kept, rounded as strtof/strtod round.
//   "nan(...)" with a payload is rejected: its bits are not portable.
//
// Every parser first applies TrimLine (number_parse.h): one trailing '\r',
// then the spaces and tabs around the text.
#ifndef BLOCKBLOOM_TOOLS_COMMON_VALUE_PARSE_H_
#define BLOCKBLOOM_TOOLS_COMMON_VALUE_PARSE_H_

#include <cstdint>
#include <string_view>

namespace blockbloom_tools {

enum class ValueStatus {
  kOk,
  kEmpty,       // nothing but blanks
  kInvalid,     // not a number of that type at all ("12x", "abc", "1.5" as int)
  kOutOfRange,  // a number, but not representable in the type
};

ValueStatus ParseInt32(std::string_view text, std::int32_t* value);
ValueStatus ParseInt64(std::string_view text, std::int64_t* value);
ValueStatus ParseFloat(std::string_view text, float* value);
ValueStatus ParseDouble(std::string_view text, double* value);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_VALUE_PARSE_H_
