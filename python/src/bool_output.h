// SPDX-License-Identifier: Apache-2.0
// find() answers with one numpy bool per key, the library with one bit per
// key. The batch is probed in chunks whose bitmap stays in L1, and each
// bitmap byte is widened to eight bool bytes by one table lookup: a few
// percent on top of the probe, where a whole-batch bitmap and a second pass
// would read it back from L2.
#ifndef BLOCKBLOOM_PYTHON_BOOL_OUTPUT_H_
#define BLOCKBLOOM_PYTHON_BOOL_OUTPUT_H_

#include <pybind11/pybind11.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "buffers.h"

namespace bbpy {

// 64 Ki keys a chunk: an 8 KiB bitmap; the batch kernels' prefetch pipeline
// (128 keys deep) drains once a chunk, 0.2% of the keys.
constexpr size_t kBoolChunk = size_t{1} << 16;

// Byte i of kWidenedByte[b] is bit i of b (0 or 1): numpy's bool layout.
inline const std::array<uint64_t, 256>& WidenedBytes() {
  static const std::array<uint64_t, 256> table = [] {
    std::array<uint64_t, 256> t{};
    for (unsigned b = 0; b < 256; ++b) {
      uint8_t bytes[8];
      for (unsigned i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>((b >> i) & 1u);
      std::memcpy(&t[b], bytes, 8);
    }
    return t;
  }();
  return table;
}

// out[i] = bit i of the answers for i < n, where probe(first, count, bitmap)
// fills the bitmap of keys [first, first + count) and returns a bb_status.
// Returns the first negative status (out is then partly written) or 0.
template <class Probe>
int ProbeToBools(size_t n, bool* out, Probe probe) {
  const std::array<uint64_t, 256>& widen = WidenedBytes();
  uint8_t bitmap[kBoolChunk / 8];
  for (size_t first = 0; first < n; first += kBoolChunk) {
    const size_t count = n - first < kBoolChunk ? n - first : kBoolChunk;
    const int status = probe(first, count, bitmap);
    if (status < 0) return status;
    unsigned char* dst = reinterpret_cast<unsigned char*>(out + first);
    const size_t whole = count / 8;
    for (size_t i = 0; i < whole; ++i) std::memcpy(dst + 8 * i, &widen[bitmap[i]], 8);
    if (count % 8 != 0) std::memcpy(dst + 8 * whole, &widen[bitmap[whole]], count % 8);
  }
  return 0;
}

// Where find()'s answers go: a new bool array of the input's shape, or the
// caller's `out` (a writable, C-contiguous bool array of n elements, held
// exported for the length of the call).
class BoolOutput {
 public:
  BoolOutput(pybind11::handle out, size_t n, const std::vector<pybind11::ssize_t>& shape,
             const std::string& what);
  bool* data() const { return data_; }
  pybind11::object result() const { return result_; }

 private:
  Buffer buffer_;
  pybind11::object result_;
  bool* data_ = nullptr;
};

}  // namespace bbpy

#endif  // BLOCKBLOOM_PYTHON_BOOL_OUTPUT_H_
