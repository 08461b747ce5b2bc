// SPDX-License-Identifier: Apache-2.0
// The text forms of integers, decimals, dates, times and timestamps
// (parquet_value.h); see parquet_value_parse.h.
#include "api/parquet/value_parse.h"

#include "blockbloom/blockbloom.h"

namespace blockbloom::internal::parquet_value {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int Fail(int code, const char* what, std::string* why) {
  *why = what;
  return code;
}

// Exactly n digits at s[pos..]: their value, else -1.
int Fixed(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return -1;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!IsDigit(s[i])) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int DaysInMonth(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
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

int ParseDecimal(std::string_view s, int precision, int scale, Int128* unscaled,
                 std::string* why) {
  const bool negative = !s.empty() && s[0] == '-';
  std::string_view d = negative ? s.substr(1) : s;
  const size_t dot = d.find('.');
  std::string_view whole = d.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view() : d.substr(dot + 1);
  const char* kForm = "is not a decimal number";
  if (whole.empty() || (dot != std::string_view::npos && frac.empty()) ||
      (whole[0] == '0' && whole.size() > 1)) {
    return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
  }
  for (char c : whole) {
    if (!IsDigit(c)) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
  }
  for (char c : frac) {
    if (!IsDigit(c)) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
  }
  if (frac.size() > static_cast<size_t>(scale)) {
    return Fail(BB_ERR_VALUE_SYNTAX, "has more fraction digits than the scale", why);
  }
  const size_t int_digits = whole == "0" ? 0 : whole.size();
  if (int_digits > static_cast<size_t>(precision - scale)) {
    return Fail(BB_ERR_VALUE_RANGE, "has more integer digits than the precision allows", why);
  }
  Int128 v = 0;
  for (char c : whole) v = v * 10 + (c - '0');
  for (int i = 0; i < scale; ++i) {
    v = v * 10 + (static_cast<size_t>(i) < frac.size() ? frac[i] - '0' : 0);
  }
  *unscaled = negative ? -v : v;
  return BB_OK;
}

int ParseDate(std::string_view s, int64_t* days, std::string* why) {
  const int y = Fixed(s, 0, 4), m = Fixed(s, 5, 2), d = Fixed(s, 8, 2);
  if (s.size() != 10 || s[4] != '-' || s[7] != '-' || y < 0 || m < 0 || d < 0) {
    return Fail(BB_ERR_VALUE_SYNTAX, "is not a date", why);
  }
  if (y < 1) return Fail(BB_ERR_VALUE_RANGE, "is not a date: year 0", why);
  if (m < 1 || m > 12) return Fail(BB_ERR_VALUE_RANGE, "is not a date: no such month", why);
  if (d < 1 || d > DaysInMonth(y, m)) {
    return Fail(BB_ERR_VALUE_RANGE, "is not a date: no such day in that month", why);
  }
  *days = DaysFromCivil(y, m, d);
  return BB_OK;
}

int ParseTime(std::string_view s, int digits, int64_t* nanos, std::string* why) {
  const int h = Fixed(s, 0, 2), m = Fixed(s, 3, 2), sec = Fixed(s, 6, 2);
  if (s.size() < 8 || s[2] != ':' || s[5] != ':' || h < 0 || m < 0 || sec < 0 ||
      (s.size() > 8 && (s[8] != '.' || s.size() == 9))) {
    return Fail(BB_ERR_VALUE_SYNTAX, "is not a time of day", why);
  }
  std::string_view frac = s.size() > 9 ? s.substr(9) : std::string_view();
  int64_t f = 0;
  for (size_t i = 0; i < 9; ++i) {
    if (i < frac.size() && !IsDigit(frac[i])) {
      return Fail(BB_ERR_VALUE_SYNTAX, "is not a time of day", why);
    }
    f = f * 10 + (i < frac.size() ? frac[i] - '0' : 0);
  }
  if (frac.size() > static_cast<size_t>(digits)) {
    return Fail(BB_ERR_VALUE_SYNTAX, "has more fraction digits than the unit holds", why);
  }
  if (h > 23 || m > 59 || sec > 59) {
    return Fail(BB_ERR_VALUE_RANGE, "is not a time of day: hour, minute or second too large",
                why);
  }
  *nanos = ((h * 60 + m) * 60 + sec) * int64_t{1000000000} + f;
  return BB_OK;
}

int ParseTimestamp(std::string_view s, int digits, bool allow_offset, int64_t* days,
                   int64_t* nanos, std::string* why) {
  if (s.size() < 19 || (s[10] != ' ' && s[10] != 'T')) {
    return Fail(BB_ERR_VALUE_SYNTAX, "is not a timestamp", why);
  }
  int64_t offset_minutes = 0;
  std::string_view time = s.substr(11);
  if (!time.empty() && (time.back() == 'Z' || time.back() == 'z')) {
    time.remove_suffix(1);
    if (!allow_offset) {
      return Fail(BB_ERR_VALUE_SYNTAX, "has a time zone, but the column is local time", why);
    }
  } else if (time.size() >= 6 && (time[time.size() - 6] == '+' || time[time.size() - 6] == '-')) {
    std::string_view off = time.substr(time.size() - 6);
    const int oh = Fixed(off, 1, 2), om = Fixed(off, 4, 2);
    if (off[3] != ':' || oh < 0 || om < 0) {
      return Fail(BB_ERR_VALUE_SYNTAX, "is not a timestamp", why);
    }
    if (!allow_offset) {
      return Fail(BB_ERR_VALUE_SYNTAX, "has a time zone, but the column is local time", why);
    }
    if (oh > 23 || om > 59) return Fail(BB_ERR_VALUE_RANGE, "has no such offset", why);
    offset_minutes = (off[0] == '-' ? -1 : 1) * (oh * 60 + om);
    time.remove_suffix(6);
  }
  int rc = ParseDate(s.substr(0, 10), days, why);
  if (rc == BB_OK) rc = ParseTime(time, digits, nanos, why);
  if (rc != BB_OK) {
    if (rc == BB_ERR_VALUE_SYNTAX && why->rfind("has", 0) != 0) *why = "is not a timestamp";
    return rc;
  }
  const int64_t kDay = int64_t{86400} * 1000000000;
  int64_t n = *nanos - offset_minutes * 60 * int64_t{1000000000};
  int64_t d = *days;
  while (n < 0) n += kDay, --d;
  while (n >= kDay) n -= kDay, ++d;
  *days = d;
  *nanos = n;
  return BB_OK;
}

}  // namespace blockbloom::internal::parquet_value
