// SPDX-License-Identifier: Apache-2.0
// The text forms of dates, times, timestamps and intervals (parquet_value.h);
// see value_parse.h.
#include "src/parquet/values/value_parse.h"

#include <cstdint>
#include <string>
#include <string_view>

#include "src/parquet/values/value_parse_chars.h"
#include "blockbloom/blockbloom.h"

namespace blockbloom::internal::parquet_value {
namespace {

using chars::EndsWith;
using chars::Fail;
using chars::Fixed;
using chars::IsDigit;
using chars::IsWord;

constexpr int64_t kNanosPerSecond = 1000000000;
constexpr int64_t kNanosPerDay = int64_t{86400} * kNanosPerSecond;
constexpr uint64_t kUint32Max = 0xffffffffu;

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

// PostgreSQL's infinity / -infinity: values no DATE or TIMESTAMP column
// holds (each writer stores them differently).
bool IsInfiniteWord(std::string_view s) {
  return IsWord(s, "infinity") || IsWord(s, "-infinity");
}
constexpr const char* kInfinite =
    "is an infinite date or time, which Parquet stores differently by each writer "
    "(give the stored value with the physical flag)";

// s without an engine's BC marker: PostgreSQL's "0044-03-15 BC" and
// "0044-03-15 12:00:00 BC", DuckDB's "0044-03-15 (BC)" and
// "0044-03-15 (BC) 12:00:00". False when s has none.
bool StripBc(std::string_view s, std::string* rest) {
  if (EndsWith(s, " BC")) {
    rest->assign(s.substr(0, s.size() - 3));
    return true;
  }
  if (EndsWith(s, " (BC)")) {
    rest->assign(s.substr(0, s.size() - 5));
    return true;
  }
  if (s.size() > 16 && s.substr(10, 6) == " (BC) ") {
    rest->assign(s.substr(0, 10));
    rest->append(1, ' ');
    rest->append(s.substr(16));
    return true;
  }
  return false;
}

// A date's fields as written; whether they name a day is checked apart
// (DateDays), after the whole text's form.
struct DateFields {
  int year = 0, month = 0, day = 0;
};

// YYYY-MM-DD exactly: its fields, else false.
bool DateShape(std::string_view s, DateFields* f) {
  f->year = Fixed(s, 0, 4);
  f->month = Fixed(s, 5, 2);
  f->day = Fixed(s, 8, 2);
  return s.size() == 10 && s[4] == '-' && s[7] == '-' && f->year >= 0 && f->month >= 0 &&
         f->day >= 0;
}

// The days since 1970-01-01 of well-formed fields, or a range error.
int DateDays(const DateFields& f, int64_t* days, std::string* why) {
  if (f.year < 1) return Fail(BB_ERR_VALUE_RANGE, "is not a date: year 0", why);
  if (f.month < 1 || f.month > 12) {
    return Fail(BB_ERR_VALUE_RANGE, "is not a date: no such month", why);
  }
  if (f.day < 1 || f.day > DaysInMonth(f.year, f.month)) {
    return Fail(BB_ERR_VALUE_RANGE, "is not a date: no such day in that month", why);
  }
  *days = DaysFromCivil(f.year, f.month, f.day);
  return BB_OK;
}

// HH:MM:SS[.digits] at the start of s: its length, else 0.
size_t ClockLength(std::string_view s) {
  if (s.size() < 8 || s[2] != ':' || s[5] != ':') return 0;
  size_t n = 8;
  if (n < s.size() && s[n] == '.') {
    size_t k = n + 1;
    while (k < s.size() && IsDigit(s[k])) ++k;
    if (k == n + 1) return 0;
    n = k;
  }
  return n;
}

// The fraction after a clock's '.', in units of 10^-9 (at most `digits`
// significant digits; more only when they are zeros).
int Fraction(std::string_view frac, int digits, const char* too_fine, int64_t* nanos,
             std::string* why) {
  int64_t f = 0;
  for (size_t i = 0; i < 9; ++i) f = f * 10 + (i < frac.size() ? frac[i] - '0' : 0);
  for (size_t i = static_cast<size_t>(digits); i < frac.size(); ++i) {
    if (frac[i] != '0') return Fail(BB_ERR_VALUE_SYNTAX, too_fine, why);
  }
  *nanos = f;
  return BB_OK;
}

// A clock's fields as written (the fraction in nanoseconds).
struct ClockFields {
  int hour = 0, minute = 0, second = 0;
  int64_t nanos = 0;
};

// HH:MM:SS[.fraction], exactly what ClockLength measured: its fields, or a
// syntax error (a non-digit; fraction digits the unit cannot hold).
int ClockShape(std::string_view s, int digits, ClockFields* f, std::string* why) {
  f->hour = Fixed(s, 0, 2);
  f->minute = Fixed(s, 3, 2);
  f->second = Fixed(s, 6, 2);
  if (f->hour < 0 || f->minute < 0 || f->second < 0) {
    return Fail(BB_ERR_VALUE_SYNTAX, "is not a time of day", why);
  }
  const std::string_view frac = s.size() > 9 ? s.substr(9) : std::string_view();
  return Fraction(frac, digits, "has more fraction digits than the unit holds", &f->nanos, why);
}

// Nanoseconds of the day of well-formed fields, or a range error.
int ClockNanos(const ClockFields& f, int64_t* nanos, std::string* why) {
  if (f.hour > 23 || f.minute > 59 || f.second > 59) {
    return Fail(BB_ERR_VALUE_RANGE, "is not a time of day: hour, minute or second too large",
                why);
  }
  *nanos = ((f.hour * 60 + f.minute) * 60 + f.second) * kNanosPerSecond + f.nanos;
  return BB_OK;
}

// A zone's offset as written: sign, hours, minutes, seconds.
struct ZoneFields {
  int sign = 1, hours = 0, minutes = 0, seconds = 0;
};

// What follows a clock: nothing, or [ ](Z|UTC|GMT|+HH|+HHMM|+HH:MM|+HH:MM:SS),
// '-' for '+' too: its fields, or a syntax error (also for any zone when
// !allow_zone). not_form: the phrase for a text of no such form.
int ZoneShape(std::string_view z, bool allow_zone, const char* not_form, ZoneFields* f,
              std::string* why) {
  *f = ZoneFields();
  if (z.empty()) return BB_OK;
  if (z[0] == ' ') z.remove_prefix(1);
  if (z.empty()) return Fail(BB_ERR_VALUE_SYNTAX, not_form, why);
  if (z[0] == '+' || z[0] == '-') {
    const size_t n = z.size();
    f->sign = z[0] == '-' ? -1 : 1;
    f->hours = Fixed(z, 1, 2);
    f->minutes = n == 5 ? Fixed(z, 3, 2) : n >= 6 && z[3] == ':' ? Fixed(z, 4, 2) : 0;
    f->seconds = n == 9 && z[6] == ':' ? Fixed(z, 7, 2) : 0;
    const bool form = (n == 3 || n == 5 || (n == 6 && z[3] == ':') ||
                       (n == 9 && z[3] == ':' && z[6] == ':'));
    if (!form || f->hours < 0 || f->minutes < 0 || f->seconds < 0) {
      return Fail(BB_ERR_VALUE_SYNTAX, not_form, why);
    }
  } else if (!(IsWord(z, "z") || IsWord(z, "utc") || IsWord(z, "gmt"))) {
    const bool name = (z[0] >= 'A' && z[0] <= 'Z') || (z[0] >= 'a' && z[0] <= 'z');
    return Fail(BB_ERR_VALUE_SYNTAX,
                name ? "has a time zone name, whose offset this library cannot know: give "
                       "the offset (+HH:MM) or Z"
                     : not_form,
                why);
  }
  if (!allow_zone) {
    return Fail(BB_ERR_VALUE_SYNTAX, "has a time zone, but the column is local time", why);
  }
  return BB_OK;
}

// Seconds east of UTC of a well-formed zone, or a range error.
int ZoneSeconds(const ZoneFields& f, int64_t* seconds, std::string* why) {
  if (f.hours > 23 || f.minutes > 59 || f.seconds > 59) {
    return Fail(BB_ERR_VALUE_RANGE, "has no such offset", why);
  }
  *seconds = f.sign * ((f.hours * 60 + f.minutes) * 60 + f.seconds);
  return BB_OK;
}

// The first range error met while a text is read on, so that a syntax error
// later in the text still wins (a text not of the form is a syntax error
// whatever its numbers: docs/formats.md, "Which error").
class RangeLater {
 public:
  // rc as it is unless a range error, which is kept (the first one) and
  // becomes BB_OK so that reading goes on.
  int Keep(int rc, const std::string& why) {
    if (rc != BB_ERR_VALUE_RANGE) return rc;
    if (rc_ == BB_OK) rc_ = rc, why_ = why;
    return BB_OK;
  }
  // The kept range error, if any, once the whole text is well-formed.
  int Result(std::string* why) const {
    if (rc_ != BB_OK) *why = why_;
    return rc_;
  }
  bool Any() const { return rc_ != BB_OK; }

