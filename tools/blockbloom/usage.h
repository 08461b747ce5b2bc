// SPDX-License-Identifier: Apache-2.0
// The usage text printed by --help and after command-line mistakes.
#ifndef BLOCKBLOOM_TOOLS_USAGE_H_
#define BLOCKBLOOM_TOOLS_USAGE_H_

namespace blockbloom_cli {

extern const char kUsage[];

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_USAGE_H_
