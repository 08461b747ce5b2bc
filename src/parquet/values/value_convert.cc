// SPDX-License-Identifier: Apache-2.0
// Values of a source kind into a typed column: the table of parquet_value.h
// (bb_parquet_encode_value, bb_parquet_hash_typed_value,
// bb_parquet_type_of_source). Every refusal is decided from the type and the
// source kind alone (MakePlan), so that a column is refused before anything
// of it is written; Convert then only converts or answers "not in the type".
#include "src/parquet/values/value_convert.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace blockbloom::internal::parquet_value {
namespace {

constexpr uint32_t kKnownFlags = BB_PARQUET_TEXT_HEX | BB_PARQUET_TEXT_PHYSICAL;
// Past this (plus the text's length, which bounds how far the digits and the
// fraction move the exponent back) every exponent decides alike.
constexpr int64_t kExponentCap = 100000;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A zero keeps its sign: "-0" into a FLOAT / DOUBLE / FLOAT16 is -0.0, a
// different key from +0.0 (formats.md); the integer and DECIMAL rules read
// either zero as 0 (Unscaled), as those types have no negative zero.
void Normalize(Exact* e) {
  size_t lead = 0;
  while (lead < e->digits.size() && e->digits[lead] == '0') ++lead;
  e->digits.erase(0, lead);
  while (!e->digits.empty() && e->digits.back() == '0') e->digits.pop_back(), ++e->exponent;
  if (e->digits.empty()) e->exponent = 0;
}

// v = unscaled * 10^-scale with at most max_digits digits, exactly; false if
// digits would be lost or there are more.
bool Unscaled(const Exact& e, int scale, int max_digits, Int128* v) {
  *v = 0;
  if (e.digits.empty()) return true;
  const int64_t shift = e.exponent + scale;
  if (shift < 0) return false;
  if (static_cast<int64_t>(e.digits.size()) + shift > max_digits) return false;
  Int128 m = 0;
  for (char c : e.digits) m = m * 10 + (c - '0');
  for (int64_t i = 0; i < shift; ++i) m *= 10;
  *v = e.negative ? -m : m;
  return true;
}

int UnitOfDigits(int digits) {
  return digits == 3 ? BB_PARQUET_UNIT_MILLIS : digits == 6 ? BB_PARQUET_UNIT_MICROS
                                                             : BB_PARQUET_UNIT_NANOS;
}

// v in `from` units as `to` units, exactly: false on a remainder or overflow.
bool ChangeUnit(int64_t v, int from, int to, int64_t* out) {
  const int64_t a = PerSecond(from), b = PerSecond(to);
  if (b >= a) return !__builtin_mul_overflow(v, b / a, out);
  if (v % (a / b) != 0) return false;
  *out = v / (a / b);
  return true;
}

std::string TypeWords(const bb_parquet_column& c) {
  char physical[BB_PARQUET_TYPE_NAME_MAX] = "", logical[BB_PARQUET_TYPE_NAME_MAX] = "";
  bb_parquet_physical_type_name(&c, physical, sizeof physical);
  bb_parquet_logical_type_name(&c, logical, sizeof logical);
  return *logical ? std::string(physical) + " " + logical : std::string(physical);
}

std::string FormWords(const bb_parquet_column& c, uint32_t flags) {
  char form[BB_PARQUET_VALUE_FORM_MAX] = "";
  bb_parquet_value_form(&c, flags, form, sizeof form);
  return form;
}

// The table's refusals: BB_OK when a value of src's kind has one meaning in
// the type.
int Refusal(const Plan& p, std::string* why) {
  const Rules& r = p.rules;
  const int kind = static_cast<int>(p.src.kind);
  const bool physical = (p.flags & BB_PARQUET_TEXT_PHYSICAL) != 0;
  const bool utc_source = p.src.zone == BB_VALUE_ZONE_UTC;
  const bool numeric = r.kind == Kind::kInteger || r.kind == Kind::kFloat ||
                       r.kind == Kind::kDouble || r.kind == Kind::kFloat16 ||
                       r.kind == Kind::kDecimal;
  const bool temporal = r.kind == Kind::kDate || r.kind == Kind::kTime ||
                        r.kind == Kind::kTimestamp || r.kind == Kind::kInt96;
  const std::string column = "the column is " + TypeWords(p.type);
  switch (kind) {
    case BB_VALUE_TEXT: return BB_OK;
    case BB_VALUE_BYTES:
      if (r.kind == Kind::kBytes || r.kind == Kind::kUuid || r.kind == Kind::kInterval ||
          r.kind == Kind::kInt96) {
        return BB_OK;
      }
      break;
    case BB_VALUE_INT:
    case BB_VALUE_UINT:
      if (numeric) return BB_OK;
      if (temporal) {
        *why = ", but " + column + ": an integer there could be days, seconds or any unit; give "
               "a date, time or timestamp value, or the stored value as physical";
        return BB_ERR_VALUE_AMBIGUOUS;
      }
      break;
    case BB_VALUE_FLOAT:
    case BB_VALUE_DECIMAL:
      if (numeric) return BB_OK;
      break;
    case BB_VALUE_DATE:
      if (r.kind == Kind::kDate || r.kind == Kind::kInt96 ||
          (r.kind == Kind::kInteger && physical)) {
        return BB_OK;
      }
      if (r.kind == Kind::kTimestamp) {
        if (!r.utc) return BB_OK;
        *why = ", but " + column + " (adjusted to UTC, an instant): a date is midnight in "
               "which zone? give a timestamp";
        return BB_ERR_VALUE_AMBIGUOUS;
      }
      break;
    case BB_VALUE_TIMESTAMP:
    case BB_VALUE_TIME: {
      const Kind same = kind == BB_VALUE_TIME ? Kind::kTime : Kind::kTimestamp;
      if (r.kind == Kind::kInteger && physical) return BB_OK;
      const bool local_target = (r.kind == same && !r.utc) ||
                                (kind == BB_VALUE_TIMESTAMP &&
                                 (r.kind == Kind::kInt96 || r.kind == Kind::kDate));
      if (local_target && utc_source) {
        *why = ", but " + column + (r.kind == Kind::kDate ? " (a calendar date" : " not adjusted to UTC (a local wall-clock reading") +
               "): convert it to the wall clock you mean and drop the zone, or use a "
               "UTC-adjusted column";
        return BB_ERR_VALUE_AMBIGUOUS;
      }
      if (r.kind == same || local_target) return BB_OK;
      break;
    }
    default: break;
  }
  *why = ", which cannot be compared with a " + TypeWords(p.type) + " column (it takes " +
         FormWords(p.type, p.flags & BB_PARQUET_TEXT_PHYSICAL) + ")";
  return BB_ERR_VALUE_KIND;
}

// ---------------------------------------------------------------- targets

int NotInType() { return BB_VALUE_NOT_IN_TYPE; }

int IntegerInto(const Plan& p, Int128 v, std::string* out);

// The bytes the text rule writes for `text` (the one NaN rule, a decimal's
// nearest float): a range error there means no value of the type is it.
int ByTextRule(const Plan& p, const std::string& text, std::string* out) {
  uint8_t bytes[32];
  size_t n = 0;
  const int rc = bb_parquet_encode_text(&p.type, text.data(), text.size(),
                                        p.flags & BB_PARQUET_TEXT_PHYSICAL, bytes, sizeof bytes,
                                        &n, nullptr, 0);
  if (rc != BB_OK) return NotInType();
  out->assign(reinterpret_cast<const char*>(bytes), n);
  return BB_OK;
}

int DecimalInto(const Plan& p, const Exact& e, std::string* out) {
  const Rules& r = p.rules;
  Int128 v = 0;
  if (r.kind == Kind::kInteger) {
    return Unscaled(e, 0, kMaxPrecision, &v) ? IntegerInto(p, v, out) : NotInType();
  }
  if (r.kind == Kind::kDecimal) {
    std::string why;
    if (!Unscaled(e, r.scale, r.precision, &v) || PutUnscaled(r, v, out, &why) != BB_OK) {
      out->clear();
      return NotInType();
    }
    return BB_OK;
  }
  std::string text = (e.negative ? "-" : "") + (e.digits.empty() ? std::string("0") : e.digits);
  if (!e.digits.empty() && e.exponent != 0) text += "e" + std::to_string(e.exponent);
  return ByTextRule(p, text, out);
}

// A double exactly as an IEEE half: false if it is not one (NaN excluded).
bool HalfExact(double d, uint16_t* h) {
  const uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  const double a = std::fabs(d);
  if (std::isinf(a) || a == 0) {
    *h = sign | (a == 0 ? 0 : 0x7c00);
    return true;
  }
  if (a > 65504.0) return false;
  int e = 0;
  std::frexp(a, &e);
  const int exp = e - 1;  // a = 1.x * 2^exp
  if (exp >= -14) {
    const double m = std::ldexp(a, 10 - exp);
    if (m != std::floor(m)) return false;
    *h = sign | static_cast<uint16_t>((exp + 15) << 10 | (static_cast<int>(m) - 1024));
    return true;
  }
  const double m = std::ldexp(a, 24);  // subnormal: a multiple of 2^-24
  if (m != std::floor(m)) return false;
  *h = sign | static_cast<uint16_t>(m);
  return true;
}

// A double that is not exactly a FLOAT / FLOAT16: the value its shortest
// round-trip text (what Python, numpy and Arrow print: 0.1) means in the
// narrower type, rounded once by the text rule, so that a Python 0.1 finds the
// float32 0.1 a column stores, as the text "0.1" does. Past the type's finite
// range: not in the type. Rounding can only add maybes, never lose a value:
// no narrower value equals a double that is not exactly one.
int ShortestText(const Plan& p, double d, std::string* out) {
  char text[64];
  const auto end = std::to_chars(text, text + sizeof text, d).ptr;
  return ByTextRule(p, std::string(text, static_cast<size_t>(end - text)), out);
}

int FloatInto(const Plan& p, double d, std::string* out) {
  const Rules& r = p.rules;
  switch (r.kind) {
    case Kind::kInteger: {
      if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) >= 0x1p100) return NotInType();
      return IntegerInto(p, static_cast<Int128>(d), out);
    }
    case Kind::kDouble: {
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      PutLittle(bits, 8, out);
      return BB_OK;
    }
    case Kind::kFloat: {  // a NaN keeps its sign and top payload bits, as the cast does
      const float f = static_cast<float>(d);
      if (std::isfinite(d) && static_cast<double>(f) != d) return ShortestText(p, d, out);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      PutLittle(bits, 4, out);
      return BB_OK;
    }
    case Kind::kFloat16: {
      if (std::isnan(d)) {  // the quiet NaN of the same sign
        PutLittle(static_cast<uint16_t>((std::signbit(d) ? 0x8000 : 0) | 0x7e00), 2, out);
        return BB_OK;
      }
      uint16_t h = 0;
      if (!HalfExact(d, &h)) return ShortestText(p, d, out);
      PutLittle(h, 2, out);
      return BB_OK;
    }
    default: {  // kDecimal: the double's shortest round-trip decimal text
      if (!std::isfinite(d)) return NotInType();
      char text[64];
      const auto end = std::to_chars(text, text + sizeof text, d).ptr;
      Exact e;
      ExactFromText(std::string_view(text, static_cast<size_t>(end - text)), &e);
      return DecimalInto(p, e, out);
    }
  }
}

