// SPDX-License-Identifier: Apache-2.0
// A checked bb_column (column.h): what the chunk hashers and the column loops
// read. CheckColumn does every check of the descriptor itself that needs no
// filter and no pass over the data; CheckOffsets is that pass, for byte
// arrays. Internal.
#ifndef BLOCKBLOOM_COLUMNS_COLUMN_VIEW_H_
#define BLOCKBLOOM_COLUMNS_COLUMN_VIEW_H_

#include <cstddef>
#include <cstdint>

#include "blockbloom/column.h"

namespace blockbloom::internal {

struct ColumnView {
  uint32_t type;          // a bb_column_type
  bool byte_array;        // BYTE_ARRAY or LARGE_BYTE_ARRAY
  size_t length;
  size_t width;           // fixed-width: bytes per value; byte arrays: bytes per offset (4 or 8)
  const uint8_t* values;  // fixed-width
  const uint8_t* offsets; // byte arrays: length + 1 offsets of `width` bytes
  const uint8_t* data;
  size_t data_len;
  const uint8_t* validity;  // NULL: no nulls
  size_t validity_offset;
};

// BB_OK and *view filled, or the code column.h lists for the descriptor
// (BB_ERR_INVALID_COLUMN, _UNKNOWN_COLUMN_TYPE, _INVALID_COLUMN_WIDTH, and
// BB_ERR_NULL_POINTER for a buffer the type needs). col is not NULL.
int CheckColumn(const bb_column* col, ColumnView* view);

// Byte arrays: BB_ERR_INVALID_OFFSETS unless every offset is >= 0,
// non-decreasing and <= data_len. BB_OK for fixed-width columns.
int CheckOffsets(const ColumnView& view);

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_COLUMNS_COLUMN_VIEW_H_
