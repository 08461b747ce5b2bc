// SPDX-License-Identifier: Apache-2.0
// Taking arrays from Python without copying: a Py_buffer held for the length
// of a call, checked for element type and C-contiguity, with messages that
// name what was expected and what came.
#ifndef BLOCKBLOOM_PYTHON_BUFFERS_H_
#define BLOCKBLOOM_PYTHON_BUFFERS_H_

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bbpy {

// An element type as the buffer protocol's struct-syntax format describes it.
struct ElementType {
  char kind = '?';   // 'u' unsigned, 'i' signed, 'f' float, 'b' bool, 's' text/bytes/object, '?' other
  size_t size = 0;   // bytes per element
  bool foreign_byte_order = false;
};
ElementType DescribeFormat(const char* format);

// "uint64", "float32", "bool", or the format itself for anything else; a
// numpy array's own dtype name when the object has one.
std::string DescribeElements(pybind11::handle obj, const char* format);

// A buffer exported by a Python object, released when this goes away (which
// must happen with the GIL held, as for any Python object).
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { Release(); }

  // Requests a strided buffer (writable if asked); false if obj does not
  // export one (no Python error is left set).
  bool Acquire(pybind11::handle obj, bool writable);
  void Release();

  bool held() const { return held_; }
  const Py_buffer& view() const { return view_; }
  void* data() const { return view_.buf; }
  size_t bytes() const { return static_cast<size_t>(view_.len); }
  size_t count() const { return view_.itemsize > 0 ? bytes() / static_cast<size_t>(view_.itemsize) : 0; }
  bool readonly() const { return view_.readonly != 0; }
  bool c_contiguous() const { return PyBuffer_IsContiguous(&view_, 'C') != 0; }
  std::vector<pybind11::ssize_t> shape() const;
  const char* format() const { return view_.format != nullptr ? view_.format : "B"; }

 private:
  Py_buffer view_{};
  bool held_ = false;
};

// ValueError unless buf is C-contiguous; `what` names the argument.
void RequireContiguous(const Buffer& buf, const std::string& what);

// An unsigned integer 0 <= v <= max from a Python int (or anything with
// __index__), else OverflowError/TypeError naming `what`.
uint64_t ToUnsigned(pybind11::handle obj, uint64_t max, const std::string& what);

// A run of hashes (T = uint64_t for Parquet, uint32_t for Kudu): a buffer of
// exactly that type, C-contiguous, used in place; or a sequence of Python
// ints, copied. Anything else raises TypeError or ValueError.
template <class T>
class HashInput {
 public:
  HashInput(pybind11::handle obj, const std::string& what);
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  const std::vector<pybind11::ssize_t>& shape() const { return shape_; }

 private:
  Buffer buffer_;
  std::vector<T> copy_;
  const T* data_ = nullptr;
  size_t size_ = 0;
  std::vector<pybind11::ssize_t> shape_;
};

extern template class HashInput<uint64_t>;
extern template class HashInput<uint32_t>;

}  // namespace bbpy

#endif  // BLOCKBLOOM_PYTHON_BUFFERS_H_
