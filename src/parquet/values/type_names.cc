// SPDX-License-Identifier: Apache-2.0
// The names of a Parquet column's physical and logical types
// (bb_parquet_physical_type_name / bb_parquet_logical_type_name,
// parquet_file.h): one spelling for the tool's listing, its JSON and the
// Python package.
#include <cstring>
#include <string>

#include "src/parquet/values/type_table.h"
#include "blockbloom/parquet_file.h"

namespace {

namespace types = blockbloom::internal::parquet_types;

const char* UnitName(int unit) {
  switch (unit) {
    case BB_PARQUET_UNIT_MILLIS: return "MILLIS";
    case BB_PARQUET_UNIT_MICROS: return "MICROS";
    case BB_PARQUET_UNIT_NANOS: return "NANOS";
    default: return "?";
  }
}

std::string Decimal(const bb_parquet_column& c) {
  return "(" + std::to_string(c.precision) + "," + std::to_string(c.scale) + ")";
}

const char* Bool(int v) { return v ? "true" : "false"; }

std::string PhysicalName(const bb_parquet_column& c) {
  const types::PhysicalRow* row = types::FindPhysical(c.physical_type);
  const char* name = row == nullptr ? nullptr : row->name;
  if (name == nullptr) return "TYPE(" + std::to_string(c.physical_type) + ")";
  if (c.physical_type == BB_PARQUET_FIXED_LEN_BYTE_ARRAY) {
    return std::string(name) + "(" + std::to_string(c.type_length) + ")";
  }
  return name;
}

std::string LogicalName(const bb_parquet_column& c) {
  if (c.logical_type != BB_PARQUET_LOGICAL_NONE) {
    const char* name = types::NameOf(types::kLogicalTypes, c.logical_type);
    if (name == nullptr) return "LOGICAL(" + std::to_string(c.logical_type) + ")";
    switch (c.logical_type) {
      case BB_PARQUET_LOGICAL_INTEGER:
        return std::string(name) + "(" + std::to_string(c.bit_width) + "," + Bool(c.is_signed) +
               ")";
      case BB_PARQUET_LOGICAL_DECIMAL:
        return name + Decimal(c);
      case BB_PARQUET_LOGICAL_TIME:
      case BB_PARQUET_LOGICAL_TIMESTAMP:
        return std::string(name) + "(" + UnitName(c.time_unit) + "," +
               Bool(c.is_adjusted_to_utc) + ")";
      default:
        return name;
    }
  }
  if (c.converted_type == BB_PARQUET_CONVERTED_NONE) return "";
  const char* name = types::NameOf(types::kConvertedTypes, c.converted_type);
  if (name == nullptr) return "CONVERTED(" + std::to_string(c.converted_type) + ")";
  if (c.converted_type == BB_PARQUET_CONVERTED_DECIMAL) return name + Decimal(c);
  return name;
}

int WriteName(const bb_parquet_column* column, char* out, size_t capacity,
              std::string (*name_of)(const bb_parquet_column&)) {
  if (column == nullptr || out == nullptr) return BB_ERR_NULL_POINTER;
  if (column->struct_size < sizeof(bb_parquet_column)) return BB_ERR_BUFFER_TOO_SMALL;
  const std::string name = name_of(*column);
  if (name.size() >= capacity) return BB_ERR_BUFFER_TOO_SMALL;
  std::memcpy(out, name.c_str(), name.size() + 1);
  return BB_OK;
}

}  // namespace

namespace blockbloom::internal::parquet_types {

std::string HexTypeList() {
  std::string list, last;
  for (const PhysicalRow& row : kPhysicalTypes) {
    if (!row.hex) continue;
    if (!last.empty()) list += list.empty() ? last : ", " + last;
    last = row.name;
  }
  return list.empty() ? last : list + " and " + last;
}

}  // namespace blockbloom::internal::parquet_types

extern "C" {

int bb_parquet_physical_type_name(const bb_parquet_column* column, char* out, size_t capacity) {
  return WriteName(column, out, capacity, PhysicalName);
}

int bb_parquet_logical_type_name(const bb_parquet_column* column, char* out, size_t capacity) {
  return WriteName(column, out, capacity, LogicalName);
}

}  // extern "C"