int IntegerInto(const Plan& p, Int128 v, std::string* out) {
  const Rules& r = p.rules;
  switch (r.kind) {
    case Kind::kInteger:
      if (v < r.min || v > r.max) return NotInType();
      PutLittle(static_cast<UInt128>(v), r.width, out);
      return BB_OK;
    case Kind::kDecimal: return DecimalInto(p, ExactFromInteger(v, 0), out);
    default:  // float kinds: the nearest value, as the text rule reads the integer's digits
      return ByTextRule(p, IntText(v), out);
  }
}

// Days since 1970-01-01 and nanoseconds of the day as INT96.
int PutInt96(Int128 nanos, std::string* out) {
  const int64_t kDay = int64_t{86400} * 1000000000;
  Int128 days = nanos / kDay, rest = nanos % kDay;
  if (rest < 0) rest += kDay, --days;  // floor: -1 ns is the last nanosecond of 1969-12-31
  const Int128 julian = days + kJulian1970;
  if (julian < std::numeric_limits<int32_t>::min() || julian > std::numeric_limits<int32_t>::max()) {
    return NotInType();
  }
  PutLittle(static_cast<UInt128>(rest), 8, out);
  PutLittle(static_cast<UInt128>(julian), 4, out);
  return BB_OK;
}

int PutDays(int64_t days, std::string* out) {
  if (days < std::numeric_limits<int32_t>::min() || days > std::numeric_limits<int32_t>::max()) {
    return NotInType();
  }
  PutLittle(static_cast<UInt128>(static_cast<Int128>(days)), 4, out);
  return BB_OK;
}

