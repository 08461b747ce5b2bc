// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/parquet/value_encoding.h"

#include <string>
#include <vector>

#include "blockbloom/parquet_types.h"
#include "blockbloom/parquet_value.h"
#include "tools/common/cli_error.h"
#include "tools/blockbloom/input_lines.h"

namespace blockbloom_tools {
namespace {

// Which types take --hex is the hex column of the library's type table
// (parquet_types.h), the rule bb_parquet_encode_text applies.
bool TakesHex(int physical_type) {
#define TAKES_HEX_ROW(name, code, width, hex) \
  if (physical_type == (code)) return (hex) != 0;
  BB_PARQUET_PHYSICAL_TYPES(TAKES_HEX_ROW)
#undef TAKES_HEX_ROW
  return false;
}

// "INT96, FLOAT, ... and FIXED_LEN_BYTE_ARRAY", in the table's order.
std::string HexTypes() {
  std::vector<std::string> names;
#define HEX_NAME_ROW(name, code, width, hex) \
  if (hex) names.push_back(#name);
  BB_PARQUET_PHYSICAL_TYPES(HEX_NAME_ROW)
#undef HEX_NAME_ROW
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return list;
}

}  // namespace

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
  if (hex && !TakesHex(column.physical_type)) {
    throw UsageError("--hex is for " + HexTypes() + " columns; column " + column_name + " is " +
                     r.type);
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
