// SPDX-License-Identifier: Apache-2.0
#include "errors.h"

#include <blockbloom/blockbloom.h>

namespace py = pybind11;

namespace bbpy {
namespace {

// Owned by the module (a module attribute); never freed before exit.
PyObject* g_error_type = nullptr;

}  // namespace

void RegisterErrors(py::module_& m) {
  g_error_type = PyErr_NewExceptionWithDoc(
      "blockbloom.Error",
      "A call the blockbloom C library refused.\n\n"
      "A ValueError subclass: str(e) is the library's message (bb_status_message) and\n"
      "e.status the negative bb_status code (stable values, include/blockbloom/blockbloom.h).\n"
      "An allocation the library could not make raises MemoryError instead.",
      PyExc_ValueError, nullptr);
  if (g_error_type == nullptr) throw py::error_already_set();
  m.add_object("Error", py::handle(g_error_type));
}

void ThrowStatus(int status, const std::string& context) {
  std::string message = bb_status_message(status);
  if (!context.empty()) message = context + ": " + message;
  ThrowStatusMessage(status, message);
}

void ThrowStatusMessage(int status, const std::string& message) {
  if (status == BB_ERR_OUT_OF_MEMORY) {
    PyErr_SetString(PyExc_MemoryError, message.c_str());
    throw py::error_already_set();
  }
  py::object error = py::reinterpret_borrow<py::object>(g_error_type)(message);
  error.attr("status") = status;
  PyErr_SetObject(g_error_type, error.ptr());
  throw py::error_already_set();
}

std::string ShortRepr(py::handle value) {
  return py::module_::import("blockbloom._containers").attr("short_repr")(value).cast<std::string>();
}

}  // namespace bbpy
