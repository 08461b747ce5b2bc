// SPDX-License-Identifier: Apache-2.0
// Pickle's state read back into a Filter: (layout, seed, always_false, bits
// [, type[, raw_hashes]]). A pickle is bytes from elsewhere, so every field is
// checked, alone and against the others, before a filter exists: a state no
// filter could have written is a ValueError naming the field, never a filter
// whose fields contradict each other. The state's length is its version: 4
// fields (before filters had types), 5 (type), 6 (raw_hashes).
#include <pybind11/pybind11.h>

#include <climits>
#include <cstdint>
#include <string>

#include <blockbloom/blockbloom.h>
#include <blockbloom/kudu.h>
#include <blockbloom/parquet_value.h>

#include "buffers.h"
#include "errors.h"
#include "filter.h"

namespace py = pybind11;

namespace bbpy {
namespace {

const std::string kWhat = "Filter.__setstate__";
const char kShape[] = "(layout, seed, always_false, bits[, type[, raw_hashes]])";

std::string TypeName(py::handle obj) { return Py_TYPE(obj.ptr())->tp_name; }

[[noreturn]] void Refuse(const std::string& field, const std::string& why) {
  throw py::value_error(kWhat + ": " + field + ": " + why);
}

bool BoolField(py::handle value, const std::string& field) {
  if (!PyBool_Check(value.ptr())) Refuse(field, "expected True or False, got " + TypeName(value));
  return value.ptr() == Py_True;
}

// A Python int (a bool is not one here) in lo .. hi.
long long IntField(py::handle value, const std::string& field, long long lo, long long hi) {
  if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr())) {
    Refuse(field, "expected an int, got " + TypeName(value));
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0 || v < lo || v > hi) {
    Refuse(field, py::repr(value).cast<std::string>() + " is outside " + std::to_string(lo) + " .. " +
                      std::to_string(hi));
  }
  return v;
}

// The type: None, or its name and the ten fields of bb_parquet_column. The
// name must be the type the fields are: one bb_parquet_type_parse reads as
// exactly those fields (Filter(type=...) keeps the caller's spelling), or the
// library's own name of them (a file column's type, "INT32 DATE"). A type
// the layout cannot hash is kept as it is, as Filter(type=...) keeps it: the
// calls that hash values refuse it.
ColumnType TypeField(py::handle value) {
  ColumnType t;
  if (value.is_none()) return t;
  if (!PyTuple_Check(value.ptr()) || PyTuple_GET_SIZE(value.ptr()) != 1 + kColumnTypeFields) {
    Refuse("type", "expected None or a tuple (name, physical_type, type_length, logical_type, converted_type, "
                   "bit_width, is_signed, time_unit, is_adjusted_to_utc, scale, precision), got " +
                       py::repr(value).cast<std::string>().substr(0, 200));
  }
  py::tuple fields = py::reinterpret_borrow<py::tuple>(value);
  if (!py::isinstance<py::str>(fields[0])) Refuse("type name", "expected a str, got " + TypeName(fields[0]));
  t.set = true;
  t.name = fields[0].cast<std::string>();
  t.column.struct_size = sizeof t.column;
  for (size_t i = 0; i < kColumnTypeFields; ++i) {
    ColumnTypeField(t.column, i) = static_cast<int32_t>(
        IntField(fields[i + 1], std::string("type ") + kColumnTypeFieldNames[i], INT32_MIN, INT32_MAX));
  }
  if (t.column.physical_type == BB_PARQUET_FIXED_LEN_BYTE_ARRAY) {
    // A width no type name declares (fixed(n) has a bound) is refused here as
    // Filter(type=...) refuses it: each probe would size its bytes by it.
    const std::string declared = "fixed(" + std::to_string(t.column.type_length) + ")";
    bb_parquet_column width{};
    width.struct_size = sizeof width;
    if (bb_parquet_type_parse(declared.data(), declared.size(), &width) != BB_OK) {
      Refuse("type type_length", std::to_string(t.column.type_length) +
                                     " bytes: no type name declares a FIXED_LEN_BYTE_ARRAY that wide");
    }
  }
  std::string canonical;
  const int named = ColumnTypeName(t.column, &canonical);
  if (named != BB_OK) Refuse("type", std::string("its fields are not a Parquet type: ") + bb_status_message(named));
  ColumnType parsed;
  parsed.set = true;
  parsed.column.struct_size = sizeof parsed.column;
  const bool parses = bb_parquet_type_parse(t.name.data(), t.name.size(), &parsed.column) == BB_OK;
  if (t.name != canonical && !(parses && SameColumnType(parsed, t))) {
    Refuse("type name", "'" + t.name + "' is not the type its fields describe (" + canonical + ")");
  }
  return t;
}

}  // namespace

