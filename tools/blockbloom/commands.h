// SPDX-License-Identifier: Apache-2.0
// The subcommands. Each takes the words after its name, returns the exit
// status, and throws CliError for anything the user must fix.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_COMMANDS_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_COMMANDS_H_

#include <string>
#include <vector>

namespace blockbloom_tools {

int RunInfo(const std::vector<std::string>& args);
int RunBuild(const std::vector<std::string>& args);
int RunProbe(const std::vector<std::string>& args);
int RunUnion(const std::vector<std::string>& args);
int RunTune(const std::vector<std::string>& args);     // tune/tune_command.cc
// parquet/parquet_command.cc; appends " list" or " probe" to *help_command
// ("parquet") once it knows which, for the hint after a usage error.
int RunParquet(const std::vector<std::string>& args, std::string* help_command);

// Prints a command's usage (usage.h: CommandUsage; "" for every command) to
// standard output, for --help, and returns 0.
int PrintHelp(const std::string& command);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_COMMANDS_H_
