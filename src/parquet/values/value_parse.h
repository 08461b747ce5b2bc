// SPDX-License-Identifier: Apache-2.0
// Parsers of the text forms of parquet_value.h: integers, floating-point
// numbers, decimals, dates, times, timestamps, intervals. Each returns BB_OK,
// BB_ERR_VALUE_SYNTAX or BB_ERR_VALUE_RANGE and, on error, what is wrong in
// *why (no value in it). Syntax first: a text not of the form is a syntax
// error whatever its numbers, so each parser reads the whole text's form
// before it checks any range. None reads the process locale. Numbers are in
// value_parse.cc, dates, times and intervals in value_parse_time.cc.
#ifndef BLOCKBLOOM_PARQUET_VALUES_VALUE_PARSE_H_
#define BLOCKBLOOM_PARQUET_VALUES_VALUE_PARSE_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace blockbloom::internal::parquet_value {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

// [-]digits, no '+', spaces or leading zeros, "-0" refused; in min .. max.
int ParseInteger(std::string_view s, Int128 min, Int128 max, Int128* v, std::string* why);

// The one NaN of the text rule, whatever sign or payload the text named: the
// positive quiet NaN with no payload (what Python's float('nan'), numpy's
// np.nan, Java's Double.NaN and C's NAN are on x86 and ARM).
constexpr uint32_t kFloatNaN = 0x7fc00000u;
constexpr uint64_t kDoubleNaN = 0x7ff8000000000000u;
constexpr uint16_t kHalfNaN = 0x7e00u;

// What a floating-point text is: a finite or infinite number, or NaN (every
// spelling of NaN is the one NaN: its sign and payload are not kept).
enum class FloatClass { kNumber, kNaN };

// [+|-] then decimal digits with '.' and an optional exponent, 0x / 0X hex
// digits with an optional 'p' exponent, inf / infinity, or nan (any case),
// rounded once to the nearest double (single: float), as C's strtod reads
// it in the "C" locale whatever LC_NUMERIC says. A finite number that
// overflows, or a non-zero one that rounds to 0, is a range error.
int ParseDouble(std::string_view s, double* v, FloatClass* cls, std::string* why);
int ParseFloat(std::string_view s, float* v, FloatClass* cls, std::string* why);

// As ParseDouble, rounded once to the nearest IEEE half (ties to even): the
// half's bits (NaN: kHalfNaN). A decimal text is rounded from its exact
// value, never through the nearest double (which can land on a midpoint
// between two halves the text is not on); a hex text of more than 53
// significant bits rounds through the double. A finite number rounding to
// infinity, or a non-zero one rounding to 0, is a range error.
int ParseHalf(std::string_view s, uint16_t* bits, std::string* why);

// [-]digits[.digits][(e|E)[+|-]digits]: the unscaled value of DECIMAL(p, s),
// p <= 38, exactly (digits beyond the scale must be zeros). Decided from the
// digits and the exponent's size, never by expanding the exponent. NaN and
// infinities (an engine's numeric NaN) are range errors: no DECIMAL holds them.
int ParseDecimal(std::string_view s, int precision, int scale, Int128* unscaled,
                 std::string* why);

// YYYY-MM-DD, 0001-01-01 .. 9999-12-31: days since 1970-01-01.
int ParseDate(std::string_view s, int64_t* days, std::string* why);

// HH:MM:SS[.fraction][zone] (the zone only when allow_zone; see
// ParseTimestamp): nanoseconds of the day, in UTC when a zone is given. The
// fraction may have more than `digits` digits only when the rest are zeros.
int ParseTime(std::string_view s, int digits, bool allow_zone, int64_t* nanos, std::string* why);

// YYYY-MM-DD[ T]HH:MM:SS[.fraction][zone], the zone only when allow_zone:
// an optional space, then Z, UTC or GMT, or an offset +HH, +HHMM, +HH:MM or
// +HH:MM:SS (or -); a zone name (Europe/Berlin, CET) is refused, since its
// offset depends on rules this library does not carry. *days and *nanos of
// the day, in UTC when a zone is given; the UTC day must lie in 0001-01-01 ..
// 9999-12-31 (a range error otherwise, whatever the wall clock read).
int ParseTimestamp(std::string_view s, int digits, bool allow_zone, int64_t* days,
                   int64_t* nanos, std::string* why);

// Parquet's INTERVAL: months, days and milliseconds, each 0 .. 2^32 - 1.
struct Interval {
  uint32_t months = 0, days = 0, millis = 0;
};

// "M months D days N ms"; PostgreSQL's and DuckDB's "[n year[s]] [n mon[s] |
// n month[s]] [n day[s]] [HH:MM:SS[.fff]]"; ISO 8601's
// "P[nY][nM][nW][nD][T[nH][nM][n[.fff]S]]". A negative part is a range error.
int ParseInterval(std::string_view s, Interval* v, std::string* why);

}  // namespace blockbloom::internal::parquet_value

#endif  // BLOCKBLOOM_PARQUET_VALUES_VALUE_PARSE_H_
