// SPDX-License-Identifier: Apache-2.0
// The text forms of integers, floating-point numbers and decimals
// (parquet_value.h); see value_parse.h. std::from_chars reads the numbers, so
// no parse depends on the process locale.
#include "src/parquet/values/value_parse.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include "src/parquet/values/value_parse_chars.h"
#include "blockbloom/blockbloom.h"

namespace blockbloom::internal::parquet_value {
namespace {

using chars::Fail;
using chars::IsDigit;
using chars::IsHexDigit;
using chars::IsWord;

template <typename T>
int ParseFloating(std::string_view s, T* v, FloatClass* cls, std::string* why) {
  const char* kForm = "is not a number";
  const bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (IsWord(s, "nan")) {
    *v = std::numeric_limits<T>::quiet_NaN();
    *cls = FloatClass::kNaN;
    return BB_OK;
  }
  *cls = FloatClass::kNumber;
  if (IsWord(s, "inf") || IsWord(s, "infinity")) {
    *v = negative ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    return BB_OK;
  }
  std::chars_format format = std::chars_format::general;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    format = std::chars_format::hex;
    s.remove_prefix(2);
  }
  // from_chars would take a second sign, and nan(...) or inf of its own:
  // what is left must start as a number does.
  if (s.empty() || !(s[0] == '.' || (format == std::chars_format::hex ? IsHexDigit(s[0])
                                                                      : IsDigit(s[0])))) {
    return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
  }
  T value = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), value, format);
  if (r.ptr != s.data() + s.size() ||
      (r.ec != std::errc() && r.ec != std::errc::result_out_of_range)) {
    return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
  }
  if (r.ec == std::errc::result_out_of_range) {
    return Fail(BB_ERR_VALUE_RANGE, "is out of range", why);
  }
  *v = negative ? -value : value;
  return BB_OK;
}

// A double rounded to the nearest IEEE half (ties to even).
uint16_t ToHalf(double d) {
  uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  d = std::fabs(d);
  if (std::isinf(d) || d >= 65520.0) return sign | 0x7c00;
  int e = 0;
  std::frexp(d, &e);  // d = m * 2^e, m in [0.5, 1)
  int exp = e - 1;    // d = 1.x * 2^exp
  if (exp < -14) exp = -14;  // subnormal: fixed quantum 2^-24
  const double q = std::ldexp(1.0, exp - 10);
  double n = std::nearbyint(d / q);  // the FE_TONEAREST default: ties to even
  uint32_t m = static_cast<uint32_t>(n);
  if (m >= 2048) {  // rounded up into the next binade
    m >>= 1;
    ++exp;
  }
  if (m < 1024) return sign | static_cast<uint16_t>(m);  // subnormal (or zero)
  if (exp > 15) return sign | 0x7c00;
  return sign | static_cast<uint16_t>((exp + 15) << 10 | (m - 1024));
}

// The value of a half's magnitude bits (0x7c00: infinity).
double HalfValue(uint16_t mag) {
  const int e = mag >> 10, f = mag & 0x3ff;
  if (e == 31) return std::numeric_limits<double>::infinity();
  return e == 0 ? std::ldexp(f, -24) : std::ldexp(1024 + f, e - 25);
}

// a (finite, >= 0) lies exactly halfway between two adjacent halves.
bool IsHalfMidpoint(double a) {
  if (a > 65520.0 || a == 0) return false;
  int e = 0;
  std::frexp(a, &e);
  const int exp = e - 1 < -14 ? -14 : e - 1;
  const double n = a / std::ldexp(1.0, exp - 10);
  return n - std::floor(n) == 0.5;
}

// Digits without leading zeros and the decimal exponent just above the
// first: value = 0.digits * 10^lead.
struct Scientific {
  std::string digits;
  int64_t lead = 0;
};

