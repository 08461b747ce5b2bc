// SPDX-License-Identifier: Apache-2.0
// Stored bytes written back as text by the model (value_text_model.h), for
// fuzz_value_text.cc's round trip of raw texts the library accepted: the
// library must take the rendering to the same bytes. Render also checks
// that the bytes are a value of the type at all (a day within
// 0001 .. 9999, a time within the day, an unscaled decimal within the
// precision, one NaN); false when they are not.
#ifndef BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_RENDER_H_
#define BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_RENDER_H_

#include <string>

#include "value_text_model.h"

namespace bbfuzz::text_model {

inline U128 ReadLittle(const std::string& b, size_t at, int width) {
  U128 v = 0;
  for (int i = width - 1; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(b[at + static_cast<size_t>(i)]);
  return v;
}

inline I128 SignExtend(U128 v, int bits) {
  if (bits >= 128) return static_cast<I128>(v);
  const U128 sign = U128{1} << (bits - 1);
  v &= (sign << 1) - 1;
  return static_cast<I128>(v ^ sign) - static_cast<I128>(sign);
}

inline std::string Hex(uint64_t v, int digits) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  for (int i = digits - 1; i >= 0; --i) s.push_back(kHex[(v >> (4 * i)) & 15]);
  return s;
}

// HH:MM:SS.fraction of `units` since midnight, `digits` fraction digits.
inline std::string ClockOf(int64_t units, int digits) {
  const int64_t per_second = static_cast<int64_t>(Pow10(digits));
  const int64_t secs = units / per_second, frac = units % per_second;
  std::string s = Two(static_cast<int>(secs / 3600)) + ":" + Two(static_cast<int>(secs / 60 % 60)) + ":" +
                  Two(static_cast<int>(secs % 60));
  return s + "." + Decimal(frac + per_second).substr(1);
}

inline std::string DateTextOf(int64_t day) {
  int64_t y = 0;
  int m = 0, d = 0;
  DateOf(day, &y, &m, &d);
  return Four(y) + "-" + Two(m) + "-" + Two(d);
}

// Floating-point bits as a hex float: sign, 0x1.<fraction>p<exponent> (or
// 0x0.<fraction>p<min> below the normal range), inf, nan.
inline std::string HexFloat(uint64_t bits, int exp_bits, int frac_bits) {
  const uint64_t frac = bits & ((uint64_t{1} << frac_bits) - 1);
  const int64_t exp = static_cast<int64_t>((bits >> frac_bits) & ((uint64_t{1} << exp_bits) - 1));
  const int64_t bias = (int64_t{1} << (exp_bits - 1)) - 1;
  const std::string sign = (bits >> (exp_bits + frac_bits)) & 1 ? "-" : "";
  if (exp == (int64_t{1} << exp_bits) - 1) return frac ? "nan" : sign + "inf";
  const int pad = (4 - frac_bits % 4) % 4;  // whole hex digits
  const std::string digits = Hex(frac << pad, (frac_bits + pad) / 4);
  if (exp == 0) return sign + "0x0." + digits + "p" + std::to_string(1 - bias);
  return sign + "0x1." + digits + "p" + std::to_string(exp - bias);
}

inline bool Render(const Type& t, const std::string& b, std::string* text) {
  switch (t.kind) {
    case Kind::kInteger: {
      const U128 raw = ReadLittle(b, 0, t.width);
      // Unsigned annotations store the same bits: UINT_32 4294967295 is INT32 -1.
      const I128 v = t.is_signed ? SignExtend(raw, 8 * t.width) : static_cast<I128>(raw);
      if (v < t.lo || v > t.hi) return false;
      *text = Decimal(v);
      return true;
    }
    case Kind::kDate: {
      const int64_t day = static_cast<int64_t>(SignExtend(ReadLittle(b, 0, 4), 32));
      if (day < kFirstDay || day > kLastDay) return false;
      *text = DateTextOf(day);
      return true;
    }
    case Kind::kTime: {
      const int64_t units = static_cast<int64_t>(SignExtend(ReadLittle(b, 0, t.width), 8 * t.width));
      if (units < 0 || units >= 86400 * static_cast<int64_t>(Pow10(t.digits))) return false;
      *text = ClockOf(units, t.digits) + (t.utc ? "Z" : "");
      return true;
    }
    case Kind::kTimestamp: {
      const int64_t units = static_cast<int64_t>(SignExtend(ReadLittle(b, 0, 8), 64));
      const int64_t per_day = 86400 * static_cast<int64_t>(Pow10(t.digits));
      const int64_t day = FloorDiv(units, per_day);
      if (day < kFirstDay || day > kLastDay) return false;
      *text = DateTextOf(day) + "T" + ClockOf(units - day * per_day, t.digits);
      return true;
    }
    case Kind::kInt96: {
      const int64_t nanos = static_cast<int64_t>(SignExtend(ReadLittle(b, 0, 8), 64));
      const int64_t day = static_cast<int64_t>(ReadLittle(b, 8, 4)) - 2440588;
      if (nanos < 0 || nanos >= 86400 * int64_t{1000000000} || day < kFirstDay || day > kLastDay) return false;
      *text = DateTextOf(day) + " " + ClockOf(nanos, 9);
      return true;
    }
    case Kind::kDecimal: {
      const int phys = t.column.physical_type;
      I128 v = 0;
      if (phys == BB_PARQUET_INT32 || phys == BB_PARQUET_INT64) {
        v = SignExtend(ReadLittle(b, 0, t.width), 8 * t.width);
      } else {
        if (b.empty() || (phys == BB_PARQUET_FIXED_LEN_BYTE_ARRAY && b.size() != static_cast<size_t>(t.width))) return false;
        U128 raw = 0;
        for (char ch : b) raw = raw << 8 | static_cast<uint8_t>(ch);
        const int bits = static_cast<int>(b.size() * 8 < 128 ? b.size() * 8 : 128);
        v = SignExtend(raw, bits);
        if (phys == BB_PARQUET_BYTE_ARRAY && b.size() != static_cast<size_t>(FewestBytes(v))) return false;
      }
      const I128 limit = Pow10(t.precision);
      if (v <= -limit || v >= limit) return false;
      const std::string mag = Decimal(v < 0 ? -v : v);
      *text = (v < 0 ? "-" : "") + PointAt(mag, t.scale);
      return true;
    }
    case Kind::kUuid: {
      std::string h;
      for (char ch : b) h += Hex(static_cast<uint8_t>(ch), 2);
      *text = h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
      return b.size() == 16;
    }
    case Kind::kFloat: case Kind::kDouble: case Kind::kHalf: {
      const uint64_t bits = static_cast<uint64_t>(ReadLittle(b, 0, t.width));
      const int exp_bits = t.kind == Kind::kFloat ? 8 : t.kind == Kind::kDouble ? 11 : 5;
      const int frac_bits = 8 * t.width - 1 - exp_bits;
      *text = HexFloat(bits, exp_bits, frac_bits);
      // The one NaN: the positive quiet NaN without payload.
      const uint64_t nan = t.kind == Kind::kFloat ? 0x7fc00000u : t.kind == Kind::kDouble ? 0x7ff8000000000000u : 0x7e00u;
      return *text != "nan" || bits == nan;
    }
    case Kind::kHex: {
      text->clear();
      for (char ch : b) *text += Hex(static_cast<uint8_t>(ch), 2);
      return t.width == 0 || b.size() == static_cast<size_t>(t.width);
    }
    case Kind::kInterval:
      *text = Decimal(static_cast<I128>(ReadLittle(b, 0, 4))) + " months " + Decimal(static_cast<I128>(ReadLittle(b, 4, 4))) +
              " days " + Decimal(static_cast<I128>(ReadLittle(b, 8, 4))) + " ms";
      return true;
    default:
      *text = b;
      return true;
  }
}

}  // namespace bbfuzz::text_model

#endif  // BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_RENDER_H_
