// SPDX-License-Identifier: Apache-2.0
// The one error type the tool's commands throw. main() prints it as
// "blockbloom: <message>" (plus, when show_usage is set, one line naming
// the command's --help) and exits with status 2.
#ifndef BLOCKBLOOM_TOOLS_COMMON_CLI_ERROR_H_
#define BLOCKBLOOM_TOOLS_COMMON_CLI_ERROR_H_

#include <stdexcept>
#include <string>

namespace blockbloom_tools {

class CliError : public std::runtime_error {
 public:
  explicit CliError(const std::string& message, bool show_usage = false)
      : std::runtime_error(message), show_usage_(show_usage) {}
  bool show_usage() const noexcept { return show_usage_; }

 private:
  bool show_usage_;
};

// A mistake in the command line itself: reported with a pointer to --help.
inline CliError UsageError(const std::string& message) { return CliError(message, true); }

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_CLI_ERROR_H_
