// SPDX-License-Identifier: Apache-2.0
// Footers made to cost: what opening a file spends must follow the file's
// size, not what its footer multiplies. Many chunks aimed at one large
// BloomFilterHeader are parsed once (CPU time of the open, with a bound);
// each chunk still gets the verdict it would get alone. Footers past the
// limits of bb_parquet_limits (container elements, memory) are refused with
// BB_ERR_PARQUET_LIMIT and a reason naming the limit, by every open.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "blockbloom/parquet_file.h"
#include "blockbloom/parquet_file.hpp"
#include "support/parquet_test_file.h"

namespace {

using bbtest::ChunkSpec;
using bbtest::ColumnSpec;

const std::uint8_t* Bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

double CpuSeconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// A valid header made 1,000,000 bytes long by an unknown field before its
// real ones, a list of 999,990 one-byte i32s that a parser walks element by
// element (~4 ms), for a 32-byte bitset.
std::string LongHeader() {
  bbtest::CompactWriter h;
  h.BeginStruct().Field(7, bbtest::kList).ListHeader(bbtest::kI32, 999'990);
  h.Raw(std::string(999'990, '\0'));
  h.Field(1, bbtest::kI32).I(32);
  for (int id = 2; id <= 4; ++id) {
    h.Field(id, bbtest::kStruct).BeginStruct().EmptyStruct(1).EndStruct();
  }
  h.EndStruct();
  return h.bytes();
}

ChunkSpec At(std::int64_t offset, std::int32_t length = -1) {
  ChunkSpec c;
  c.bloom_offset = offset;
  c.bloom_length = length;
  return c;
}

std::string FileWith(const std::string& body, const std::vector<ChunkSpec>& chunks) {
  std::vector<std::vector<ChunkSpec>> groups;
  for (const ChunkSpec& c : chunks) groups.push_back({c});
  ColumnSpec column;
  column.path = {"x"};
  return bbtest::ParquetBytes(body, bbtest::FileMetaData({column}, groups));
}

std::string WriteTemp(const std::string& bytes) {
  char pattern[] = "/tmp/bb-hostile-footer-XXXXXX";
  const int fd = ::mkstemp(pattern);
  EXPECT_GE(fd, 0);
  ::close(fd);
  std::ofstream(pattern, std::ios::binary) << bytes;
  return pattern;
}

// Opens bytes in memory (by_path false) or from a temporary file.
int Open(const std::string& bytes, bool by_path, bb_parquet_file** f) {
  if (!by_path) return bb_parquet_file_open_memory(f, Bytes(bytes), bytes.size(), nullptr, 0);
  const std::string path = WriteTemp(bytes);
  const int status = bb_parquet_file_open_path(f, path.c_str(), nullptr, 0);
  ::unlink(path.c_str());
  return status;
}

bb_parquet_chunk ChunkOf(const bb_parquet_file* f, std::size_t g) {
  bb_parquet_chunk k{};
  k.struct_size = sizeof k;
  EXPECT_EQ(bb_parquet_file_chunk(f, g, 0, &k), BB_OK);
  return k;
}

TEST(ParquetHostileFooter, ThreeHundredChunksOnOneMegabyteHeaderOpenInLittleCpu) {
  const std::string header = LongHeader();
  ASSERT_GT(header.size(), 1'000'000u);
  ASSERT_LT(header.size(), std::size_t{1} << 20);
  const std::string body = header + std::string(32, '\0');
  const std::string bytes = FileWith(body, std::vector<ChunkSpec>(300, At(4)));
  for (const bool by_path : {false, true}) {
    bb_parquet_file* f = nullptr;
    const double before = CpuSeconds();
    ASSERT_EQ(Open(bytes, by_path, &f), BB_OK);
    const double spent = CpuSeconds() - before;
    // One parse of the header costs ~4 ms; 300 of them took 1.2-1.4 s.
    EXPECT_LT(spent, 0.2) << (by_path ? "by path" : "in memory");
    for (std::size_t g = 0; g < 300; ++g) ASSERT_EQ(ChunkOf(f, g).filter_status, BB_OK) << g;
    bb_parquet_file_close(f);
  }
}

TEST(ParquetHostileFooter, ChunksSharingAHeaderGetTheVerdictTheyGetAlone) {
  const std::string header = LongHeader();
  const std::string body = header + std::string(32, '\0');
  const auto whole = static_cast<std::int32_t>(body.size());
  const auto head = static_cast<std::int32_t>(header.size());
  // Lengths that end inside the header, at its end, inside the bitset, at
  // its end; and no length at all.
  const std::vector<ChunkSpec> chunks = {At(4, 1),         At(4, head - 1), At(4, head),
                                         At(4, whole - 1), At(4, whole),    At(4)};
  for (const bool by_path : {false, true}) {
    bb_parquet_file* shared = nullptr;
    ASSERT_EQ(Open(FileWith(body, chunks), by_path, &shared), BB_OK);
    for (std::size_t g = 0; g < chunks.size(); ++g) {
      bb_parquet_file* alone = nullptr;
      ASSERT_EQ(Open(FileWith(body, {chunks[g]}), by_path, &alone), BB_OK);
      const bb_parquet_chunk a = ChunkOf(alone, 0);
      const bb_parquet_chunk s = ChunkOf(shared, g);
      EXPECT_EQ(s.filter_status, a.filter_status) << g;
      EXPECT_EQ(s.filter_length, a.filter_length) << g;
      EXPECT_EQ(s.bitset_offset, a.bitset_offset) << g;
      EXPECT_EQ(s.bitset_bytes, a.bitset_bytes) << g;
      EXPECT_EQ(std::string(s.filter_error ? s.filter_error : "-"),
                std::string(a.filter_error ? a.filter_error : "-"))
          << g;
      bb_parquet_file_close(alone);
    }
    // Every length but header + numBytes disagrees with the header.
    for (std::size_t g : {0, 1, 2, 3}) {
      EXPECT_EQ(ChunkOf(shared, g).filter_status, BB_ERR_PARQUET_FOOTER_MALFORMED) << g;
    }
    EXPECT_EQ(ChunkOf(shared, 4).filter_status, BB_OK);
    EXPECT_EQ(ChunkOf(shared, 5).filter_status, BB_OK);
    bb_parquet_file_close(shared);
  }
}

// The FileMetaData of one INT32 column and `count` row groups of 4 bytes
// each (a columns list of one empty chunk).
std::string RowGroupsFooter(std::size_t count) {
  ColumnSpec column;
  column.path = {"x"};
  bbtest::CompactWriter w;
  w.BeginStruct().Field(1, bbtest::kI32).I(2).Field(2, bbtest::kList);
  bbtest::WriteSchema(w, {column});
  w.Field(3, bbtest::kI64).I(static_cast<std::int64_t>(count)).Field(4, bbtest::kList).ListHeader(bbtest::kStruct, count);
  std::string rows;
  rows.reserve(4 * count);
  for (std::size_t g = 0; g < count; ++g) rows.append("\x19\x1c\x00\x00", 4);
  w.Raw(rows).EndStruct();
  return w.bytes();
}

struct Opened {
  int status = BB_OK;
  std::string why;
};

// The footer opened three ways (path, memory, footer alone) with limits.
std::vector<Opened> OpenAllWays(const std::string& metadata, const bb_parquet_limits* limits) {
  const std::string bytes = bbtest::ParquetBytes("", metadata);
  const std::string path = WriteTemp(bytes);
  std::vector<Opened> out(3);
  for (int way = 0; way < 3; ++way) {
    bb_parquet_file* f = nullptr;
    char why[512] = "";
    out[way].status =
        way == 0 ? bb_parquet_file_open_path_limits(&f, path.c_str(), limits, why, sizeof why)
        : way == 1
            ? bb_parquet_file_open_memory_limits(&f, Bytes(bytes), bytes.size(), limits, why,
                                                 sizeof why)
            : bb_parquet_file_open_footer_limits(&f, Bytes(metadata), metadata.size(), limits, why,
                                                 sizeof why);
    out[way].why = why;
    bb_parquet_file_close(f);
  }
  ::unlink(path.c_str());
  return out;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ParquetHostileFooter, AListPastMaxContainerElementsIsRefusedNamingTheLimit) {
  bb_parquet_limits limits{};
  limits.struct_size = sizeof limits;
  limits.max_container_elements = 10;
  for (const Opened& o : OpenAllWays(RowGroupsFooter(10), &limits)) {
    EXPECT_EQ(o.status, BB_OK) << o.why;
  }
  for (const Opened& o : OpenAllWays(RowGroupsFooter(11), &limits)) {
    EXPECT_EQ(o.status, BB_ERR_PARQUET_LIMIT) << o.why;
    EXPECT_TRUE(Has(o.why, "FileMetaData.row_groups holds 11 elements, more than "
                           "max_container_elements 10 (bb_parquet_limits")) << o.why;
  }
  // The default is Arrow's, 1,000,000 (which tests/cli's hostile footer
  // test opens): one more is refused.
  const Opened past = OpenAllWays(RowGroupsFooter(1'000'001), nullptr)[2];
  EXPECT_EQ(past.status, BB_ERR_PARQUET_LIMIT);
  EXPECT_TRUE(Has(past.why, "more than max_container_elements 1000000")) << past.why;
  EXPECT_TRUE(Has(bb_status_message(BB_ERR_PARQUET_LIMIT), "max_container_elements"));
}

TEST(ParquetHostileFooter, AFooterPastMaxMemoryBytesIsRefusedNamingTheLimit) {
  bb_parquet_limits limits{};
  limits.struct_size = sizeof limits;
  limits.max_memory_bytes = 64 * 1024;
  // ~100 bytes a row group: 100 fit in 64 KiB, 10,000 do not.
  for (const Opened& o : OpenAllWays(RowGroupsFooter(100), &limits)) {
    EXPECT_EQ(o.status, BB_OK) << o.why;
  }
  for (const Opened& o : OpenAllWays(RowGroupsFooter(10'000), &limits)) {
    EXPECT_EQ(o.status, BB_ERR_PARQUET_LIMIT) << o.why;
    EXPECT_TRUE(Has(o.why, "more than max_memory_bytes 65536 bytes of memory")) << o.why;
  }
}

// Opens bytes in memory with max_memory_bytes = cap.
int OpenCapped(const std::string& bytes, std::uint64_t cap, std::string* why) {
  bb_parquet_limits limits{};
  limits.struct_size = sizeof limits;
  limits.max_memory_bytes = cap;
  bb_parquet_file* f = nullptr;
  char text[512] = "";
  const int status =
      bb_parquet_file_open_memory_limits(&f, Bytes(bytes), bytes.size(), &limits, text, sizeof text);
  *why = text;
  bb_parquet_file_close(f);
  return status;
}

TEST(ParquetHostileFooter, EachDistinctFilterOffsetCountsAgainstMaxMemoryBytes) {
  // 200 valid filters, each row group at its own, against all at the first.
  const std::string one = bbtest::HeaderFor(32) + std::string(32, '\0');
  std::string body;
  std::vector<ChunkSpec> own, first;
  for (int g = 0; g < 200; ++g) {
    own.push_back(At(static_cast<std::int64_t>(4 + body.size())));
    first.push_back(At(4));
    body += one;
  }
  const std::string distinct = FileWith(body, own);
  const std::string shared = FileWith(body, first);
  // The smallest cap the shared file opens within.
  std::string why;
  std::uint64_t low = 1, high = 1 << 20;
  ASSERT_EQ(OpenCapped(shared, high, &why), BB_OK) << why;
  while (low < high) {
    const std::uint64_t mid = low + (high - low) / 2;
    if (OpenCapped(shared, mid, &why) == BB_OK) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  // The distinct offsets' parses are held at once: refused at that cap.
  EXPECT_EQ(OpenCapped(distinct, high, &why), BB_ERR_PARQUET_LIMIT);
  EXPECT_TRUE(Has(why, "the BloomFilterHeaders of its")) << why;
  EXPECT_TRUE(Has(why, "filter offsets would take more than max_memory_bytes")) << why;
  EXPECT_EQ(OpenCapped(distinct, high + 200 * 256, &why), BB_OK) << why;
}

TEST(ParquetHostileFooter, TheCppOpensTakeLimitsAndThrowTheLimitError) {
  const std::string metadata = RowGroupsFooter(11);
  const std::string bytes = bbtest::ParquetBytes("", metadata);
  const std::string path = WriteTemp(bytes);
  bb_parquet_limits limits{};
  limits.struct_size = sizeof limits;
  limits.max_container_elements = 11;
  EXPECT_EQ(blockbloom::ParquetFile::open(path, limits).num_row_groups(), 11u);
  EXPECT_EQ(blockbloom::ParquetFile::from_memory(bytes.data(), bytes.size(), limits)
                .num_row_groups(),
            11u);
  EXPECT_EQ(blockbloom::ParquetFile::from_footer(metadata.data(), metadata.size(), limits)
                .num_row_groups(),
            11u);
  limits.max_container_elements = 10;
  for (int way = 0; way < 3; ++way) {
    try {
      if (way == 0) blockbloom::ParquetFile::open(path, limits);
      if (way == 1) blockbloom::ParquetFile::from_memory(bytes.data(), bytes.size(), limits);
      if (way == 2) blockbloom::ParquetFile::from_footer(metadata.data(), metadata.size(), limits);
      ADD_FAILURE() << "opened past the limit, way " << way;
    } catch (const blockbloom::Error& e) {
      EXPECT_EQ(e.status(), BB_ERR_PARQUET_LIMIT);
      EXPECT_TRUE(Has(e.what(), "max_container_elements 10")) << e.what();
    }
  }
  ::unlink(path.c_str());
}

TEST(ParquetHostileFooter, LimitsStructSizeZeroMembersAndNull) {
  const std::string metadata = RowGroupsFooter(3);
  bb_parquet_limits limits{};
  limits.struct_size = sizeof(size_t) - 1;
  for (const Opened& o : OpenAllWays(metadata, &limits)) {
    EXPECT_EQ(o.status, BB_ERR_BUFFER_TOO_SMALL) << o.why;
  }
  // An older caller's struct ends before a member: that member's default.
  limits.struct_size = sizeof(size_t);
  limits.max_container_elements = 1;  // beyond struct_size: not read
  for (const Opened& o : OpenAllWays(metadata, &limits)) EXPECT_EQ(o.status, BB_OK) << o.why;
  limits.struct_size = sizeof limits;
  limits.max_container_elements = 0;  // 0: the default
  limits.max_memory_bytes = 0;
  for (const Opened& o : OpenAllWays(metadata, &limits)) EXPECT_EQ(o.status, BB_OK) << o.why;
  for (const Opened& o : OpenAllWays(metadata, nullptr)) EXPECT_EQ(o.status, BB_OK) << o.why;
}

}  // namespace
