// Reads a hash file: one unsigned 64-bit number per line (see number_parse.h).
#ifndef BLOCKBLOOM_TOOLS_HASH_INPUT_H_
#define BLOCKBLOOM_TOOLS_HASH_INPUT_H_

#include <cstdint>
#include <string>
#include <vector>

namespace blockbloom_cli {

// Reads every hash of path ("-" for standard input). Throws CliError naming
// the file (and the 1-based line) on an unreadable file or a bad line.
std::vector<std::uint64_t> ReadHashFile(const std::string& path);

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_HASH_INPUT_H_
