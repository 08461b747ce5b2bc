// SPDX-License-Identifier: Apache-2.0
// `blockbloom parquet probe` values: text typed in as a value of a column,
// turned into the bytes of its plain encoding (what Parquet hashes):
// - INT32, INT64: a decimal integer (optional sign), within the range of the
//   column's integer annotation: INTEGER(8,true) (or INT_8) is -128 .. 127,
//   stored sign-extended as an INT32; unsigned ones (INTEGER(32,false),
//   UINT_32, ...) are 0 .. 2^bits - 1, stored as the INT32 / INT64 with the
//   same bits. Without one, the physical type's range.
// - FLOAT, DOUBLE: as strtof / strtod read them (common/value_parse.h):
//   1.5, -0.0, 1e10, inf, -inf, nan (the positive quiet NaN).
// - BYTE_ARRAY: the bytes as given; FIXED_LEN_BYTE_ARRAY: exactly
//   type_length bytes; INT96: exactly 12. With hex, each of these is given
//   as two hex digits per byte instead.
// - BOOLEAN: refused (Parquet defines no Bloom filter for booleans).
#ifndef BLOCKBLOOM_TOOLS_PARQUET_VALUE_ENCODING_H_
#define BLOCKBLOOM_TOOLS_PARQUET_VALUE_ENCODING_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "blockbloom/parquet_file.h"

namespace blockbloom_cli {

// What a column's values must be, worked out once per column.
struct ValueRules {
  enum class Kind { kSigned, kUnsigned, kFloat, kDouble, kBytes } kind = Kind::kBytes;
  std::size_t width = 0;          // integers: 4 or 8 bytes
  std::int64_t min = 0;           // kSigned
  std::int64_t max = 0;           // kSigned
  std::uint64_t unsigned_max = 0;  // kUnsigned
  std::size_t fixed_length = 0;   // kBytes: the bytes a value must have; 0: any
  bool hex = false;               // kBytes: given as hex digits
  std::string description;        // "INT32 -128 .. 127 (INTEGER(8,true))"
};

// The rules for the column's values; throws CliError (naming the column) if
// its values cannot be probed: a BOOLEAN column, an integer annotation
// wider than its physical type, an unknown physical type; or a usage error
// for hex on a column of numbers.
ValueRules RulesFor(const bb_parquet_column& column, const std::string& column_name, bool hex);

// The plain encoding of text. false with *problem ("out of range", "not an
// integer", "is 3 bytes, not 16", ...) if text is no such value.
bool EncodeValue(const ValueRules& rules, std::string_view text, std::string* bytes,
                 std::string* problem);

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_PARQUET_VALUE_ENCODING_H_
