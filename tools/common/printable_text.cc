// SPDX-License-Identifier: Apache-2.0
#include "tools/common/printable_text.h"

#include <cstddef>
#include <cstdio>

namespace blockbloom_tools {
namespace {

void AppendHex(unsigned char c, std::string* out) {
  char escaped[8];
  std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(c));
  *out += escaped;
}

bool IsContinuation(unsigned char c) { return (c & 0xc0) == 0x80; }

// The length of the valid UTF-8 sequence at text[i] that encodes a printable
// non-ASCII character, or 0 (invalid, overlong, a surrogate, past U+10FFFF,
// or a C1 control).
std::size_t PrintableUtf8Length(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  std::size_t length = 0;
  char32_t min = 0;
  char32_t code = 0;
  if (c >= 0xc2 && c <= 0xdf) {
    length = 2, min = 0x80, code = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    length = 3, min = 0x800, code = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    length = 4, min = 0x10000, code = c & 0x07;
  } else {
    return 0;
  }
  if (text.size() - i < length) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if (!IsContinuation(next)) return 0;
    code = (code << 6) | (next & 0x3f);
  }
  if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  if (code <= 0x9f) return 0;  // C1 control: as dangerous as ESC in many terminals
  return length;
}

}  // namespace

std::string Printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\\') {
      out += "\\\\";
      ++i;
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
    } else if (const std::size_t length = c >= 0x80 ? PrintableUtf8Length(text, i) : 0) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      AppendHex(c, &out);
      ++i;
    }
  }
  return out;
}

std::string Shortened(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  // A character that the cut would split is left out whole (it starts at
  // most 3 bytes before the cut).
  for (std::size_t k = cut; k + 3 >= cut && k > 0; --k) {
    const std::size_t at = k - 1;
    const auto c = static_cast<unsigned char>(text[at]);
    if (IsContinuation(c)) continue;
    if (c >= 0x80 && at + PrintableUtf8Length(text, at) > cut) cut = at;
    break;
  }
  return std::string(text.substr(0, cut)) + "...";
}

}  // namespace blockbloom_tools
