// SPDX-License-Identifier: Apache-2.0
// max_memory_bytes of bb_parquet_limits is an estimate the footer walk
// counts as it keeps structures; the bound on footer memory
// (docs/reliability.md) holds only if the estimate is not below what the
// open really allocates. This test counts every operator new of the process
// (replaced here; the library's allocations go through it too) and checks,
// for footers of the shapes that cost most per byte, that the peak of the
// heap during an open in memory stays under the limit the open applied,
// whether the footer opens or is refused.
#include <gtest/gtest.h>
#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "blockbloom/parquet_file.h"
#include "support/parquet_test_file.h"

namespace {

// Heap bytes held through operator new, and the most held since Reset().
std::size_t g_live = 0;
std::size_t g_peak = 0;

void ResetPeak() { g_peak = g_live; }

}  // namespace

// The replaceable global allocation functions: every new and delete of the
// process, the library's included, counted by the block's usable size.
// (GCC takes the free of what this operator new returns for a mismatch.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  g_live += malloc_usable_size(p);
  if (g_live > g_peak) g_peak = g_live;
  return p;
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  g_live -= malloc_usable_size(p);
  std::free(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { operator delete(p); }

namespace {

using bbtest::ChunkSpec;
using bbtest::ColumnSpec;

constexpr std::size_t kFilterOffset = 4;

// The file: a 32-byte filter at offset 4, `zeros` zero bytes, then the
// FileMetaData.
std::string FileOf(const std::string& metadata, std::size_t zeros) {
  return bbtest::ParquetBytes(bbtest::HeaderFor(32) + std::string(32 + zeros, '\0'), metadata);
}

ChunkSpec At(std::int64_t offset) {
  ChunkSpec c;
  c.bloom_offset = offset;
  c.write_offset = true;  // negative ones too
  return c;
}

// One INT32 column "x" and `count` row groups of one empty chunk (4 bytes each).
std::string EmptyRowGroups(std::size_t count) {
  ColumnSpec column;
  column.path = {"x"};
  bbtest::CompactWriter w;
  w.BeginStruct().Field(1, bbtest::kI32).I(2).Field(2, bbtest::kList);
  bbtest::WriteSchema(w, {column});
  w.Field(3, bbtest::kI64).I(1).Field(4, bbtest::kList).ListHeader(bbtest::kStruct, count);
  std::string rows;
  for (std::size_t g = 0; g < count; ++g) rows.append("\x19\x1c\x00\x00", 4);
  w.Raw(rows).EndStruct();
  return w.bytes();
}

// `count` leaves of one group whose 200-byte name every path repeats, each
// chunk of the one row group pointing at the filter.
std::string LongSharedPaths(std::size_t count) {
  std::vector<ColumnSpec> columns(count);
  for (std::size_t i = 0; i < count; ++i) {
    columns[i].path = {std::string(200, 'g'), "c" + std::to_string(i)};
  }
  return bbtest::FileMetaData(columns, {std::vector<ChunkSpec>(count, At(kFilterOffset))});
}

// One column and `count` row groups whose chunks have distinct negative
// offsets: a distinct error text each.
std::string DistinctBadOffsets(std::size_t count) {
  ColumnSpec column;
  column.path = {"x"};
  std::vector<std::vector<ChunkSpec>> groups;
  for (std::size_t g = 0; g < count; ++g) {
    groups.push_back({At(-1 - static_cast<std::int64_t>(g))});
  }
  return bbtest::FileMetaData({column}, groups);
}

// `count` row groups whose chunks point at distinct offsets of the zero
// bytes after the filter (no header there: a header parse kept per offset,
// and a distinct error text each).
std::string DistinctHeaderOffsets(std::size_t count) {
  ColumnSpec column;
  column.path = {"x"};
  std::vector<std::vector<ChunkSpec>> groups;
  for (std::size_t g = 0; g < count; ++g) {
    groups.push_back({At(static_cast<std::int64_t>(kFilterOffset + 48 + g))});
  }
  return bbtest::FileMetaData({column}, groups);
}

struct Shape {
  const char* name;
  std::string metadata;
  std::size_t zeros = 0;  // after the filter
};

TEST(ParquetFooterBudget, TheHeapPeakOfAnOpenStaysUnderItsMemoryLimit) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ASan replaces the allocator: the heap it reports is its own";
#endif
  std::vector<Shape> shapes;
  for (std::size_t n : {50'000u, 300'000u, 900'000u}) {
    shapes.push_back({"empty row groups", EmptyRowGroups(n)});
  }
  for (std::size_t n : {2'000u, 40'000u}) {
    shapes.push_back({"long shared paths", LongSharedPaths(n)});
  }
  for (std::size_t n : {20'000u, 200'000u}) {
    shapes.push_back({"distinct bad offsets", DistinctBadOffsets(n)});
    shapes.push_back({"distinct header offsets", DistinctHeaderOffsets(n), n});
  }
  int opened = 0;
  int refused = 0;
  for (const Shape& shape : shapes) {
    SCOPED_TRACE(std::string(shape.name) + ", FileMetaData of " +
                 std::to_string(shape.metadata.size()) + " bytes");
    const std::string file = FileOf(shape.metadata, shape.zeros);
    const std::size_t limit =
        BB_PARQUET_DEFAULT_MEMORY_BASE_BYTES +
        std::size_t{BB_PARQUET_DEFAULT_MEMORY_FOOTER_MULTIPLE} * shape.metadata.size();
    bb_parquet_file* f = nullptr;
    char why[512] = "";
    const std::size_t before = g_live;
    ResetPeak();
    const int status = bb_parquet_file_open_memory(
        &f, reinterpret_cast<const std::uint8_t*>(file.data()), file.size(), why, sizeof why);
    const std::size_t peak = g_peak - before;
    bb_parquet_file_close(f);
    std::printf("%s: FileMetaData of %zu bytes: %s, heap peak %zu bytes, limit %zu\n",
                shape.name, shape.metadata.size(), status == BB_OK ? "opened" : "refused", peak,
                limit);
    ASSERT_TRUE(status == BB_OK || status == BB_ERR_PARQUET_LIMIT) << status << " " << why;
    (status == BB_OK ? opened : refused) += 1;
    EXPECT_LE(peak, limit) << "peak " << peak << " bytes, limit " << limit << "; " << why;
    // The heap is back where it was: nothing of a closed or refused open stays.
    EXPECT_EQ(g_live, before);
  }
  EXPECT_GT(opened, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
