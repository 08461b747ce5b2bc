// SPDX-License-Identifier: Apache-2.0
// The internals the command-line tools (tools/) and the benchmarks may use:
// the one internal header they include. Everything else they do goes through
// the public API (include/blockbloom). Each entry is here because the public
// API has no equivalent a tool could call, and for no other reason:
//
//  - DescribeCpu (src/dispatch/cpu_features_detect.h): the CPU's brand and
//    microarchitecture, which `blockbloom info`, `tune` and aligncheck print;
//    the public API reports only the ISA it chose (bb_selected_isa).
//  - ActivePrefetchClasses, PlanPrefetch (src/kernels/prefetch.h): the prefetch
//    plan per filter size, which `info` prints and `tune` compares against;
//    the public API sets hint and distance but does not expose the table.
//  - DetectedCacheSizes (src/dispatch/prefetch_classes.h): the caches the
//    classes were derived from, which `info` prints; the public API has no
//    cache description.
//  - OpenRegularFile, ReadFully (src/parquet/format/pread_file.h): the library's one
//    way to open and read a file in full (EINTR, short reads, refusing
//    directories and FIFOs), so the tools report I/O problems the way the
//    library does.
//  - kHugePage, MapHugePageAligned (src/filter/huge_page_map.h): the 2 MiB
//    aligned mapping the default bitset allocator uses, for join-demo's hash
//    table and the tools' file buffers.
//  - ParquetLayout (src/core/block_op.h): the block a hash selects, for the
//    random-line loop of `blockbloom tune` and the prefetch benchmarks
//    (tools/common/random_lines.h), which pick hashes by the block they hit;
//    the public API probes blocks but never names one.
#ifndef BLOCKBLOOM_TOOLS_INTERFACE_H_
#define BLOCKBLOOM_TOOLS_INTERFACE_H_

#include "src/filter/huge_page_map.h"
#include "src/parquet/format/pread_file.h"
#include "src/dispatch/cpu_features_detect.h"
#include "src/dispatch/prefetch_classes.h"
#include "src/core/block_op.h"
#include "src/kernels/prefetch.h"

#endif  // BLOCKBLOOM_TOOLS_INTERFACE_H_