// A decimal text as from_chars read it (no sign): digits[.digits][(e|E)[+|-]digits].
Scientific DecimalOfText(std::string_view s) {
  Scientific r;
  int64_t point = 0, exponent = 0;
  bool seen_point = false;
  size_t i = 0;
  for (; i < s.size() && (IsDigit(s[i]) || s[i] == '.'); ++i) {
    if (s[i] == '.') {
      seen_point = true;
    } else if (r.digits.empty() && s[i] == '0') {
      point -= seen_point;  // a leading zero after the point moves the first digit down
    } else {
      r.digits += s[i];
      point += !seen_point;
    }
  }
  if (i < s.size()) {  // e or E, then the exponent, saturated far beyond any text's digits
    const bool negative = i + 1 < s.size() && s[i + 1] == '-';
    for (size_t k = i + 1; k < s.size(); ++k) {
      if (IsDigit(s[k]) && exponent < (int64_t{1} << 50)) exponent = exponent * 10 + (s[k] - '0');
    }
    if (negative) exponent = -exponent;
  }
  r.lead = point + exponent;
  return r;
}

// A finite double >= 0 as exact decimal digits (a double is a dyadic rational).
Scientific DecimalOfDouble(double a) {
  int e = 0;
  const double f = std::frexp(a, &e);
  uint64_t m = static_cast<uint64_t>(std::ldexp(f, 53));
  int k = e - 53;
  while (m != 0 && (m & 1) == 0) m >>= 1, ++k;
  // a = m * 2^k = m * 5^-k * 10^k for k < 0; a half's midpoint has k >= -25
  // and m < 2^12, so m * 5^25 fits 128 bits.
  UInt128 n = m;
  for (int i = 0; i < -k; ++i) n *= 5;
  for (int i = 0; i < k; ++i) n *= 2;
  std::string digits;
  for (; n > 0; n /= 10) digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
  Scientific r;
  r.lead = static_cast<int64_t>(digits.size()) + (k < 0 ? k : 0);
  r.digits = digits;
  return r;
}

// The sign of x - y, both > 0.
int Compare(const Scientific& x, const Scientific& y) {
  if (x.lead != y.lead) return x.lead < y.lead ? -1 : 1;
  const size_t n = x.digits.size() > y.digits.size() ? x.digits.size() : y.digits.size();
  for (size_t i = 0; i < n; ++i) {
    const char a = i < x.digits.size() ? x.digits[i] : '0';
    const char b = i < y.digits.size() ? y.digits[i] : '0';
    if (a != b) return a < b ? -1 : 1;
  }
  return 0;
}

}  // namespace

int ParseInteger(std::string_view s, Int128 min, Int128 max, Int128* v, std::string* why) {
  const bool negative = !s.empty() && s[0] == '-';
  std::string_view d = negative ? s.substr(1) : s;
  if (d.empty() || (d[0] == '0' && (d.size() > 1 || negative))) {
    return Fail(BB_ERR_VALUE_SYNTAX, "is not a decimal integer", why);
  }
  Int128 mag = 0;
  for (char c : d) {
    if (!IsDigit(c)) return Fail(BB_ERR_VALUE_SYNTAX, "is not a decimal integer", why);
    if (mag < (Int128{1} << 100)) mag = mag * 10 + (c - '0');
  }
  const Int128 value = negative ? -mag : mag;
  if (value < min || value > max) return Fail(BB_ERR_VALUE_RANGE, "is out of range", why);
  *v = value;
  return BB_OK;
}

int ParseDouble(std::string_view s, double* v, FloatClass* cls, std::string* why) {
  return ParseFloating(s, v, cls, why);
}

int ParseFloat(std::string_view s, float* v, FloatClass* cls, std::string* why) {
  return ParseFloating(s, v, cls, why);
}

