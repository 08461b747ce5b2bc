// SPDX-License-Identifier: Apache-2.0
// How `blockbloom parquet` names a column's types: the physical type as
// parquet.thrift spells it (FIXED_LEN_BYTE_ARRAY with its length), and the
// logical type in the notation of Parquet's LogicalTypes.md, falling back to
// the converted type older writers give. The library spells them
// (bb_parquet_physical_type_name / _logical_type_name, parquet_file.h).
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_TYPE_NAMES_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_TYPE_NAMES_H_

#include <string>

#include "blockbloom/parquet_file.h"

namespace blockbloom_tools {

// "INT32", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY(16)", or "TYPE(9)" for a
// value parquet.thrift does not define.
std::string PhysicalTypeName(const bb_parquet_column& column);

// "STRING", "INTEGER(8,true)", "DECIMAL(18,3)" (precision, scale),
// "TIMESTAMP(MICROS,true)" (unit, adjusted to UTC), "DATE", ...; without a
// LogicalType the converted type ("UTF8", "INT_16", "DECIMAL(10,2)",
// "TIMESTAMP_MILLIS", ...); "" when the column has neither.
std::string LogicalTypeName(const bb_parquet_column& column);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_TYPE_NAMES_H_
