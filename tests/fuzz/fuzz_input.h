// SPDX-License-Identifier: Apache-2.0
// Reads fixed-size fields off the front of a fuzzer's input; past the end,
// every read yields zeros, so any input is a valid program.
#ifndef BLOCKBLOOM_TESTS_FUZZ_FUZZ_INPUT_H_
#define BLOCKBLOOM_TESTS_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bbfuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  template <typename T>
  T Take() {
    T value{};
    const size_t n = size_ - pos_ < sizeof(T) ? size_ - pos_ : sizeof(T);
    if (n > 0) std::memcpy(&value, data_ + pos_, n);
    pos_ += n;
    return value;
  }

  const uint8_t* rest() const { return data_ + pos_; }
  size_t rest_size() const { return size_ - pos_; }
  bool empty() const { return pos_ >= size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace bbfuzz

#endif  // BLOCKBLOOM_TESTS_FUZZ_FUZZ_INPUT_H_
