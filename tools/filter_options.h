// The flags build and probe share: --layout, --bytes and numeric values.
#ifndef BLOCKBLOOM_TOOLS_FILTER_OPTIONS_H_
#define BLOCKBLOOM_TOOLS_FILTER_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "cli_args.h"

namespace blockbloom_cli {

// Requires --layout and accepts only "parquet" (the one layout so far).
void CheckLayout(const ParsedFlags& flags);

// The value of a numeric flag (decimal or 0x hex); throws CliError if it is
// not an unsigned 64-bit number.
std::uint64_t NumberFlag(const ParsedFlags& flags, const std::string& name);

// --bytes, checked by the library (positive, whole 32-byte blocks, not too
// many blocks); throws CliError with the library's message otherwise.
std::size_t FilterBytesFlag(const ParsedFlags& flags);

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_FILTER_OPTIONS_H_
