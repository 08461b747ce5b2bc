// SPDX-License-Identifier: Apache-2.0
// A Filter that Filter.__new__ made and nothing filled (pickle's first step,
// kept when __setstate__ refuses its state) has no C++ object: every use is a
// TypeError. Methods and properties get it from the caster in filter.h; the
// buffer export, which pybind11 makes outside any binding, gets it here.
#include <pybind11/pybind11.h>

#include "filter.h"

namespace py = pybind11;

namespace bbpy {

const char kNotInitialised[] =
    "Filter is not initialised: an object made by Filter.__new__ that no __init__ or accepted "
    "__setstate__ filled";

bool FilledOrNotFilter(PyObject* obj) {
  const py::detail::type_info* info = py::detail::get_type_info(typeid(Filter));
  if (info == nullptr || !PyObject_TypeCheck(obj, info->type)) return true;
  auto* instance = reinterpret_cast<py::detail::instance*>(obj);
  return instance->get_value_and_holder(info).holder_constructed();
}

namespace {

// pybind11's getbuffer reads the object's buffer_info without checking it
// was made; an empty object is refused before that.
extern "C" int GetBufferChecked(PyObject* obj, Py_buffer* view, int flags) {
  if (!FilledOrNotFilter(obj)) {
    if (view != nullptr) view->obj = nullptr;
    PyErr_SetString(PyExc_TypeError, kNotInitialised);
    return -1;
  }
  return py::detail::pybind11_getbuffer(obj, view, flags);
}

}  // namespace

void GuardBufferExport(py::class_<Filter>& cls) {
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  type->tp_as_buffer->bf_getbuffer = GetBufferChecked;
}

}  // namespace bbpy
