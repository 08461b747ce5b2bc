// SPDX-License-Identifier: Apache-2.0
// Which column `blockbloom parquet probe` asks: --column PATH (the dotted
// path, refused when more than one column has it) or --column-path JSON (the
// names as a JSON array of strings, e.g. '["a.b"]' or '["a", "b"]': exact).
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_COLUMN_CHOICE_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_COLUMN_CHOICE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "blockbloom/parquet_file.hpp"
#include "tools/common/cli_args.h"

namespace blockbloom_tools {

// A JSON array of strings, strictly: [ "name", ... ] with optional white
// space, strings with the escapes \" \\ \/ \b \f \n \r \t \uXXXX (a
// surrogate pair for a character beyond U+FFFF; a lone surrogate is
// refused), no raw control characters. The names as UTF-8, or false and
// *problem saying what is wrong and where.
bool ParseNameArray(std::string_view text, std::vector<std::string>* names,
                    std::string* problem);

// The column chosen by --column or --column-path (exactly one of them);
// CliError (exit 2) naming the problem: both or neither given, a malformed
// --column-path, no such column (with the library's closest columns), an
// ambiguous --column (with each candidate's names).
std::size_t ChooseColumn(const blockbloom::ParquetFile& file, const ParsedFlags& flags,
                         const std::string& file_path);

// A usage error unless exactly one of them was given.
void CheckColumnFlags(const ParsedFlags& flags);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_COLUMN_CHOICE_H_