// A count of `unit` since the epoch (or midnight, for TIME) into a temporal type.
int CountInto(const Plan& p, int64_t count, int unit, std::string* out) {
  const Rules& r = p.rules;
  const int64_t per_day = 86400 * PerSecond(unit);
  int64_t v = 0;
  switch (r.kind) {
    case Kind::kInteger: return IntegerInto(p, count, out);  // PHYSICAL: the count as stored
    case Kind::kDate:
      if (count % per_day != 0) return NotInType();
      return PutDays(count / per_day, out);
    case Kind::kInt96:
      return PutInt96(Int128{count} * (1000000000 / PerSecond(unit)), out);
    case Kind::kTime:
      if (count < 0 || count > per_day || !ChangeUnit(count, unit, p.target_unit, &v)) {
        return NotInType();
      }
      PutLittle(static_cast<UInt128>(static_cast<Int128>(v)), r.width, out);
      return BB_OK;
    default:  // kTimestamp
      if (!ChangeUnit(count, unit, p.target_unit, &v)) return NotInType();
      PutLittle(static_cast<UInt128>(static_cast<Int128>(v)), 8, out);
      return BB_OK;
  }
}

int DateInto(const Plan& p, int64_t date, std::string* out) {
  if (p.rules.kind == Kind::kInteger) return IntegerInto(p, date, out);  // PHYSICAL: as stored
  int64_t days = date;
  // Arrow date64: the day it falls in, truncated toward zero as Arrow's Parquet
  // writer stores it (int32(ms / 86400000)).
  if (p.src.unit == BB_PARQUET_UNIT_MILLIS) days = date / 86400000;
  if (p.rules.kind == Kind::kDate) return PutDays(days, out);
  if (days < -(int64_t{1} << 40) || days > (int64_t{1} << 40)) return NotInType();
  if (p.rules.kind == Kind::kInt96) return PutInt96(Int128{days} * 86400 * 1000000000, out);
  int64_t v = 0;  // midnight in the column's unit
  if (!ChangeUnit(days * 86400, BB_VALUE_UNIT_SECONDS, p.target_unit, &v)) return NotInType();
  PutLittle(static_cast<UInt128>(static_cast<Int128>(v)), 8, out);
  return BB_OK;
}

