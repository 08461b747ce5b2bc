// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/parquet/value_encoding.h"

#include "blockbloom/parquet_value.h"
#include "tools/common/cli_error.h"
#include "tools/blockbloom/input_lines.h"

namespace blockbloom_tools {

ValueRules RulesFor(const bb_parquet_column& column, const std::string& column_name, bool hex,
                    bool physical) {
  ValueRules r;
  r.column = column;
  r.column_name = column_name;
  // The library names the types; BB_PARQUET_TYPE_NAME_MAX bytes always
  // suffice, and a call that fails writes nothing, leaving "?".
  char physical_name[BB_PARQUET_TYPE_NAME_MAX] = "?";
  char logical_name[BB_PARQUET_TYPE_NAME_MAX] = "?";
  bb_parquet_physical_type_name(&column, physical_name, sizeof physical_name);
  bb_parquet_logical_type_name(&column, logical_name, sizeof logical_name);
  r.physical_type = physical_name;
  const std::string logical = logical_name;
  r.type = r.physical_type + (logical.empty() ? "" : " " + logical);
  const int p = column.physical_type;
  if (hex && p != BB_PARQUET_BYTE_ARRAY && p != BB_PARQUET_FIXED_LEN_BYTE_ARRAY &&
      p != BB_PARQUET_INT96) {
    throw UsageError("--hex is for BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96 columns; column " +
                     column_name + " is " + r.type);
  }
  r.flags = (hex ? uint32_t{BB_PARQUET_TEXT_HEX} : 0u) | (physical ? uint32_t{BB_PARQUET_TEXT_PHYSICAL} : 0u);
  char form[BB_PARQUET_VALUE_FORM_MAX];
  if (bb_parquet_value_form(&r.column, r.flags, form, sizeof form) != BB_OK) {
    throw CliError("column " + column_name + " (" + r.type + "): " + form);
  }
  return r;
}

std::uint64_t HashValue(const ValueRules& rules, std::string_view text, const std::string& where) {
  std::uint64_t hash = 0;
  char why[BB_PARQUET_VALUE_ERROR_MAX];
  if (bb_parquet_hash_text(&rules.column, text.data(), text.size(), rules.flags, &hash, why,
                           sizeof why) != BB_OK) {
    throw CliError(where + "value " + Quote(text) + " of column " + rules.column_name + " (" +
                   rules.type + ") " + why);
  }
  return hash;
}

}  // namespace blockbloom_tools
