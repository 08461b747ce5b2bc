// SPDX-License-Identifier: Apache-2.0
#include "tools/common/value_parse.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

#include "tools/common/number_parse.h"

namespace blockbloom_tools {
namespace {

// Decimal digits with an optional sign, into [min, max].
ValueStatus ParseSigned(std::string_view text, std::int64_t min, std::int64_t max,
                        std::int64_t* value) {
  text = TrimLine(text);
  if (text.empty()) return ValueStatus::kEmpty;
  bool negative = false;
  if (text[0] == '-' || text[0] == '+') {
    negative = text[0] == '-';
    text.remove_prefix(1);
    if (text.empty()) return ValueStatus::kInvalid;
  }
  // Accumulate the magnitude as unsigned: |min| is one more than max.
  const std::uint64_t limit = negative ? static_cast<std::uint64_t>(-(min + 1)) + 1
                                       : static_cast<std::uint64_t>(max);
  std::uint64_t magnitude = 0;
  bool out_of_range = false;
  for (char c : text) {
    if (c < '0' || c > '9') return ValueStatus::kInvalid;  // junk wins over range
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (magnitude > (limit - digit) / 10) {
      out_of_range = true;
    } else {
      magnitude = magnitude * 10 + digit;
    }
  }
  if (out_of_range) return ValueStatus::kOutOfRange;
  if (negative) {
    // magnitude <= |min|: -(magnitude - 1) - 1 never overflows.
    *value = magnitude == 0 ? 0 : -static_cast<std::int64_t>(magnitude - 1) - 1;
  } else {
    *value = static_cast<std::int64_t>(magnitude);
  }
  return ValueStatus::kOk;
}

// True if text looks like "nan(...)": no other number contains a '('.
bool IsNanWithPayload(const std::string& text) { return text.find('(') != std::string::npos; }

// strtof or strtod on the trimmed text, with the rules in value_parse.h.
template <typename T>
ValueStatus ParseFloating(std::string_view view, T* value) {
  view = TrimLine(view);
  if (view.empty()) return ValueStatus::kEmpty;
  const std::string text(view);  // NUL-terminated for strtod
  // strtod would skip other leading white space ('\v', '\f', '\n').
  if (std::isspace(static_cast<unsigned char>(text[0]))) return ValueStatus::kInvalid;
  if (IsNanWithPayload(text)) return ValueStatus::kInvalid;
  errno = 0;
  char* end = nullptr;
  T result;
  if constexpr (std::is_same_v<T, float>) {
    result = std::strtof(text.c_str(), &end);
  } else {
    result = std::strtod(text.c_str(), &end);
  }
  if (end != text.c_str() + text.size()) return ValueStatus::kInvalid;
  if (errno == ERANGE && (std::isinf(result) || result == 0)) return ValueStatus::kOutOfRange;
  *value = result;
  return ValueStatus::kOk;
}

}  // namespace

ValueStatus ParseInt32(std::string_view text, std::int32_t* value) {
  std::int64_t wide = 0;
  const ValueStatus status = ParseSigned(text, std::numeric_limits<std::int32_t>::min(),
                                         std::numeric_limits<std::int32_t>::max(), &wide);
  if (status == ValueStatus::kOk) *value = static_cast<std::int32_t>(wide);
  return status;
}

ValueStatus ParseInt64(std::string_view text, std::int64_t* value) {
  return ParseSigned(text, std::numeric_limits<std::int64_t>::min(),
                     std::numeric_limits<std::int64_t>::max(), value);
}

ValueStatus ParseFloat(std::string_view text, float* value) { return ParseFloating(text, value); }

ValueStatus ParseDouble(std::string_view text, double* value) {
  return ParseFloating(text, value);
}

}  // namespace blockbloom_tools
