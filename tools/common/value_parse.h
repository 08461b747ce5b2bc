// SPDX-License-Identifier: Apache-2.0
// The typed values of `--hash xxh64|fasthash32 --type T` input lines (and the
// tools' floating-point flags), by the library's one rule for values as text:
// bb_parquet_encode_text of a plain INT32 / INT64 / FLOAT / DOUBLE column
// (blockbloom/parquet_value.h, docs/formats.md "Values as text"), so a value
// the tool accepts is exactly one `parquet probe`, the Python package and an
// engine calling the library accept, with the same bits. In short:
//
// - int32, int64: [-]digits in the type's range; no '+', no leading zeros,
//   no "-0" (int32: -2147483648 .. 2147483647).
// - float, double: a decimal or hex floating-point number ("1.5", "-2e10",
//   "0x1.8p1"), "nan", "inf", "infinity" (any case, with a sign); "-nan" is
//   the quiet NaN with the sign bit set. A finite literal that overflows the
//   type (1e39 as a float) or underflows to zero (1e-50 as a float) is out of
//   range; subnormal results are kept. "nan(...)" with a payload is refused:
//   its bits are not portable.
//
// No locale, no exceptions. Every parser first applies TrimLine
// (number_parse.h): one trailing '\r', then the spaces and tabs around the
// text; that is the tool's line handling, not part of the value rule.
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
