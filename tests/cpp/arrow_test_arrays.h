// SPDX-License-Identifier: Apache-2.0
// Arrow C Data Interface arrays built by hand as the spec lays them out, for
// the tests of arrow.hpp: every array is a slice starting at Arrow position
// kPad (the pad rows' bytes and validity bits set, to show they are not read).
#ifndef BLOCKBLOOM_TESTS_ARROW_TEST_ARRAYS_H_
#define BLOCKBLOOM_TESTS_ARROW_TEST_ARRAYS_H_

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "blockbloom/arrow.hpp"
#include "blockbloom/kudu.h"

namespace blockbloom_test {

constexpr std::size_t kPad = 3;  // every array is a slice starting at Arrow position kPad

using Bytes = std::vector<uint8_t>;

inline void ReleaseSchema(ArrowSchema* s) { s->release = nullptr; }
inline void ReleaseArray(ArrowArray* a) { a->release = nullptr; }

// An ArrowArray + ArrowSchema owning their buffers (release callbacks only
// mark them released: the buffers live as long as this object).
struct Arrow {
  std::string format;
  std::vector<Bytes> buffers;
  std::vector<const void*> pointers;
  ArrowSchema schema{};
  ArrowArray array{};
  std::unique_ptr<Arrow> dictionary;

  // length rows starting at Arrow position offset; a buffer left empty is NULL.
  void Finish(int64_t length, int64_t offset, int64_t null_count) {
    pointers.clear();
    for (const Bytes& b : buffers) pointers.push_back(b.empty() ? nullptr : b.data());
    schema = ArrowSchema{format.c_str(), "col", nullptr, ARROW_FLAG_NULLABLE, 0, nullptr,
                         dictionary ? &dictionary->schema : nullptr, ReleaseSchema, nullptr};
    array = ArrowArray{length, null_count, offset, static_cast<int64_t>(pointers.size()), 0, pointers.data(),
                       nullptr, dictionary ? &dictionary->array : nullptr, ReleaseArray, nullptr};
  }
};

// Arrow validity bits for rows at positions pad + i (the pad bits set, to
// show they are not read as the slice's).
inline Bytes ArrowValidity(const std::vector<bool>& valid, std::size_t pad) {
  Bytes bits((pad + valid.size() + 7) / 8 + 1, 0);
  for (std::size_t i = 0; i < pad; ++i) bits[i / 8] = static_cast<uint8_t>(bits[i / 8] | (1u << (i % 8)));
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const std::size_t k = pad + i;
    if (valid[i]) bits[k / 8] = static_cast<uint8_t>(bits[k / 8] | (1u << (k % 8)));
  }
  return bits;
}

inline Bytes PackedValidity(const std::vector<bool>& valid) { return ArrowValidity(valid, 0); }

inline int64_t Nulls(const std::vector<bool>& valid) {
  int64_t n = 0;
  for (bool v : valid) n += v ? 0 : 1;
  return n;
}

// The rows' pattern of nulls: every 3rd and the 7th.
inline std::vector<bool> SomeNulls(std::size_t n) {
  std::vector<bool> valid(n);
  for (std::size_t i = 0; i < n; ++i) valid[i] = i % 3 != 1 && i != 7;
  return valid;
}

// A fixed-width array of `format`: rows [kPad, kPad + n) of pad + values.
inline std::unique_ptr<Arrow> FixedArrow(const std::string& format, const Bytes& values, std::size_t width,
                                  const std::vector<bool>& valid) {
  auto a = std::make_unique<Arrow>();
  a->format = format;
  Bytes data(kPad * width, 0xAB);
  data.insert(data.end(), values.begin(), values.end());
  a->buffers = {ArrowValidity(valid, kPad), data};
  a->Finish(static_cast<int64_t>(valid.size()), kPad, Nulls(valid));
  return a;
}

