// SPDX-License-Identifier: Apache-2.0
// `blockbloom parquet list` and `blockbloom parquet probe`, and what they
// share. RunParquet (commands.h) dispatches to them.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_PARQUET_COMMANDS_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_PARQUET_COMMANDS_H_

#include <string>
#include <vector>

#include "blockbloom/parquet_file.hpp"

namespace blockbloom_tools {

int RunParquetList(const std::vector<std::string>& args);   // parquet_list_command.cc
int RunParquetProbe(const std::vector<std::string>& args);  // parquet_probe_command.cc

// Opens a Parquet file by path; throws CliError with the library's reason
// (naming the file) if it is not a readable Parquet file.
blockbloom::ParquetFile OpenParquetFile(const std::string& path);

// The column's dotted path as a message shows it ("int8_col", "a.b").
std::string ColumnName(const bb_parquet_column& column);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_PARQUET_COMMANDS_H_
