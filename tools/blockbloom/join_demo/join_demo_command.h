// SPDX-License-Identifier: Apache-2.0
// blockbloom join-demo (join_demo_command.cc): takes the words after the
// command's name, returns the exit status, throws CliError for bad flags.
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_JOIN_DEMO_COMMAND_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_JOIN_DEMO_COMMAND_H_

#include <string>
#include <vector>

namespace blockbloom_tools {

int RunJoinDemo(const std::vector<std::string>& args);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_JOIN_DEMO_COMMAND_H_
