// SPDX-License-Identifier: Apache-2.0
// A strict parser for unsigned 64-bit numbers: decimal or 0x hex, nothing
// else. No exceptions, no locale, no signs, no silent wrap-around.
#ifndef BLOCKBLOOM_TOOLS_COMMON_NUMBER_PARSE_H_
#define BLOCKBLOOM_TOOLS_COMMON_NUMBER_PARSE_H_

#include <cstdint>
#include <string_view>

namespace blockbloom_tools {

enum class ParseStatus {
  kOk,
  kEmpty,     // nothing but blanks
  kInvalid,   // a sign, a stray character, "0x" without digits, ...
  kOverflow,  // digits only, but the value exceeds 2^64 - 1
};

// Drops one trailing '\r', then the spaces and tabs around the text.
std::string_view TrimLine(std::string_view line);

// Parses TrimLine(text) as decimal digits or "0x"/"0X" followed by hex digits.
// *value is written only on kOk.
ParseStatus ParseUint64(std::string_view text, std::uint64_t* value);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_NUMBER_PARSE_H_
