// SPDX-License-Identifier: Apache-2.0
// The usage text of `blockbloom parquet` (--help, and after its command-line
// mistakes).
#ifndef BLOCKBLOOM_TOOLS_PARQUET_PARQUET_USAGE_H_
#define BLOCKBLOOM_TOOLS_PARQUET_PARQUET_USAGE_H_

namespace blockbloom_cli {

extern const char kParquetUsage[];

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_PARQUET_PARQUET_USAGE_H_
