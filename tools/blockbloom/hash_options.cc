// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/hash_options.h"

#include <string>

#include "blockbloom/filter_file.h"
#include "blockbloom/parquet_format.h"
#include "blockbloom/parquet_types.h"
#include "blockbloom/parquet_value.h"
#include "tools/common/cli_error.h"

namespace blockbloom_tools {

const std::vector<FlagSpec> kHashFlagSpecs = {
    {"--type", true, ""}, {"--raw-hashes", false, ""}, {"--hash", true, ""}, {"--seed", true, ""}};

namespace {

// The names of the five types hashing.h hashes (the library's table), then
// annotated ones.
#define HASHING_TYPE_NAME(name, physical) #name ", "
const char kTypeExamples[] = BB_PARQUET_HASHING_TYPES(HASHING_TYPE_NAME)
    "date, decimal(9,2), timestamp(us,utc), ... (blockbloom build --help lists them)";
#undef HASHING_TYPE_NAME

}  // namespace

std::string DescribeValues(bool raw, const bb_parquet_column& type) {
  if (raw) return "raw hashes";
  char physical[BB_PARQUET_TYPE_NAME_MAX] = "?";
  char logical[BB_PARQUET_TYPE_NAME_MAX] = "";
  bb_parquet_physical_type_name(&type, physical, sizeof physical);
  bb_parquet_logical_type_name(&type, logical, sizeof logical);
  return std::string(physical) + (logical[0] != '\0' ? std::string(" ") + logical : "");
}

bool SameType(const bb_parquet_column& a, const bb_parquet_column& b) {
  return a.physical_type == b.physical_type && a.type_length == b.type_length &&
         a.logical_type == b.logical_type && a.converted_type == b.converted_type &&
         a.bit_width == b.bit_width && a.is_signed == b.is_signed &&
         a.time_unit == b.time_unit && a.is_adjusted_to_utc == b.is_adjusted_to_utc &&
         a.scale == b.scale && a.precision == b.precision;
}

HashOptions HashOptionsFromFlags(const ParsedFlags& flags, Layout layout, bool required) {
  HashOptions options;
  options.type.struct_size = sizeof options.type;
  const bool has_type = flags.Has("--type");
  bool raw = flags.Has("--raw-hashes");
  if (flags.Has("--hash")) {
    const std::string hash = flags.Required("--hash");
    if (hash == "none") {
      raw = true;
    } else if (hash == "xxh64" || hash == "fasthash32") {
      if (hash == "xxh64" && layout != Layout::kParquet) {
        throw UsageError("--hash xxh64 is the parquet hash; --layout kudu takes --hash fasthash32");
      }
      if (hash == "fasthash32" && layout != Layout::kKudu) {
        throw UsageError("--hash fasthash32 is the kudu hash; --layout parquet takes --hash xxh64");
      }
      if (!has_type) throw UsageError("--hash " + hash + " needs --type T (" + kTypeExamples + ")");
    } else {
      throw UsageError("unknown --hash \"" + hash + "\" (known: none, xxh64, fasthash32)");
    }
  }
  if (raw && has_type) {
    throw UsageError("--type T says the lines are values, --raw-hashes (or --hash none) that "
                     "they are hashes: give one");
  }
  if (required && !raw && !has_type) {
    throw UsageError("missing --type T, the type of the input's values (" +
                     std::string(kTypeExamples) + "), or --raw-hashes if each line is a hash");
  }
  options.given = raw || has_type;
  options.raw = !has_type;
  if (has_type) {
    const std::string& name = flags.Required("--type");
    if (bb_parquet_type_parse(name.data(), name.size(), &options.type) != BB_OK) {
      throw UsageError("unknown --type \"" + name + "\" (known: " + kTypeExamples + ")");
    }
    std::uint32_t column_type = 0;
    const int status = bb_layout_column_type(
        layout == Layout::kKudu ? BB_LAYOUT_KUDU : BB_LAYOUT_PARQUET, &options.type,
        &column_type, nullptr);
    if (status != BB_OK) {
      throw CliError("--type " + name + " (" + DescribeValues(false, options.type) + ") with --layout " +
                     LayoutName(layout) + ": " + bb_status_message(status));
    }
  }

  if (flags.Has("--seed")) {
    if (layout != Layout::kKudu) {
      throw UsageError("--seed is the kudu hash seed: parquet filters have none");
    }
    const std::uint64_t seed = NumberFlag(flags, "--seed");
    if (seed > 0xffffffffu) {
      throw UsageError("--seed " + flags.Required("--seed") + ": not an unsigned 32-bit number");
    }
    options.seed = static_cast<std::uint32_t>(seed);
    options.seed_given = true;
  }
  return options;
}

}  // namespace blockbloom_tools
