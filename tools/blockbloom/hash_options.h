// SPDX-License-Identifier: Apache-2.0
// What the lines of an input are: values of a type (--type T: any name
// bb_parquet_type_parse takes), or 64-bit hashes (--raw-hashes, or the older
// --hash none), and the Kudu hash seed (--seed). build needs one of the two;
// probe and union take them from a filter file instead.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_HASH_OPTIONS_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_HASH_OPTIONS_H_

#include <cstdint>
#include <string>

#include "blockbloom/parquet_file.h"
#include "tools/common/cli_args.h"
#include "tools/common/filter_options.h"

namespace blockbloom_tools {

struct HashOptions {
  bool raw = true;           // each line is a hash (64-bit; 32-bit for kudu)
  bb_parquet_column type{};  // unless raw: the values' type
  std::uint32_t seed = 0;    // kudu: the FastHash seed
  bool given = false;        // --type, --raw-hashes or --hash was given
  bool seed_given = false;   // --seed was given
};

// The type as messages name it: "INT32 DATE", "INT64", or "raw hashes".
std::string DescribeValues(bool raw, const bb_parquet_column& type);

// Whether a and b are one type (every field but the path and struct_size).
bool SameType(const bb_parquet_column& a, const bb_parquet_column& b);

// Reads --type, --raw-hashes, --hash (none = --raw-hashes; xxh64 /
// fasthash32 name the layout's hash and need --type) and --seed (kudu only).
// Usage errors: --type with --raw-hashes, an unknown type name, a hash of
// the other layout, --seed on parquet or above 2^32-1, and, when required,
// neither --type nor --raw-hashes. A type the layout cannot hash (kudu: an
// unsigned integer, a time, ...) throws CliError naming both.
HashOptions HashOptionsFromFlags(const ParsedFlags& flags, Layout layout, bool required);

// The flags build, probe and union take for it (for ParseFlags).
extern const std::vector<FlagSpec> kHashFlagSpecs;

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_HASH_OPTIONS_H_
