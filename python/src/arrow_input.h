// SPDX-License-Identifier: Apache-2.0
// Objects with __arrow_c_array__ (the Arrow PyCapsule interface: pyarrow,
// polars, nanoarrow, DuckDB, ...) as insert_values / find_values input. The
// ArrowSchema and ArrowArray are borrowed from their capsules for the length
// of the call and go through blockbloom/arrow.hpp, the C++ path: the capsules'
// destructors own the release callbacks, so nothing here releases them.
#ifndef BLOCKBLOOM_PYTHON_ARROW_INPUT_H_
#define BLOCKBLOOM_PYTHON_ARROW_INPUT_H_

#include <blockbloom/arrow.hpp>
#include <blockbloom/parquet_value.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace bbpy {

// True if values offers __arrow_c_array__ (taken before any other reading).
bool IsArrowArray(pybind11::handle values);

class ArrowInput {
 public:
  // Calls values.__arrow_c_array__() and checks its (schema, array) capsules
  // (TypeError otherwise). mask= is refused: nulls are the array's validity.
  ArrowInput(pybind11::handle values, pybind11::handle mask, const std::string& what);

  const ArrowSchema* schema() const { return schema_; }
  const ArrowArray* array() const { return array_; }
  // The checks every arrow.hpp call makes before it reads a row (structure,
  // positions, dictionary indices; arrow.hpp's validate) for a filter of
  // `layout`: the status and its message, "" when BB_OK. Run before
  // anything is sized from the array's length, so a malformed length is
  // blockbloom.Error naming it, not a MemoryError.
  int CheckStatus(std::uint32_t layout, std::string* why) const;
  // CheckStatus, raising blockbloom.Error ("what: Arrow format '...': why") on a refusal.
  void Validate(std::uint32_t layout, const std::string& what) const;
  // Rows (0 if the length is negative: the library refuses the array).
  std::size_t length() const;
  // The Parquet type the array's values take in a filter without a type:
  // what Arrow's Parquet writer stores them as (arrow.hpp's parquet_type_of,
  // the one table: timestamp[s] as TIMESTAMP(MILLIS), decimal128(9, 2) as
  // DECIMAL(9,2) on INT32, ...). BB_OK, or the status refusing the format.
  int parquet_type(bb_parquet_column* type) const;
  // The bb_column_type of the physical type the values are stored as (INT32,
  // INT64, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY: parquet_type's in
  // a Parquet filter; in a Kudu filter the cell's), for a typed filter's
  // check; 0 if unsupported.
  std::uint32_t stored_type(std::uint32_t layout) const;
  // "the Arrow array of format 'u'", for messages.
  std::string description() const;
  // Time ('t') or timestamp ('s') values, else 0; their unit as
  // BB_PARQUET_UNIT_* (seconds: 0, a unit no Parquet TIME / TIMESTAMP has;
  // a filter without a type stores them as milliseconds, parquet_type).
  char temporal() const;
  int unit() const;

 private:
  pybind11::object capsules_;  // keeps both capsules (and so the structs) alive
  const ArrowSchema* schema_ = nullptr;
  const ArrowArray* array_ = nullptr;
};

}  // namespace bbpy

#endif  // BLOCKBLOOM_PYTHON_ARROW_INPUT_H_
