// SPDX-License-Identifier: Apache-2.0
// bb_layout_column_type (filter_file.h): which bb_column_type a layout hashes
// a value of a Parquet type as. Parquet hashes the stored value; Kudu hashes
// the Kudu cell the value is compared with, and has cells for only some
// Parquet types (no unsigned integers, INT96, TIME, or byte decimals).
#include <cstdint>

#include "blockbloom/column.h"
#include "blockbloom/filter_file.h"
#include "blockbloom/parquet_value.h"
#include "src/parquet/values/type_table.h"

namespace {

namespace parquet_types = blockbloom::internal::parquet_types;

// bits (8, 16, 32, 64) and signedness of an integer type, as parquet_value.h's
// rules read them: the integer annotation, else the physical type's signed width.
void IntegerShape(const bb_parquet_column& t, int32_t* bits, bool* is_signed) {
  int annotated_bits = 0;
  if (parquet_types::IntegerAnnotation(t.logical_type, t.converted_type, t.bit_width,
                                       t.is_signed, &annotated_bits, is_signed)) {
    *bits = annotated_bits;
    return;
  }
  *bits = t.physical_type == BB_PARQUET_INT32 ? 32 : 64;
  *is_signed = true;
}

// The Kudu cell of a type parquet_value.h can hash (kind from
// bb_parquet_value_kind), or 0 when Kudu has none.
uint32_t KuduCell(const bb_parquet_column& t, int32_t kind, int32_t unit) {
  const int32_t p = t.physical_type;
  switch (kind) {
    case BB_PARQUET_KIND_INTEGER: {
      int32_t bits = 0;
      bool is_signed = true;
      IntegerShape(t, &bits, &is_signed);
      if (!is_signed) return 0;
      return bits == 8 ? BB_TYPE_INT8 : bits == 16 ? BB_TYPE_INT16
                                    : bits == 32 ? BB_TYPE_INT32 : BB_TYPE_INT64;
    }
    case BB_PARQUET_KIND_FLOAT:
      return p == BB_PARQUET_FLOAT ? BB_TYPE_FLOAT : p == BB_PARQUET_DOUBLE ? BB_TYPE_DOUBLE : 0;
    case BB_PARQUET_KIND_DECIMAL:
      return p == BB_PARQUET_INT32 ? BB_TYPE_INT32 : p == BB_PARQUET_INT64 ? BB_TYPE_INT64 : 0;
    case BB_PARQUET_KIND_DATE:
      return BB_TYPE_DATE32;
    case BB_PARQUET_KIND_TIMESTAMP:
      return p == BB_PARQUET_INT64 && unit == BB_PARQUET_UNIT_MICROS ? BB_TYPE_TIMESTAMP : 0;
    case BB_PARQUET_KIND_BYTES:
      return p == BB_PARQUET_BYTE_ARRAY ? BB_TYPE_BYTE_ARRAY : 0;
    default:  // TIME, UUID, INTERVAL
      return 0;
  }
}

}  // namespace

extern "C" {

int bb_layout_column_type(uint32_t layout, const bb_parquet_column* type, uint32_t* column_type,
                          size_t* width) {
  if (type == nullptr || column_type == nullptr) return BB_ERR_NULL_POINTER;
  if (type->struct_size < sizeof(bb_parquet_column)) return BB_ERR_BUFFER_TOO_SMALL;
  if (layout != BB_LAYOUT_PARQUET && layout != BB_LAYOUT_KUDU) return BB_ERR_LAYOUT_MISMATCH;
  int32_t kind = 0, unit = 0;
  int status = bb_parquet_value_kind(type, 0, &kind, &unit, nullptr);
  if (status != BB_OK) return status;
  uint32_t stored = 0;
  size_t stored_width = 0;
  status = bb_parquet_stored_column_type(type, &stored, &stored_width);
  if (status != BB_OK) return status;
  if (layout == BB_LAYOUT_KUDU) {
    stored = KuduCell(*type, kind, unit);
    if (stored == 0) return BB_ERR_TYPE_NOT_IN_LAYOUT;
    stored_width = 0;
  }
  *column_type = stored;
  if (width != nullptr) *width = stored_width;
  return BB_OK;
}

}  // extern "C"
