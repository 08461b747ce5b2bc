// SPDX-License-Identifier: Apache-2.0
// The character tests the value parsers share (value_parse.cc,
// value_parse_time.cc): ASCII only, whatever the process locale.
#ifndef BLOCKBLOOM_PARQUET_VALUES_VALUE_PARSE_CHARS_H_
#define BLOCKBLOOM_PARQUET_VALUES_VALUE_PARSE_CHARS_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace blockbloom::internal::parquet_value::chars {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

inline bool IsHexDigit(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

inline char LowerAscii(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// s is `word` (lowercase ASCII) in any case.
inline bool IsWord(std::string_view s, std::string_view word) {
  if (s.size() != word.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (LowerAscii(s[i]) != word[i]) return false;
  }
  return true;
}

inline bool EndsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

inline int Fail(int code, const char* what, std::string* why) {
  *why = what;
  return code;
}

// Exactly n digits at s[pos..]: their value, else -1.
inline int Fixed(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return -1;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!IsDigit(s[i])) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

}  // namespace blockbloom::internal::parquet_value::chars

#endif  // BLOCKBLOOM_PARQUET_VALUES_VALUE_PARSE_CHARS_H_
