// SPDX-License-Identifier: Apache-2.0
// blockbloom: command-line front end to the blockbloom library.
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "tools/common/cli_error.h"
#include "tools/blockbloom/commands.h"
#include "tools/blockbloom/join_demo/join_demo_command.h"
#include "tools/common/printable_text.h"
#include "tools/blockbloom/usage.h"

namespace blockbloom_tools {

int PrintHelp(const std::string& command) {
  std::fputs(CommandUsage(command).c_str(), stdout);
  return 0;
}

namespace {

bool IsCommand(const std::string& name) {
  for (std::size_t i = 0; i < kCommandHelpCount; ++i) {
    if (name == kCommandHelp[i].name) return true;
  }
  return false;
}

// Runs the command words[0]; *command gets its name once it is known (and
// parquet's subcommand, "parquet probe"), so that a usage error points at
// that command's help rather than at every command's.
int Dispatch(const std::vector<std::string>& words, std::string* command) {
  if (words.empty()) throw UsageError("missing command");
  const std::string& name = words[0];
  const std::vector<std::string> args(words.begin() + 1, words.end());
  if (name == "--help" || name == "-h") return PrintHelp("");
  if (name == "help") {
    if (args.size() > 1) throw UsageError("help takes at most one command");
    if (!args.empty() && !IsCommand(args[0])) {
      throw UsageError("unknown command \"" + args[0] + "\"");
    }
    return PrintHelp(args.empty() ? "" : args[0]);
  }
  if (name == "--version") {
    if (!args.empty()) throw UsageError("--version takes no arguments");
    std::printf("blockbloom %s\n", bb_version());
    return 0;
  }
  if (IsCommand(name)) *command = name;
  if (name == "info") return RunInfo(args);
  if (name == "build") return RunBuild(args);
  if (name == "probe") return RunProbe(args);
  if (name == "union") return RunUnion(args);
  if (name == "tune") return RunTune(args);
  if (name == "parquet") return RunParquet(args, command);
  if (name == "join-demo") return RunJoinDemo(args);
  throw UsageError("unknown command \"" + name + "\"");
}

// Exit statuses.
constexpr int kExitOk = 0;
constexpr int kExitInternalError = 1;
constexpr int kExitError = 2;

// The one line that follows a usage error, instead of the usage itself (up
// to 170 lines, which would scroll the message away), as git and cargo do.
std::string HelpHint(const std::string& command) {
  return "run 'blockbloom " + (command.empty() ? std::string() : command + " ") +
         "--help' for usage";
}

}  // namespace
}  // namespace blockbloom_tools

int main(int argc, char** argv) {
  using namespace blockbloom_tools;
  int status = kExitOk;
  std::string command;  // empty until a known command runs: then its help is named
  try {
    status = Dispatch(std::vector<std::string>(argv + 1, argv + argc), &command);
  } catch (const CliError& e) {
    // Messages quote file names and input as given: escape what a terminal would obey.
    std::fprintf(stderr, "blockbloom: %s\n", Printable(e.what()).c_str());
    if (e.show_usage()) std::fprintf(stderr, "%s\n", HelpHint(command).c_str());
    return kExitError;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "blockbloom: out of memory\n");
    return kExitError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "blockbloom: internal error: %s\n", Printable(e.what()).c_str());
    return kExitInternalError;
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "blockbloom: cannot write to standard output\n");
    return kExitError;
  }
  return status;
}