int BytesInto(const Plan& p, std::string_view b, std::string* out) {
  if (p.rules.width != 0 && b.size() != static_cast<size_t>(p.rules.width)) return NotInType();
  out->assign(b.data(), b.size());
  return BB_OK;
}

int CheckSource(const bb_value_source& s, std::string* why) {
  const bool unit_ok =
      s.kind == BB_VALUE_TIMESTAMP || s.kind == BB_VALUE_TIME
          ? PerSecond(s.unit) != 0
          : s.kind == BB_VALUE_DATE
                ? s.unit == 0 || s.unit == BB_VALUE_UNIT_DAYS || s.unit == BB_PARQUET_UNIT_MILLIS
                : true;
  if (s.kind < BB_VALUE_INT || s.kind > BB_VALUE_BOOL) {
    *why = "is of no bb_value_kind";
  } else if (!unit_ok) {
    *why = "has a unit its kind does not take";
  } else if (s.zone != BB_VALUE_ZONE_NAIVE && s.zone != BB_VALUE_ZONE_UTC) {
    *why = "has a zone that is not BB_VALUE_ZONE_NAIVE or _UTC";
  } else if (s.scale < -76 || s.scale > 76) {
    *why = "has a decimal scale outside -76 .. 76";
  } else {
    return BB_OK;
  }
  *why = "the value source " + *why;
  return BB_ERR_VALUE_KIND;
}

// The value in words for a scalar's message.
std::string ValueWords(const bb_value_source& s, const void* value, size_t len) {
  std::string v;
  switch (s.kind) {
    case BB_VALUE_INT:
    case BB_VALUE_DATE:
    case BB_VALUE_TIMESTAMP:
    case BB_VALUE_TIME: {
      int64_t i;
      std::memcpy(&i, value, 8);
      v = std::to_string(i);
      break;
    }
    case BB_VALUE_UINT: {
      uint64_t u;
      std::memcpy(&u, value, 8);
      v = std::to_string(u);
      break;
    }
    case BB_VALUE_FLOAT: {
      double d;
      std::memcpy(&d, value, 8);
      char text[64];
      v.assign(text, std::to_chars(text, text + sizeof text, d).ptr);
      break;
    }
    case BB_VALUE_BOOL: {
      int b;
      std::memcpy(&b, value, sizeof b);
      v = b ? "true" : "false";
      break;
    }
    case BB_VALUE_BYTES: v = std::to_string(len) + " bytes"; break;
    case BB_VALUE_TEXT:
    case BB_VALUE_DECIMAL: {
      const size_t n = len < 40 ? len : 40;
      v = "'" + std::string(static_cast<const char*>(value), n) + (n < len ? "...'" : "'");
      break;
    }
    default: return "";  // a kind of no size: the value cannot be read safely
  }
  return " (" + v + ")";
}

