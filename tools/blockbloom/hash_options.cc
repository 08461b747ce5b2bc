// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/hash_options.h"

#include <string>

#include "tools/common/cli_error.h"

namespace blockbloom_tools {
namespace {

HashMode ParseHashMode(const std::string& name) {
  if (name == "none") return HashMode::kNone;
  if (name == "xxh64") return HashMode::kXxh64;
  if (name == "fasthash32") return HashMode::kFastHash32;
  throw UsageError("unknown --hash \"" + name + "\" (known: none, xxh64, fasthash32)");
}

ValueType ParseValueType(const std::string& name) {
  for (ValueType type : {ValueType::kString, ValueType::kInt32, ValueType::kInt64,
                         ValueType::kFloat, ValueType::kDouble}) {
    if (name == ValueTypeName(type)) return type;
  }
  throw UsageError("unknown --type \"" + name + "\" (known: string, int32, int64, float, double)");
}

}  // namespace

const char* ValueTypeName(ValueType type) {
  switch (type) {
    case ValueType::kString: return "string";
    case ValueType::kInt32: return "int32";
    case ValueType::kInt64: return "int64";
    case ValueType::kFloat: return "float";
    case ValueType::kDouble: return "double";
  }
  return "?";
}

HashOptions HashOptionsFromFlags(const ParsedFlags& flags, Layout layout) {
  HashOptions options;
  const std::string hash_name = flags.Optional("--hash", "none");
  options.mode = ParseHashMode(hash_name);
  if (options.mode == HashMode::kXxh64 && layout != Layout::kParquet) {
    throw UsageError("--hash xxh64 is the parquet hash; --layout kudu takes --hash fasthash32");
  }
  if (options.mode == HashMode::kFastHash32 && layout != Layout::kKudu) {
    throw UsageError("--hash fasthash32 is the kudu hash; --layout parquet takes --hash xxh64");
  }

  if (options.mode == HashMode::kNone) {
    if (flags.Has("--type")) throw UsageError("--type needs --hash xxh64 or --hash fasthash32");
  } else {
    if (!flags.Has("--type")) {
      throw UsageError("--hash " + hash_name +
                       " needs --type (string, int32, int64, float or double)");
    }
    options.type = ParseValueType(flags.Required("--type"));
  }

  if (flags.Has("--seed")) {
    if (options.mode != HashMode::kFastHash32) {
      throw UsageError("--seed is the fasthash32 seed: it needs --hash fasthash32");
    }
    const std::uint64_t seed = NumberFlag(flags, "--seed");
    if (seed > 0xffffffffu) {
      throw UsageError("--seed " + flags.Required("--seed") + ": not an unsigned 32-bit number");
    }
    options.seed = static_cast<std::uint32_t>(seed);
  }
  return options;
}

}  // namespace blockbloom_tools
