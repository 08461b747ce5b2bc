// SPDX-License-Identifier: Apache-2.0
// blockbloom parquet: list a Parquet file's Bloom filters, or probe a column's.
#include <cstdio>
#include <string>
#include <vector>

#include "tools/blockbloom/commands.h"
#include "tools/common/cli_error.h"
#include "tools/common/printable_text.h"
#include "tools/blockbloom/parquet/parquet_commands.h"

namespace blockbloom_tools {

blockbloom::ParquetFile OpenParquetFile(const std::string& path) {
  if (path == "-") {
    throw UsageError("a Parquet file is read from a regular file (its footer is at the end), "
                     "not standard input");
  }
  try {
    return blockbloom::ParquetFile::open(path);
  } catch (const blockbloom::Error& e) {
    throw CliError(e.what());  // the library's reason, which names the file
  }
}

std::string ColumnName(const bb_parquet_column& column) {
  return std::string(column.path, column.path_len);
}

int RunParquet(const std::vector<std::string>& args, std::string* help_command) {
  // Usage errors propagate to main, which names this command's --help after them.
  if (args.empty()) throw UsageError("parquet: missing list or probe");
  const std::string& command = args[0];
  if (command == "--help" || command == "-h" || command == "help") return PrintHelp("parquet");
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (command == "list" || command == "probe") *help_command += " " + command;
  if (command == "list") return RunParquetList(rest);
  if (command == "probe") return RunParquetProbe(rest);
  throw UsageError("parquet: unknown command \"" + command + "\" (list or probe)");
}

}  // namespace blockbloom_tools
