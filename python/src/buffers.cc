// SPDX-License-Identifier: Apache-2.0
#include "buffers.h"

#include <cctype>
#include <cstring>
#include <limits>

namespace py = pybind11;

namespace bbpy {
namespace {

constexpr bool kLittleEndianHost = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

const char* HashTypeName(size_t size) { return size == 8 ? "uint64" : "uint32"; }
const char* HashLayoutName(size_t size) { return size == 8 ? "Parquet" : "Kudu"; }

}  // namespace

ElementType DescribeFormat(const char* format) {
  ElementType t;
  const char* f = format != nullptr ? format : "B";
  bool native_sizes = true;
  if (*f != '\0' && std::strchr("@=<>!", *f) != nullptr) {
    native_sizes = *f == '@';
    const bool big = *f == '>' || *f == '!';
    t.foreign_byte_order = big == kLittleEndianHost;
    ++f;
  }
  // numpy's text and object arrays: "10w" (UCS4), "5s" (bytes), "O".
  const size_t len = std::strlen(f);
  if (len > 0 && std::strchr("swO", f[len - 1]) != nullptr) {
    t.kind = 's';
    return t;
  }
  if (len != 1) return t;
  switch (*f) {
    case '?': t = {'b', 1, t.foreign_byte_order}; break;
    case 'b': t = {'i', 1, t.foreign_byte_order}; break;
    case 'B': t = {'u', 1, t.foreign_byte_order}; break;
    case 'h': t = {'i', 2, t.foreign_byte_order}; break;
    case 'H': t = {'u', 2, t.foreign_byte_order}; break;
    case 'i': t = {'i', native_sizes ? sizeof(int) : 4, t.foreign_byte_order}; break;
    case 'I': t = {'u', native_sizes ? sizeof(unsigned) : 4, t.foreign_byte_order}; break;
    case 'l': t = {'i', native_sizes ? sizeof(long) : 4, t.foreign_byte_order}; break;
    case 'L': t = {'u', native_sizes ? sizeof(unsigned long) : 4, t.foreign_byte_order}; break;
    case 'q': t = {'i', 8, t.foreign_byte_order}; break;
    case 'Q': t = {'u', 8, t.foreign_byte_order}; break;
    case 'n': t = {'i', sizeof(Py_ssize_t), t.foreign_byte_order}; break;
    case 'N': t = {'u', sizeof(size_t), t.foreign_byte_order}; break;
    case 'e': t = {'f', 2, t.foreign_byte_order}; break;
    case 'f': t = {'f', 4, t.foreign_byte_order}; break;
    case 'd': t = {'f', 8, t.foreign_byte_order}; break;
    default: break;
  }
  return t;
}

std::string DescribeElements(py::handle obj, const char* format) {
  if (py::hasattr(obj, "dtype")) {
    try {
      return "dtype " + py::str(obj.attr("dtype")).cast<std::string>();
    } catch (const py::error_already_set&) {
      // fall through to the format
    }
  }
  const ElementType t = DescribeFormat(format);
  std::string name;
  if (t.kind == 'u' || t.kind == 'i' || t.kind == 'f') {
    name = std::string(t.kind == 'u' ? "uint" : t.kind == 'i' ? "int" : "float") +
           std::to_string(t.size * 8);
  } else if (t.kind == 'b') {
    name = "bool";
  } else {
    return std::string("buffer format '") + (format != nullptr ? format : "B") + "'";
  }
  return name + (t.foreign_byte_order ? " (foreign byte order)" : "");
}

bool Buffer::Acquire(py::handle obj, bool writable) {
  Release();
  if (!PyObject_CheckBuffer(obj.ptr())) return false;
  const int flags = PyBUF_RECORDS_RO | (writable ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(obj.ptr(), &view_, flags) != 0) {
    PyErr_Clear();
    return false;
  }
  held_ = true;
  return true;
}

void Buffer::Release() {
  if (held_) PyBuffer_Release(&view_);
  held_ = false;
}

std::vector<py::ssize_t> Buffer::shape() const {
  std::vector<py::ssize_t> s;
  for (int i = 0; i < view_.ndim; ++i) s.push_back(view_.shape[i]);
  return s;
}

void RequireContiguous(const Buffer& buf, const std::string& what) {
  if (buf.c_contiguous()) return;
  throw py::value_error(what + ": the array is not C-contiguous (a slice with a step, a "
                        "transpose, a Fortran-order array); blockbloom reads arrays in place "
                        "and never copies them: pass numpy.ascontiguousarray(x)");
}

uint64_t ToUnsigned(py::handle obj, uint64_t max, const std::string& what) {
  if (PyFloat_Check(obj.ptr())) throw py::type_error(what + ": expected an int, got a float");
  py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(obj.ptr()));
  if (!index) {
    PyErr_Clear();
    throw py::type_error(what + ": expected an int, got " +
                         std::string(Py_TYPE(obj.ptr())->tp_name));
  }
  const unsigned long long v = PyLong_AsUnsignedLongLong(index.ptr());
  if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred() != nullptr) {
    PyErr_Clear();  // negative or wider than 64 bits: the message below says so
  } else if (v <= max) {
    return v;
  }
  PyErr_Format(PyExc_OverflowError, "%s: %S is out of range 0 .. %llu", what.c_str(), index.ptr(),
               static_cast<unsigned long long>(max));
  throw py::error_already_set();
}

template <class T>
HashInput<T>::HashInput(py::handle obj, const std::string& what) {
  const std::string expected = std::string(HashTypeName(sizeof(T))) + " (" +
                               HashLayoutName(sizeof(T)) + " filters take " +
                               HashTypeName(sizeof(T)) + " hashes)";
  if (PyUnicode_Check(obj.ptr())) throw py::type_error(what + ": expected " + expected + ", got a str");
  if (buffer_.Acquire(obj, false)) {
    const ElementType t = DescribeFormat(buffer_.format());
    if (t.kind != 'u' || t.size != sizeof(T) || t.foreign_byte_order ||
        buffer_.view().itemsize != static_cast<Py_ssize_t>(sizeof(T))) {
      throw py::type_error(what + ": expected " + expected + ", got " +
                           DescribeElements(obj, buffer_.format()));
    }
    RequireContiguous(buffer_, what);
    data_ = static_cast<const T*>(buffer_.data());
    size_ = buffer_.count();
    shape_ = buffer_.shape();
    return;
  }
  // Not a buffer: a list, tuple, range or other iterable of ints (copied).
  py::object iterator = py::reinterpret_steal<py::object>(PyObject_GetIter(obj.ptr()));
  if (!iterator) {
    PyErr_Clear();
    throw py::type_error(what + ": expected a buffer of " + expected +
                         " or a sequence of ints, got " + std::string(Py_TYPE(obj.ptr())->tp_name));
  }
  for (py::handle item : py::reinterpret_borrow<py::iterator>(iterator)) {
    // Named by its index, as a list's item ("item 1", never "value 1").
    const std::string which = what + ": item " + std::to_string(copy_.size());
    copy_.push_back(static_cast<T>(ToUnsigned(item, std::numeric_limits<T>::max(), which)));
  }
  data_ = copy_.data();
  size_ = copy_.size();
  shape_ = {static_cast<py::ssize_t>(size_)};
}

template class HashInput<uint64_t>;
template class HashInput<uint32_t>;

}  // namespace bbpy
