// SPDX-License-Identifier: Apache-2.0
// Generated cases for fuzz_value_text.cc: a value the model chose, written in
// one of the spellings docs/formats.md accepts, sometimes with a fault of a
// known kind. A syntax fault (a character no spelling has there, a separator
// moved, a digit too many or too few, a zone on a local column) makes the
// verdict BB_ERR_VALUE_SYNTAX whatever else is wrong; a range fault (a field
// past its range, a value past the type's) BB_ERR_VALUE_RANGE only in a
// well-formed text.
#ifndef BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_CASES_H_
#define BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_CASES_H_

#include <cmath>
#include <string>

#include "value_text_model.h"

namespace bbfuzz::text_model {

inline void Judge(Case* c, bool syntax, bool range) {
  c->verdict = !c->type.supported ? Verdict::kUnsupported
               : syntax          ? Verdict::kSyntax
               : range           ? Verdict::kRange
                                 : Verdict::kBytes;
  if (c->verdict != Verdict::kBytes) c->bytes.clear();
}

// A fault no spelling of a number or date has: applied to the whole text.
inline void NeverASpelling(Source* src, std::string* s) {
  switch (src->Pick(4)) {
    case 0: s->insert(0, " "); break;
    case 1: s->push_back(' '); break;
    case 2: s->push_back('x'); break;
    default: s->insert(src->Pick(static_cast<unsigned>(s->size()) + 1), "#"); break;
  }
}

// ---- integers ---------------------------------------------------------------

inline Case IntegerCase(Source* src, const Type& t) {
  Case c;
  c.type = t;
  I128 v = 0;
  switch (src->Pick(8)) {
    case 0: v = t.lo; break;
    case 1: v = t.hi; break;
    case 2: v = t.lo - 1; break;
    case 3: v = t.hi + 1; break;
    case 4: v = 0; break;
    case 5: v = static_cast<I128>(static_cast<U128>(src->Bits64()) << src->Pick(63)) * (src->Coin() ? -1 : 1); break;
    default: v = t.lo + static_cast<I128>(static_cast<U128>(src->Bits64()) % static_cast<U128>(t.hi - t.lo + 1));
  }
  c.text = Decimal(v);
  bool syntax = src->Pick(3) == 0;
  if (syntax) {
    const size_t sign = c.text[0] == '-' ? 1 : 0;
    switch (src->Pick(6)) {
      case 0: c.text.insert(0, "+"); break;
      case 1: c.text.insert(sign, "0"); break;  // a leading zero ("00", "-05")
      case 2: c.text.insert(sign, "0x"); break;
      case 3: c.text.insert(src->Pick(static_cast<unsigned>(c.text.size()) + 1), ","); break;
      case 4: c.text = v == 0 ? "-0" : c.text + ".0"; break;
      default: NeverASpelling(src, &c.text); break;
    }
  }
  c.bytes = Little(static_cast<U128>(v), t.width);
  Judge(&c, syntax, v < t.lo || v > t.hi);
  return c;
}

// ---- dates, times, timestamps -----------------------------------------------

struct DateParts {
  int y = 1970, m = 1, d = 1;
  bool range = false;
};

inline DateParts ChooseDate(Source* src) {
  static const DateParts kEdges[] = {{1, 1, 1, false},     {9999, 12, 31, false}, {1970, 1, 1, false},
                                     {1677, 9, 21, false}, {2262, 4, 11, false},  {2000, 2, 29, false},
                                     {1900, 2, 28, false}, {1, 1, 2, false},      {9999, 12, 30, false}};
  DateParts p;
  if (src->Coin()) {
    p = kEdges[src->Pick(sizeof kEdges / sizeof kEdges[0])];
  } else {
    p.y = 1 + static_cast<int>(src->Bits32() % 9999);
    p.m = 1 + static_cast<int>(src->Pick(12));
    p.d = 1 + static_cast<int>(src->Pick(static_cast<unsigned>(MonthDays(p.y, p.m))));
  }
  if (src->Pick(5) == 0) {
    p.range = true;
    switch (src->Pick(3)) {
      case 0: p.y = 0; break;
      case 1: p.m = src->Coin() ? 0 : 13 + static_cast<int>(src->Pick(87)); break;
      default: p.d = src->Coin() ? 0 : MonthDays(p.y, p.m) + 1 + static_cast<int>(src->Pick(static_cast<unsigned>(99 - MonthDays(p.y, p.m)))); break;
    }
  }
  return p;
}

inline std::string DateText(const DateParts& p) { return Four(p.y) + "-" + Two(p.m) + "-" + Two(p.d); }

// A syntax fault inside YYYY-MM-DD.
inline void DateFault(Source* src, std::string* s) {
  switch (src->Pick(5)) {
    case 0: (*s)[4] = '/'; break;
    case 1: s->erase(8, 1); break;  // a one-digit day
    case 2: (*s)[1] = 'O'; break;
    case 3: (*s)[7] = '.'; break;
    default: s->insert(0, "+"); break;
  }
}

struct ClockParts {
  int h = 0, mi = 0, s = 0;
  std::string fraction;   // the digits after '.', empty: no '.'
  int64_t units = 0;      // the fraction in the unit (digits)
  bool range = false, syntax = false;
};

inline ClockParts ChooseClock(Source* src, int digits) {
  ClockParts p;
  switch (src->Pick(4)) {
    case 0: p.h = 23, p.mi = 59, p.s = 59; break;
    case 1: break;
    default:
      p.h = static_cast<int>(src->Pick(24));
      p.mi = static_cast<int>(src->Pick(60));
      p.s = static_cast<int>(src->Pick(60));
  }
  const unsigned n = src->Pick(13);
  for (unsigned i = 0; i < n; ++i) {
    p.fraction.push_back(static_cast<int>(i) < digits ? static_cast<char>('0' + src->Pick(10)) : '0');
  }
  if (src->Pick(8) == 0) {  // a non-zero digit finer than the unit: never truncated
    while (static_cast<int>(p.fraction.size()) <= digits) p.fraction.push_back('0');
    p.fraction[digits + src->Pick(static_cast<unsigned>(p.fraction.size()) - digits)] =
        static_cast<char>('1' + src->Pick(9));
    p.syntax = true;
  }
  for (int i = 0; i < digits; ++i) {
    p.units = p.units * 10 + (i < static_cast<int>(p.fraction.size()) ? p.fraction[i] - '0' : 0);
  }
  if (src->Pick(6) == 0) {
    p.range = true;
    switch (src->Pick(3)) {
      case 0: p.h = 24 + static_cast<int>(src->Pick(76)); break;
      case 1: p.mi = 60 + static_cast<int>(src->Pick(40)); break;
      default: p.s = 60 + static_cast<int>(src->Pick(40)); break;
    }
  }
  return p;
}

inline std::string ClockText(const ClockParts& p) {
  return Two(p.h) + ":" + Two(p.mi) + ":" + Two(p.s) + (p.fraction.empty() ? "" : "." + p.fraction);
}

// A syntax fault inside HH:MM:SS[.fraction].
inline void ClockFault(Source* src, std::string* s) {
  switch (src->Pick(5)) {
    case 0: (*s)[2] = '.'; break;
    case 1: (*s)[4] = 'o'; break;
    case 2: s->erase(0, 1); break;  // a one-digit hour
    case 3: s->push_back('.'); break;  // a point without digits (or a second one)
    default: (*s)[5] = '-'; break;
  }
}

struct ZoneParts {
  std::string text;       // empty: no zone
  int64_t seconds = 0;    // east of UTC
  bool range = false, syntax = false;
};

inline ZoneParts ChooseZone(Source* src) {
  ZoneParts z;
  const unsigned form = src->Pick(8);
  if (form < 3) return z;
  const std::string space = src->Coin() ? " " : "";
  if (form == 3) {
    static const char* kWords[] = {"z", "utc", "gmt"};
    z.text = space + MixCase(src, kWords[src->Pick(3)]);
    return z;
  }
  const bool minus = src->Coin();
  int oh = src->Coin() ? 23 : static_cast<int>(src->Pick(24));
  int om = static_cast<int>(src->Pick(60)), os = static_cast<int>(src->Pick(60));
  const unsigned shape = src->Pick(4);  // +HH, +HHMM, +HH:MM, +HH:MM:SS
  if (shape == 0) om = 0;
  if (shape < 3) os = 0;
  if (src->Pick(6) == 0) {
    z.range = true;
    const unsigned field = shape == 0 ? 0 : src->Pick(shape == 3 ? 3 : 2);
    if (field == 0) oh = 24 + static_cast<int>(src->Pick(76));
    if (field == 1) om = 60 + static_cast<int>(src->Pick(40));
    if (field == 2) os = 60 + static_cast<int>(src->Pick(40));
  }
  z.text = space + (minus ? "-" : "+") + Two(oh);
  if (shape == 1) z.text += Two(om);
  if (shape >= 2) z.text += ":" + Two(om);
  if (shape == 3) z.text += ":" + Two(os);
  z.seconds = (minus ? -1 : 1) * (oh * 3600 + om * 60 + os);
  if (src->Pick(8) == 0) {  // not a zone's form
    static const char* kBad[] = {" CET", " Europe/Berlin", "+5:30", "+05:3", "+05:30:0", "+0530:00", "+", " "};
    z.text = kBad[src->Pick(8)];
    z.syntax = true;
  }
  return z;
}

// BC spellings (PostgreSQL "... BC", DuckDB "... (BC)", the latter also
// between a timestamp's date and clock), or infinity: range errors of a
// well-formed text.
inline bool Unstorable(Source* src, const std::string& date, const std::string& rest, std::string* text) {
  const unsigned form = src->Pick(24);
  if (form == 0) {
    *text = MixCase(src, src->Coin() ? "-infinity" : "infinity");
  } else if (form == 1) {
    *text = date + rest + " BC";
  } else if (form == 2) {
    *text = date + rest + " (BC)";
  } else if (form == 3 && !rest.empty() && rest[0] == ' ') {
    *text = date + " (BC)" + rest;
  } else {
    return false;
  }
  return true;
}

inline Case DateCase(Source* src, const Type& t) {
  Case c;
  c.type = t;
  const DateParts p = ChooseDate(src);
  std::string date = DateText(p);
  bool syntax = src->Pick(4) == 0;
  if (syntax) DateFault(src, &date);
  c.text = date;
  if (Unstorable(src, date, "", &c.text)) {
    Judge(&c, syntax && c.text[0] != '-' && c.text[0] != 'i' && c.text[0] != 'I', true);
    return c;
  }
  if (src->Pick(8) == 0) NeverASpelling(src, &c.text), syntax = true;
  if (!p.range) c.bytes = Little(static_cast<U128>(static_cast<I128>(DayNumber(p.y, p.m, p.d))), 4);
  Judge(&c, syntax, p.range);
  return c;
}

inline Case TimeCase(Source* src, const Type& t) {
  Case c;
  c.type = t;
  const ClockParts clock = ChooseClock(src, t.digits);
  const ZoneParts zone = ChooseZone(src);
  std::string text = ClockText(clock);
  bool syntax = clock.syntax || zone.syntax || (!zone.text.empty() && !t.utc);
  if (src->Pick(6) == 0) ClockFault(src, &text), syntax = true;
  c.text = text + zone.text;
  if (src->Pick(10) == 0) NeverASpelling(src, &c.text), syntax = true;
  const bool range = clock.range || zone.range;
  if (!range) {
    int64_t secs = (clock.h * 3600 + clock.mi * 60 + clock.s - zone.seconds) % 86400;
    if (secs < 0) secs += 86400;
    c.bytes = Little(static_cast<U128>(static_cast<I128>(secs) * Pow10(t.digits) + clock.units), t.width);
  }
  Judge(&c, syntax, range);
  return c;
}

inline Case TimestampCase(Source* src, const Type& t) {
  Case c;
  c.type = t;
  const DateParts date = ChooseDate(src);
  const ClockParts clock = ChooseClock(src, t.digits);
  const ZoneParts zone = ChooseZone(src);
  std::string date_text = DateText(date), clock_text = ClockText(clock);
  bool syntax = clock.syntax || zone.syntax || (!zone.text.empty() && !t.utc);
  if (src->Pick(8) == 0) DateFault(src, &date_text), syntax = true;
  if (src->Pick(8) == 0) ClockFault(src, &clock_text), syntax = true;
  const char separator = src->Pick(16) == 0 ? 'x' : src->Coin() ? 'T' : ' ';
  syntax = syntax || separator == 'x';
  const std::string rest = std::string(1, separator) + clock_text + zone.text;
  if (Unstorable(src, date_text, rest, &c.text)) {
    Judge(&c, syntax && c.text[0] != '-' && c.text[0] != 'i' && c.text[0] != 'I', true);
    return c;
  }
  c.text = date_text + rest;
  if (src->Pick(10) == 0) NeverASpelling(src, &c.text), syntax = true;
  bool range = date.range || clock.range || zone.range;
  if (!range) {
    // One count of seconds, the offset subtracted: the years 1 .. 9999 are
    // the UTC instant's.
    const int64_t secs = DayNumber(date.y, date.m, date.d) * 86400 + clock.h * 3600 +
                         clock.mi * 60 + clock.s - zone.seconds;
    const int64_t day = FloorDiv(secs, 86400);
    range = day < kFirstDay || day > kLastDay;
    if (t.kind == Kind::kInt96) {
      const I128 nanos = static_cast<I128>(secs - day * 86400) * 1000000000 + clock.units;
      c.bytes = Little(static_cast<U128>(nanos), 8) + Little(static_cast<U128>(day + 2440588), 4);
    } else {
      const I128 units = static_cast<I128>(secs) * Pow10(t.digits) + clock.units;
      range = range || units < INT64_MIN || units > INT64_MAX;
      c.bytes = Little(static_cast<U128>(units), 8);
    }
  }
  Judge(&c, syntax, range);
  return c;
}

// ---- decimals ---------------------------------------------------------------

inline Case DecimalCase(Source* src, const Type& t) {
  Case c;
  c.type = t;
  const int p = t.precision < 38 ? t.precision : 38, s = t.scale;
  // |unscaled| as digits: within the precision, or (a range fault) past it.
  const bool too_many = src->Pick(6) == 0;
  const int k = too_many ? p + 1 + static_cast<int>(src->Pick(3)) : 1 + static_cast<int>(src->Pick(static_cast<unsigned>(p)));
  std::string mag;
  if (src->Pick(10) == 0 && !too_many) {
    mag = "0";
  } else {
    mag.push_back(static_cast<char>('1' + src->Pick(9)));
    for (int i = 1; i < k; ++i) mag.push_back(static_cast<char>('0' + src->Pick(10)));
    if (src->Pick(3) == 0) {
      for (size_t i = mag.size() - src->Pick(static_cast<unsigned>(k)); i < mag.size(); ++i) mag[i] = '0';
      if (mag[0] == '0') mag[0] = '1';
    }
  }
  const bool negative = src->Coin();
  if (src->Pick(32) == 0) {
    static const char* kSpecial[] = {"NaN", "nan", "Infinity", "-Infinity", "inf", "-inf", "-NaN"};
    c.text = MixCase(src, kSpecial[src->Pick(7)]);
    Judge(&c, false, true);
    return c;
  }
  std::string body;
  const unsigned spelling = src->Pick(4);
  const bool too_fine = src->Pick(8) == 0;  // a non-zero digit past the scale: syntax
  size_t tz = 0;
  while (tz + 1 < mag.size() && mag[mag.size() - 1 - tz] == '0') ++tz;
  const std::string sig = mag.substr(0, mag.size() - tz);
  const std::string e_char = src->Coin() ? "E" : "e";
  auto exponent = [&](int64_t x) {
    std::string pad(src->Pick(3), '0');
    return e_char + (x < 0 ? "-" : src->Coin() ? "+" : "") + pad + std::to_string(x < 0 ? -x : x);
  };
  if (spelling == 0 || too_fine) {  // [int].[frac], the fraction shortened or lengthened by zeros
    body = PointAt(mag, s);
    if (too_fine) {
      if (s == 0) body += ".";
      body += std::string(src->Pick(3), '0');
      body.push_back(static_cast<char>('1' + src->Pick(9)));
    } else if (src->Coin() && s > 0) {
      size_t strip = src->Pick(static_cast<unsigned>(s) + 1);
      while (strip-- > 0 && body.back() == '0') body.pop_back();
      if (body.back() == '.') body.pop_back();
    } else {
      const unsigned more = src->Pick(4);
      if (more > 0 && s == 0) body += ".";
      body += std::string(more, '0');
    }
  } else if (spelling == 1) {  // Java BigDecimal: d.ddd E x
    body = sig.substr(0, 1) + (sig.size() > 1 ? "." + sig.substr(1) : "");
    body += exponent(static_cast<int64_t>(sig.size()) - 1 + static_cast<int64_t>(tz) - s);
  } else if (spelling == 2) {  // an integer mantissa: 12E-1
    body = sig + exponent(static_cast<int64_t>(tz) - s);
  } else {  // the point moved and an exponent to make up for it
    const int shift = static_cast<int>(src->Pick(5)) - 2;
    body = PointAt(mag, s + shift < 0 ? 0 : s + shift) + exponent(s + shift < 0 ? -s : shift);
  }
  c.text = (negative ? "-" : "") + body;
  bool syntax = too_fine;
  if (src->Pick(4) == 0) {
    syntax = true;
    const size_t sign = negative ? 1 : 0;
    const size_t e_at = c.text.find_first_of("eE");
    switch (src->Pick(7)) {
      case 0: c.text.insert(0, "+"); break;
      case 1: c.text.insert(sign, "0"); break;   // a leading zero
      case 2: c.text.insert(sign, "."); break;   // no integer part
      case 3: c.text.insert(e_at == std::string::npos ? c.text.size() : e_at, "."); break;
      case 4: {
        const size_t dot = c.text.find('.');
        if (dot != std::string::npos) c.text[dot] = ','; else c.text.insert(sign + 1, ",");
        break;
      }
      case 5: c.text += e_at == std::string::npos ? (src->Coin() ? "E" : "e-") : "E5"; break;
      default: NeverASpelling(src, &c.text); break;
    }
  }
  bool range = static_cast<int>(mag.size()) > t.precision && mag != "0";
  if (!range && t.supported) {
    I128 v = 0;
    for (char ch : mag) v = v * 10 + (ch - '0');
    if (negative) v = -v;
    const int phys = t.column.physical_type;
    if (phys == BB_PARQUET_INT32 || phys == BB_PARQUET_INT64) {
      c.bytes = Little(static_cast<U128>(v), t.width);
    } else if (phys == BB_PARQUET_FIXED_LEN_BYTE_ARRAY) {
      range = FewestBytes(v) > t.width;
      c.bytes = BigEndian(v, t.width);
    } else {
      c.bytes = BigEndian(v, FewestBytes(v));
    }
  }
  Judge(&c, syntax, range);
  return c;
}

// ---- UUID -------------------------------------------------------------------

inline Case UuidCase(Source* src, const Type& t) {
  Case c;
  c.type = t;
  std::string hex;
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 16; ++i) {
    const uint8_t b = static_cast<uint8_t>(src->Pick(256));
    c.bytes.push_back(static_cast<char>(b));
    hex.push_back(kHex[b >> 4]);
    hex.push_back(kHex[b & 15]);
  }
  hex = MixCase(src, hex);
  const std::string dashed = hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
                             hex.substr(16, 4) + "-" + hex.substr(20);
  const unsigned form = src->Pick(4);
  std::string core = form == 1 ? hex : dashed;
  bool syntax = src->Pick(3) == 0;
  unsigned fault = syntax ? src->Pick(6) : 99;
  if (fault == 0) core[src->Pick(static_cast<unsigned>(core.size()))] = 'g';
  if (fault == 1) core.erase(src->Pick(static_cast<unsigned>(core.size())), 1);
  if (fault == 2) core = form == 1 ? core.insert(7, "-") : core.erase(8, 1).insert(9, "-");  // a dash moved
  if (fault == 3) core += "0";
  if (fault == 4) c.text = "{" + hex + "}";  // braces and urn:uuid: only with 8-4-4-4-12
  else if (fault == 5) c.text = MixCase(src, "urn:uuid:") + hex;
  else if (form == 2) c.text = "{" + core + "}";
  else if (form == 3) c.text = MixCase(src, "urn:uuid:") + core;
  else c.text = core;
  if (src->Pick(12) == 0) NeverASpelling(src, &c.text), syntax = true;
  Judge(&c, syntax, false);
  return c;
}

