// SPDX-License-Identifier: Apache-2.0
// Whether a filter's memory got transparent huge pages: the share of the
// mapping that holds addr backed by them (-1 if unknown). The code is shared
// with `blockbloom tune` (tools/common/huge_pages.h).
#ifndef BLOCKBLOOM_BENCH_HUGE_PAGES_H_
#define BLOCKBLOOM_BENCH_HUGE_PAGES_H_

#include "tools/common/huge_pages.h"

namespace blockbloom_bench {

using blockbloom_tools::HugePageFraction;

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_HUGE_PAGES_H_
