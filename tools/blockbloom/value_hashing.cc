// SPDX-License-Identifier: Apache-2.0
// The text of a value becomes bytes by the library's one rule
// (bb_parquet_encode_text); for Kudu those bytes are put in a one-row
// bb_column of the value's Kudu cell and hashed by bb_kudu_hash_column, so
// each layout's hash has one home, the library's.
#include "tools/blockbloom/value_hashing.h"

#include <cstring>

#include "blockbloom/filter_file.h"
#include "blockbloom/hashing.h"
#include "blockbloom/parquet_value.h"
#include "tools/blockbloom/hash_options.h"
#include "tools/blockbloom/input_lines.h"
#include "tools/common/cli_error.h"
#include "tools/common/number_parse.h"

namespace blockbloom_tools {

ValueHasher::ValueHasher(Layout layout, const bb_parquet_column& type, std::uint32_t seed)
    : layout_(layout), type_(type), seed_(seed), type_name_(DescribeValues(false, type)) {
  const int p = type.physical_type;
  byte_type_ = p == BB_PARQUET_BYTE_ARRAY || p == BB_PARQUET_FIXED_LEN_BYTE_ARRAY;
  if (layout == Layout::kKudu) {
    if (bb_layout_column_type(BB_LAYOUT_KUDU, &type_, &kudu_cell_, nullptr) != BB_OK) {
      throw CliError("type " + type_name_ + " has no Kudu cell");
    }
  }
}

std::uint64_t ValueHasher::Hash(std::string_view line, const LineReader& where) const {
  const std::string_view text = byte_type_ ? line : TrimLine(line);
  if (text.empty() && !byte_type_) {
    throw CliError(LineLocation(where.shown_name(), where.line_number()) +
                   "empty line (expected a value of type " + type_name_ + ")");
  }
  char why[BB_PARQUET_VALUE_ERROR_MAX] = "";
  std::string stored(BB_PARQUET_ENCODED_MAX(type_.type_length, text.size()), '\0');
  std::size_t stored_len = 0;
  // A non-null pointer even for "".
  const char* data = text.empty() ? "" : text.data();
  if (bb_parquet_encode_text(&type_, data, text.size(), 0,
                             reinterpret_cast<std::uint8_t*>(&stored[0]), stored.size(),
                             &stored_len, why, sizeof why) != BB_OK) {
    throw CliError(LineLocation(where.shown_name(), where.line_number()) + "value " + Quote(text) + " of type " + type_name_ + " " + why);
  }
  stored.resize(stored_len);
  if (layout_ == Layout::kParquet) return bb_parquet_hash_bytes(stored.data(), stored.size());
  return KuduHash(stored);
}

std::uint64_t ValueHasher::KuduHash(const std::string& stored) const {
  bb_column col = BB_COLUMN_INIT;
  col.type = kudu_cell_;
  col.length = 1;
  // INT8 / INT16 are stored as a 4-byte INT32 whose low bytes (little
  // endian) hold the value: the range check of bb_parquet_encode_text keeps
  // the rest a sign extension.
  std::int8_t i8 = 0;
  std::int16_t i16 = 0;
  std::int32_t i32 = 0;
  const std::int32_t offsets[2] = {0, static_cast<std::int32_t>(stored.size())};
  if (kudu_cell_ == BB_TYPE_INT8 || kudu_cell_ == BB_TYPE_INT16) {
    std::memcpy(&i32, stored.data(), sizeof i32);
    i8 = static_cast<std::int8_t>(i32);
    i16 = static_cast<std::int16_t>(i32);
    col.values = kudu_cell_ == BB_TYPE_INT8 ? static_cast<const void*>(&i8) : &i16;
  } else if (kudu_cell_ == BB_TYPE_BYTE_ARRAY) {
    col.offsets = offsets;
    col.data = stored.empty() ? "" : stored.data();
    col.data_len = stored.size();
  } else {
    col.values = stored.data();
  }
  std::uint32_t hash = 0;
  std::size_t n = 0;
  const int status = bb_kudu_hash_column(&col, seed_, &hash, &n);
  if (status != BB_OK || n != 1) {
    throw CliError(std::string("cannot hash the value: ") + bb_status_message(status));
  }
  return hash;
}

}  // namespace blockbloom_tools
