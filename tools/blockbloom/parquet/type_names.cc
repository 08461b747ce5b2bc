// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/parquet/type_names.h"

namespace blockbloom_tools {
namespace {

// The library names them (parquet_file.h), for the tool and the Python package alike.
std::string NameBy(int (*name)(const bb_parquet_column*, char*, size_t),
                   const bb_parquet_column& column) {
  char out[BB_PARQUET_TYPE_NAME_MAX];
  return name(&column, out, sizeof out) == BB_OK ? std::string(out) : std::string("?");
}

}  // namespace

std::string PhysicalTypeName(const bb_parquet_column& column) {
  return NameBy(bb_parquet_physical_type_name, column);
}

std::string LogicalTypeName(const bb_parquet_column& column) {
  return NameBy(bb_parquet_logical_type_name, column);
}

}  // namespace blockbloom_tools
