// SPDX-License-Identifier: Apache-2.0
// arrow.hpp's bounds rule: an ArrowArray whose offset, length, last string
// offset or buffer count puts a position where no memory can be (more than
// 2^57 bytes from its buffer, or past the top of the address space) is
// BB_ERR_ARROW_MALFORMED before any row is read. Each array here has real
// buffers of a few rows; before the rule, most of them were read far before
// or after those buffers (under ASan: a report; in a release build: a crash,
// or a status 0 over whatever lay there).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cpp/arrow_test_arrays.h"
#include "blockbloom/arrow.hpp"
#include "blockbloom/kudu.h"

namespace {

using namespace blockbloom_test;  // NOLINT: the array builders

constexpr int64_t k2to57 = int64_t{1} << 57;

// Every call on the array, in both layouts: one status, nothing inserted
// when refused; validate() agrees and its message names the format.
int Status(const Arrow& a) {
  int status = 0;
  for (uint32_t layout : {uint32_t{BB_LAYOUT_PARQUET}, uint32_t{BB_LAYOUT_KUDU}}) {
    TestFilter f(layout);
    std::string why;
    const int inserted = blockbloom::arrow::insert(f.get(), &a.schema, &a.array, &why);
    EXPECT_TRUE(inserted == BB_OK || f.AllZero()) << "refused but inserted";
    uint8_t bitmap[8] = {0};
    uint32_t selection[64] = {0};
    EXPECT_EQ(blockbloom::arrow::find_bitmap(f.get(), &a.schema, &a.array, bitmap, nullptr), inserted);
    EXPECT_EQ(blockbloom::arrow::find_select(f.get(), &a.schema, &a.array, selection, nullptr), inserted);
    std::string checked;
    EXPECT_EQ(blockbloom::arrow::validate(&a.schema, &a.array, layout, &checked), inserted);
    if (inserted < 0) {
      EXPECT_EQ(checked, why);
      EXPECT_NE(why.find("Arrow format '"), std::string::npos) << why;
    }
    if (layout == BB_LAYOUT_PARQUET) {
      status = inserted;
    } else if (inserted != BB_ERR_TYPE_NOT_IN_LAYOUT && inserted != BB_ERR_ARROW_UNSUPPORTED_TYPE) {
      EXPECT_EQ(inserted, status) << "Kudu and Parquet differ";
    }
  }
  return status;
}

// n small values (row i is i + 1 in its low byte: a value of every format,
// a decimal's precision included).
Bytes Values(std::size_t n, std::size_t width) {
  Bytes v(n * width, 0);
  for (std::size_t i = 0; i < n; ++i) v[i * width] = static_cast<uint8_t>(i + 1);
  return v;
}

// A three-row array of each kind of layout the adapter reads.
std::unique_ptr<Arrow> ThreeRows(const std::string& format) {
  const std::vector<bool> valid = {true, false, true};
  if (format == "u") return StringArrow<int32_t>(format, {"ab", "", "a string past twelve bytes"}, valid);
  if (format == "U") return StringArrow<int64_t>(format, {"ab", "", "a string past twelve bytes"}, valid);
  if (format == "vu") return ViewArrow(format, {"ab", "", "a string past twelve bytes"}, valid);
  const std::size_t width = format == "c" ? 1 : format == "e" ? 2 : format == "i" ? 4 : format == "l" ? 8 : 16;
  return FixedArrow(format, Values(3, width), width, valid);
}

TEST(ArrowBounds, TheArraysBelowAreAcceptedAsBuilt) {
  for (const char* format : {"c", "e", "i", "l", "w:16", "d:10,2", "u", "U", "vu"}) {
    SCOPED_TRACE(format);
    EXPECT_EQ(Status(*ThreeRows(format)), BB_OK);
  }
}

TEST(ArrowBounds, OffsetsAndLengthsNoMemoryHoldsAreMalformedInEveryFormat) {
  struct Case {
    int64_t offset, length;
    const char* what;
  };
  const Case cases[] = {{INT64_MAX, 1, "offset INT64_MAX"},
                        {INT64_MAX, 0, "offset INT64_MAX, no rows"},
                        {int64_t{1} << 62, 1, "offset 2^62 (wraps to the buffer's start for 4-byte values)"},
                        {int64_t{1} << 60, 1, "offset 2^60 (16-byte views: 2^64)"},
                        {0, (int64_t{1} << 61) + 1, "length 2^61 + 1"},
                        {0, INT64_MAX, "length INT64_MAX"},
                        {INT64_MAX / 2, INT64_MAX / 2, "offset + length past INT64_MAX"},
                        {k2to57, 1, "offset 2^57: more than the address space for any width"}};
  for (const char* format : {"c", "e", "i", "l", "w:16", "d:10,2", "u", "U", "vu"}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(format) + ": " + c.what);
      auto a = ThreeRows(format);
      a->array.offset = c.offset;
      a->array.length = c.length;
      a->array.null_count = 0;
      EXPECT_EQ(Status(*a), BB_ERR_ARROW_MALFORMED);
    }
  }
}

