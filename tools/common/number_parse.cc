// SPDX-License-Identifier: Apache-2.0
#include "tools/common/number_parse.h"

#include <cctype>
#include <limits>
#include <string>
#include <utility>

namespace blockbloom_tools {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// The value of c as a digit in base 10 or 16, or -1.
int DigitValue(char c, unsigned base) {
  if (c >= '0' && c <= '9') return c - '0';
  if (base == 16 && c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (base == 16 && c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
__extension__ typedef unsigned __int128 Wide;  // GCC and Clang, as src/parquet/values does

// Appends to *digits the digits of text from *pos on, in base 10 or 16,
// skipping a '_' that stands between two digits; stops at the first other
// character. False if a '_' stands anywhere else ("_1", "1__0", "1_").
bool ReadDigits(std::string_view text, std::size_t* pos, unsigned base, std::string* digits) {
  std::size_t i = *pos;
  while (i < text.size()) {
    if (DigitValue(text[i], base) >= 0) {
      digits->push_back(text[i++]);
    } else if (text[i] == '_') {
      const bool between = i > *pos && DigitValue(text[i - 1], base) >= 0 &&
                           i + 1 < text.size() && DigitValue(text[i + 1], base) >= 0;
      if (!between) return false;
      ++i;
    } else {
      break;
    }
  }
  *pos = i;
  return true;
}

// The exponent's digits as a number, saturated far above any useful one.
std::int64_t SaturatedExponent(const std::string& digits) {
  std::int64_t e = 0;
  for (char c : digits) {
    e = e * 10 + (c - '0');
    if (e > 1000000) return 1000000;
  }
  return e;
}

// The exact value of digits * 10^shift * 2^binary_exp (digits: decimal,
// binary_exp at most 40), if it is a whole number below 2^64.
CountStatus ExactValue(std::string digits, std::int64_t shift, unsigned binary_exp,
                       std::uint64_t* value) {
  std::size_t lead = 0;
  while (lead < digits.size() && digits[lead] == '0') ++lead;
  digits.erase(0, lead);
  if (digits.empty()) {  // zero, whatever the exponent
    *value = 0;
    return CountStatus::kOk;
  }
  while (digits.back() == '0') {  // now digits does not end in 0: not a multiple of 10
    digits.pop_back();
    ++shift;
  }
  // digits * 10^shift has len + shift digits before the point, so it is at
  // least 10^(len + shift - 1): past 20 digits, above 2^64 whatever the unit.
  // Checked first, so that the loops below stay short.
  const auto integer_digits = static_cast<std::int64_t>(digits.size()) + shift;
  if (integer_digits > 20) return CountStatus::kOverflow;

  Wide whole = 0;
  unsigned doublings = binary_exp;
  if (shift >= 0) {
    for (char c : digits) whole = whole * 10 + static_cast<unsigned>(c - '0');
    for (std::int64_t i = 0; i < shift; ++i) {
      whole *= 10;
      if (whole > kU64Max) return CountStatus::kOverflow;
    }
  } else {
    // digits * 2^b / 10^s is whole only if 5^s divides digits (which, not a
    // multiple of 10 but then a multiple of 5, is odd) and s <= b.
    const auto s = static_cast<std::uint64_t>(-shift);
    if (s > binary_exp) return CountStatus::kNotWhole;
    Wide five_pow = 1;
    for (std::uint64_t i = 0; i < s; ++i) five_pow *= 5;  // s <= 40: below 2^94
    // Long division of the digits by 5^s: at most 20 + 40 digits here, and
    // the quotient is below 10^20 * 2^s <= 10^20 * 2^40 (about 2^107).
    Wide rest = 0;
    for (char c : digits) {
      const Wide current = rest * 10 + static_cast<unsigned>(c - '0');
      whole = whole * 10 + current / five_pow;
      rest = current % five_pow;
    }
    if (rest != 0) return CountStatus::kNotWhole;
    doublings = binary_exp - static_cast<unsigned>(s);
  }
  if (whole > (Wide{kU64Max} >> doublings)) return CountStatus::kOverflow;
  *value = static_cast<std::uint64_t>(whole << doublings);
  return CountStatus::kOk;
}

// The binary exponent of a unit after a size ("MiB": 20), or the status of
// a unit that is none of them.
CountStatus UnitExponent(std::string_view unit, unsigned* binary_exp) {
  std::string lower;
  for (char c : unit) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const char* const kPrefixes = "kmgt";
  for (unsigned i = 0; i < 4; ++i) {
    const std::string prefix(1, kPrefixes[i]);
    if (lower == prefix + "ib") {
      *binary_exp = 10 * (i + 1);
      return CountStatus::kOk;
    }
    if (lower == prefix || lower == prefix + "b") return CountStatus::kAmbiguousUnit;
  }
  return CountStatus::kInvalid;
}

// ParseCount and, with units, ParseByteSize.
CountStatus ParseWholeNumber(std::string_view text, bool units, std::uint64_t* value) {
  text = TrimLine(text);
  std::size_t pos = 0;
  std::string digits;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    pos = 2;
    if (!ReadDigits(text, &pos, 16, &digits) || digits.empty() || pos != text.size()) {
      return CountStatus::kInvalid;
    }
    return ParseUint64("0x" + digits, value) == ParseStatus::kOk ? CountStatus::kOk
                                                                 : CountStatus::kOverflow;
  }
  if (!ReadDigits(text, &pos, 10, &digits) || digits.empty()) return CountStatus::kInvalid;
  std::int64_t shift = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    const std::size_t before = digits.size();
    if (!ReadDigits(text, &pos, 10, &digits) || digits.size() == before) {
      return CountStatus::kInvalid;
    }
    shift = -static_cast<std::int64_t>(digits.size() - before);
  }
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    bool negative = false;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) negative = text[pos++] == '-';
    std::string exponent;
    if (!ReadDigits(text, &pos, 10, &exponent) || exponent.empty()) return CountStatus::kInvalid;
    shift += negative ? -SaturatedExponent(exponent) : SaturatedExponent(exponent);
  }
  unsigned binary_exp = 0;
  if (pos != text.size()) {
    if (!units) return CountStatus::kInvalid;
    const CountStatus unit = UnitExponent(text.substr(pos), &binary_exp);
    if (unit != CountStatus::kOk) return unit;
  }
  return ExactValue(std::move(digits), shift, binary_exp, value);
}

}  // namespace

