// SPDX-License-Identifier: Apache-2.0
// The k smallest and k largest keys of the big column, found in one streaming
// pass with two bounded heaps (O(k) memory, whatever the number of rows).
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_EXTREME_KEYS_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_EXTREME_KEYS_H_

#include <cstdint>
#include <vector>

#include "tools/blockbloom/join_demo/key_column.h"
#include "tools/common/progress.h"

namespace blockbloom_tools::join_demo {

struct ExtremeKeys {
  std::vector<std::int64_t> smallest;  // ascending
  std::vector<std::int64_t> largest;   // ascending
};

// k <= column.rows() / 2 keeps the two lists disjoint (the keys are distinct).
ExtremeKeys FindExtremeKeys(const KeyColumn& column, std::uint64_t k, Progress* progress);

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_EXTREME_KEYS_H_