// Each of these was read before: positions within the old guard's size_t
// arithmetic, but past memory (or wrapping to before the buffer).
TEST(ArrowBounds, PositionsPastMemoryThatTheOldGuardLetThroughAreMalformed) {
  auto wide = FixedArrow("w:1000000", Values(1, 1000000), 1000000, {true});
  wide->Finish(1, static_cast<int64_t>(SIZE_MAX / 1000000 - 1), 0);  // offset * 10^6 wraps to 1.5 MB before
  EXPECT_EQ(Status(*wide), BB_ERR_ARROW_MALFORMED) << "fixed_size_binary(10^6) at offset 2^64 / 10^6";

  auto view = ThreeRows("vu");
  view->array.offset = (int64_t{1} << 59) - 2;  // views at 2^63 bytes past their buffer
  view->array.null_count = 0;
  EXPECT_EQ(Status(*view), BB_ERR_ARROW_MALFORMED) << "views at offset 2^59";

  auto ints = ThreeRows("i");
  ints->array.offset = int64_t{1} << 56;  // values 2^58 bytes on, validity bits 2^53
  EXPECT_EQ(Status(*ints), BB_ERR_ARROW_MALFORMED) << "int32 at offset 2^56";

  auto bits = ThreeRows("c");
  bits->array.offset = k2to57 - 8;  // the int8 values fit 2^57 bytes, the validity bits do too
  bits->array.length = 8;
  bits->array.null_count = 0;
  bits->pointers[0] = reinterpret_cast<const void*>(UINTPTR_MAX - 1024);  // ... but not from where they start
  EXPECT_EQ(Status(*bits), BB_ERR_ARROW_MALFORMED) << "a validity bitmap running past the address space";
}

TEST(ArrowBounds, ALastStringOffsetNoMemoryHoldsIsMalformed) {
  for (int64_t last : {int64_t{1} << 62, k2to57 + 1, INT64_MAX}) {
    SCOPED_TRACE(last);
    auto a = ThreeRows("U");
    Bytes& offsets = a->buffers[1];
    // Row 2 (valid) runs from its offset to `last`: the data buffer would be that long.
    std::memcpy(offsets.data() + (kPad + 3) * 8, &last, 8);
    a->Finish(3, kPad, 1);
    EXPECT_EQ(Status(*a), BB_ERR_ARROW_MALFORMED);
  }
}

TEST(ArrowBounds, ABufferCountNoMemoryHoldsIsMalformed) {
  // A view array's variadic buffers are counted by n_buffers: the sizes
  // buffer is read at buffers[n_buffers - 1], which for 2^61 wraps to buffers[-1].
  for (int64_t n : {int64_t{1} << 61, (int64_t{1} << 55) + 3, INT64_MAX}) {
    SCOPED_TRACE(n);
    auto a = ThreeRows("vu");
    a->array.n_buffers = n;
    EXPECT_EQ(Status(*a), BB_ERR_ARROW_MALFORMED);
  }
}

TEST(ArrowBounds, DictionariesAndTheirIndicesAreBoundedEachByTheirOwnPositions) {
  const std::vector<bool> valid = {true, true, true};
  // A dictionary claiming 2^58 entries of 3: index 5 would read past its values.
  auto a = Indices("i", 4, {0, 5, 1}, valid);
  a->dictionary = FixedArrow("i", Values(3, 4), 4, valid);
  a->dictionary->Finish(int64_t{1} << 58, 0, 0);
  a->Finish(3, kPad, 0);
  EXPECT_EQ(Status(*a), BB_ERR_ARROW_MALFORMED) << "a dictionary of 2^58 int32 (2^60 bytes)";

  // int64 indices at offset 2^61 - 2: 8-byte positions wrap to 16 bytes before the buffer.
  a = Indices("l", 8, {0}, {true});
  a->dictionary = FixedArrow("i", Values(3, 4), 4, valid);
  a->Finish(1, (int64_t{1} << 61) - 2, 0);
  EXPECT_EQ(Status(*a), BB_ERR_ARROW_MALFORMED) << "int64 indices at offset 2^61 - 2";

  a = Indices("c", 1, {0}, {true});
  a->dictionary = ThreeRows("u");
  a->Finish(INT64_MAX, 0, 0);
  EXPECT_EQ(Status(*a), BB_ERR_ARROW_MALFORMED) << "INT64_MAX indices";

  // The same dictionary with a length it holds: the indices within it are read.
  a = Indices("i", 4, {0, 2, 1}, valid);
  a->dictionary = FixedArrow("i", Values(3, 4), 4, valid);
  a->Finish(3, kPad, 0);
  EXPECT_EQ(Status(*a), BB_OK);
}

TEST(ArrowBounds, CountsTheSpecDoesNotAllowForALeafAreMalformed) {
  auto a = ThreeRows("i");
  a->array.null_count = 4;  // more nulls than rows
  EXPECT_EQ(Status(*a), BB_ERR_ARROW_MALFORMED) << "null_count above length";
  a->array.null_count = -2;
  EXPECT_EQ(Status(*a), BB_ERR_ARROW_MALFORMED) << "null_count below -1";
  a->array.null_count = -1;  // unknown: allowed
  EXPECT_EQ(Status(*a), BB_OK);
  a->array.null_count = 1;
  a->array.n_children = 1;  // a leaf with a child (and no children array)
  EXPECT_EQ(Status(*a), BB_ERR_ARROW_MALFORMED) << "children on an int32 array";
  a->array.n_children = -1;
  EXPECT_EQ(Status(*a), BB_ERR_ARROW_MALFORMED) << "negative n_children";
}

}  // namespace
