// SPDX-License-Identifier: Apache-2.0
// blockbloom: command-line front end to the blockbloom library.
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "common/cli_error.h"
#include "commands.h"
#include "join_demo/join_demo_command.h"
#include "common/printable_text.h"
#include "usage.h"

namespace blockbloom_cli {

int PrintHelp() {
  std::fputs(kUsage, stdout);
  return 0;
}

namespace {

int Dispatch(const std::vector<std::string>& words) {
  if (words.empty()) throw UsageError("missing command");
  const std::string& command = words[0];
  const std::vector<std::string> args(words.begin() + 1, words.end());
  if (command == "--help" || command == "-h" || command == "help") return PrintHelp();
  if (command == "--version") {
    if (!args.empty()) throw UsageError("--version takes no arguments");
    std::printf("blockbloom %s\n", bb_version());
    return 0;
  }
  if (command == "info") return RunInfo(args);
  if (command == "build") return RunBuild(args);
  if (command == "probe") return RunProbe(args);
  if (command == "union") return RunUnion(args);
  if (command == "tune") return RunTune(args);
  if (command == "parquet") return RunParquet(args);
  if (command == "join-demo") return RunJoinDemo(args);
  throw UsageError("unknown command \"" + command + "\"");
}

// Exit statuses.
constexpr int kExitOk = 0;
constexpr int kExitInternalError = 1;
constexpr int kExitError = 2;

}  // namespace
}  // namespace blockbloom_cli

int main(int argc, char** argv) {
  using namespace blockbloom_cli;
  int status = kExitOk;
  try {
    status = Dispatch(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const CliError& e) {
    // Messages quote file names and input as given: escape what a terminal would obey.
    std::fprintf(stderr, "blockbloom: %s\n", Printable(e.what()).c_str());
    if (e.show_usage()) std::fprintf(stderr, "\n%s", kUsage);
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
