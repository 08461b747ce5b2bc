// SPDX-License-Identifier: Apache-2.0
// The flags that take a count or a size (--ndv, --rows, --bytes, ...), all
// read by the one parser of number_parse.h, so that each accepts the same
// spellings (1e6, 1_000_000, 16MiB) and refuses the rest alike.
#ifndef BLOCKBLOOM_TOOLS_COMMON_NUMBER_FLAGS_H_
#define BLOCKBLOOM_TOOLS_COMMON_NUMBER_FLAGS_H_

#include <cstdint>
#include <string>

#include "tools/common/cli_args.h"

namespace blockbloom_tools {

// The value of a count flag that must be present (ParseCount: 1000000,
// 1_000_000, 1e6, 2.5e6, 0xF4240). Anything else throws a usage error naming
// the flag, its text, what is wrong (not whole, too large, ...) and the
// accepted forms.
std::uint64_t CountFlag(const ParsedFlags& flags, const std::string& name);

// The same for a size in bytes (ParseByteSize: also 16MiB, 1.5KiB, ...);
// "16M" and "16MB" are refused as ambiguous, naming KiB .. TiB.
std::uint64_t ByteSizeFlag(const ParsedFlags& flags, const std::string& name);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_NUMBER_FLAGS_H_
