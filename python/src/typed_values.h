// SPDX-License-Identifier: Apache-2.0
// A Parquet filter knows its values: insert_values / find_values /
// parquet_hash / parquet.probe turn every container's values into the
// filter's type by the library's one rule (parquet_value.h: a bb_value_source
// per container, bb_parquet_hash_typed_column for arrays and
// bb_parquet_hash_typed_value per Python object), so the same value answers
// the same from a list, a numpy array of any width or unit, a pandas Series
// (plain, nullable, tz-aware) or an Arrow array.
//
// The type: the filter's (Filter(type=), a file's column, or the first typed
// insert: bb_parquet_type_of_source of the first values' source). A value of
// the type's kind is converted exactly; one that cannot be of the type is
// absent (find answers False, insert refuses the whole call); an ambiguous one or one of
// another kind raises (TypeError for a kind the type has no comparison with,
// blockbloom.Error, a ValueError, for the rest), naming the item and the type.
#ifndef BLOCKBLOOM_PYTHON_TYPED_VALUES_H_
#define BLOCKBLOOM_PYTHON_TYPED_VALUES_H_

#include <pybind11/pybind11.h>

#include <memory>

#include "arrow_input.h"

#include "filter.h"

namespace bbpy {

// Filter.insert_values / find_values on a Parquet filter. false / a null
// object (nothing done) for an Arrow array of a format not mapped here (a
// dictionary, a view, a malformed array, ...): *unmapped then holds its
// capsules (exported once) for blockbloom/arrow.hpp's path.
bool InsertTyped(Filter& f, pybind11::handle values, pybind11::handle type, pybind11::handle mask, bool physical,
                 std::unique_ptr<ArrowInput>* unmapped);
pybind11::object FindTyped(Filter& f, pybind11::handle values, pybind11::handle type, pybind11::handle mask,
                           bool physical, std::unique_ptr<ArrowInput>* unmapped);

// The type an untyped filter takes from these values (bb_parquet_type_of_source
// of their source, as a Parquet filter's first insert): unset when there is no
// non-null value or the values are an Arrow array of a format not mapped here;
// raises as an insert would when the values do not say a type.
ColumnType TypeOfValues(pybind11::handle values, pybind11::handle mask, const std::string& what);

// parquet_hash(values, type=None, physical=False): one value's hash (None when
// it cannot be of the type), or a uint64 array of the hashes of an array's or
// sequence's values that are non-null and of the type, in order.
pybind11::object HashTyped(pybind11::handle values, pybind11::handle type, bool physical);

// A file column's (uint64 hash per row, bool "no match" per row: null or not
// of the type) for blockbloom.parquet.probe.
pybind11::tuple ColumnHashesTyped(const ColumnType& type, pybind11::handle values, bool physical);

}  // namespace bbpy

#endif  // BLOCKBLOOM_PYTHON_TYPED_VALUES_H_
