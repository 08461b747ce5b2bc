// SPDX-License-Identifier: Apache-2.0
// The flags build, probe and union share: --layout, --bytes, numeric values,
// and the size rules of each layout.
#ifndef BLOCKBLOOM_TOOLS_COMMON_FILTER_OPTIONS_H_
#define BLOCKBLOOM_TOOLS_COMMON_FILTER_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "tools/common/cli_args.h"

namespace blockbloom_tools {

enum class Layout {
  kParquet,  // 64-bit hashes, any whole number of 32-byte blocks
  kKudu,     // 32-bit hashes, a power of two of at least 64 bytes
};

// "parquet" or "kudu".
const char* LayoutName(Layout layout);

// --layout, which must be present: "parquet" or "kudu"; anything else throws.
Layout LayoutFlag(const ParsedFlags& flags);

// --layout when present, else fallback.
Layout LayoutFlagOr(const ParsedFlags& flags, Layout fallback);

// Whether --parquet-header was given; a usage error with any layout but parquet.
bool ParquetHeaderFlag(const ParsedFlags& flags, Layout layout);

// The value of a flag that names a number rather than counts something
// (--seed): decimal or 0x hex; throws a usage error if it is not an unsigned
// 64-bit number. Counts and sizes take more spellings: number_flags.h.
std::uint64_t NumberFlag(const ParsedFlags& flags, const std::string& name);

// Throws CliError("<what>: <library message>") unless bytes is a valid size
// for layout: the library's check (positive, whole 32-byte blocks, not too
// many blocks), and for Kudu also a power of two from 64 bytes to 32 GiB.
void CheckFilterBytes(Layout layout, std::uint64_t bytes, const std::string& what);

// --bytes (number_flags.h: ByteSizeFlag, so 16MiB too), checked with CheckFilterBytes.
std::size_t FilterBytesFlag(const ParsedFlags& flags, Layout layout);

// log2(bytes) for a size CheckFilterBytes accepted for Kudu.
std::int32_t KuduLogSpaceBytes(std::size_t bytes);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_FILTER_OPTIONS_H_
