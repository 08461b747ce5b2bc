// SPDX-License-Identifier: Apache-2.0
// The public type tables of parquet_types.h as constexpr arrays, and the
// look-ups the library makes in them: a physical type's width and hex rule
// (value_rules.cc, type_parse.cc, format/parquet_file.cc), a type's name (type_names.cc).
// Nothing here restates a code, a width or a name.
#ifndef BLOCKBLOOM_PARQUET_VALUES_TYPE_TABLE_H_
#define BLOCKBLOOM_PARQUET_VALUES_TYPE_TABLE_H_

#include <cstddef>
#include <string>

#include "blockbloom/parquet_types.h"

namespace blockbloom::internal::parquet_types {

struct PhysicalRow {
  const char* name;
  int code;
  int width;  // > 0 bytes, or BB_PARQUET_WIDTH_VARIABLE / _TYPE_LENGTH / _NONE
  bool hex;   // BB_PARQUET_TEXT_HEX applies
};

struct NamedCode {
  const char* name;
  int code;
};

#define BBI_PHYSICAL_ROW(name, code, width, hex) {#name, code, width, (hex) != 0},
#define BBI_NAMED_CODE_ROW(name, code) {#name, code},
inline constexpr PhysicalRow kPhysicalTypes[] = {BB_PARQUET_PHYSICAL_TYPES(BBI_PHYSICAL_ROW)};
inline constexpr NamedCode kLogicalTypes[] = {BB_PARQUET_LOGICAL_TYPES(BBI_NAMED_CODE_ROW)};
inline constexpr NamedCode kConvertedTypes[] = {BB_PARQUET_CONVERTED_TYPES(BBI_NAMED_CODE_ROW)};
#undef BBI_PHYSICAL_ROW
#undef BBI_NAMED_CODE_ROW

// The row of a physical type, nullptr for a code no row has.
constexpr const PhysicalRow* FindPhysical(int code) {
  for (const PhysicalRow& row : kPhysicalTypes) {
    if (row.code == code) return &row;
  }
  return nullptr;
}

// The name of `code` in a table, nullptr for a code no row has.
template <std::size_t N>
constexpr const char* NameOf(const NamedCode (&rows)[N], int code) {
  for (const NamedCode& row : rows) {
    if (row.code == code) return row.name;
  }
  return nullptr;
}

// The bytes of one stored value of a column of this physical type and
// type_length: > 0 a fixed width, 0 each value its own (BYTE_ARRAY), -1 no
// value has bytes to hash (BOOLEAN, an unknown code, a FIXED_LEN_BYTE_ARRAY
// without a positive length).
constexpr int ValueWidth(int physical, int type_length) {
  const PhysicalRow* row = FindPhysical(physical);
  if (row == nullptr || row->width == BB_PARQUET_WIDTH_NONE) return -1;
  if (row->width == BB_PARQUET_WIDTH_TYPE_LENGTH) return type_length > 0 ? type_length : -1;
  return row->width;
}

// Whether BB_PARQUET_TEXT_HEX applies to a physical type.
constexpr bool TakesHex(int physical) {
  const PhysicalRow* row = FindPhysical(physical);
  return row != nullptr && row->hex;
}

// "INT96, FLOAT, DOUBLE, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY": the physical
// types that take hex, in code order, for messages.
std::string HexTypeList();

// A column's integer annotation as every rule reads it: its LogicalType INTEGER
// (bit width and sign) when it has a LogicalType, else its ConvertedType UINT_8
// .. INT_64 (four widths unsigned, then four signed, in code order). False,
// and *bits / *is_signed untouched, when the column has neither.
constexpr bool IntegerAnnotation(int logical, int converted, int bit_width, int is_signed,
                                 int* bits, bool* is_signed_out) {
  if (logical == BB_PARQUET_LOGICAL_INTEGER) {
    *bits = bit_width;
    *is_signed_out = is_signed != 0;
    return true;
  }
  const int ct = logical == BB_PARQUET_LOGICAL_NONE ? converted : BB_PARQUET_CONVERTED_NONE;
  if (ct < BB_PARQUET_CONVERTED_UINT_8 || ct > BB_PARQUET_CONVERTED_INT_64) return false;
  *bits = 8 << ((ct - BB_PARQUET_CONVERTED_UINT_8) % 4);
  *is_signed_out = ct >= BB_PARQUET_CONVERTED_INT_8;
  return true;
}

}  // namespace blockbloom::internal::parquet_types

#endif  // BLOCKBLOOM_PARQUET_VALUES_TYPE_TABLE_H_
