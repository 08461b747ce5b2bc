// SPDX-License-Identifier: Apache-2.0
// blockbloom tune's flags: --bytes N (the buffer, default 512 MiB), --seconds
// S (the measuring budget, default 3), --json and --no-progress (progress.h).
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_TUNE_OPTIONS_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_TUNE_OPTIONS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "tools/common/cli_args.h"

namespace blockbloom_tools::tune {

struct TuneOptions {
  // DRAM-sized by default: the filters whose prefetch setting matters.
  std::size_t bytes = std::size_t{512} << 20;
  double seconds = 3.0;
  bool json = false;
};

const std::vector<FlagSpec>& TuneFlagSpecs();

// Throws CliError (exit 2) naming the flag and what is wrong with it: --bytes
// below 1 MiB (the kernels prefetch only from there on) or not a whole number
// of 32-byte blocks, --seconds not a positive number of at most an hour.
TuneOptions TuneOptionsFromFlags(const ParsedFlags& flags);

}  // namespace blockbloom_tools::tune

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_TUNE_OPTIONS_H_
