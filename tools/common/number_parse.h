// SPDX-License-Identifier: Apache-2.0
// Strict parsers for unsigned 64-bit numbers: ParseUint64 for hashes and
// seeds (decimal or 0x hex, nothing else), ParseCount and ParseByteSize for
// the counts and sizes people type on a command line (1e6, 1_000_000, 16MiB),
// exactly or not at all. No exceptions, no locale, no signs, no rounding, no
// silent wrap-around.
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

enum class CountStatus {
  kOk,
  kInvalid,    // not one of the accepted forms (empty, a sign, a stray character, ...)
  kNotWhole,   // a number, but not a whole one: 1.5, 1e-3
  kOverflow,   // a whole number above 2^64 - 1
  kAmbiguousUnit,  // ParseByteSize: K, M, G, T, KB, MB, ... (2^10 or 10^3?): write KiB, MiB, ...
};

// A count (--ndv, --rows, ...), TrimLine(text) in one of these forms:
//   1000000       decimal digits
//   1_000_000     '_' between two digits, anywhere in the digits, ignored
//   1e6, 2.5E6    digits, an optional fraction, 'e' or 'E', an optional sign
//                 and exponent digits: decimal scientific notation, taken
//                 exactly (1.5e3 is 1500; 1e-3 and 1.5 are not whole: kNotWhole)
//   1.0, 1500.00  a fraction whose digits are zeros is whole too
//   0xF4240       "0x" or "0X" and hex digits (as ParseUint64 takes)
// *value is written only on kOk. The work is bounded by the text's length
// (an exponent of a million digits is read, never applied digit by digit).
CountStatus ParseCount(std::string_view text, std::uint64_t* value);

// A size in bytes (--bytes, --offset): a count as ParseCount takes it,
// decimal or hex, or a decimal count followed (with no blank) by a binary
// unit, KiB (2^10), MiB (2^20), GiB (2^30) or TiB (2^40), in any case
// (16MiB, 16mib), exactly: 1.5KiB is 1536, 0.1KiB is not whole. K, M, G,
// T, KB, MB, ... alone are kAmbiguousUnit (2^20 or 10^6 bytes?).
CountStatus ParseByteSize(std::string_view text, std::uint64_t* value);

// The accepted forms, for messages: "1000000, 1_000_000, 1e6, 2.5e6 or 0xF4240".
extern const char kCountForms[];
extern const char kByteSizeForms[];

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_NUMBER_PARSE_H_
