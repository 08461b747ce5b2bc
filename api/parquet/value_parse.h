// SPDX-License-Identifier: Apache-2.0
// Parsers of the text forms of parquet_value.h: integers, decimals, dates,
// times, timestamps. Each returns BB_OK, BB_ERR_VALUE_SYNTAX or
// BB_ERR_VALUE_RANGE and, on error, what is wrong in *why (no value in it).
#ifndef BLOCKBLOOM_API_PARQUET_VALUE_PARSE_H_
#define BLOCKBLOOM_API_PARQUET_VALUE_PARSE_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace blockbloom::internal::parquet_value {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

// [-]digits, no '+', spaces or leading zeros, "-0" refused; in min .. max.
int ParseInteger(std::string_view s, Int128 min, Int128 max, Int128* v, std::string* why);

// [-]digits[.digits]: the unscaled value of DECIMAL(p, s), p <= 38.
int ParseDecimal(std::string_view s, int precision, int scale, Int128* unscaled,
                 std::string* why);

// YYYY-MM-DD, 0001-01-01 .. 9999-12-31: days since 1970-01-01.
int ParseDate(std::string_view s, int64_t* days, std::string* why);

// HH:MM:SS[.fraction] with at most `digits` fraction digits: nanoseconds of
// the day (a fraction of more digits than `digits` is an error).
int ParseTime(std::string_view s, int digits, int64_t* nanos, std::string* why);

// YYYY-MM-DD[ T]HH:MM:SS[.fraction][Z|+HH:MM|-HH:MM] (the offset only when
// allow_offset): *days and *nanos of the day, in UTC when an offset is given.
int ParseTimestamp(std::string_view s, int digits, bool allow_offset, int64_t* days,
                   int64_t* nanos, std::string* why);

}  // namespace blockbloom::internal::parquet_value

#endif  // BLOCKBLOOM_API_PARQUET_VALUE_PARSE_H_