const char kCountForms[] = "1000000, 1_000_000, 1e6, 2.5e6 or 0xF4240";
const char kByteSizeForms[] =
    "16777216, 16_777_216, 0x1000000, 1.6e7 (16000000), or with a binary unit 16MiB (KiB, MiB, GiB, "
    "TiB: 2^10, 2^20, 2^30, 2^40 bytes; 1.5KiB is 1536)";

CountStatus ParseCount(std::string_view text, std::uint64_t* value) {
  return ParseWholeNumber(text, false, value);
}

CountStatus ParseByteSize(std::string_view text, std::uint64_t* value) {
  return ParseWholeNumber(text, true, value);
}

std::string_view TrimLine(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  while (!line.empty() && IsBlank(line.front())) line.remove_prefix(1);
  while (!line.empty() && IsBlank(line.back())) line.remove_suffix(1);
  return line;
}

ParseStatus ParseUint64(std::string_view text, std::uint64_t* value) {
  text = TrimLine(text);
  if (text.empty()) return ParseStatus::kEmpty;

  unsigned base = 10;
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
    if (text.empty()) return ParseStatus::kInvalid;
  }

  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t result = 0;
  bool overflow = false;
  for (char c : text) {
    const int digit = DigitValue(c, base);
    if (digit < 0) return ParseStatus::kInvalid;  // wins over overflow: "99...9x" is junk
    const auto d = static_cast<std::uint64_t>(digit);
    if (result > (kMax - d) / base) {
      overflow = true;
    } else {
      result = result * base + d;
    }
  }
  if (overflow) return ParseStatus::kOverflow;
  *value = result;
  return ParseStatus::kOk;
}

}  // namespace blockbloom_tools