std::unique_ptr<Filter> Filter::SetState(py::handle state) {
  if (!PyTuple_Check(state.ptr())) Refuse("state", std::string("expected a tuple ") + kShape + ", got " + TypeName(state));
  py::tuple s = py::reinterpret_borrow<py::tuple>(state);
  if (s.size() < 4 || s.size() > 6) {
    Refuse("state", std::to_string(s.size()) + " fields; this blockbloom reads 4 to 6 " + kShape +
                        (s.size() > 6 ? " (a pickle from a newer blockbloom?)" : ""));
  }
  if (!py::isinstance<py::str>(s[0])) Refuse("layout", "expected 'parquet' or 'kudu', got " + TypeName(s[0]));
  const std::string layout = s[0].cast<std::string>();
  if (layout != "parquet" && layout != "kudu") Refuse("layout", "expected 'parquet' or 'kudu', got '" + layout + "'");
  const bool kudu = layout == "kudu";
  const long long seed = IntField(s[1], "seed", 0, UINT32_MAX);
  if (!kudu && seed != 0) Refuse("seed", std::to_string(seed) + " on a Parquet filter (XXH64 hashes with seed 0)");
  // Kudu keeps always_false whatever the bits hold (its BlockBloomFilterPB
  // and from_kudu_fields accept both): finds answer False until an insert.
  const bool always_false = BoolField(s[2], "always_false");
  if (!kudu && always_false) Refuse("always_false", "True on a Parquet filter (only Kudu filters have that state)");
  {
    Buffer bits;
    if (!bits.Acquire(s[3], false)) Refuse("bits", "expected a bytes-like object, got " + TypeName(s[3]));
    if (!bits.c_contiguous()) Refuse("bits", "not a contiguous buffer");
    const int size_status = kudu ? bb_kudu_filter_check_size(bits.bytes()) : bb_filter_check_size(bits.bytes());
    if (size_status != BB_OK) {
      ThrowStatus(size_status, kWhat + ": bits: " + std::to_string(bits.bytes()) + " bytes for a " +
                                   (kudu ? "Kudu" : "Parquet") + " filter");
    }
  }
  const ColumnType type = s.size() >= 5 ? TypeField(s[4]) : ColumnType();
  const bool raw_hashes = s.size() == 6 && BoolField(s[5], "raw_hashes");
  if (raw_hashes && type.set) {
    Refuse("raw_hashes", "True with the type '" + type.name + "' (raw hashes are of no value type)");
  }
  auto f = FromBytes(s[3], layout, true, kudu ? py::object(py::int_(seed)) : py::object(py::none()), always_false);
  f->type_ = type;
  f->raw_hashes_ = raw_hashes;
  return f;
}

// pybind11 binds a factory __setstate__ as a constructor, and its dispatcher
// returns None at once when the object is already initialised, so
// live.__setstate__(state) would change nothing, silently. This binds it as a
// method instead: a new object (pickle and copy make it with Filter.__new__)
// is filled as pybind11's factory would fill it; a live one is refused. A
// live filter is never replaced in place: memoryviews of its bitset and
// other threads may be using it.
void SetStateInto(py::handle self, py::handle state) {
  if (!py::isinstance<Filter>(self)) {
    throw py::type_error(kWhat + ": expected a blockbloom.Filter, got " + TypeName(self));
  }
  auto* instance = reinterpret_cast<py::detail::instance*>(self.ptr());
  py::detail::value_and_holder v_h = instance->get_value_and_holder(py::detail::get_type_info(typeid(Filter)));
  const auto refuse_live = [&] {
    if (v_h.instance_registered()) {
      throw py::type_error(kWhat + ": the filter is already initialised; __setstate__ fills a new object "
                           "(what pickle.loads and copy.copy make): load the state into a new filter instead");
    }
  };
  refuse_live();
  std::unique_ptr<Filter> filled = Filter::SetState(state);
  refuse_live();  // SetState can run Python code (a buffer's exporter) that may have filled it meanwhile
  py::detail::initimpl::construct<py::class_<Filter>>(v_h, std::move(filled), false);
}

}  // namespace bbpy
