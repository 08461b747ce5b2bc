// SPDX-License-Identifier: Apache-2.0
// The names of a Parquet column's physical and logical types
// (bb_parquet_physical_type_name / bb_parquet_logical_type_name,
// parquet_file.h): one spelling for the tool's listing, its JSON and the
// Python package.
#include <cstring>
#include <string>

#include "blockbloom/parquet_file.h"

namespace {

const char* const kPhysical[] = {"BOOLEAN", "INT32",      "INT64",
                                 "INT96",   "FLOAT",      "DOUBLE",
                                 "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};

// LogicalType union members by field id (9 is reserved for INTERVAL).
const char* const kLogical[] = {nullptr, "STRING", "MAP",     "LIST",   "ENUM",  "DECIMAL",
                                "DATE",  "TIME",   "TIMESTAMP", nullptr, "INTEGER", "UNKNOWN",
                                "JSON",  "BSON",   "UUID",    "FLOAT16", "VARIANT", "GEOMETRY",
                                "GEOGRAPHY"};

// ConvertedType by value.
const char* const kConverted[] = {"UTF8",     "MAP",       "MAP_KEY_VALUE",    "LIST",
                                  "ENUM",     "DECIMAL",   "DATE",             "TIME_MILLIS",
                                  "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8",
                                  "UINT_16",  "UINT_32",   "UINT_64",          "INT_8",
                                  "INT_16",   "INT_32",    "INT_64",           "JSON",
                                  "BSON",     "INTERVAL"};
constexpr int kConvertedDecimal = 5;

const char* UnitName(int unit) {
  switch (unit) {
    case BB_PARQUET_UNIT_MILLIS: return "MILLIS";
    case BB_PARQUET_UNIT_MICROS: return "MICROS";
    case BB_PARQUET_UNIT_NANOS: return "NANOS";
    default: return "?";
  }
}

template <std::size_t N>
const char* Lookup(const char* const (&names)[N], int value) {
  return value >= 0 && static_cast<std::size_t>(value) < N ? names[value] : nullptr;
}

std::string Decimal(const bb_parquet_column& c) {
  return "(" + std::to_string(c.precision) + "," + std::to_string(c.scale) + ")";
}

const char* Bool(int v) { return v ? "true" : "false"; }

std::string PhysicalName(const bb_parquet_column& c) {
  const char* name = Lookup(kPhysical, c.physical_type);
  if (name == nullptr) return "TYPE(" + std::to_string(c.physical_type) + ")";
  if (c.physical_type == BB_PARQUET_FIXED_LEN_BYTE_ARRAY) {
    return std::string(name) + "(" + std::to_string(c.type_length) + ")";
  }
  return name;
}

std::string LogicalName(const bb_parquet_column& c) {
  if (c.logical_type != BB_PARQUET_LOGICAL_NONE) {
    const char* name = Lookup(kLogical, c.logical_type);
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
  const char* name = Lookup(kConverted, c.converted_type);
  if (name == nullptr) return "CONVERTED(" + std::to_string(c.converted_type) + ")";
  if (c.converted_type == kConvertedDecimal) return name + Decimal(c);
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

extern "C" {

int bb_parquet_physical_type_name(const bb_parquet_column* column, char* out, size_t capacity) {
  return WriteName(column, out, capacity, PhysicalName);
}

int bb_parquet_logical_type_name(const bb_parquet_column* column, char* out, size_t capacity) {
  return WriteName(column, out, capacity, LogicalName);
}

}  // extern "C"
