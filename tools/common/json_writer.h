// SPDX-License-Identifier: Apache-2.0
// The tools' JSON output (every `--json` of blockbloom, and the join_demo
// and aligncheck reports): string literals, null, arrays of strings, and an
// indented object built member by member.
#ifndef BLOCKBLOOM_TOOLS_COMMON_JSON_WRITER_H_
#define BLOCKBLOOM_TOOLS_COMMON_JSON_WRITER_H_

#include <string>
#include <string_view>
#include <vector>

namespace blockbloom_tools {

// A JSON string literal. Quotes, backslashes and control characters are
// escaped; valid UTF-8 passes through; each byte 0xXX that is not part of
// valid UTF-8 is written \udcXX (the lone surrogate U+DC00+XX: PEP 383's
// surrogateescape), so the output is valid UTF-8, distinct bytes stay
// distinct, and Python's json.loads(...).encode("utf-8", "surrogateescape")
// gives the bytes back. docs/formats.md "JSON output" tells the rule.
std::string JsonString(std::string_view text);

// JsonString(text), or null when text is nullptr.
std::string JsonStringOrNull(const char* text);

// ["a", "b"] for {"a", "b"}.
std::string JsonStringArray(const std::vector<std::string>& items);

// Writes {"key": value, ...} with one member per line; values are JSON text.
class JsonObjectWriter {
 public:
  explicit JsonObjectWriter(int indent = 0) : indent_(indent) {}
  void Add(std::string_view key, const std::string& json_value);
  std::string Finish() const;  // the object, without a trailing newline

 private:
  int indent_;
  std::vector<std::string> members_;
};

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_JSON_WRITER_H_
