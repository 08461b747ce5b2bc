// SPDX-License-Identifier: Apache-2.0
// build's filter size: either --bytes N, or --ndv N --fpp P [--pow2] sized by
// the library's exact false-positive model (blockbloom/sizing.h), reader-safe
// for a Parquet header (BB_SIZE_PARQUET_SAFE).
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_SIZING_OPTIONS_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_SIZING_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "tools/common/cli_args.h"
#include "tools/common/filter_options.h"

namespace blockbloom_tools {

// What BuildBytesFromFlags chose, and why.
struct BuildSize {
  std::size_t bytes = 0;
  bool from_target = false;   // sized by --ndv/--fpp (false: --bytes)
  std::string request;        // "--ndv 1000 --fpp 0.01 --parquet-header"
  double predicted_fpp = 0.0; // bb_fpp(ndv, bytes), when from_target
  std::string rule;           // which sizes were allowed, e.g. "a power of two, as Kudu requires"
  int kind = -1;              // the bb_sizing asked, when from_target
  std::uint64_t ndv = 0;      // --ndv, when from_target
  double fpp = 0.0;           // --fpp, when from_target
};

// Exactly one of --bytes or (--ndv and --fpp) must be given, and --pow2 only
// with --ndv/--fpp and the parquet layout; otherwise a usage error. --ndv 0
// or an --fpp outside (0, 1) throws CliError naming the flag and the problem.
// The size is checked for the layout as --bytes would be. reader_safe: the
// bitset goes into a BloomFilterHeader every Parquet reader must accept, so
// --ndv/--fpp picks a power of two from 32 B to 128 MiB (as --pow2 does) and
// a target 128 MiB misses is a CliError; --bytes is checked by the caller
// (parquet_header.h: CheckHeaderSize), which knows about --any-size.
BuildSize BuildBytesFromFlags(const ParsedFlags& flags, Layout layout, bool reader_safe);

// One line for standard error: the size chosen for --ndv/--fpp and its FPP.
std::string DescribeBuildSize(const BuildSize& size);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_SIZING_OPTIONS_H_
