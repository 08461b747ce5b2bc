// SPDX-License-Identifier: Apache-2.0
// `blockbloom parquet probe` over a dataset: many files, directories and
// glob patterns (dataset_paths.h), each file's footer, its column chunks'
// filter headers and the column's bitsets read on a bounded pool of threads
// (--jobs), the answers printed per (file, row group, value) in path order,
// then a summary of the row groups that can be skipped. A file that cannot
// be probed is reported and skipped; it never answers "absent".
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_DATASET_PROBE_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_DATASET_PROBE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "tools/common/cli_args.h"

namespace blockbloom_tools {

// Exit status: 0 when every file named was probed; 1 when some were
// reported and skipped (the answers printed for the others are complete);
// 2 when none could be (no file found, or none readable), or a usage error.
// --jobs, checked (1..1024; a usage error otherwise), or the default: the
// machine's hardware threads within that bound. Checked in single-file mode
// too, where it is not used, so that a bad value is never ignored.
std::size_t JobsFlag(const ParsedFlags& flags);

int RunParquetDatasetProbe(const ParsedFlags& flags, const std::vector<std::string>& paths,
                           const std::vector<std::string>& values);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_DATASET_PROBE_H_
