// SPDX-License-Identifier: Apache-2.0
// Values rather than hashes: Filter.insert_values / find_values and the
// module's parquet_hash / kudu_hash. Parquet filters (and parquet_hash,
// parquet.probe) go through the value model of typed_values.h: each value
// converted into the filter's type by the library's one rule. What stays here
// is the Kudu filters' path (FastHash32 of each value's cell as held, with the
// filter's seed; containers taken apart by blockbloom._containers.normalize,
// numpy arrays through the library's typed columns, lists one value at a
// time, a typed Kudu filter's objects through the text rules) and Arrow
// arrays of the formats typed_values.h does not map (dictionaries, views),
// which blockbloom/arrow.hpp hashes as held.
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