// ---- FLOAT, DOUBLE, FLOAT16 (exact values only) -----------------------------

// The bits of m * 2^e (m < 2^11, the value a half holds exactly).
inline uint16_t HalfBits(uint64_t m, int e) {
  if (m == 0) return 0;
  int top = 63;
  while (!((m >> top) & 1)) --top;
  const int exp = top + e;  // value = 1.x * 2^exp
  if (exp < -14) return static_cast<uint16_t>(m << (e + 24));  // a subnormal: units of 2^-24
  const uint64_t mant = exp - 10 >= e ? m >> (exp - 10 - e) : m << (e - exp + 10);
  return static_cast<uint16_t>((exp + 15) << 10 | (mant - 1024));
}

inline Case FloatCase(Source* src, const Type& t) {
  Case c;
  c.type = t;
  const bool negative = src->Coin();
  const std::string sign = negative ? "-" : src->Pick(4) == 0 ? "+" : "";
  const unsigned what = src->Pick(16);
  bool syntax = false, range = false;
  if (what == 0) {  // every NaN spelling is the one quiet NaN
    c.text = sign + MixCase(src, "nan");
    c.bytes = t.kind == Kind::kFloat ? Little(0x7fc00000u, 4) : t.kind == Kind::kDouble
              ? Little(0x7ff8000000000000u, 8) : Little(0x7e00u, 2);
  } else if (what == 1) {
    c.text = sign + MixCase(src, src->Coin() ? "inf" : "infinity");
    const uint64_t bits = t.kind == Kind::kFloat ? 0x7f800000u : t.kind == Kind::kDouble ? 0x7ff0000000000000u : 0x7c00u;
    c.bytes = Little(bits | (negative ? (uint64_t{1} << (8 * t.width - 1)) : 0), t.width);
  } else if (what == 2) {  // past the finite range, or non-zero and rounding to 0
    static const char* kFloat[] = {"1e39", "3.5e38", "1e-50", "1e999999999999"};
    static const char* kDouble[] = {"1e309", "2e308", "1e-400", "1e-999999999999"};
    static const char* kHalf[] = {"65520", "1e5", "1e-9", "7e-9"};
    const char* const* list = t.kind == Kind::kFloat ? kFloat : t.kind == Kind::kDouble ? kDouble : kHalf;
    c.text = sign + list[src->Pick(4)];
    range = true;
  } else {
    const int mant_bits = t.kind == Kind::kFloat ? 24 : t.kind == Kind::kDouble ? 53 : 11;
    const uint64_t m = src->Bits64() & ((uint64_t{1} << mant_bits) - 1);
    const int e = t.kind == Kind::kFloat ? static_cast<int>(src->Pick(121)) - 60
                  : t.kind == Kind::kDouble ? static_cast<int>(src->Pick(161)) - 80
                                            : static_cast<int>(src->Pick(29)) - 24;
    if (t.kind == Kind::kHalf) {
      c.bytes = Little(HalfBits(m, e) | (negative ? 0x8000u : 0u), 2);
    } else if (t.kind == Kind::kFloat) {
      const float f = std::ldexp(static_cast<float>(m), e) * (negative ? -1.0f : 1.0f);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      c.bytes = Little(bits, 4);
    } else {
      const double d = std::ldexp(static_cast<double>(m), e) * (negative ? -1.0 : 1.0);
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      c.bytes = Little(bits, 8);
    }
    if (src->Coin()) {  // hex: 0x<m>p<e>
      std::string hex;
      static const char kHex[] = "0123456789abcdef";
      uint64_t x = m;
      do hex.insert(hex.begin(), kHex[x & 15]), x >>= 4; while (x);
      c.text = sign + (src->Coin() ? "0x" : "0X") + MixCase(src, hex) + (src->Coin() ? "p" : "P") + std::to_string(e);
    } else {  // the exact decimal, the point possibly moved into an exponent
      int frac = 0;
      const std::string digits = m == 0 ? "0" : DyadicDecimal(m, e, &frac);
      const int shift = static_cast<int>(src->Pick(7)) - 3;
      if (frac + shift >= 0 && src->Coin()) {
        c.text = sign + PointAt(digits, frac + shift) + (src->Coin() ? "e" : "E") + std::to_string(shift);
      } else {
        c.text = sign + PointAt(digits, frac);
      }
    }
  }
  if (src->Pick(5) == 0) {
    syntax = true;
    switch (src->Pick(5)) {
      case 0: c.text.insert(0, "-"); c.text.insert(0, src->Coin() ? "-" : "+"); break;  // two signs
      case 1: c.text += "e"; break;  // an exponent without digits
      case 2: c.text.insert(c.text.find_first_of("0123456789") == std::string::npos ? 0 : c.text.find_first_of("0123456789") + 1, ","); break;
      case 3: c.text = sign + (src->Coin() ? "0x" : "."); break;
      default: NeverASpelling(src, &c.text); break;
    }
  }
  Judge(&c, syntax, range);
  return c;
}

