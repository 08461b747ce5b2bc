// SPDX-License-Identifier: Apache-2.0
#include "src/columns/column_view.h"

#include "src/hashing/byte_order.h"
#include "src/dispatch/dispatcher.h"

namespace blockbloom::internal {
namespace {

// How a type's values are laid out: `width` bytes each (0: the column's
// width field, FIXED_LEN_BYTE_ARRAY), or offsets of `width` bytes into data.
struct TypeShape {
  bool byte_array;
  size_t width;
};

bool ShapeOf(uint32_t type, TypeShape* shape) {
  switch (type) {
    case BB_TYPE_INT8:
    case BB_TYPE_UINT8: *shape = {false, 1}; return true;
    case BB_TYPE_INT16:
    case BB_TYPE_UINT16: *shape = {false, 2}; return true;
    case BB_TYPE_INT32:
    case BB_TYPE_UINT32:
    case BB_TYPE_FLOAT:
    case BB_TYPE_DATE32:
    case BB_TYPE_TIME32: *shape = {false, 4}; return true;
    case BB_TYPE_INT64:
    case BB_TYPE_UINT64:
    case BB_TYPE_DOUBLE:
    case BB_TYPE_DATE64:
    case BB_TYPE_TIME64:
    case BB_TYPE_TIMESTAMP: *shape = {false, 8}; return true;
    case BB_TYPE_INT96: *shape = {false, 12}; return true;
    case BB_TYPE_FIXED_LEN_BYTE_ARRAY: *shape = {false, 0}; return true;
    case BB_TYPE_BYTE_ARRAY: *shape = {true, 4}; return true;
    case BB_TYPE_LARGE_BYTE_ARRAY: *shape = {true, 8}; return true;
    default: return false;
  }
}

// Offsets of type Offset: first >= 0, each >= the one before, last <= data_len.
template <typename Offset>
int CheckOffsetsOf(const ColumnView& v) {
  if (v.offsets == nullptr) return BB_OK;  // only when length == 0 (CheckColumn)
  const Offset first = LoadAt<Offset>(v.offsets);
  if (first < 0) return BB_ERR_INVALID_OFFSETS;
  // The active tier's comparison of every offset with the next one.
  const bbi_kernel_table& kernels = ActiveKernels();
  const bool ordered = (sizeof(Offset) == 4 ? kernels.offsets_ordered32(v.offsets, v.length)
                                            : kernels.offsets_ordered64(v.offsets, v.length)) != 0;
  const Offset last = LoadAt<Offset>(v.offsets + v.length * sizeof(Offset));
  if (!ordered || static_cast<uint64_t>(last) > v.data_len) return BB_ERR_INVALID_OFFSETS;
  return BB_OK;
}

}  // namespace

int CheckColumn(const bb_column* col, ColumnView* view) {
  if (col->struct_size != sizeof(bb_column)) return BB_ERR_INVALID_COLUMN;
  TypeShape shape{};
  if (!ShapeOf(col->type, &shape)) return BB_ERR_UNKNOWN_COLUMN_TYPE;

  size_t width = shape.width;
  if (shape.byte_array) {
    if (col->width != 0) return BB_ERR_INVALID_COLUMN_WIDTH;
  } else if (width == 0) {  // FIXED_LEN_BYTE_ARRAY
    if (col->width == 0) return BB_ERR_INVALID_COLUMN_WIDTH;
    width = col->width;
  } else if (col->width != 0 && col->width != width) {
    return BB_ERR_INVALID_COLUMN_WIDTH;
  }

  const size_t n = col->length;
  if (shape.byte_array) {
    if (col->values != nullptr) return BB_ERR_INVALID_COLUMN;
    if (n > SIZE_MAX / width - 1) return BB_ERR_INVALID_COLUMN;  // n + 1 offsets
  } else {
    if (col->offsets != nullptr || col->data != nullptr || col->data_len != 0) {
      return BB_ERR_INVALID_COLUMN;
    }
    if (n > SIZE_MAX / width) return BB_ERR_INVALID_COLUMN;
  }
  // Bit validity_offset + length - 1 and its byte must be addressable. n is
  // checked first: with n > SIZE_MAX - 7 the bound SIZE_MAX - 7 - n would wrap
  // (a 1-byte type passes the width checks above with any n).
  if (col->validity != nullptr && (n > SIZE_MAX - 7 || col->validity_offset > SIZE_MAX - 7 - n)) {
    return BB_ERR_INVALID_COLUMN;
  }

  if (n > 0) {
    if (shape.byte_array ? (col->offsets == nullptr || (col->data == nullptr && col->data_len > 0))
                         : col->values == nullptr) {
      return BB_ERR_NULL_POINTER;
    }
  }

  view->type = col->type;
  view->byte_array = shape.byte_array;
  view->length = n;
  view->width = width;
  view->values = static_cast<const uint8_t*>(col->values);
  view->offsets = static_cast<const uint8_t*>(col->offsets);
  view->data = static_cast<const uint8_t*>(col->data);
  view->data_len = col->data_len;
  view->validity = col->validity;
  view->validity_offset = col->validity != nullptr ? col->validity_offset : 0;
  return BB_OK;
}

int CheckOffsets(const ColumnView& view) {
  if (!view.byte_array) return BB_OK;
  return view.width == 4 ? CheckOffsetsOf<int32_t>(view) : CheckOffsetsOf<int64_t>(view);
}

}  // namespace blockbloom::internal
