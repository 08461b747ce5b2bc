// SPDX-License-Identifier: Apache-2.0
// Shipping a Filter between processes (Dask, multiprocessing, Ray): its true
// size for memory accounting, pickling without a copy of the bitset, and
// merging many partial filters at once.
#include <pybind11/pybind11.h>

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
// band: either way no copy is made while dumping. Loading goes through
// __setstate__, which copies the bytes once into an owned, aligned filter.
// Older protocols keep the state of py::pickle (the bitset as bytes), so
// pickles from before still load.
py::object ReduceEx(py::object self, int protocol) {
  if (protocol < 5) {
    return py::module_::import("builtins").attr("object").attr("__reduce_ex__")(self, protocol);
  }
  const Filter& f = self.cast<const Filter&>();
  py::object view = py::memoryview(self).attr("toreadonly")();
  // The fields of Filter::GetState, the bitset as a buffer instead of bytes.
  py::tuple state = py::make_tuple(f.kudu() ? "kudu" : "parquet", f.raw().hash_seed, f.always_false(),
                                   py::module_::import("pickle").attr("PickleBuffer")(view),
                                   ColumnTypeState(f.value_type()));
  py::object newobj = py::module_::import("copyreg").attr("__newobj__");
  return py::make_tuple(newobj, py::make_tuple(py::type::of(self)), state);
}

}  // namespace

void BindShipping(py::class_<Filter>& cls) {
  cls.def("__sizeof__", &SizeOf,
          "The bytes the filter keeps alive: the object and its bitset (sys.getsizeof, dask.sizeof).")
      .def("__reduce_ex__", &ReduceEx, py::arg("protocol"),
           R"(Pickling. Protocol 5 gives the bitset as a pickle.PickleBuffer over the filter's
own memory (out of band with a buffer_callback, as Dask's serialisation uses: no copy
while dumping); older protocols give it as bytes. Loading makes an owned copy.)")
      .def_static("union_all", &Filter::UnionAll, py::arg("filters"),
                  R"(A new filter, the bitwise OR of every filter in a non-empty iterable.

All must have the same layout and size (blockbloom.Error, as union(), else); an
empty iterable is a ValueError. The result is owned and has the first filter's type.)")
      .def_static("intersect_all", &Filter::IntersectAll, py::arg("filters"),
                  R"(A new filter, the bitwise AND of every filter in a non-empty iterable.

The same rules as union_all.)");
}

}  // namespace bbpy
