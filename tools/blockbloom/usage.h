// SPDX-License-Identifier: Apache-2.0
// The usage texts: `blockbloom --help` (every command) and `blockbloom COMMAND
// --help` (that command only; a command-line mistake names it rather than
// printing it). One row of kCommandHelp (usage.cc) per subcommand: a new
// subcommand adds its row, pointing at its own text, and nothing else here.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_USAGE_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_USAGE_H_

#include <cstddef>
#include <string>

namespace blockbloom_tools {

struct CommandHelp {
  const char* name;      // "build", as typed after `blockbloom`
  const char* synopsis;  // its "  blockbloom build ..." lines (indented 2, each ending in '\n')
  const char* summary;   // its entry in the "commands:" list ("  build      ...\n")
  // The sections that explain it, in order, NULL-terminated. A section that
  // several commands share (layouts, input lines, files) is one constant
  // named in each of their rows; the full help prints it once.
  const char* const* sections;
};

// Every command, in the order --help lists them.
extern const CommandHelp kCommandHelp[];
extern const std::size_t kCommandHelpCount;

// `blockbloom --help`: every synopsis, every summary, every section once.
std::string FullUsage();

// `blockbloom COMMAND --help`: that command's synopsis, summary and sections,
// and where to find the others. An unknown or empty name gives FullUsage().
std::string CommandUsage(const std::string& command);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_USAGE_H_
