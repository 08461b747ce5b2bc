// SPDX-License-Identifier: Apache-2.0
// What the tests that re-run their own binary with environment variables set
// need: the binary's path, and a shell command's stdout, with
// " [exit status N]" appended when it did not exit 0.
#ifndef BLOCKBLOOM_TESTS_COMMAND_OUTPUT_H_
#define BLOCKBLOOM_TESTS_COMMAND_OUTPUT_H_

#include <unistd.h>

#include <cstdio>
#include <string>

namespace bbtest {

inline std::string CommandOutput(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "popen failed";
  std::string out;
  char buffer[1024];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  const int status = pclose(pipe);
  if (status != 0) out += " [exit status " + std::to_string(status) + "]";
  return out;
}

// This test binary's own path, for re-running it (as "/proc/self/exe"
// would name the child, not the parent, inside a shell command).
inline std::string SelfExecutablePath() {
  char resolved[4096];
  const ssize_t len = readlink("/proc/self/exe", resolved, sizeof resolved - 1);
  return len > 0 ? std::string(resolved, static_cast<size_t>(len)) : "/proc/self/exe";
}

}  // namespace bbtest

#endif  // BLOCKBLOOM_TESTS_COMMAND_OUTPUT_H_