// A utf8/binary array (int32 or int64 offsets): offsets start past some bytes.
template <class Offset>
std::unique_ptr<Arrow> StringArrow(const std::string& format, const std::vector<std::string>& s,
                                   const std::vector<bool>& valid) {
  auto a = std::make_unique<Arrow>();
  a->format = format;
  std::string data = "padpadpad";
  std::vector<Offset> offsets = {0, 3, 6, 9};  // kPad rows before the slice
  for (const std::string& v : s) {
    data += v;
    offsets.push_back(static_cast<Offset>(data.size()));
  }
  Bytes off(offsets.size() * sizeof(Offset));
  std::memcpy(off.data(), offsets.data(), off.size());
  a->buffers = {ArrowValidity(valid, kPad), off, Bytes(data.begin(), data.end())};
  a->Finish(static_cast<int64_t>(s.size()), kPad, Nulls(valid));
  return a;
}

// A string/binary view array: short values inline, long ones in two variadic buffers.
inline std::unique_ptr<Arrow> ViewArrow(const std::string& format, const std::vector<std::string>& s,
                                 const std::vector<bool>& valid) {
  auto a = std::make_unique<Arrow>();
  a->format = format;
  Bytes views(16 * kPad, 0);  // the pad rows: empty inline views
  Bytes variadic[2] = {Bytes(5, '#'), Bytes()};
  for (std::size_t i = 0; i < s.size(); ++i) {
    uint8_t view[16] = {0};
    const int32_t len = static_cast<int32_t>(s[i].size());
    std::memcpy(view, &len, 4);
    if (len <= 12) {
      std::memcpy(view + 4, s[i].data(), s[i].size());
    } else {
      const int32_t index = static_cast<int32_t>(i % 2);
      Bytes& buffer = variadic[index];
      const int32_t offset = static_cast<int32_t>(buffer.size());
      buffer.insert(buffer.end(), s[i].begin(), s[i].end());
      std::memcpy(view + 4, s[i].data(), 4);
      std::memcpy(view + 8, &index, 4);
      std::memcpy(view + 12, &offset, 4);
    }
    views.insert(views.end(), view, view + 16);
  }
  const int64_t sizes[2] = {static_cast<int64_t>(variadic[0].size()), static_cast<int64_t>(variadic[1].size())};
  Bytes size_bytes(sizeof sizes);
  std::memcpy(size_bytes.data(), sizes, sizeof sizes);
  if (variadic[1].empty()) variadic[1].push_back(0);  // a buffer of 0 bytes read, not NULL
  a->buffers = {ArrowValidity(valid, kPad), views, variadic[0], variadic[1], size_bytes};
  a->Finish(static_cast<int64_t>(s.size()), kPad, Nulls(valid));
  return a;
}

// Indices of `format` (width bytes, signed or not) at Arrow positions kPad + i.
inline std::unique_ptr<Arrow> Indices(const char* format, std::size_t width, const std::vector<int64_t>& idx,
                               const std::vector<bool>& valid) {
  Bytes values(idx.size() * width);
  for (std::size_t i = 0; i < idx.size(); ++i) std::memcpy(values.data() + i * width, &idx[i], width);  // LE
  return FixedArrow(format, values, width, valid);
}

// A filter of either layout for the tests (Kudu: seed 0x5eed), released at
// scope end; AllZero() shows that a refused call inserted nothing.
class TestFilter {
 public:
  explicit TestFilter(uint32_t layout) {
    const int st = layout == BB_LAYOUT_KUDU ? bb_kudu_filter_init(&f_, 13, 0x5eed) : bb_filter_init(&f_, 8192);
    if (st != BB_OK) std::abort();  // a test fixture that cannot exist
  }
  ~TestFilter() { bb_filter_release(&f_); }
  TestFilter(const TestFilter&) = delete;
  TestFilter& operator=(const TestFilter&) = delete;
  bb_filter* get() { return &f_; }
  Bytes bytes() const { return Bytes(f_.data, f_.data + f_.num_bytes); }
  bool AllZero() const {
    for (std::size_t i = 0; i < f_.num_bytes; ++i) {
      if (f_.data[i] != 0) return false;
    }
    return true;
  }

 private:
  bb_filter f_{};
};

}  // namespace blockbloom_test

#endif  // BLOCKBLOOM_TESTS_ARROW_TEST_ARRAYS_H_
