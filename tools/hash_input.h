// Reads an input file into hashes: one per line, either a hash already
// (--hash none: an unsigned number, see number_parse.h; at most 2^32-1 for
// the kudu layout) or a typed value to hash (see value_parse.h and
// value_hashing.h; a string value is the line's bytes without the '\n').
#ifndef BLOCKBLOOM_TOOLS_HASH_INPUT_H_
#define BLOCKBLOOM_TOOLS_HASH_INPUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "filter_options.h"
#include "hash_options.h"

namespace blockbloom_cli {

// Reads every hash of path ("-" for standard input). Throws CliError naming
// the file (and the 1-based line) on an unreadable file or a bad line. Kudu
// hashes are 32-bit values widened to 64 bits.
std::vector<std::uint64_t> ReadHashFile(const std::string& path, const HashOptions& options,
                                        Layout layout);

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_HASH_INPUT_H_
