// SPDX-License-Identifier: Apache-2.0
#include "tools/common/number_parse.h"

#include <limits>

namespace blockbloom_tools {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// The value of c as a digit in base 10 or 16, or -1.
int DigitValue(char c, unsigned base) {
  if (c >= '0' && c <= '9') return c - '0';
  if (base == 16 && c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (base == 16 && c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string_view TrimLine(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  while (!line.empty() && IsBlank(line.front())) line.remove_prefix(1);
  while (!line.empty() && IsBlank(line.back())) line.remove_suffix(1);
  return line;
}

ParseStatus ParseUint64(std::string_view text, std::uint64_t* value) {
  text = TrimLine(text);
  if (text.empty()) return ParseStatus::kEmpty;

  unsigned base = 10;
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
    if (text.empty()) return ParseStatus::kInvalid;
  }

  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t result = 0;
  bool overflow = false;
  for (char c : text) {
    const int digit = DigitValue(c, base);
    if (digit < 0) return ParseStatus::kInvalid;  // wins over overflow: "99...9x" is junk
    const auto d = static_cast<std::uint64_t>(digit);
    if (result > (kMax - d) / base) {
      overflow = true;
    } else {
      result = result * base + d;
    }
  }
  if (overflow) return ParseStatus::kOverflow;
  *value = result;
  return ParseStatus::kOk;
}

}  // namespace blockbloom_tools