bool FixedSize(uint32_t kind) { return kind != BB_VALUE_TEXT && kind != BB_VALUE_BYTES && kind != BB_VALUE_DECIMAL; }

// One scalar: *bytes, or the code with *why a whole phrase.
int EncodeOne(const bb_parquet_column* type, const bb_value_source* src, const void* value,
              size_t len, uint32_t flags, std::string* bytes, std::string* why) {
  if (type->struct_size < sizeof(bb_parquet_column) || src->struct_size < sizeof(bb_value_source)) {
    *why = "a struct_size (of the column type or the value source) is too small";
    return BB_ERR_BUFFER_TOO_SMALL;
  }
  const Plan p = MakePlan(*type, *src, flags);
  if (p.rc != BB_OK) {
    *why = p.rc == BB_ERR_VALUE_KIND || p.rc == BB_ERR_VALUE_AMBIGUOUS
               ? SourceWords(*src) + ValueWords(*src, value, len) + p.why
               : p.why;
    return p.rc;
  }
  Value v;
  Exact exact;
  switch (src->kind) {
    case BB_VALUE_UINT: std::memcpy(&v.u, value, 8); break;
    case BB_VALUE_FLOAT: std::memcpy(&v.d, value, 8); break;
    case BB_VALUE_DECIMAL:
      if (!ExactFromText(std::string_view(static_cast<const char*>(value), len), &exact)) {
        *why = "a decimal" + ValueWords(*src, value, len) +
               " is not written [-]digits[.digits][e[+-]digits]";
        return BB_ERR_VALUE_SYNTAX;
      }
      exact.exponent -= src->scale;
      Normalize(&exact);
      v.exact = &exact;
      break;
    case BB_VALUE_TEXT:
    case BB_VALUE_BYTES: v.bytes = std::string_view(static_cast<const char*>(value), len); break;
    default: std::memcpy(&v.i, value, 8);
  }
  std::string phrase;
  const int rc = Convert(p, v, bytes, &phrase);
  if (rc < 0) *why = "text" + ValueWords(*src, value, len) + " " + phrase;
  return rc;
}

}  // namespace

int RescaledInto(const Plan& p, Int128 v, int scale, std::string* out) {
  out->clear();
  const Rules& r = p.rules;
  const int shift = r.scale - scale;
  if (shift > kMaxPrecision || shift < -kMaxPrecision) {  // rare: the exact route
    return DecimalInto(p, ExactFromInteger(v, scale), out);
  }
  UInt128 pow = 1, limit = 1;  // 10^|shift|, 10^precision
  for (int i = 0; i < (shift < 0 ? -shift : shift); ++i) pow *= 10;
  for (int i = 0; i < r.precision; ++i) limit *= 10;
  const bool negative = v < 0;
  UInt128 m = negative ? -static_cast<UInt128>(v) : static_cast<UInt128>(v);
  if (shift >= 0) {
    if (m > (limit - 1) / pow) return NotInType();
    m *= pow;
  } else {
    if (m % pow != 0) return NotInType();
    m /= pow;
    if (m > limit - 1) return NotInType();
  }
  const Int128 unscaled = negative ? -static_cast<Int128>(m) : static_cast<Int128>(m);
  std::string why;
  if (PutUnscaled(r, unscaled, out, &why) != BB_OK) {
    out->clear();
    return NotInType();
  }
  return BB_OK;
}

int64_t PerSecond(int unit) {
  switch (unit) {
    case BB_VALUE_UNIT_SECONDS: return 1;
    case BB_PARQUET_UNIT_MILLIS: return 1000;
    case BB_PARQUET_UNIT_MICROS: return 1000000;
    case BB_PARQUET_UNIT_NANOS: return 1000000000;
    default: return 0;
  }
}

