// SPDX-License-Identifier: Apache-2.0
// build's filter size: either --bytes N, or --ndv N --fpp P [--pow2] sized by
// the library's exact false-positive model (blockbloom/sizing.h).
#ifndef BLOCKBLOOM_TOOLS_SIZING_OPTIONS_H_
#define BLOCKBLOOM_TOOLS_SIZING_OPTIONS_H_

#include <cstddef>

#include "common/cli_args.h"
#include "common/filter_options.h"

namespace blockbloom_cli {

// Exactly one of --bytes or (--ndv and --fpp) must be given, and --pow2 only
// with --ndv/--fpp and the parquet layout; otherwise a usage error. --ndv 0
// or an --fpp outside (0, 1) throws CliError naming the flag and the problem.
// The size is checked for the layout as --bytes would be.
std::size_t BuildBytesFromFlags(const ParsedFlags& flags, Layout layout);

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_SIZING_OPTIONS_H_
