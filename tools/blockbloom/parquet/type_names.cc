// SPDX-License-Identifier: Apache-2.0
#include "parquet/type_names.h"

namespace blockbloom_cli {
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

}  // namespace

std::string PhysicalTypeName(const bb_parquet_column& column) {
  const char* name = Lookup(kPhysical, column.physical_type);
  if (name == nullptr) return "TYPE(" + std::to_string(column.physical_type) + ")";
  if (column.physical_type == BB_PARQUET_FIXED_LEN_BYTE_ARRAY) {
    return std::string(name) + "(" + std::to_string(column.type_length) + ")";
  }
  return name;
}

std::string LogicalTypeName(const bb_parquet_column& c) {
  if (c.logical_type != BB_PARQUET_LOGICAL_NONE) {
    const char* name = Lookup(kLogical, c.logical_type);
    if (name == nullptr) return "LOGICAL(" + std::to_string(c.logical_type) + ")";
    switch (c.logical_type) {
      case BB_PARQUET_LOGICAL_INTEGER:
        return std::string(name) + "(" + std::to_string(c.bit_width) + "," +
               (c.is_signed ? "true" : "false") + ")";
      case BB_PARQUET_LOGICAL_DECIMAL:
        return name + Decimal(c);
      case BB_PARQUET_LOGICAL_TIME:
      case BB_PARQUET_LOGICAL_TIMESTAMP:
        return std::string(name) + "(" + UnitName(c.time_unit) + "," +
               (c.is_adjusted_to_utc ? "true" : "false") + ")";
      default:
        return name;
    }
  }
  if (c.converted_type == BB_PARQUET_CONVERTED_NONE) return "";
  const char* name = Lookup(kConverted, c.converted_type);
  if (name == nullptr) return "CONVERTED(" + std::to_string(c.converted_type) + ")";
  if (c.converted_type == 5) return name + Decimal(c);  // DECIMAL
  return name;
}

}  // namespace blockbloom_cli
