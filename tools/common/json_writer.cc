// SPDX-License-Identifier: Apache-2.0
#include "tools/common/json_writer.h"

#include <cstdio>

namespace blockbloom_tools {
namespace {

// Length of the valid UTF-8 sequence at text[i], or 0 if it is not one.
std::size_t Utf8SequenceLength(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned char second_min = 0x80, second_max = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) second_min = 0xa0;  // no overlong forms
    if (lead == 0xed) second_max = 0x9f;  // no surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) second_min = 0x90;  // no overlong forms
    if (lead == 0xf4) second_max = 0x8f;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < second_min || byte(i + 1) > second_max) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return 0;
  }
  return length;
}

}  // namespace

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t length = Utf8SequenceLength(text, i);
      if (length == 0) {
        // PEP 383's surrogateescape: byte 0xXX as the lone surrogate
        // U+DC00+XX, which no valid UTF-8 encodes.
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\udc%02x", static_cast<unsigned>(c));
        out += escaped;
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  return out + "\"";
}

std::string JsonStringOrNull(const char* text) {
  return text == nullptr ? "null" : JsonString(text);
}

std::string JsonStringArray(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += JsonString(items[i]);
  }
  return out + "]";
}

void JsonObjectWriter::Add(std::string_view key, const std::string& json_value) {
  members_.push_back(JsonString(key) + ": " + json_value);
}

std::string JsonObjectWriter::Finish() const {
  if (members_.empty()) return "{}";
  const std::string inner(static_cast<std::size_t>(indent_ + 2), ' ');
  std::string out = "{\n";
  for (std::size_t i = 0; i < members_.size(); ++i) {
    out += inner + members_[i];
    out += i + 1 < members_.size() ? ",\n" : "\n";
  }
  return out + std::string(static_cast<std::size_t>(indent_), ' ') + "}";
}

}  // namespace blockbloom_tools
