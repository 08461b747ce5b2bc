// SPDX-License-Identifier: Apache-2.0
// The array hashes of hashing.h (bb_parquet_hash_*_batch): typed columns
// without nulls, so they hash, chunk and check exactly as
// bb_parquet_hash_column does (src/columns/column_ops.cc). Kept apart from the
// single-value hashes of src/hashing/hashing.cc, which need nothing of the columns.
#include <cstdint>

#include "src/columns/column_ops.h"
#include "blockbloom/column.h"
#include "blockbloom/hashing.h"

namespace {

// A column of n values of one fixed-width type, no nulls.
bb_column FixedColumn(bb_column_type type, const void* values, size_t n) {
  bb_column col = BB_COLUMN_INIT;
  col.type = type;
  col.length = n;
  col.values = values;
  return col;
}

int HashFixed(bb_column_type type, const void* values, size_t n, uint64_t* hashes) {
  const bb_column col = FixedColumn(type, values, n);
  return blockbloom::internal::ParquetHashColumn(&col, hashes, nullptr);
}

}  // namespace

extern "C" {

int bb_parquet_hash_int32_batch(const int32_t* values, size_t n, uint64_t* hashes) {
  return HashFixed(BB_TYPE_INT32, values, n, hashes);
}

int bb_parquet_hash_int64_batch(const int64_t* values, size_t n, uint64_t* hashes) {
  return HashFixed(BB_TYPE_INT64, values, n, hashes);
}

int bb_parquet_hash_float_batch(const float* values, size_t n, uint64_t* hashes) {
  return HashFixed(BB_TYPE_FLOAT, values, n, hashes);
}

int bb_parquet_hash_double_batch(const double* values, size_t n, uint64_t* hashes) {
  return HashFixed(BB_TYPE_DOUBLE, values, n, hashes);
}

int bb_parquet_hash_string_batch(const uint8_t* data, size_t data_len, const int32_t* offsets,
                                 size_t n, uint64_t* hashes) {
  bb_column col = BB_COLUMN_INIT;
  col.type = BB_TYPE_BYTE_ARRAY;
  col.length = n;
  col.offsets = offsets;
  col.data = data;
  col.data_len = data_len;
  return blockbloom::internal::ParquetHashColumn(&col, hashes, nullptr);
}

}  // extern "C"