// ---- INTERVAL, FIXED_LEN_BYTE_ARRAY, BOOLEAN --------------------------------

inline Case IntervalCase(Source* src, const Type& t) {
  Case c;
  c.type = t;
  uint64_t part[3];
  bool range = false, negative = false;
  for (uint64_t& p : part) {
    const unsigned shape = src->Pick(8);
    p = shape == 0 ? 4294967295u : shape == 1 ? 4294967296u + src->Pick(200) : shape < 4 ? src->Pick(100) : src->Bits32();
    range = range || p > 4294967295u;
  }
  const unsigned form = src->Pick(3);
  static const char* kMonths[] = {"months", "month", "mons", "mon", "MONTHS"};
  static const char* kDays[] = {"days", "day", "Days"};
  if (form == 0) {
    c.text = std::to_string(part[0]) + " " + kMonths[src->Pick(5)] + " " + std::to_string(part[1]) + " " +
             kDays[src->Pick(3)] + " " + std::to_string(part[2]) + " ms";
  } else if (form == 1) {  // ISO 8601, the milliseconds as seconds with a fraction
    c.text = "P" + std::to_string(part[0]) + "M" + std::to_string(part[1]) + "DT" +
             std::to_string(part[2] / 1000) + "." + Four(static_cast<int64_t>(part[2] % 1000)).substr(1) + "S";
  } else {  // PostgreSQL: days and a clock, hours past 23
    const uint64_t ms = part[2];
    c.text = std::to_string(part[0]) + " mons " + std::to_string(part[1]) + " days " +
             std::to_string(ms / 3600000) + ":" + Two(static_cast<int>(ms / 60000 % 60)) + ":" +
             Two(static_cast<int>(ms / 1000 % 60)) + "." + Four(static_cast<int64_t>(ms % 1000)).substr(1);
  }
  if (src->Pick(6) == 0) {  // a negative part (a negative ISO interval)
    c.text.insert(0, "-");
    negative = true;
  }
  bool syntax = false;
  if (src->Pick(4) == 0) {
    syntax = true;
    switch (src->Pick(4)) {
      case 0: c.text += " "; break;
      case 1: c.text.insert(c.text.find(' ') == std::string::npos ? 1 : c.text.find(' '), " "); break;
      case 2: c.text += form == 1 ? "5S" : " fortnights"; break;
      default: c.text.insert(c.text.size() / 2, "x"); break;
    }
  }
  c.bytes = Little(part[0], 4) + Little(part[1], 4) + Little(part[2], 4);
  Judge(&c, syntax, range || negative);
  return c;
}

inline Case BytesCase(Source* src, const Type& t) {
  Case c;
  c.type = t;
  const int n = t.kind == Kind::kFixed && src->Pick(4) != 0 ? t.width : static_cast<int>(src->Pick(30));
  for (int i = 0; i < n; ++i) c.text.push_back(static_cast<char>(src->Pick(256)));
  c.bytes = c.text;
  Judge(&c, t.kind == Kind::kFixed && n != t.width, false);
  return c;
}

inline Case MakeCase(Source* src, const Type& t) {
  switch (t.kind) {
    case Kind::kInteger: return IntegerCase(src, t);
    case Kind::kDate: return DateCase(src, t);
    case Kind::kTime: return TimeCase(src, t);
    case Kind::kTimestamp: case Kind::kInt96: return TimestampCase(src, t);
    case Kind::kDecimal: return DecimalCase(src, t);
    case Kind::kUuid: return UuidCase(src, t);
    case Kind::kFloat: case Kind::kDouble: case Kind::kHalf: return FloatCase(src, t);
    case Kind::kInterval: return IntervalCase(src, t);
    default: return BytesCase(src, t);
  }
}

}  // namespace bbfuzz::text_model

#endif  // BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_CASES_H_