 private:
  int rc_ = BB_OK;
  std::string why_;
};

// A count of an interval's unit: digits, or '-' then digits (a negative
// part: a range error, as is a count past 10 digits, kept in *later so that
// a syntax error after it wins).
int IntervalCount(std::string_view s, uint64_t* v, RangeLater* later, std::string* why) {
  const bool negative = !s.empty() && s[0] == '-';
  const std::string_view digits = negative ? s.substr(1) : s;
  if (digits.empty()) return Fail(BB_ERR_VALUE_SYNTAX, "is not an interval", why);
  for (char c : digits) {
    if (!IsDigit(c)) return Fail(BB_ERR_VALUE_SYNTAX, "is not an interval", why);
  }
  *v = 0;
  if (negative) {
    return later->Keep(BB_ERR_VALUE_RANGE,
                       "has a negative part: Parquet's INTERVAL holds unsigned months, days and "
                       "milliseconds");
  }
  if (digits.size() > 10) return later->Keep(BB_ERR_VALUE_RANGE, "has a part beyond 4294967295");
  for (char c : digits) *v = *v * 10 + static_cast<uint64_t>(c - '0');
  return BB_OK;
}

// Milliseconds of a fraction of a second (".5" is 500; a finer non-zero digit: an error).
int IntervalFraction(std::string_view frac, uint64_t* millis, std::string* why) {
  for (char c : frac) {
    if (!IsDigit(c)) return Fail(BB_ERR_VALUE_SYNTAX, "is not an interval", why);
  }
  int64_t f = 0;
  const int rc = Fraction(frac, 3, "has more fraction digits than milliseconds hold", &f, why);
  *millis = static_cast<uint64_t>(f / 1000000);
  return rc;
}

// An interval's clock part, H..H:MM:SS[.fff] (any number of hours).
int IntervalClock(std::string_view s, uint64_t* millis, RangeLater* later, std::string* why) {
  const size_t colon = s.find(':');
  uint64_t h = 0, frac = 0;
  std::string_view rest = s.substr(colon + 1);
  int rc = IntervalCount(s.substr(0, colon), &h, later, why);
  if (rc != BB_OK) return rc;
  const int m = Fixed(rest, 0, 2), sec = Fixed(rest, 3, 2);
  if (rest.size() < 5 || rest[2] != ':' || m < 0 || sec < 0 ||
      (rest.size() > 5 && (rest[5] != '.' || rest.size() == 6))) {
    return Fail(BB_ERR_VALUE_SYNTAX, "is not an interval", why);
  }
  rc = IntervalFraction(rest.size() > 6 ? rest.substr(6) : std::string_view(), &frac, why);
  if (rc != BB_OK) return rc;
  if (m > 59 || sec > 59) return later->Keep(BB_ERR_VALUE_RANGE, "has minutes or seconds above 59");
  *millis = ((h * 60 + static_cast<uint64_t>(m)) * 60 + static_cast<uint64_t>(sec)) * 1000 + frac;
  return BB_OK;
}

// ISO 8601's P[nY][nM][nW][nD][T[nH][nM][n[.fff]S]], in that order.
int IsoInterval(std::string_view s, uint64_t parts[3], RangeLater* later, std::string* why) {
  const char* kForm = "is not an interval";
  static const char kDesignators[] = "YMWDHMS";
  static const uint64_t kPart[] = {0, 0, 1, 1, 2, 2, 2};  // months, days, millis
  static const uint64_t kScale[] = {12, 1, 7, 1, 3600000, 60000, 1000};
  size_t i = 1, stage = 0;
  bool any = false, time_part = false;
  while (i < s.size()) {
    if (s[i] == 'T') {
      if (time_part || i + 1 == s.size()) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
      time_part = true;
      stage = 4;
      ++i;
      continue;
    }
    size_t j = i;
    while (j < s.size() && (IsDigit(s[j]) || s[j] == '-')) ++j;
    size_t k = j;
    if (k < s.size() && s[k] == '.') {
      ++k;
      while (k < s.size() && IsDigit(s[k])) ++k;
    }
    if (k >= s.size()) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
    size_t d = time_part ? 4 : 0;
    const size_t end = time_part ? 7 : 4;
    while (d < end && kDesignators[d] != s[k]) ++d;
    if (d == end || d < stage || (k > j && d != 6)) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
    uint64_t n = 0, millis = 0;
    int rc = IntervalCount(s.substr(i, j - i), &n, later, why);
    if (rc == BB_OK && k > j) rc = IntervalFraction(s.substr(j + 1, k - j - 1), &millis, why);
    if (rc != BB_OK) return rc;
    parts[kPart[d]] += n * kScale[d] + millis;
    stage = d + 1;
    any = true;
    i = k + 1;
  }
  return any ? BB_OK : Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
}

// Words and a clock: [n year[s]] [n mon[s] | n month[s]] [n day[s]]
// [n ms | HH:MM:SS[.fff]], in that order, one space apart.
int WordInterval(std::string_view s, uint64_t parts[3], RangeLater* later, std::string* why) {
  const char* kForm = "is not an interval";
  if (s.empty() || s.back() == ' ') return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
  size_t stage = 0;
  bool any = false;
  while (!s.empty()) {
    const size_t space = s.find(' ');
    const std::string_view token = s.substr(0, space);
    s = space == std::string_view::npos ? std::string_view() : s.substr(space + 1);
    if (token.find(':') != std::string_view::npos) {
      uint64_t millis = 0;
      if (stage > 3) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
      const int rc = IntervalClock(token, &millis, later, why);
      if (rc != BB_OK) return rc;
      parts[2] += millis;
      stage = 4;
      any = true;
      continue;
    }
    const size_t next = s.find(' ');
    const std::string_view unit = s.substr(0, next);
    s = next == std::string_view::npos ? std::string_view() : s.substr(next + 1);
    size_t d = IsWord(unit, "year") || IsWord(unit, "years")               ? 1
               : IsWord(unit, "mon") || IsWord(unit, "mons") ||
                       IsWord(unit, "month") || IsWord(unit, "months") ? 2
               : IsWord(unit, "day") || IsWord(unit, "days")               ? 3
               : unit == "ms"                                              ? 4
                                                                           : 0;
    uint64_t n = 0;
    const int rc = IntervalCount(token, &n, later, why);
    if (rc != BB_OK) return rc;
    if (d <= stage) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
    static const uint64_t kPart[] = {0, 0, 0, 1, 2}, kScale[] = {0, 12, 1, 1, 1};
    parts[kPart[d]] += n * kScale[d];
    stage = d;
    any = true;
  }
  return any ? BB_OK : Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
}

// A timestamp's parts as written, once its whole text has the form.
struct TimestampFields {
  DateFields date;
  ClockFields clock;
  ZoneFields zone;
};

// YYYY-MM-DD[ T]HH:MM:SS[.fraction][zone]: its fields, or a syntax error.
int TimestampShape(std::string_view s, int digits, bool allow_zone, TimestampFields* f,
                   std::string* why) {
  const char* kForm = "is not a timestamp";
  const size_t n = s.size() < 19 ? 0 : ClockLength(s.substr(11));
  if (n == 0 || (s[10] != ' ' && s[10] != 'T') || !DateShape(s.substr(0, 10), &f->date)) {
    return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
  }
  int rc = ClockShape(s.substr(11, n), digits, &f->clock, why);
  if (rc == BB_OK) rc = ZoneShape(s.substr(11 + n), allow_zone, kForm, &f->zone, why);
  if (rc == BB_ERR_VALUE_SYNTAX && why->rfind("has", 0) != 0) *why = kForm;
  return rc;
}

// The first and last day a DATE or TIMESTAMP text may name (0001-01-01 and
// 9999-12-31), as days since 1970-01-01.
constexpr int64_t kFirstDay = -719162, kLastDay = 2932896;

}  // namespace

int ParseDate(std::string_view s, int64_t* days, std::string* why) {
  if (IsInfiniteWord(s)) return Fail(BB_ERR_VALUE_RANGE, kInfinite, why);
  std::string before_year_1;
  if (StripBc(s, &before_year_1)) {
    DateFields f;
    if (!DateShape(before_year_1, &f)) return Fail(BB_ERR_VALUE_SYNTAX, "is not a date", why);
    return Fail(BB_ERR_VALUE_RANGE, "is a date before year 1", why);
  }
  DateFields f;
  if (!DateShape(s, &f)) return Fail(BB_ERR_VALUE_SYNTAX, "is not a date", why);
  return DateDays(f, days, why);
}

int ParseTime(std::string_view s, int digits, bool allow_zone, int64_t* nanos, std::string* why) {
  const char* kForm = "is not a time of day";
  const size_t n = ClockLength(s);
  if (n == 0) return Fail(BB_ERR_VALUE_SYNTAX, kForm, why);
  ClockFields clock;
  ZoneFields zone;
  int rc = ClockShape(s.substr(0, n), digits, &clock, why);
  if (rc == BB_OK) rc = ZoneShape(s.substr(n), allow_zone, kForm, &zone, why);
  int64_t offset = 0;
  if (rc == BB_OK) rc = ClockNanos(clock, nanos, why);
  if (rc == BB_OK) rc = ZoneSeconds(zone, &offset, why);
  if (rc != BB_OK) return rc;
  *nanos = ((*nanos - offset * kNanosPerSecond) % kNanosPerDay + kNanosPerDay) % kNanosPerDay;
  return BB_OK;
}

int ParseTimestamp(std::string_view s, int digits, bool allow_zone, int64_t* days,
                   int64_t* nanos, std::string* why) {
  if (IsInfiniteWord(s)) return Fail(BB_ERR_VALUE_RANGE, kInfinite, why);
  TimestampFields f;
  std::string before_year_1;
  if (StripBc(s, &before_year_1)) {
    const int rc = TimestampShape(before_year_1, digits, allow_zone, &f, why);
    return rc != BB_OK ? rc : Fail(BB_ERR_VALUE_RANGE, "is a date before year 1", why);
  }
  int rc = TimestampShape(s, digits, allow_zone, &f, why);
  int64_t offset = 0;
  if (rc == BB_OK) rc = DateDays(f.date, days, why);
  if (rc == BB_OK) rc = ClockNanos(f.clock, nanos, why);
  if (rc == BB_OK) rc = ZoneSeconds(f.zone, &offset, why);
  if (rc != BB_OK) return rc;
  int64_t t = *nanos - offset * kNanosPerSecond;
  int64_t d = *days;
  while (t < 0) t += kNanosPerDay, --d;
  while (t >= kNanosPerDay) t -= kNanosPerDay, ++d;
  // The years 1 .. 9999 are those of the instant (UTC), not of the wall
  // clock the text read: 0001-01-01T00:30:00+01:00 is in year 0.
  if (d < kFirstDay || d > kLastDay) {
    return Fail(BB_ERR_VALUE_RANGE, "is outside 0001-01-01 .. 9999-12-31 once converted to UTC",
                why);
  }
  *days = d;
  *nanos = t;
  return BB_OK;
}

int ParseInterval(std::string_view s, Interval* v, std::string* why) {
  uint64_t parts[3] = {0, 0, 0};  // months, days, milliseconds
  RangeLater later;
  if (s.size() > 1 && s[0] == '-' && s[1] == 'P') {  // a negative ISO interval
    const int rc = IsoInterval(s.substr(1), parts, &later, why);
    if (rc != BB_OK) return rc;
    return Fail(BB_ERR_VALUE_RANGE,
                "has a negative part: Parquet's INTERVAL holds unsigned months, days and "
                "milliseconds",
                why);
  }
  const bool iso = !s.empty() && s[0] == 'P';
  const int rc = iso ? IsoInterval(s, parts, &later, why) : WordInterval(s, parts, &later, why);
  if (rc != BB_OK) return rc;
  if (later.Any()) return later.Result(why);
  if (parts[0] > kUint32Max || parts[1] > kUint32Max || parts[2] > kUint32Max) {
    return Fail(BB_ERR_VALUE_RANGE, "has a part beyond 4294967295", why);
  }
  v->months = static_cast<uint32_t>(parts[0]);
  v->days = static_cast<uint32_t>(parts[1]);
  v->millis = static_cast<uint32_t>(parts[2]);
  return BB_OK;
}

}  // namespace blockbloom::internal::parquet_value