bool ExactFromText(std::string_view s, Exact* e) {
  *e = Exact();
  size_t i = 0;
  if (i < s.size() && s[i] == '-') e->negative = true, ++i;
  const size_t whole = i;
  while (i < s.size() && IsDigit(s[i])) e->digits.push_back(s[i++]);
  if (i == whole) return false;
  if (i < s.size() && s[i] == '.') {
    const size_t frac = ++i;
    while (i < s.size() && IsDigit(s[i])) e->digits.push_back(s[i++]), --e->exponent;
    if (i == frac) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    const bool minus = i < s.size() && s[i] == '-';
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    const size_t first = i;
    const int64_t cap = kExponentCap + static_cast<int64_t>(s.size());
    int64_t x = 0;
    while (i < s.size() && IsDigit(s[i])) x = std::min(x * 10 + (s[i++] - '0'), cap);
    if (i == first) return false;
    e->exponent += minus ? -x : x;
  }
  if (i != s.size()) return false;
  Normalize(e);
  return true;
}

Exact ExactFromInteger(Int128 v, int scale) {
  Exact e;
  e.negative = v < 0;
  e.digits = IntText(v);
  if (e.negative) e.digits.erase(0, 1);
  e.exponent = -scale;
  Normalize(&e);
  return e;
}

Exact ExactFromTwosComplement(const uint8_t* bytes, size_t n, int scale) {
  // The magnitude as 32-bit words, least significant first, divided by 10^9
  // until nothing is left.
  uint32_t words[8] = {0};
  const bool negative = n > 0 && (bytes[n - 1] & 0x80) != 0;
  for (size_t k = 0; k < n && k < 32; ++k) words[k / 4] |= static_cast<uint32_t>(bytes[k]) << (8 * (k % 4));
  const size_t nw = (n + 3) / 4;
  if (negative) {
    if (n % 4) words[nw - 1] |= ~uint32_t{0} << (8 * (n % 4));
    uint64_t carry = 1;
    for (size_t w = 0; w < nw; ++w) {
      const uint64_t x = uint64_t{static_cast<uint32_t>(~words[w])} + carry;
      words[w] = static_cast<uint32_t>(x);
      carry = x >> 32;
    }
  }
  std::string digits;
  for (bool zero = false; !zero;) {
    uint64_t rest = 0;
    zero = true;
    for (size_t w = nw; w-- > 0;) {
      const uint64_t x = rest << 32 | words[w];
      words[w] = static_cast<uint32_t>(x / 1000000000);
      rest = x % 1000000000;
      zero = zero && words[w] == 0;
    }
    for (int k = 0; k < 9; ++k) digits.insert(digits.begin(), static_cast<char>('0' + rest % 10)), rest /= 10;
  }
  Exact e;
  e.negative = negative;
  e.digits = digits;
  e.exponent = -scale;
  Normalize(&e);
  return e;
}

std::string SourceWords(const bb_value_source& s) {
  const bool utc = s.zone == BB_VALUE_ZONE_UTC;
  switch (s.kind) {
    case BB_VALUE_INT: return "an integer";
    case BB_VALUE_UINT: return "an unsigned integer";
    case BB_VALUE_FLOAT: return "a floating-point number";
    case BB_VALUE_DECIMAL: return "a decimal";
    case BB_VALUE_DATE: return "a date";
    case BB_VALUE_TIMESTAMP: return utc ? "a tz-aware (UTC) timestamp" : "a timestamp with no zone";
    case BB_VALUE_TIME: return utc ? "a tz-aware (UTC) time of day" : "a time of day";
    case BB_VALUE_TEXT: return "text";
    case BB_VALUE_BYTES: return "bytes";
    case BB_VALUE_BOOL: return "a boolean";
    default: return "a value of no known kind";
  }
}

void SayError(const std::string& s, char* error, size_t capacity) {
  if (error == nullptr || capacity == 0) return;
  const size_t n = s.size() < capacity - 1 ? s.size() : capacity - 1;
  std::memcpy(error, s.data(), n);
  error[n] = '\0';
}

