// SPDX-License-Identifier: Apache-2.0
// One value is a one-row bb_column hashed by the library
// (bb_parquet_hash_column / bb_kudu_hash_column), so each layout's rule for
// a type has one home, the library's.
#include "tools/blockbloom/value_hashing.h"

#include <string>

#include "blockbloom/column.h"
#include "tools/common/cli_error.h"

namespace blockbloom_tools {

std::uint64_t ValueHasher::Column(const bb_column& col) const {
  std::size_t n = 0;
  int status;
  std::uint64_t hash = 0;
  if (mode_ == HashMode::kXxh64) {
    status = bb_parquet_hash_column(&col, &hash, &n);
  } else {
    std::uint32_t h32 = 0;
    status = bb_kudu_hash_column(&col, seed_, &h32, &n);
    hash = h32;
  }
  if (status != BB_OK || n != 1) {
    throw CliError(std::string("cannot hash the value: ") + bb_status_message(status));
  }
  return hash;
}

std::uint64_t ValueHasher::Fixed(std::uint32_t type, const void* value) const {
  bb_column col = BB_COLUMN_INIT;
  col.type = type;
  col.length = 1;
  col.values = value;
  return Column(col);
}

std::uint64_t ValueHasher::Int32(std::int32_t value) const { return Fixed(BB_TYPE_INT32, &value); }

std::uint64_t ValueHasher::Int64(std::int64_t value) const { return Fixed(BB_TYPE_INT64, &value); }

std::uint64_t ValueHasher::Float(float value) const { return Fixed(BB_TYPE_FLOAT, &value); }

std::uint64_t ValueHasher::Double(double value) const { return Fixed(BB_TYPE_DOUBLE, &value); }

std::uint64_t ValueHasher::String(std::string_view bytes) const {
  // A non-null pointer even for "".
  static const char kEmpty[1] = {0};
  const std::int32_t offsets[2] = {0, static_cast<std::int32_t>(bytes.size())};
  bb_column col = BB_COLUMN_INIT;
  col.type = BB_TYPE_BYTE_ARRAY;
  col.length = 1;
  col.offsets = offsets;
  col.data = bytes.empty() ? kEmpty : bytes.data();
  col.data_len = bytes.size();
  return Column(col);
}

}  // namespace blockbloom_tools
