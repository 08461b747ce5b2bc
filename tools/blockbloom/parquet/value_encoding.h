// SPDX-License-Identifier: Apache-2.0
// `blockbloom parquet probe` values: the argument plumbing around the
// library's value rules (bb_parquet_hash_text, parquet_value.h, the table of
// docs/formats.md "Values as text"): which flags --hex and --physical ask
// for, the column's type as messages name it, and the refusal message.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_VALUE_ENCODING_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_VALUE_ENCODING_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "blockbloom/parquet_file.h"

namespace blockbloom_tools {

// A column's values as the command line gives them.
struct ValueRules {
  bb_parquet_column column{};
  uint32_t flags = 0;       // BB_PARQUET_TEXT_*
  std::string column_name;    // as messages show it
  std::string physical_type;  // "INT32" (bb_parquet_physical_type_name), as --json shows it
  std::string type;           // "INT32 DATE", as messages show it
};

// Throws CliError (naming the column and its type) if the column's values
// cannot be written as text (BOOLEAN, an annotation the library cannot
// write), or a usage error for --hex on a column of numbers.
ValueRules RulesFor(const bb_parquet_column& column, const std::string& column_name, bool hex,
                    bool physical);

// The Parquet hash of one value; throws CliError "<where>value 'X' of column
// C (TYPE) <the library's phrase>" if text is no such value.
std::uint64_t HashValue(const ValueRules& rules, std::string_view text, const std::string& where);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_VALUE_ENCODING_H_