int ParseHalf(std::string_view s, uint16_t* bits, std::string* why) {
  double d = 0;
  FloatClass cls = FloatClass::kNumber;
  const int rc = ParseDouble(s, &d, &cls, why);
  if (rc != BB_OK) return rc;
  if (cls == FloatClass::kNaN) {
    *bits = kHalfNaN;
    return BB_OK;
  }
  const uint16_t h = ToHalf(d);
  uint16_t mag = h & 0x7fff;
  const double a = std::fabs(d);
  std::string_view body = s;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) body.remove_prefix(1);
  const bool decimal = !(body.size() >= 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X'));
  if (std::isfinite(d) && decimal && IsHalfMidpoint(a)) {
    // The double is a midpoint: the text's exact value says which way it rounds.
    const int side = Compare(DecimalOfText(body), DecimalOfDouble(a));
    const bool rounded_up = HalfValue(mag) > a;
    if (side < 0 && rounded_up) --mag;
    if (side > 0 && !rounded_up) ++mag;
  }
  if ((mag == 0x7c00 && std::isfinite(d)) || (mag == 0 && d != 0)) {
    return Fail(BB_ERR_VALUE_RANGE, "is out of range", why);
  }
  *bits = static_cast<uint16_t>((h & 0x8000) | mag);
  return BB_OK;
}

int ParseDecimal(std::string_view s, int precision, int scale, Int128* unscaled,
                 std::string* why) {
  const char* kForm = "is not a decimal number";
  const bool negative = !s.empty() && s[0] == '-';
  std::string_view d = negative ? s.substr(1) : s;
  if (IsWord(d, "nan") || IsWord(d, "inf") || IsWord(d, "infinity")) {
    return Fail(BB_ERR_VALUE_RANGE, "is NaN or an infinity, which no DECIMAL holds", why);
  }
  const size_t e_at = d.find_first_of("eE");
  const std::string_view mantissa = d.substr(0, e_at);
  const size_t dot = mantissa.find('.');
  const std::string_view whole = mantissa.substr(0, dot);
  const std::string_view frac =
      dot == std::string_view::npos ? std::string_view() : mantissa.substr(dot + 1);
  if (whole.empty() || (dot != std::string_view::npos && frac.empty()) ||
      (whole[0] == '0' && whole.size() > 1)) {
    return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
  }
  // The exponent saturates far beyond any digit count a text can have, so
  // that 1E+999999999 is decided from its size alone.
  constexpr int64_t kExponentCap = int64_t{1} << 50;
  int64_t exponent = 0;
  if (e_at != std::string_view::npos) {
    std::string_view e = d.substr(e_at + 1);
    const bool e_negative = !e.empty() && e[0] == '-';
    if (!e.empty() && (e[0] == '-' || e[0] == '+')) e.remove_prefix(1);
    if (e.empty()) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
    for (char c : e) {
      if (!IsDigit(c)) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
      if (exponent < kExponentCap) exponent = exponent * 10 + (c - '0');
    }
    if (e_negative) exponent = -exponent;
  }
  std::string digits(whole);
  for (char c : frac) {
    if (!IsDigit(c)) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
    digits += c;
  }
  for (char c : whole) {
    if (!IsDigit(c)) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
  }
  const size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) {  // zero, whatever its exponent or sign
    *unscaled = 0;
    return BB_OK;
  }
  // value = core * 10^e, core the digits without leading or trailing zeros.
  const size_t last = digits.find_last_not_of('0');
  const std::string_view core = std::string_view(digits).substr(first, last - first + 1);
  const int64_t e = exponent - static_cast<int64_t>(frac.size()) +
                    static_cast<int64_t>(digits.size() - 1 - last);
  if (e < -scale) {
    return Fail(BB_ERR_VALUE_SYNTAX, "has more fraction digits than the scale", why);
  }
  if (static_cast<int64_t>(core.size()) + e > precision - scale) {
    return Fail(BB_ERR_VALUE_RANGE, "has more integer digits than the precision allows", why);
  }
  // Now core.size() + e + scale <= precision <= 38: the unscaled value fits.
  Int128 v = 0;
  for (char c : core) v = v * 10 + (c - '0');
  for (int64_t i = 0; i < e + scale; ++i) v *= 10;
  *unscaled = negative ? -v : v;
  return BB_OK;
}

}  // namespace blockbloom::internal::parquet_value