Plan MakePlan(const bb_parquet_column& type, const bb_value_source& src, uint32_t flags) {
  Plan p;
  p.type = type;
  p.type.path = nullptr;
  p.type.path_len = 0;
  p.src = src;
  p.flags = flags;
  // HEX is a text flag: a TEXT source follows bb_parquet_encode_text's rules
  // with it (a byte type's stored bytes, even under an annotation that has
  // no text of its own, such as a DECIMAL of more than 38 digits); every
  // other source ignores it.
  const uint32_t rule_flags = src.kind == BB_VALUE_TEXT
                                  ? flags & kKnownFlags
                                  : flags & kKnownFlags & ~uint32_t{BB_PARQUET_TEXT_HEX};
  p.rules = RulesFor(type, rule_flags);
  if (flags & ~kKnownFlags) {
    p.rc = BB_ERR_PARQUET_UNSUPPORTED;
    p.why = "a flag is not BB_PARQUET_TEXT_HEX or _PHYSICAL";
  } else if (p.rules.kind == Kind::kUnsupported) {
    p.rc = BB_ERR_PARQUET_UNSUPPORTED;
    p.why = "no value can be hashed for the column: it " + p.rules.why;
  } else if ((p.rc = CheckSource(src, &p.why)) == BB_OK) {
    p.rc = Refusal(p, &p.why);
  }
  if (p.rules.kind == Kind::kTime || p.rules.kind == Kind::kTimestamp ||
      p.rules.kind == Kind::kInt96) {
    p.target_unit = UnitOfDigits(p.rules.digits);
  }
  return p;
}

int Convert(const Plan& p, const Value& v, std::string* out, std::string* why) {
  out->clear();
  switch (p.src.kind) {
    case BB_VALUE_INT: return IntegerInto(p, v.i, out);
    case BB_VALUE_UINT: return IntegerInto(p, v.u, out);
    case BB_VALUE_FLOAT: return FloatInto(p, v.d, out);
    case BB_VALUE_DECIMAL: return DecimalInto(p, *v.exact, out);
    case BB_VALUE_DATE: return DateInto(p, v.i, out);
    case BB_VALUE_TIMESTAMP:
    case BB_VALUE_TIME: return CountInto(p, v.i, p.src.unit, out);
    case BB_VALUE_BYTES: return BytesInto(p, v.bytes, out);
    default: {  // TEXT: the text rules, exactly, straight into *out (a 100 MB text: one copy)
      const int rc = EncodeText(&p.type, v.bytes.data(), v.bytes.size(), p.flags, out, why);
      if (rc != BB_OK) {
        out->clear();
        if (why->size() >= BB_PARQUET_VALUE_ERROR_MAX) why->resize(BB_PARQUET_VALUE_ERROR_MAX - 1);
        return rc;
      }
      return BB_OK;
    }
  }
}

}  // namespace blockbloom::internal::parquet_value

namespace in = blockbloom::internal::parquet_value;

extern "C" int bb_parquet_encode_value(const bb_parquet_column* type, const bb_value_source* src,
                                       const void* value, size_t len, uint32_t flags,
                                       uint8_t* out, size_t capacity, size_t* out_len,
                                       char* error, size_t error_capacity) {
  if (type == nullptr || src == nullptr || out_len == nullptr ||
      (out == nullptr && capacity > 0) ||
      (value == nullptr && (len > 0 || in::FixedSize(src->kind)))) {
    in::SayError("a NULL pointer was passed", error, error_capacity);
    return BB_ERR_NULL_POINTER;
  }
  std::string bytes, why;
  int rc = in::EncodeOne(type, src, value, len, flags, &bytes, &why);
  if (rc == BB_OK && bytes.size() > capacity) {
    why = "the value's bytes do not fit in the room given for them";
    rc = BB_ERR_BUFFER_TOO_SMALL;
  }
  if (rc < 0) {
    in::SayError(why, error, error_capacity);
    return rc;
  }
  if (rc == BB_OK) {
    if (!bytes.empty()) std::memcpy(out, bytes.data(), bytes.size());
    *out_len = bytes.size();
  }
  return rc;
}

extern "C" int bb_parquet_hash_typed_value(const bb_parquet_column* type,
                                           const bb_value_source* src, const void* value,
                                           size_t len, uint32_t flags, uint64_t* hash,
                                           char* error, size_t error_capacity) {
  if (type == nullptr || src == nullptr || hash == nullptr ||
      (value == nullptr && (len > 0 || in::FixedSize(src->kind)))) {
    in::SayError("a NULL pointer was passed", error, error_capacity);
    return BB_ERR_NULL_POINTER;
  }
  std::string bytes, why;
  int rc = in::EncodeOne(type, src, value, len, flags, &bytes, &why);
  if (rc == BB_OK) {
    rc = bb_parquet_hash_value(type->physical_type, type->type_length, bytes.data(), bytes.size(),
                               hash);
    if (rc != BB_OK) why = "the value's bytes cannot be hashed for this physical type";
  }
  if (rc < 0) in::SayError(why, error, error_capacity);
  return rc;
}

