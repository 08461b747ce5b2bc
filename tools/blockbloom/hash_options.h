// SPDX-License-Identifier: Apache-2.0
// --hash, --type and --seed: how build and probe turn input lines into hashes.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_HASH_OPTIONS_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_HASH_OPTIONS_H_

#include <cstdint>

#include "tools/common/cli_args.h"
#include "tools/common/filter_options.h"

namespace blockbloom_tools {

enum class HashMode {
  kNone,        // each line is a hash already (64-bit; 32-bit for kudu)
  kXxh64,       // Parquet: XXH64 of the value's plain encoding (parquet layout)
  kFastHash32,  // Kudu FAST_HASH of the value's little-endian bytes (kudu layout)
};

enum class ValueType { kString, kInt32, kInt64, kFloat, kDouble };

// "string", "int32", ...
const char* ValueTypeName(ValueType type);

struct HashOptions {
  HashMode mode = HashMode::kNone;
  ValueType type = ValueType::kString;  // meaningful unless mode is kNone
  std::uint32_t seed = 0;               // kFastHash32 only
};

// Reads --hash (default none), --type and --seed. Usage errors: an unknown
// name, xxh64 with kudu, fasthash32 with parquet, --type without a hash,
// a hash without --type, --seed without fasthash32, a seed above 2^32-1.
HashOptions HashOptionsFromFlags(const ParsedFlags& flags, Layout layout);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_HASH_OPTIONS_H_
