// SPDX-License-Identifier: Apache-2.0
// Shipping a Filter between processes (Dask, multiprocessing, Ray): its true
// size for memory accounting, pickling without a copy of the bitset, and
// merging many partial filters at once.
#include <pybind11/pybind11.h>

#include <utility>

#include "filter.h"

namespace py = pybind11;

namespace bbpy {
namespace {

// The object, the C++ Filter it holds and the bitset: what keeping the Python
// object alive costs. A view counts the bytes it keeps exported too, since
// they stay alive as long as it does.
size_t SizeOf(py::handle self) {
  const Filter& f = self.cast<const Filter&>();
  return static_cast<size_t>(Py_TYPE(self.ptr())->tp_basicsize) + sizeof(Filter) + f.raw().num_bytes;
}

// Protocol 5 (PEP 574): the state holds a PickleBuffer over a read-only
// memoryview of the filter's own bitset, which pickle hands to a
// buffer_callback out of band (Dask sends it as its own frame) or writes in
// band: either way no copy is made while dumping. Older protocols give the
// same state with the bitset as bytes (__getstate__). Every protocol gets the
// same reduce tuple, (copyreg.__newobj__, (type,), state): a module-level
// callable pickle writes by name on 0 and 1 too (object.__reduce_ex__ would
// take those to copyreg._reduce_ex, which cannot rebuild an extension type).
// Loading goes through __setstate__, which checks every field and copies the
// bytes once into an owned, aligned filter.
py::object ReduceEx(py::object self, int protocol) {
  const Filter& f = self.cast<const Filter&>();
  py::tuple state;
  if (protocol >= 5) {
    py::object view = py::memoryview(self).attr("toreadonly")();
    // The fields of Filter::GetState, the bitset as a buffer instead of bytes.
    state = f.State(py::module_::import("pickle").attr("PickleBuffer")(view));
  } else {
    state = f.GetState();
  }
  py::object newobj = py::module_::import("copyreg").attr("__newobj__");
  return py::make_tuple(newobj, py::make_tuple(py::type::of(self)), state);
}

const char kSetStateDoc[] =
    R"(Fills a new filter (what pickle.loads and copy.copy make) from a pickled state.

Every field is checked, alone and against the others (a Parquet filter's seed is 0
and it is never always-false; the bits a valid size for the layout; the type's name
the type its fields describe; raw_hashes False when there is a type): a state no
filter could have given is a ValueError naming the field (blockbloom.Error for a
bitset size). An already initialised filter is a TypeError: its state is never
replaced in place.)";

}  // namespace

void BindShipping(py::class_<Filter>& cls) {
  // Bound under another name, then stored as __setstate__: pybind11 treats
  // any function it binds by that name as a constructor, which its
  // dispatcher skips silently on a live object (filter_state.cc).
  cls.attr("__setstate__") = py::cpp_function(&SetStateInto, py::name("_setstate_checked"), py::is_method(cls),
                                              py::arg("state"), kSetStateDoc);
  cls.def("__sizeof__", &SizeOf,
          "The bytes the filter keeps alive: the object and its bitset (sys.getsizeof, dask.sizeof).")
      .def("__reduce_ex__", &ReduceEx, py::arg("protocol"),
           R"(Pickling. Protocol 5 gives the bitset as a pickle.PickleBuffer over the filter's
own memory (out of band with a buffer_callback, as Dask's serialisation uses: no copy
while dumping); older protocols give it as bytes. Loading makes an owned copy.)")
      .def(
          "__reduce__", [](py::object self) { return ReduceEx(std::move(self), 2); },
          "Pickling at protocol 2 (what __reduce_ex__(2) gives): object.__reduce__ cannot rebuild an extension type.")
      .def("__getstate__", &Filter::GetState,
           "Pickle's state: (layout, seed, always_false, bits, type, raw_hashes), the bits as bytes.")
      .def_static("union_all", &Filter::UnionAll, py::arg("filters"),
                  R"(A new filter, the bitwise OR of every filter in a non-empty iterable.

All must have the same layout and size (blockbloom.Error, as union(), else); an
empty iterable is a ValueError. The result is owned and has the first filter's type.)")
      .def_static("intersect_all", &Filter::IntersectAll, py::arg("filters"),
                  R"(A new filter, the bitwise AND of every filter in a non-empty iterable.

The same rules as union_all.)");
}

}  // namespace bbpy