extern "C" int bb_parquet_type_of_source(const bb_value_source* src, bb_parquet_column* type) {
  if (src == nullptr || type == nullptr) return BB_ERR_NULL_POINTER;
  if (src->struct_size < sizeof(bb_value_source) || type->struct_size < sizeof(bb_parquet_column)) {
    return BB_ERR_BUFFER_TOO_SMALL;
  }
  std::string why;
  if (in::CheckSource(*src, &why) != BB_OK) return BB_ERR_VALUE_KIND;
  bb_parquet_column t{};
  t.struct_size = type->struct_size;
  t.converted_type = BB_PARQUET_CONVERTED_NONE;
  const int bits = src->bits;
  switch (src->kind) {
    case BB_VALUE_INT:
    case BB_VALUE_UINT:
      if (bits != 0 && bits != 8 && bits != 16 && bits != 32 && bits != 64) return BB_ERR_VALUE_KIND;
      t.physical_type = bits == 0 || bits == 64 ? BB_PARQUET_INT64 : BB_PARQUET_INT32;
      t.logical_type = BB_PARQUET_LOGICAL_INTEGER;
      t.bit_width = bits == 0 ? 64 : bits;
      t.is_signed = src->kind == BB_VALUE_INT;
      break;
    case BB_VALUE_FLOAT:
      if (bits == 16) {
        t.physical_type = BB_PARQUET_FIXED_LEN_BYTE_ARRAY;
        t.type_length = 2;
        t.logical_type = BB_PARQUET_LOGICAL_FLOAT16;
      } else if (bits == 32 || bits == 64 || bits == 0) {
        t.physical_type = bits == 32 ? BB_PARQUET_FLOAT : BB_PARQUET_DOUBLE;
      } else {
        return BB_ERR_VALUE_KIND;
      }
      break;
    case BB_VALUE_DATE:
      t.physical_type = BB_PARQUET_INT32;
      t.logical_type = BB_PARQUET_LOGICAL_DATE;
      break;
    case BB_VALUE_TIMESTAMP:
      t.physical_type = BB_PARQUET_INT64;
      t.logical_type = BB_PARQUET_LOGICAL_TIMESTAMP;
      t.time_unit = src->unit == BB_VALUE_UNIT_SECONDS ? BB_PARQUET_UNIT_MILLIS : src->unit;
      t.is_adjusted_to_utc = src->zone == BB_VALUE_ZONE_UTC;
      break;
    case BB_VALUE_TIME:
      t.time_unit = src->unit == BB_VALUE_UNIT_SECONDS ? BB_PARQUET_UNIT_MILLIS : src->unit;
      t.physical_type = t.time_unit == BB_PARQUET_UNIT_MILLIS ? BB_PARQUET_INT32 : BB_PARQUET_INT64;
      t.logical_type = BB_PARQUET_LOGICAL_TIME;
      t.is_adjusted_to_utc = src->zone == BB_VALUE_ZONE_UTC;
      break;
    case BB_VALUE_TEXT:
      t.physical_type = BB_PARQUET_BYTE_ARRAY;
      t.logical_type = BB_PARQUET_LOGICAL_STRING;
      break;
    case BB_VALUE_BYTES: t.physical_type = BB_PARQUET_BYTE_ARRAY; break;
    case BB_VALUE_DECIMAL: {
      if (src->precision < 1 || src->precision > in::kMaxPrecision || src->scale < 0 ||
          src->scale > src->precision) {
        return BB_ERR_VALUE_KIND;
      }
      // FIXED_LEN_BYTE_ARRAY of the fewest bytes holding the precision, as
      // Arrow's Parquet writer stores decimal128 / decimal256: the parser
      // takes the first length that holds it.
      const std::string name = "decimal(" + std::to_string(src->precision) + "," +
                               std::to_string(src->scale) + ",fixed(";
      int rc = BB_ERR_VALUE_KIND;
      for (int n = 1; n <= 16 && rc != BB_OK; ++n) {
        const std::string full = name + std::to_string(n) + "))";
        rc = bb_parquet_type_parse(full.data(), full.size(), &t);
      }
      if (rc != BB_OK) return BB_ERR_VALUE_KIND;
      break;
    }
    default: return BB_ERR_VALUE_KIND;  // BOOL
  }
  *type = t;
  return BB_OK;
}
