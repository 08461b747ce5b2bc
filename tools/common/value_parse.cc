// SPDX-License-Identifier: Apache-2.0
#include "tools/common/value_parse.h"

#include <cstdint>
#include <cstring>

#include "blockbloom/blockbloom.h"
#include "blockbloom/parquet_value.h"
#include "tools/common/number_parse.h"

namespace blockbloom_tools {
namespace {

// The library's text rule for a column of this physical type, unannotated,
// into *value (sizeof(T) little-endian bytes, as Parquet stores it).
template <typename T>
ValueStatus ParseAs(int32_t physical_type, std::string_view text, T* value) {
  text = TrimLine(text);
  if (text.empty()) return ValueStatus::kEmpty;
  bb_parquet_column column{};
  column.struct_size = sizeof column;
  column.physical_type = physical_type;
  unsigned char bytes[BB_PARQUET_ENCODED_MAX(0, 0)];
  size_t length = 0;
  switch (bb_parquet_encode_text(&column, text.data(), text.size(), BB_PARQUET_TEXT_PHYSICAL,
                                 bytes, sizeof bytes, &length, nullptr, 0)) {
    case BB_OK:
      break;
    case BB_ERR_VALUE_RANGE:
      return ValueStatus::kOutOfRange;
    default:
      return ValueStatus::kInvalid;
  }
  if (length != sizeof(T)) return ValueStatus::kInvalid;  // cannot happen: the type's width
  // Parquet's plain encoding is little-endian; the value is assembled from it
  // whatever the host's byte order.
  std::uint64_t bits = 0;
  for (size_t i = sizeof(T); i-- > 0;) bits = bits << 8 | bytes[i];
  if constexpr (sizeof(T) == 4) {
    const auto narrow = static_cast<std::uint32_t>(bits);
    std::memcpy(value, &narrow, sizeof(T));
  } else {
    std::memcpy(value, &bits, sizeof(T));
  }
  return ValueStatus::kOk;
}

}  // namespace

ValueStatus ParseInt32(std::string_view text, std::int32_t* value) {
  return ParseAs(BB_PARQUET_INT32, text, value);
}

ValueStatus ParseInt64(std::string_view text, std::int64_t* value) {
  return ParseAs(BB_PARQUET_INT64, text, value);
}

ValueStatus ParseFloat(std::string_view text, float* value) {
  return ParseAs(BB_PARQUET_FLOAT, text, value);
}

ValueStatus ParseDouble(std::string_view text, double* value) {
  return ParseAs(BB_PARQUET_DOUBLE, text, value);
}

}  // namespace blockbloom_tools
