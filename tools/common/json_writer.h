// SPDX-License-Identifier: Apache-2.0
// The one JSON writer of the tools: every `--json` of blockbloom (info,
// join-demo, tune, probe, parquet list, parquet probe) and of blockbloom-aligncheck
// formats its scalars, strings, arrays and objects here, so that one rule
// of escaping, of numbers and of null holds for all of them.
//
// Values are JSON text (std::string): a function here makes one from a C++
// value, and arrays and objects take them as their elements and members.
#ifndef BLOCKBLOOM_TOOLS_COMMON_JSON_WRITER_H_
#define BLOCKBLOOM_TOOLS_COMMON_JSON_WRITER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace blockbloom_tools {

// What a report writes where it has no value.
inline constexpr const char kJsonNull[] = "null";

// An integer in decimal, of any integer type (a template, so that neither
// int64_t nor uint64_t extremes are converted on the way).
template <typename T>
std::string JsonInteger(T value) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "JsonInteger: an integer");
  return std::to_string(value);
}

// A double with at most `significant_digits` significant digits (printf's
// %.Ng: 0.013671875, 1e+20); null when it is not finite, which JSON cannot
// write. Each report keeps the digits it has always shown.
std::string JsonFloat(double value, int significant_digits = 6);

// A double with exactly `decimals` digits after the point (printf's %.Nf);
// null when it is not finite.
std::string JsonFixed(double value, int decimals);

std::string JsonBool(bool value);

// A JSON string literal. Quotes, backslashes and control characters are
// escaped; valid UTF-8 passes through; each byte 0xXX that is not part of
// valid UTF-8 is written \udcXX (the lone surrogate U+DC00+XX: PEP 383's
// surrogateescape), so the output is valid UTF-8, distinct bytes stay
// distinct, and Python's json.loads(...).encode("utf-8", "surrogateescape")
// gives the bytes back. docs/formats.md "The tools' output of names and
// values" tells the rule.
std::string JsonString(std::string_view text);

// JsonString(text), or null when text is nullptr.
std::string JsonStringOrNull(const char* text);

// An array written as it goes, for output too large to hold whole (parquet
// list's rows, parquet probe's answers): the caller writes Next() before
// each element and Close() after the last, and may flush in between.
class JsonArrayStream {
 public:
  // [a, b, c]
  static JsonArrayStream OnOneLine() { return JsonArrayStream(-1); }
  // Each element on a line of its own, indented indent + 2; the closing
  // bracket on a line of its own at indent; [] when empty.
  static JsonArrayStream OnePerLine(int indent) { return JsonArrayStream(indent); }

  // What goes before the next element: the opening bracket before the first.
  std::string Next();
  // What closes the array (and opens it too, when it has no element).
  std::string Close() const;

 private:
  explicit JsonArrayStream(int indent) : indent_(indent) {}
  int indent_;  // -1: on one line
  std::size_t count_ = 0;
};

// [a, b] of JSON values, on one line.
std::string JsonArray(const std::vector<std::string>& json_values);

// The same, one value per line (JsonArrayStream::OnePerLine(indent)).
std::string JsonArrayOnePerLine(const std::vector<std::string>& json_values, int indent);

// ["a", "b"] for {"a", "b"}.
std::string JsonStringArray(const std::vector<std::string>& items);

// "key": -- what goes before a member's value.
std::string JsonKey(std::string_view key);

// Writes {"key": value, ...}: one member per line, the closing brace at
// `indent` (the default), or all on one line (OnOneLine()).
class JsonObjectWriter {
 public:
  explicit JsonObjectWriter(int indent = 0) : indent_(indent) {}
  static JsonObjectWriter OnOneLine() { return JsonObjectWriter(-1); }
  JsonObjectWriter& Add(std::string_view key, const std::string& json_value);
  std::string Finish() const;  // the object, without a trailing newline
  // On one line only: the object up to the value of a last member `key`,
  // which the caller writes as it goes (a JsonArrayStream), then "}".
  std::string FinishBeforeLast(std::string_view key) const;

 private:
  int indent_;  // -1: on one line
  std::vector<std::string> members_;
};

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_JSON_WRITER_H_
