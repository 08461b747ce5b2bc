// SPDX-License-Identifier: Apache-2.0
// The build side of the semi-join: the small table, the keys its predicate
// keeps, and the two structures built from them -- the Parquet-layout Bloom
// filter pushed into the scan, and the exact set the join itself probes.
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_BUILD_SIDE_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_BUILD_SIDE_H_

#include <cstdint>
#include <memory>

#include "blockbloom/blockbloom.hpp"
#include "tools/blockbloom/join_demo/int64_set.h"
#include "tools/blockbloom/join_demo/key_column.h"
#include "tools/blockbloom/join_demo/options.h"
#include "tools/common/progress.h"

namespace blockbloom_tools::join_demo {

struct BuildSide {
  std::uint64_t small_rows = 0;  // rows of the small table
  std::uint64_t kept_keys = 0;   // rows its predicate keeps: the keys of the filter and the set
  double predicted_fpp = 0.0;    // bb_fpp(kept_keys, filter bytes)
  std::unique_ptr<blockbloom::Filter> filter;
  std::unique_ptr<Int64Set> exact;
};

// selective: the options.small / 2 smallest and largest keys of the column,
// each with some_int1; kept where some_int1 % 2 == 1. unselective: the keys of
// the rows whose index % 20 != 0, all kept. The filter is sized with
// bb_bytes_for(kept, options.fpp, BB_SIZE_PARQUET) and filled with
// bb_insert_column of an int64 column (XXH64 of the int64 plain encoding). Throws CliError
// when the build side would not fit this machine's memory.
BuildSide BuildJoinSide(const Options& options, const KeyColumn& column,
                        const ProgressSettings& settings);

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_BUILD_SIDE_H_
