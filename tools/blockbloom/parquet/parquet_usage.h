// SPDX-License-Identifier: Apache-2.0
// The usage text of `blockbloom parquet`: its row of kCommandHelp
// (tools/blockbloom/usage.cc), printed by --help and after its command-line
// mistakes.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_PARQUET_USAGE_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_PARQUET_USAGE_H_

namespace blockbloom_tools {

extern const char kParquetSynopsis[];  // its "  blockbloom parquet ..." lines
extern const char kParquetSummary[];   // its entry in the commands list
extern const char kParquetHelp[];      // what list and probe do, their flags, the exit status

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_PARQUET_USAGE_H_
