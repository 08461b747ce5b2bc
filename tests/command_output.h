// SPDX-License-Identifier: Apache-2.0
// Runs a shell command and returns what it printed on stdout, with
// " [exit status N]" appended when it did not exit 0: how the tests that
// re-run their own binary with environment variables set read the child.
#ifndef BLOCKBLOOM_TESTS_COMMAND_OUTPUT_H_
#define BLOCKBLOOM_TESTS_COMMAND_OUTPUT_H_

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

}  // namespace bbtest

#endif  // BLOCKBLOOM_TESTS_COMMAND_OUTPUT_H_
