// SPDX-License-Identifier: Apache-2.0
// Values rather than hashes: Filter.insert_values / find_values and the
// module's parquet_hash / kudu_hash. Values are hashed as the filter's format
// does (Parquet: XXH64, seed 0, of the plain encoding; Kudu: FastHash32 of the
// little-endian bytes with the filter's seed). Containers are first taken
// apart by blockbloom._containers.normalize (pandas, numpy.ma, datetime64,
// __array__) into an array and a null mask; numpy arrays of every integer
// width, float32 and float64 go through the library's typed columns
// (column.h, the mask as the validity bitmap); lists (and object or text
// arrays) are hashed one value at a time over a tuple of their items.
//
// Nulls (a mask entry that is true, a None in a list, a masked entry, pd.NA,
// NaT) are neither inserted nor found.
#ifndef BLOCKBLOOM_PYTHON_VALUES_H_
#define BLOCKBLOOM_PYTHON_VALUES_H_

#include <pybind11/pybind11.h>

#include <cstdint>

#include "filter.h"

namespace bbpy {

void InsertValues(Filter& f, pybind11::handle values, pybind11::handle type, pybind11::handle mask,
                  bool physical);
pybind11::object FindValues(Filter& f, pybind11::handle values, pybind11::handle type,
                            pybind11::handle mask, bool physical);

// One value rather than many: None, int, float, str, bytes, a numpy scalar,
// or an object that is neither a sequence, an iterable nor an array
// (Decimal, date, time, datetime, UUID).
bool IsOneObject(pybind11::handle value);

// One value's hash (an int), as insert_values would compute it; for an array
// or sequence, a numpy array of the non-null values' hashes.
pybind11::object ParquetHash(pybind11::handle value, pybind11::handle type, bool physical);
pybind11::object KuduHash(pybind11::handle value, uint32_t seed, pybind11::handle type);

// (uint64 hashes, bool nulls) of values (one or many) as a file's column
// stores them: column is blockbloom.parquet's column dict.
pybind11::tuple ColumnHashes(const pybind11::dict& column, pybind11::handle values, const std::string& name,
                             bool physical);

}  // namespace bbpy

#endif  // BLOCKBLOOM_PYTHON_VALUES_H_
