// SPDX-License-Identifier: Apache-2.0
#include "bool_output.h"

#include <pybind11/numpy.h>

namespace py = pybind11;

namespace bbpy {

BoolOutput::BoolOutput(py::handle out, size_t n, const std::vector<py::ssize_t>& shape, const std::string& what) {
  if (out.is_none()) {
    py::array_t<bool> fresh(shape);
    data_ = fresh.mutable_data();
    result_ = std::move(fresh);
    return;
  }
  if (!buffer_.Acquire(out, true)) {
    throw py::type_error(what + ": out must be a writable numpy bool array");
  }
  const ElementType t = DescribeFormat(buffer_.format());
  if (t.kind != 'b' || buffer_.view().itemsize != 1) {
    throw py::type_error(what + ": out must be a bool array, got " + DescribeElements(out, buffer_.format()));
  }
  RequireContiguous(buffer_, what + ": out");
  if (buffer_.count() != n) {
    throw py::value_error(what + ": out has " + std::to_string(buffer_.count()) + " elements for " +
                          std::to_string(n) + " hashes");
  }
  data_ = static_cast<bool*>(buffer_.data());
  result_ = py::reinterpret_borrow<py::object>(out);
}

}  // namespace bbpy
