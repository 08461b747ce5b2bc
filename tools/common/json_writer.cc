// SPDX-License-Identifier: Apache-2.0
#include "tools/common/json_writer.h"

#include <cmath>
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

// printf of one double, or null when it is not finite (JSON has no inf or nan).
std::string Printed(const char* format, int precision, double value) {
  if (!std::isfinite(value)) return kJsonNull;
  char text[64];
  std::snprintf(text, sizeof text, format, precision, value);
  return text;
}

// The array of json_values, laid out by stream.
std::string Joined(JsonArrayStream stream, const std::vector<std::string>& json_values) {
  std::string out;
  for (const std::string& value : json_values) out += stream.Next() + value;
  return out + stream.Close();
}

}  // namespace

std::string JsonFloat(double value, int significant_digits) {
  return Printed("%.*g", significant_digits, value);
}

std::string JsonFixed(double value, int decimals) { return Printed("%.*f", decimals, value); }

std::string JsonBool(bool value) { return value ? "true" : "false"; }

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
  return text == nullptr ? kJsonNull : JsonString(text);
}

std::string JsonArrayStream::Next() {
  std::string out = count_ == 0 ? "[" : ",";
  if (indent_ >= 0) {
    out += "\n" + std::string(static_cast<std::size_t>(indent_ + 2), ' ');
  } else if (count_ > 0) {
    out += " ";
  }
  ++count_;
  return out;
}

std::string JsonArrayStream::Close() const {
  if (count_ == 0) return "[]";
  if (indent_ < 0) return "]";
  return "\n" + std::string(static_cast<std::size_t>(indent_), ' ') + "]";
}

std::string JsonArray(const std::vector<std::string>& json_values) {
  return Joined(JsonArrayStream::OnOneLine(), json_values);
}

std::string JsonArrayOnePerLine(const std::vector<std::string>& json_values, int indent) {
  return Joined(JsonArrayStream::OnePerLine(indent), json_values);
}

std::string JsonStringArray(const std::vector<std::string>& items) {
  std::vector<std::string> strings;
  strings.reserve(items.size());
  for (const std::string& item : items) strings.push_back(JsonString(item));
  return JsonArray(strings);
}

std::string JsonKey(std::string_view key) { return JsonString(key) + ": "; }

JsonObjectWriter& JsonObjectWriter::Add(std::string_view key, const std::string& json_value) {
  members_.push_back(JsonKey(key) + json_value);
  return *this;
}

std::string JsonObjectWriter::FinishBeforeLast(std::string_view key) const {
  std::string out = "{";
  for (const std::string& member : members_) out += member + ", ";
  return out + JsonKey(key);
}

std::string JsonObjectWriter::Finish() const {
  if (members_.empty()) return "{}";
  if (indent_ < 0) {
    std::string out = "{";
    for (std::size_t i = 0; i < members_.size(); ++i) out += (i > 0 ? ", " : "") + members_[i];
    return out + "}";
  }
  const std::string inner(static_cast<std::size_t>(indent_ + 2), ' ');
  std::string out = "{\n";
  for (std::size_t i = 0; i < members_.size(); ++i) {
    out += inner + members_[i];
    out += i + 1 < members_.size() ? ",\n" : "\n";
  }
  return out + std::string(static_cast<std::size_t>(indent_), ' ') + "}";
}

}  // namespace blockbloom_tools
