// SPDX-License-Identifier: Apache-2.0
// How the binding reports failures: a bb_status from the library becomes
// blockbloom.Error (a ValueError carrying the code as .status) or MemoryError,
// with bb_status_message's text; argument problems the library never sees
// (a wrong dtype, a strided array) are TypeError or ValueError.
#ifndef BLOCKBLOOM_PYTHON_ERRORS_H_
#define BLOCKBLOOM_PYTHON_ERRORS_H_

#include <pybind11/pybind11.h>

#include <string>

namespace bbpy {

// Creates blockbloom.Error and adds it to the module (once, at import).
void RegisterErrors(pybind11::module_& m);

// Raises the exception for a negative bb_status (as a C++ exception that
// pybind11 turns into the Python one). `context` prefixes the message.
[[noreturn]] void ThrowStatus(int status, const std::string& context = "");

// Raises blockbloom.Error for a negative bb_status with `message` as its
// whole text (a reason the library wrote, such as why a file is no Parquet).
[[noreturn]] void ThrowStatusMessage(int status, const std::string& message);

// ThrowStatus when status < 0; otherwise returns status (bb_find's 0 / 1).
inline int Check(int status, const std::string& context = "") {
  if (status < 0) ThrowStatus(status, context);
  return status;
}

// A value as messages show it: its repr, a long str or bytes cut to its
// start and length (blockbloom._containers.short_repr), so that a message
// about a 100 MB value is not 100 MB.
std::string ShortRepr(pybind11::handle value);

}  // namespace bbpy

#endif  // BLOCKBLOOM_PYTHON_ERRORS_H_
