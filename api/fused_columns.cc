// SPDX-License-Identifier: Apache-2.0
// The fused int32 / int64 / float / double calls of hashing.h: typed columns
// without nulls (api/column_ops.cc), so they hash, chunk and check exactly
// as bb_insert_column / bb_find_column_* do for BB_TYPE_INT32, _INT64,
// _FLOAT and _DOUBLE. Floats and doubles are hashed as the 4 or 8 bytes they
// are, exactly like int32 and int64 (Parquet hashes the plain encoding; Kudu
// the cell's bytes).
#include <cstdint>
#include <type_traits>

#include "api/column_ops.h"
#include "blockbloom/column.h"
#include "blockbloom/hashing.h"

namespace {

// The bb_column_type of a C type.
template <typename T>
constexpr bb_column_type TypeOf() {
  if constexpr (std::is_same_v<T, int32_t>) return BB_TYPE_INT32;
  if constexpr (std::is_same_v<T, int64_t>) return BB_TYPE_INT64;
  if constexpr (std::is_same_v<T, float>) return BB_TYPE_FLOAT;
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
                    std::is_same_v<T, float> || std::is_same_v<T, double>,
                "int32_t, int64_t, float or double");
  return BB_TYPE_DOUBLE;
}

template <typename T>
bb_column Column(const T* values, size_t n) {
  bb_column col = BB_COLUMN_INIT;
  col.type = TypeOf<T>();
  col.length = n;
  col.values = values;
  return col;
}

template <typename T>
int Insert(bb_filter* f, const T* values, size_t n) {
  const bb_column col = Column(values, n);
  return blockbloom::InsertColumn(f, &col);
}

template <typename T>
int FindBitmap(const bb_filter* f, const T* values, size_t n, uint8_t* bitmap, size_t* hits) {
  const bb_column col = Column(values, n);
  return blockbloom::FindColumnBitmap(f, &col, bitmap, hits);
}

template <typename T>
int FindSelect(const bb_filter* f, const T* values, size_t n, uint32_t* selection, size_t* hits) {
  const bb_column col = Column(values, n);
  return blockbloom::FindColumnSelect(f, &col, selection, hits);
}

}  // namespace

extern "C" {

int bb_insert_int32_column(bb_filter* f, const int32_t* values, size_t n) {
  return Insert(f, values, n);
}

int bb_insert_int64_column(bb_filter* f, const int64_t* values, size_t n) {
  return Insert(f, values, n);
}

int bb_insert_float_column(bb_filter* f, const float* values, size_t n) {
  return Insert(f, values, n);
}

int bb_insert_double_column(bb_filter* f, const double* values, size_t n) {
  return Insert(f, values, n);
}

int bb_find_int32_column_bitmap(const bb_filter* f, const int32_t* values, size_t n,
                                uint8_t* bitmap, size_t* hits) {
  return FindBitmap(f, values, n, bitmap, hits);
}

int bb_find_int64_column_bitmap(const bb_filter* f, const int64_t* values, size_t n,
                                uint8_t* bitmap, size_t* hits) {
  return FindBitmap(f, values, n, bitmap, hits);
}

int bb_find_float_column_bitmap(const bb_filter* f, const float* values, size_t n,
                                uint8_t* bitmap, size_t* hits) {
  return FindBitmap(f, values, n, bitmap, hits);
}

int bb_find_double_column_bitmap(const bb_filter* f, const double* values, size_t n,
                                 uint8_t* bitmap, size_t* hits) {
  return FindBitmap(f, values, n, bitmap, hits);
}

int bb_find_int32_column_select(const bb_filter* f, const int32_t* values, size_t n,
                                uint32_t* selection, size_t* hits) {
  return FindSelect(f, values, n, selection, hits);
}

int bb_find_int64_column_select(const bb_filter* f, const int64_t* values, size_t n,
                                uint32_t* selection, size_t* hits) {
  return FindSelect(f, values, n, selection, hits);
}

int bb_find_float_column_select(const bb_filter* f, const float* values, size_t n,
                                uint32_t* selection, size_t* hits) {
  return FindSelect(f, values, n, selection, hits);
}

int bb_find_double_column_select(const bb_filter* f, const double* values, size_t n,
                                 uint32_t* selection, size_t* hits) {
  return FindSelect(f, values, n, selection, hits);
}

}  // extern "C"
