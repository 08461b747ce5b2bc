// SPDX-License-Identifier: Apache-2.0
// An independent model of the value-text rules (docs/formats.md, "Values as
// text"), for fuzz_value_text.cc. It shares no code with the library: it
// starts from a value it chose itself (an integer, a day, a clock, an
// offset, an unscaled decimal, 16 UUID bytes, a float's mantissa and
// exponent), writes it in one of the spellings the documentation accepts,
// possibly with faults it knows the kind of, and works out the bytes
// Parquet stores (or which refusal is due) by its own arithmetic:
// - days from the year's count of leap days, not a civil-from-days formula;
// - a timestamp as one signed count of seconds, the offset subtracted, the
//   year range checked on the UTC instant;
// - decimals as a digit string and a scale, bytes by two's complement of
//   an __int128;
// - floats only where the text is exact (a dyadic value written out in
//   full, or in hex), bits put together from the mantissa and exponent.
// The refusal order is the documented one: a text not of the type's form is
// a syntax error whatever its numbers; a range error only for a
// well-formed text.
// Render* write stored bytes back as text, for the round trip of raw
// fuzzed texts the library accepted.
#ifndef BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_MODEL_H_
#define BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_MODEL_H_

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "blockbloom/blockbloom.h"
#include "blockbloom/parquet_value.h"
#include "fuzz_input.h"

namespace bbfuzz::text_model {

__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

// What the model expects of a text.
enum class Verdict { kBytes, kSyntax, kRange, kUnsupported };

enum class Kind { kInteger, kDate, kTime, kTimestamp, kInt96, kDecimal, kUuid, kFloat, kDouble,
                  kHalf, kBoolean, kFixed, kInterval, kHex };

// A column type as the model knows it, and the bb_parquet_column it is.
struct Type {
  Kind kind = Kind::kInteger;
  bb_parquet_column column{};
  I128 lo = 0, hi = 0;      // kInteger
  int width = 0;            // stored bytes (0: BYTE_ARRAY's fewest)
  bool is_signed = true;    // kInteger
  int digits = 0;           // kTime / kTimestamp / kInt96: fraction digits of the unit
  bool utc = false;         // kTime / kTimestamp
  int precision = 0, scale = 0;
  bool supported = true;    // false: every text is BB_ERR_PARQUET_UNSUPPORTED
  uint32_t flags = 0;       // BB_PARQUET_TEXT_* the text is given with
};

// A value written as text, and what the model expects of it.
struct Case {
  Type type;
  std::string text;
  Verdict verdict = Verdict::kBytes;
  std::string bytes;  // kBytes
};

// Choices read off the fuzzer's input (zeros past its end).
class Source {
 public:
  explicit Source(FuzzInput* in) : in_(in) {}
  unsigned Pick(unsigned n) { return n == 0 ? 0 : in_->Take<uint8_t>() % n; }
  bool Coin() { return Pick(2) == 1; }
  uint64_t Bits64() { return in_->Take<uint64_t>(); }
  uint32_t Bits32() { return in_->Take<uint32_t>(); }
  FuzzInput* input() { return in_; }

 private:
  FuzzInput* in_;
};

// ---- arithmetic of the model ------------------------------------------------

inline std::string Decimal(I128 v) {
  if (v == 0) return "0";
  U128 m = v < 0 ? static_cast<U128>(0) - static_cast<U128>(v) : static_cast<U128>(v);
  std::string s;
  for (; m != 0; m /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
  return v < 0 ? "-" + s : s;
}

inline I128 Pow10(int n) {
  I128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

inline std::string Little(U128 v, int width) {
  std::string s;
  for (int i = 0; i < width; ++i) s.push_back(static_cast<char>(static_cast<uint8_t>(v >> (8 * i))));
  return s;
}

// Big-endian two's complement of v in `width` bytes (sign-extended past 16).
inline std::string BigEndian(I128 v, int width) {
  std::string s;
  for (int i = width - 1; i >= 0; --i) {
    const uint8_t b = i >= 16 ? (v < 0 ? 0xff : 0x00) : static_cast<uint8_t>(static_cast<U128>(v) >> (8 * i));
    s.push_back(static_cast<char>(b));
  }
  return s;
}

// The fewest bytes of two's complement that hold v.
inline int FewestBytes(I128 v) {
  for (int n = 1; n < 16; ++n) {
    const I128 half = I128{1} << (8 * n - 1);
    if (v >= -half && v < half) return n;
  }
  return 16;
}

inline bool Leap(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

inline int MonthDays(int64_t y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && Leap(y) ? 29 : kDays[m - 1];
}

// Days since 1970-01-01 of a valid date: whole years since 0001 with their
// leap days, then the months of the year (719162 days lie between 0001-01-01
// and 1970-01-01).
inline int64_t DayNumber(int64_t y, int m, int d) {
  const int64_t before = y - 1;
  int64_t days = 365 * before + before / 4 - before / 100 + before / 400;
  for (int k = 1; k < m; ++k) days += MonthDays(y, k);
  return days + (d - 1) - 719162;
}

constexpr int64_t kFirstDay = -719162;  // 0001-01-01
constexpr int64_t kLastDay = 2932896;   // 9999-12-31

// The date of a day number (kFirstDay .. kLastDay), by search over DayNumber.
inline void DateOf(int64_t day, int64_t* y, int* m, int* d) {
  int64_t lo = 1, hi = 9999;
  while (lo < hi) {  // the last year starting on or before day
    const int64_t mid = (lo + hi + 1) / 2;
    if (DayNumber(mid, 1, 1) <= day) lo = mid; else hi = mid - 1;
  }
  *y = lo;
  int month = 1;
  while (month < 12 && DayNumber(lo, month + 1, 1) <= day) ++month;
  *m = month;
  *d = static_cast<int>(day - DayNumber(lo, month, 1)) + 1;
}

inline int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

inline std::string Two(int v) {
  char b[8];
  std::snprintf(b, sizeof b, "%02d", v);
  return b;
}

inline std::string Four(int64_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%04d", static_cast<int>(v));
  return b;
}

// Lower or upper case letters at random.
inline std::string MixCase(Source* src, std::string s) {
  for (char& c : s) {
    if (src->Coin()) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
  }
  return s;
}

// The exact decimal digits of m * 2^e (m > 0): digits and how many of them
// are fraction digits.
inline std::string DyadicDecimal(uint64_t m, int e, int* fraction_digits) {
  std::string digits = Decimal(static_cast<I128>(m));
  const int factor = e >= 0 ? 2 : 5;
  for (int i = 0; i < (e >= 0 ? e : -e); ++i) {  // digits *= factor
    int carry = 0;
    for (size_t k = digits.size(); k-- > 0;) {
      const int x = (digits[k] - '0') * factor + carry;
      digits[k] = static_cast<char>('0' + x % 10);
      carry = x / 10;
    }
    if (carry) digits.insert(digits.begin(), static_cast<char>('0' + carry));
  }
  *fraction_digits = e >= 0 ? 0 : -e;
  return digits;
}

// digits (an integer) * 10^-fraction_digits written as [int].[frac].
inline std::string PointAt(std::string digits, int fraction_digits) {
  if (fraction_digits == 0) return digits;
  while (static_cast<int>(digits.size()) <= fraction_digits) digits.insert(digits.begin(), '0');
  return digits.substr(0, digits.size() - fraction_digits) + "." +
         digits.substr(digits.size() - fraction_digits);
}

}  // namespace bbfuzz::text_model

#endif  // BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_MODEL_H_
