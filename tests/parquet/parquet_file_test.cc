// SPDX-License-Identifier: Apache-2.0
// The Parquet file layer (blockbloom/parquet_file.h, parquet_file.hpp)
// through the public API only: files made here (tests/support/parquet_test_file.h)
// round-trip every field; each filter has its own status; every error code
// of every function; hostile footers are errors, never crashes; files by
// path (and beyond 4 GiB), in memory and as a footer alone agree; the hash
// helper equals libxxhash's XXH64 for every physical type; the two real
// files of ../shared/testdata (skipped with a message when absent).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstddef>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "blockbloom/hashing.h"
#include "blockbloom/parquet_file.h"
#include "blockbloom/parquet_file.hpp"
#include "blockbloom/parquet_value.h"
#include "blockbloom/parquet_format.h"
#include "support/parquet_test_file.h"

namespace {

using bbtest::ChunkSpec;
using bbtest::ColumnSpec;
using bbtest::LogicalSpec;

const std::uint8_t* Bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

// A handle that closes itself; open*() return the status and keep the reason.
struct File {
  bb_parquet_file* f = nullptr;
  std::string why;
  ~File() { bb_parquet_file_close(f); }

  int OpenMemory(const std::string& bytes) {
    char buf[512] = "untouched";
    const int status = bb_parquet_file_open_memory(&f, Bytes(bytes), bytes.size(), buf, sizeof buf);
    why = buf;
    return status;
  }
  int OpenFooter(const std::string& metadata) {
    char buf[512] = "untouched";
    const int status =
        bb_parquet_file_open_footer(&f, Bytes(metadata), metadata.size(), buf, sizeof buf);
    why = buf;
    return status;
  }
  int OpenPath(const std::string& path) {
    char buf[512] = "untouched";
    const int status = bb_parquet_file_open_path(&f, path.c_str(), buf, sizeof buf);
    why = buf;
    return status;
  }
  bb_parquet_column Column(size_t c) const {
    bb_parquet_column info{};
    info.struct_size = sizeof info;
    EXPECT_EQ(bb_parquet_file_column(f, c, &info), BB_OK);
    return info;
  }
  bb_parquet_chunk Chunk(size_t g, size_t c) const {
    bb_parquet_chunk info{};
    info.struct_size = sizeof info;
    EXPECT_EQ(bb_parquet_file_chunk(f, g, c, &info), BB_OK);
    return info;
  }
};

std::string ColumnPath(const bb_parquet_column& c) { return std::string(c.path, c.path_len); }

// A temporary folder for files by path, removed at the end.
class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/bb-parquet-file-XXXXXX";
    const char* made = ::mkdtemp(pattern);
    EXPECT_NE(made, nullptr);
    path_ = made != nullptr ? made : "/tmp";
  }
  ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  std::string Write(const std::string& name, const std::string& bytes) const {
    const std::string p = path_ + "/" + name;
    std::ofstream out(p, std::ios::binary);
    out << bytes;
    return p;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A Parquet-layout filter of num_bytes holding the hashes, serialized with
// its header (bb_parquet_filter_write_any_size: the file layer reads any size
// a header can hold, not only the reader-safe powers of two).
std::string SerializedFilter(size_t num_bytes, const std::vector<uint64_t>& hashes) {
  bb_filter f;
  EXPECT_EQ(bb_filter_init(&f, num_bytes), BB_OK);
  EXPECT_EQ(bb_insert_batch(&f, hashes.data(), hashes.size()), BB_OK);
  std::string out(BB_PARQUET_HEADER_MAX_BYTES + num_bytes, '\0');
  size_t written = 0;
  EXPECT_EQ(bb_parquet_filter_write_any_size(&f, reinterpret_cast<uint8_t*>(&out[0]), out.size(),
                                            &written),
            BB_OK);
  out.resize(written);
  bb_filter_release(&f);
  return out;
}

// A chunk whose filter is at offset (bloom_filter_length absent).
ChunkSpec FilterAt(int64_t offset) {
  ChunkSpec c;
  c.bloom_offset = offset;
  return c;
}

ColumnSpec Col(std::vector<std::string> path, int type) {
  ColumnSpec c;
  c.path = std::move(path);
  c.type = type;
  return c;
}

// The FileMetaData of one row group of an INT32 column per case (each with
// a name and a chunk), named and written as the case says.
template <typename Cases>
std::string OneColumnPerCase(const Cases& cases) {
  std::vector<ColumnSpec> columns;
  std::vector<ChunkSpec> chunks;
  for (const auto& c : cases) {
    columns.push_back(Col({c.name}, BB_PARQUET_INT32));
    chunks.push_back(c.chunk);
  }
  return bbtest::FileMetaData(columns, {chunks});
}

// ------------------------------------------------------- a file made here

// Columns of every kind; filters on some chunks of two row groups.
struct SampleFile {
  std::vector<ColumnSpec> columns;
  std::string body;                    // from file offset 4
  std::vector<std::vector<ChunkSpec>> groups;
  std::string metadata;
  std::string bytes;
  // Per row group: the filters' serialized bytes by column (empty: none).
  std::vector<std::vector<std::string>> filters;
  std::vector<std::vector<uint64_t>> offsets;

  SampleFile() {
    LogicalSpec int8{10, 8, true};
    LogicalSpec u64{10, 64, false};
    LogicalSpec ts{8};
    ts.unit = 2;
    ts.utc = true;
    LogicalSpec time{7};
    time.unit = 1;
    LogicalSpec dec{5};
    dec.scale = 3;
    dec.precision = 18;
    columns = {Col({"id"}, BB_PARQUET_INT32),     Col({"big"}, BB_PARQUET_INT64),
               Col({"ts"}, BB_PARQUET_INT64),     Col({"t"}, BB_PARQUET_INT32),
               Col({"name"}, BB_PARQUET_BYTE_ARRAY), Col({"uuid"}, BB_PARQUET_FIXED_LEN_BYTE_ARRAY),
               Col({"dec"}, BB_PARQUET_FIXED_LEN_BYTE_ARRAY), Col({"dec2"}, BB_PARQUET_INT64),
               Col({"old"}, BB_PARQUET_INT32),    Col({"f"}, BB_PARQUET_FLOAT),
               Col({"d"}, BB_PARQUET_DOUBLE),     Col({"legacy"}, BB_PARQUET_INT96),
               Col({"flag"}, BB_PARQUET_BOOLEAN), Col({"nested", "a", "b"}, BB_PARQUET_INT32),
               Col({"nested", "c"}, BB_PARQUET_BYTE_ARRAY)};
    columns[0].logical = int8;
    columns[1].logical = u64;
    columns[2].logical = ts;
    columns[3].logical = time;
    columns[4].logical.id = 1;  // STRING
    columns[4].converted = 0;   // UTF8
    columns[5].type_length = 16;
    columns[5].logical.id = 14;  // UUID
    columns[6].type_length = 5;
    columns[6].converted = 5;  // DECIMAL, old style
    columns[6].scale = 2;
    columns[6].precision = 10;
    columns[7].logical = dec;
    columns[8].converted = 16;  // INT_16
    columns[13].logical.id = 6;   // DATE
    columns[14].logical.id = 12;  // JSON
    for (int g = 0; g < 2; ++g) {
      groups.emplace_back(columns.size());
      filters.emplace_back(columns.size());
      offsets.emplace_back(columns.size(), 0);
      for (size_t c = 0; c < columns.size(); ++c) {
        groups[g][c].num_values = 100 + 10 * g + static_cast<int64_t>(c);
        if (c % 3 == 2) continue;  // no filter
        const size_t num_bytes = 32 * (1 + c + 4 * g);
        const std::string filter =
            SerializedFilter(num_bytes, {bb_parquet_hash_int32(static_cast<int32_t>(c)),
                                         bb_parquet_hash_int64(1000 + g)});
        body += std::string(c % 4, 'p');  // bitsets at assorted alignments
        offsets[g][c] = 4 + body.size();
        body += filter;
        filters[g][c] = filter;
        groups[g][c].bloom_offset = static_cast<int64_t>(offsets[g][c]);
        // Row group 0 says bloom_filter_length, row group 1 does not (older writers).
        if (g == 0) groups[g][c].bloom_length = static_cast<int32_t>(filter.size());
      }
    }
    metadata = bbtest::FileMetaData(columns, groups);
    bytes = bbtest::ParquetBytes(body, metadata);
  }
};

TEST(ParquetFile, EveryColumnFieldRoundTrips) {
  const SampleFile s;
  File file;
  ASSERT_EQ(file.OpenMemory(s.bytes), BB_OK) << file.why;
  EXPECT_EQ(file.why, "untouched");  // written only on error
  size_t n = 0;
  ASSERT_EQ(bb_parquet_file_num_columns(file.f, &n), BB_OK);
  EXPECT_EQ(n, s.columns.size());
  ASSERT_EQ(bb_parquet_file_num_row_groups(file.f, &n), BB_OK);
  EXPECT_EQ(n, 2u);
  const char* paths[] = {"id", "big", "ts", "t", "name", "uuid", "dec", "dec2", "old",
                         "f", "d", "legacy", "flag", "nested.a.b", "nested.c"};
  for (size_t c = 0; c < s.columns.size(); ++c) {
    const bb_parquet_column col = file.Column(c);
    EXPECT_EQ(ColumnPath(col), paths[c]);
    EXPECT_EQ(col.path[col.path_len], '\0');
    EXPECT_EQ(col.physical_type, s.columns[c].type) << paths[c];
    size_t found = 99;
    EXPECT_EQ(bb_parquet_file_find_column(file.f, paths[c], std::strlen(paths[c]), &found), BB_OK);
    EXPECT_EQ(found, c);
  }
  bb_parquet_column c = file.Column(0);
  EXPECT_EQ((std::vector<int>{c.logical_type, c.bit_width, c.is_signed, c.converted_type}),
            (std::vector<int>{BB_PARQUET_LOGICAL_INTEGER, 8, 1, BB_PARQUET_CONVERTED_NONE}));
  c = file.Column(1);
  EXPECT_EQ((std::vector<int>{c.logical_type, c.bit_width, c.is_signed}),
            (std::vector<int>{BB_PARQUET_LOGICAL_INTEGER, 64, 0}));
  c = file.Column(2);
  EXPECT_EQ((std::vector<int>{c.logical_type, c.time_unit, c.is_adjusted_to_utc}),
            (std::vector<int>{BB_PARQUET_LOGICAL_TIMESTAMP, BB_PARQUET_UNIT_MICROS, 1}));
  c = file.Column(3);
  EXPECT_EQ((std::vector<int>{c.logical_type, c.time_unit, c.is_adjusted_to_utc}),
            (std::vector<int>{BB_PARQUET_LOGICAL_TIME, BB_PARQUET_UNIT_MILLIS, 0}));
  c = file.Column(4);
  EXPECT_EQ((std::vector<int>{c.logical_type, c.converted_type, c.type_length}),
            (std::vector<int>{BB_PARQUET_LOGICAL_STRING, 0, 0}));
  c = file.Column(5);
  EXPECT_EQ((std::vector<int>{c.logical_type, c.type_length}),
            (std::vector<int>{BB_PARQUET_LOGICAL_UUID, 16}));
  c = file.Column(6);  // DECIMAL the old way: converted type + the element's scale, precision
  EXPECT_EQ((std::vector<int>{c.logical_type, c.converted_type, c.type_length, c.scale,
                              c.precision}),
            (std::vector<int>{BB_PARQUET_LOGICAL_NONE, 5, 5, 2, 10}));
  c = file.Column(7);
  EXPECT_EQ((std::vector<int>{c.logical_type, c.scale, c.precision}),
            (std::vector<int>{BB_PARQUET_LOGICAL_DECIMAL, 3, 18}));
  c = file.Column(8);
  EXPECT_EQ((std::vector<int>{c.logical_type, c.converted_type}),
            (std::vector<int>{BB_PARQUET_LOGICAL_NONE, 16}));
  EXPECT_EQ(file.Column(13).logical_type, BB_PARQUET_LOGICAL_DATE);
  EXPECT_EQ(file.Column(14).logical_type, BB_PARQUET_LOGICAL_JSON);
  EXPECT_EQ(file.Column(12).physical_type, BB_PARQUET_BOOLEAN);
}

TEST(ParquetFile, EveryChunkFieldAndFilterRoundTripsFromMemory) {
  const SampleFile s;
  File file;
  ASSERT_EQ(file.OpenMemory(s.bytes), BB_OK) << file.why;
  for (size_t g = 0; g < 2; ++g) {
    for (size_t c = 0; c < s.columns.size(); ++c) {
      SCOPED_TRACE("row group " + std::to_string(g) + " column " + std::to_string(c));
      const bb_parquet_chunk k = file.Chunk(g, c);
      EXPECT_EQ(k.struct_size, sizeof k);
      EXPECT_EQ(k.num_values, s.groups[g][c].num_values);
      bb_filter f;
      std::memset(&f, 0x5a, sizeof f);
      if (s.filters[g][c].empty()) {
        EXPECT_EQ(k.has_filter, 0);
        EXPECT_EQ(k.filter_status, BB_ERR_PARQUET_NO_FILTER);
        EXPECT_NE(k.filter_error, nullptr);
        EXPECT_EQ(bb_parquet_file_load_filter(file.f, g, c, &f), BB_ERR_PARQUET_NO_FILTER);
        EXPECT_EQ(f.data, nullptr);  // an init: zeroed on error
        EXPECT_EQ(bb_parquet_file_view_filter(file.f, g, c, &f), BB_ERR_PARQUET_NO_FILTER);
        continue;
      }
      const std::string& serialized = s.filters[g][c];
      const size_t header = bbtest::HeaderFor(32 * (1 + c + 4 * g)).size();
      EXPECT_EQ(k.has_filter, 1);
      EXPECT_EQ(k.filter_status, BB_OK);
      EXPECT_EQ(k.filter_error, nullptr);
      EXPECT_EQ(k.filter_checked, 1);
      EXPECT_EQ(k.filter_offset, static_cast<int64_t>(s.offsets[g][c]));
      // Given in row group 0; derived from the header in row group 1.
      EXPECT_EQ(k.filter_length, static_cast<int64_t>(serialized.size()));
      EXPECT_EQ(k.bitset_offset, s.offsets[g][c] + header);
      EXPECT_EQ(k.bitset_bytes, serialized.size() - header);
      ASSERT_EQ(bb_parquet_file_load_filter(file.f, g, c, &f), BB_OK);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(f.data) % BB_ALLOC_ALIGNMENT, 0u);
      EXPECT_EQ(f.flags, static_cast<uint32_t>(BB_FILTER_OWNED));
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(f.data), f.num_bytes),
                serialized.substr(header));
      EXPECT_EQ(bb_find(&f, bb_parquet_hash_int32(static_cast<int32_t>(c))), 1);
      EXPECT_EQ(bb_find(&f, bb_parquet_hash_int64(1000 + static_cast<int64_t>(g))), 1);
      bb_filter view;
      ASSERT_EQ(bb_parquet_file_view_filter(file.f, g, c, &view), BB_OK);
      EXPECT_EQ(view.data, Bytes(s.bytes) + k.bitset_offset);  // in place, not a copy
      EXPECT_EQ(view.num_bytes, f.num_bytes);
      EXPECT_EQ(view.flags, static_cast<uint32_t>(BB_FILTER_READ_ONLY));
      EXPECT_EQ(bb_insert(&view, 1), BB_ERR_READ_ONLY);
      bb_filter_release(&f);
    }
  }
}

TEST(ParquetFile, PathOpenAgreesWithMemoryAndLoadsButDoesNotView) {
  const SampleFile s;
  const TempDir dir;
  File by_path;
  File in_memory;
  ASSERT_EQ(by_path.OpenPath(dir.Write("s.parquet", s.bytes)), BB_OK) << by_path.why;
  ASSERT_EQ(in_memory.OpenMemory(s.bytes), BB_OK);
  for (size_t g = 0; g < 2; ++g) {
    for (size_t c = 0; c < s.columns.size(); ++c) {
      const bb_parquet_chunk a = by_path.Chunk(g, c);
      const bb_parquet_chunk b = in_memory.Chunk(g, c);
      EXPECT_EQ(std::vector<int64_t>({a.has_filter, a.filter_status, a.filter_offset,
                                      a.filter_length, a.filter_checked,
                                      static_cast<int64_t>(a.bitset_offset),
                                      static_cast<int64_t>(a.bitset_bytes), a.num_values}),
                std::vector<int64_t>({b.has_filter, b.filter_status, b.filter_offset,
                                      b.filter_length, b.filter_checked,
                                      static_cast<int64_t>(b.bitset_offset),
                                      static_cast<int64_t>(b.bitset_bytes), b.num_values}));
      if (a.filter_status != BB_OK) continue;
      bb_filter fa, fb;
      ASSERT_EQ(bb_parquet_file_load_filter(by_path.f, g, c, &fa), BB_OK);
      ASSERT_EQ(bb_parquet_file_load_filter(in_memory.f, g, c, &fb), BB_OK);
      EXPECT_EQ(std::memcmp(fa.data, fb.data, fb.num_bytes), 0);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(fa.data) % BB_ALLOC_ALIGNMENT, 0u);
      bb_filter view;
      EXPECT_EQ(bb_parquet_file_view_filter(by_path.f, g, c, &view), BB_ERR_PARQUET_UNSUPPORTED);
      EXPECT_EQ(view.data, nullptr);
      bb_filter_release(&fa);
      bb_filter_release(&fb);
    }
  }
  EXPECT_EQ(ColumnPath(by_path.Column(13)), "nested.a.b");
}

TEST(ParquetFile, FooterAloneDescribesTheFiltersButCannotReadThem) {
  const SampleFile s;
  File file;
  ASSERT_EQ(file.OpenFooter(s.metadata), BB_OK) << file.why;
  for (size_t g = 0; g < 2; ++g) {
    for (size_t c = 0; c < s.columns.size(); ++c) {
      const bb_parquet_chunk k = file.Chunk(g, c);
      bb_filter f;
      if (s.filters[g][c].empty()) {
        EXPECT_EQ(k.filter_status, BB_ERR_PARQUET_NO_FILTER);
        EXPECT_EQ(bb_parquet_file_load_filter(file.f, g, c, &f), BB_ERR_PARQUET_NO_FILTER);
        continue;
      }
      EXPECT_EQ(k.filter_status, BB_OK);
      EXPECT_EQ(k.filter_checked, 0);
      EXPECT_EQ(k.filter_offset, static_cast<int64_t>(s.offsets[g][c]));
      // Without the header, only the footer's own length is known.
      EXPECT_EQ(k.filter_length, g == 0 ? static_cast<int64_t>(s.filters[g][c].size()) : 0);
      EXPECT_EQ(k.bitset_offset, 0u);
      EXPECT_EQ(k.bitset_bytes, 0u);
      EXPECT_EQ(bb_parquet_file_load_filter(file.f, g, c, &f), BB_ERR_PARQUET_UNSUPPORTED);
      EXPECT_EQ(f.data, nullptr);
      EXPECT_EQ(bb_parquet_file_view_filter(file.f, g, c, &f), BB_ERR_PARQUET_UNSUPPORTED);
    }
  }
  EXPECT_EQ(ColumnPath(file.Column(14)), "nested.c");
}

// ------------------------------------------------- one bad filter at a time

TEST(ParquetFile, EachBadFilterHasItsOwnStatusAndTheOthersStayUsable) {
  const std::string good = SerializedFilter(64, {bb_parquet_hash_int32(7)});  // 16 + 64 bytes
  std::string body = good;                                                    // offset 4
  const int64_t junk_offset = 4 + static_cast<int64_t>(body.size());
  body += std::string(40, '\xff');  // no header
  const int64_t cut_offset = 4 + static_cast<int64_t>(body.size());
  body += good.substr(0, 40);  // header + part of the bitset, then the file ends
  const int64_t footer_start = 4 + static_cast<int64_t>(body.size());  // the FileMetaData
  struct Case {
    const char* name;
    ChunkSpec chunk;
    int status;
    const char* reason;
  };
  auto chunk = [](int64_t offset, int32_t length, bool write_length = false) {
    ChunkSpec c;
    c.bloom_offset = offset;
    c.bloom_length = length;
    c.write_length = write_length;
    return c;
  };
  std::vector<Case> cases = {
      {"good", chunk(4, static_cast<int32_t>(good.size())), BB_OK, nullptr},
      {"junk", chunk(junk_offset, -1), BB_ERR_HEADER_MALFORMED, "BloomFilterHeader at offset"},
      {"past_end", chunk(int64_t{1} << 40, -1), BB_ERR_PARQUET_FOOTER_MALFORMED,
       "bloom_filter_offset 1099511627776 is outside the file"},
      {"negative", chunk(-5, -1), BB_ERR_PARQUET_FOOTER_MALFORMED,
       "bloom_filter_offset -5 is negative"},
      {"length_0", chunk(4, 0, true), BB_ERR_PARQUET_FOOTER_MALFORMED,
       "bloom_filter_length 0 is invalid"},
      {"length_negative", chunk(4, -7, true), BB_ERR_PARQUET_FOOTER_MALFORMED,
       "bloom_filter_length -7 is invalid"},
      {"length_past_end", chunk(4, 1 << 30), BB_ERR_PARQUET_FOOTER_MALFORMED,
       "runs past the end of the file"},
      {"length_short", chunk(4, 40), BB_ERR_PARQUET_FOOTER_MALFORMED,
       "numBytes 64 (+ 16 header bytes = 80) disagrees with bloom_filter_length 40"},
      {"length_inside_header", chunk(4, 5), BB_ERR_PARQUET_FOOTER_MALFORMED,
       "disagrees with bloom_filter_length 5"},
      {"cut_by_footer", chunk(cut_offset, -1), BB_ERR_BITSET_TRUNCATED, "bitset truncated"},
      {"other_file", chunk(4, -1), BB_ERR_PARQUET_UNSUPPORTED, "file_path \"other.parquet\""},
      {"good_again", chunk(4, -1), BB_OK, nullptr},
      {"in_footer", chunk(footer_start, -1), BB_ERR_PARQUET_FOOTER_MALFORMED,
       "is inside the footer (which starts at"},
      {"length_into_footer", chunk(4, static_cast<int32_t>(footer_start)),
       BB_ERR_PARQUET_FOOTER_MALFORMED, "runs into the footer"},
  };
  cases[3].chunk.write_offset = true;
  cases[10].chunk.file_path = "other.parquet";
  const std::string metadata = OneColumnPerCase(cases);
  const std::string bytes = bbtest::ParquetBytes(body, metadata);
  const TempDir dir;
  const std::string path = dir.Write("bad.parquet", bytes);
  for (int source = 0; source < 2; ++source) {
    File file;
    ASSERT_EQ(source == 0 ? file.OpenMemory(bytes) : file.OpenPath(path), BB_OK) << file.why;
    for (size_t i = 0; i < cases.size(); ++i) {
      SCOPED_TRACE(std::string(cases[i].name) + (source == 0 ? " in memory" : " by path"));
      const bb_parquet_chunk k = file.Chunk(0, i);
      EXPECT_EQ(k.has_filter, 1);
      EXPECT_EQ(k.filter_status, cases[i].status);
      bb_filter f;
      const int loaded = bb_parquet_file_load_filter(file.f, 0, i, &f);
      EXPECT_EQ(loaded, cases[i].status);
      if (cases[i].status == BB_OK) {
        EXPECT_EQ(k.filter_error, nullptr);
        EXPECT_EQ(k.bitset_bytes, 64u);
        EXPECT_EQ(bb_find(&f, bb_parquet_hash_int32(7)), 1);
        bb_filter_release(&f);
      } else {
        EXPECT_EQ(f.data, nullptr);
        ASSERT_NE(k.filter_error, nullptr);
        EXPECT_NE(std::string(k.filter_error).find(cases[i].reason), std::string::npos)
            << k.filter_error;
      }
    }
  }
  // The footer alone knows only what the footer says.
  File footer_only;
  ASSERT_EQ(footer_only.OpenFooter(metadata), BB_OK);
  const int footer_status[] = {BB_OK,
                               BB_OK,
                               BB_OK,
                               BB_ERR_PARQUET_FOOTER_MALFORMED,
                               BB_ERR_PARQUET_FOOTER_MALFORMED,
                               BB_ERR_PARQUET_FOOTER_MALFORMED,
                               BB_OK,
                               BB_OK,
                               BB_OK,
                               BB_OK,
                               BB_ERR_PARQUET_UNSUPPORTED,
                               BB_OK,
                               BB_OK,
                               BB_OK};
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(footer_only.Chunk(0, i).filter_status, footer_status[i]) << cases[i].name;
  }
}

// The BloomFilterHeader's numBytes and ColumnMetaData.bloom_filter_length
// both say how long a filter is. Where they disagree neither can be
// trusted: a 512-byte bitset probed over the 256 bytes its header claims
// answers "absent" for the values whose blocks lie in its second half. Such
// a filter is malformed (no usable filter, never loaded), in both
// directions, by path and in memory; a chunk whose lengths agree is usable.
TEST(ParquetFile, AHeaderThatDisagreesWithBloomFilterLengthIsMalformed) {
  std::vector<uint64_t> hashes;
  for (int32_t v = 0; v < 100; ++v) hashes.push_back(bb_parquet_hash_int32(v));
  const std::string full = SerializedFilter(512, hashes);  // header(512) + bitset
  const std::string header256 = bbtest::HeaderFor(256), header512 = bbtest::HeaderFor(512);
  ASSERT_EQ(header256.size(), 16u);
  ASSERT_EQ(header512.size(), 16u);
  const std::string bitset = full.substr(header512.size());
  // The hazard is real: over the first 256 bytes some held values are absent.
  bb_filter half;
  ASSERT_EQ(bb_filter_init_view_readonly(&half, Bytes(bitset), 256), BB_OK);
  size_t absent = 0;
  for (uint64_t h : hashes) absent += bb_find(&half, h) == 0 ? 1 : 0;
  ASSERT_GT(absent, 0u);

  std::string body = header256 + bitset;  // offset 4: the header says less than was written
  const int64_t more_at = 4 + static_cast<int64_t>(body.size());
  body += full;  // the header says more than bloom_filter_length
  const int64_t agree_at = 4 + static_cast<int64_t>(body.size());
  body += full;
  std::vector<ChunkSpec> chunks(3);
  chunks[0].bloom_offset = 4;
  chunks[0].bloom_length = 16 + 512;
  chunks[1].bloom_offset = more_at;
  chunks[1].bloom_length = 16 + 256;
  chunks[2].bloom_offset = agree_at;
  chunks[2].bloom_length = 16 + 512;
  const std::vector<ColumnSpec> columns = {Col({"says_less"}, BB_PARQUET_INT32),
                                           Col({"says_more"}, BB_PARQUET_INT32),
                                           Col({"agrees"}, BB_PARQUET_INT32)};
  const std::string bytes = bbtest::ParquetBytes(body, bbtest::FileMetaData(columns, {chunks}));
  const TempDir dir;
  const std::string path = dir.Write("disagree.parquet", bytes);
  const char* reasons[] = {"numBytes 256 (+ 16 header bytes = 272) disagrees with "
                           "bloom_filter_length 528",
                           "numBytes 512 (+ 16 header bytes = 528) disagrees with "
                           "bloom_filter_length 272"};
  for (int source = 0; source < 2; ++source) {
    SCOPED_TRACE(source == 0 ? "in memory" : "by path");
    File file;
    ASSERT_EQ(source == 0 ? file.OpenMemory(bytes) : file.OpenPath(path), BB_OK) << file.why;
    for (size_t c = 0; c < 2; ++c) {
      const bb_parquet_chunk k = file.Chunk(0, c);
      EXPECT_EQ(k.has_filter, 1);
      EXPECT_EQ(k.filter_status, BB_ERR_PARQUET_FOOTER_MALFORMED) << c;
      ASSERT_NE(k.filter_error, nullptr);
      EXPECT_NE(std::string(k.filter_error).find(reasons[c]), std::string::npos) << k.filter_error;
      EXPECT_EQ(k.bitset_bytes, 0u);
      bb_filter f;
      EXPECT_EQ(bb_parquet_file_load_filter(file.f, 0, c, &f), BB_ERR_PARQUET_FOOTER_MALFORMED);
      EXPECT_EQ(f.data, nullptr);
      if (source == 0) {
        EXPECT_EQ(bb_parquet_file_view_filter(file.f, 0, c, &f), BB_ERR_PARQUET_FOOTER_MALFORMED);
      }
    }
    const bb_parquet_chunk ok = file.Chunk(0, 2);
    EXPECT_EQ(ok.filter_status, BB_OK);
    EXPECT_EQ(ok.bitset_bytes, 512u);
    bb_filter f;
    ASSERT_EQ(bb_parquet_file_load_filter(file.f, 0, 2, &f), BB_OK);
    for (uint64_t h : hashes) EXPECT_EQ(bb_find(&f, h), 1);
    bb_filter_release(&f);
  }
}

// A known field of another wire type is skipped, as Thrift's readers skip
// it, and reads as absent: a list in bloom_filter_length (field 15) leaves
// the chunk with no length (its filter is read by its header's numBytes), a
// list in bloom_filter_offset (field 14) with no filter at all. The file
// opens and lists either way.
TEST(ParquetFile, FilterFieldsOfAnotherWireTypeAreSkipped) {
  const std::string good = SerializedFilter(64, {bb_parquet_hash_int32(7)});  // 16 + 64 bytes
  const auto chunk = [](int offset_type, int length_type) {
    ChunkSpec c;
    c.bloom_offset = 4;
    c.bloom_length = 80;
    c.offset_type = offset_type;
    c.length_type = length_type;
    return c;
  };
  struct Case {
    const char* name;
    ChunkSpec chunk;
    bool has_filter;
  };
  const Case cases[] = {
      {"length_list", chunk(bbtest::kI64, bbtest::kList), true},
      {"length_text", chunk(bbtest::kI64, bbtest::kBinary), true},
      {"length_i64", chunk(bbtest::kI64, bbtest::kI64), true},
      {"offset_list", chunk(bbtest::kList, bbtest::kI32), false},
      {"both_list", chunk(bbtest::kList, bbtest::kList), false},
      {"offset_i32", chunk(bbtest::kI32, bbtest::kI32), false},
      {"as_written", chunk(bbtest::kI64, bbtest::kI32), true},
  };
  const std::string metadata = OneColumnPerCase(cases);
  const std::string bytes = bbtest::ParquetBytes(good, metadata);
  File file, footer;
  ASSERT_EQ(file.OpenMemory(bytes), BB_OK) << file.why;
  ASSERT_EQ(footer.OpenFooter(metadata), BB_OK) << footer.why;
  for (size_t i = 0; i < std::size(cases); ++i) {
    SCOPED_TRACE(cases[i].name);
    const bb_parquet_chunk k = file.Chunk(0, i);
    EXPECT_EQ(k.num_values, 100);  // the fields around them read as written
    EXPECT_EQ(k.has_filter, cases[i].has_filter ? 1 : 0);
    if (!cases[i].has_filter) {
      EXPECT_EQ(k.filter_status, BB_ERR_PARQUET_NO_FILTER);
      EXPECT_EQ(footer.Chunk(0, i).has_filter, 0);
      continue;
    }
    EXPECT_EQ(k.filter_status, BB_OK);
    EXPECT_EQ(k.filter_length, 80);  // as written, or the header's 16 + 64
    bb_filter f;
    ASSERT_EQ(bb_parquet_file_load_filter(file.f, 0, i, &f), BB_OK);
    EXPECT_EQ(bb_find(&f, bb_parquet_hash_int32(7)), 1);
    bb_filter_release(&f);
    // From the footer alone a skipped length is unknown (0).
    const bool length_kept = std::string(cases[i].name) == "as_written";
    EXPECT_EQ(footer.Chunk(0, i).filter_length, length_kept ? 80 : 0);
  }
}

TEST(ParquetFile, AHeaderLongerThanOneMiBIsRefusedAlikeByPathAndInMemory) {
  // A header with an unknown field 7, a 2 MiB string, before its real fields
  // (which the writer then gives long-form ids).
  bbtest::CompactWriter h;
  h.BeginStruct().Field(7, bbtest::kBinary).Binary(std::string(2 << 20, 'x'));
  h.Field(1, bbtest::kI32).I(32);
  for (int id = 2; id <= 4; ++id) {
    h.Field(id, bbtest::kStruct).BeginStruct().EmptyStruct(1).EndStruct();
  }
  h.EndStruct();
  const std::string bad = h.bytes() + std::string(32, '\0');
  // bb_parquet_header_read itself reads it (a buffer in memory has no limit).
  size_t header_bytes = 0, num_bytes = 0;
  ASSERT_EQ(bb_parquet_header_read(Bytes(bad), bad.size(), &header_bytes, &num_bytes), BB_OK);
  EXPECT_EQ(num_bytes, 32u);
  const std::string bytes = bbtest::ParquetBytes(
      bad, bbtest::FileMetaData({Col({"x"}, BB_PARQUET_INT32)}, {{FilterAt(4)}}));
  const TempDir dir;
  for (int source = 0; source < 2; ++source) {
    File file;
    ASSERT_EQ(source == 0 ? file.OpenMemory(bytes) : file.OpenPath(dir.Write("h.parquet", bytes)),
              BB_OK);
    const bb_parquet_chunk k = file.Chunk(0, 0);
    EXPECT_EQ(k.filter_status, BB_ERR_HEADER_MALFORMED);
    EXPECT_NE(std::string(k.filter_error).find("longer than 1048576 bytes"), std::string::npos)
        << k.filter_error;
  }
}

// ------------------------------------------------------- the file refused

TEST(ParquetFile, NotParquetBadMagicEncryptedAndFooterLengthAreRefused) {
  const SampleFile s;
  struct Case {
    std::string bytes;
    int status;
    const char* reason;
  };
  std::string bad_tail = s.bytes;
  bad_tail.back() = 'X';
  std::string bad_head = s.bytes;
  bad_head[0] = 'X';
  std::string encrypted = s.bytes;
  encrypted.replace(encrypted.size() - 4, 4, "PARE");
  std::string too_long = s.bytes;
  too_long.replace(too_long.size() - 8, 4,
                   bbtest::LittleEndian32(static_cast<uint32_t>(s.bytes.size())));
  std::string zero = s.bytes;
  zero.replace(zero.size() - 8, 4, bbtest::LittleEndian32(0));
  const std::vector<Case> cases = {
      {"", BB_ERR_PARQUET_NOT_PARQUET, "0 bytes is too short"},
      {"PAR1PAR1", BB_ERR_PARQUET_NOT_PARQUET, "too short"},
      {std::string("PAR1\x01\x00\x00\x00PAR2", 12), BB_ERR_PARQUET_NOT_PARQUET,
       "bad magic, the last 4"},
      {bad_tail, BB_ERR_PARQUET_NOT_PARQUET, "the last 4 bytes are not \"PAR1\""},
      {bad_head, BB_ERR_PARQUET_NOT_PARQUET, "the first 4 bytes are not \"PAR1\""},
      {encrypted, BB_ERR_PARQUET_NOT_PARQUET, "encrypted"},
      {too_long, BB_ERR_PARQUET_FOOTER_MALFORMED, "runs past the start of the file"},
      {zero, BB_ERR_PARQUET_FOOTER_MALFORMED, "footer length is 0"},
      {std::string("PAR1\x00\x01\x00\x00\x00PAR1", 13), BB_ERR_PARQUET_FOOTER_MALFORMED,
       "lacks required version"},
  };
  const TempDir dir;
  for (const Case& c : cases) {
    for (int source = 0; source < 2; ++source) {
      File file;
      bb_parquet_file* const untouched = reinterpret_cast<bb_parquet_file*>(std::uintptr_t{0x1234});
      file.f = untouched;
      const std::string path = dir.Write("c.parquet", c.bytes);
      const int status = source == 0 ? file.OpenMemory(c.bytes) : file.OpenPath(path);
      EXPECT_EQ(status, c.status) << c.reason;
      EXPECT_EQ(file.f, untouched);  // *file untouched on error
      file.f = nullptr;
      EXPECT_NE(file.why.find(c.reason), std::string::npos) << file.why;
      if (source == 1) {
        EXPECT_EQ(file.why.rfind(path + ": ", 0), 0u) << file.why;
      }
    }
  }
}

TEST(ParquetFile, EveryTruncationOfTheFooterIsMalformedNeverAReadPastIt) {
  const SampleFile s;
  for (size_t cut = 0; cut < s.metadata.size(); ++cut) {
    // An exactly sized heap copy: ASan (the sanitizer runs) sees any overread.
    const std::vector<uint8_t> footer(s.metadata.begin(), s.metadata.begin() + cut);
    bb_parquet_file* f = nullptr;
    char why[256];
    EXPECT_EQ(bb_parquet_file_open_footer(&f, footer.data(), footer.size(), why, sizeof why),
              BB_ERR_PARQUET_FOOTER_MALFORMED)
        << cut;
    EXPECT_EQ(std::string(why).rfind("corrupt footer: ", 0), 0u) << why;
    // The same inside a whole file, its footer length adjusted to the cut.
    File file;
    EXPECT_EQ(file.OpenMemory(bbtest::ParquetBytes(s.body, s.metadata.substr(0, cut))),
              BB_ERR_PARQUET_FOOTER_MALFORMED)
        << cut;
    EXPECT_EQ(file.why.rfind("corrupt footer: ", 0), 0u) << file.why;
  }
}

TEST(ParquetFile, TheErrorBufferIsFilledTruncatedOrLeftAlone) {
  char small[8];
  std::memset(small, 'z', sizeof small);
  bb_parquet_file* f = nullptr;
  EXPECT_EQ(bb_parquet_file_open_memory(&f, Bytes("nope"), 4, small, sizeof small),
            BB_ERR_PARQUET_NOT_PARQUET);
  EXPECT_STREQ(small, "not a P");  // 7 bytes and the NUL
  char one[1] = {'z'};
  EXPECT_EQ(bb_parquet_file_open_memory(&f, Bytes("nope"), 4, one, 1), BB_ERR_PARQUET_NOT_PARQUET);
  EXPECT_EQ(one[0], '\0');
  char none[1] = {'z'};
  EXPECT_EQ(bb_parquet_file_open_memory(&f, Bytes("nope"), 4, none, 0), BB_ERR_PARQUET_NOT_PARQUET);
  EXPECT_EQ(none[0], 'z');
  EXPECT_EQ(bb_parquet_file_open_memory(&f, Bytes("nope"), 4, nullptr, 100),
            BB_ERR_PARQUET_NOT_PARQUET);
  EXPECT_EQ(f, nullptr);
}

TEST(ParquetFile, NullArgumentsAreRefused) {
  const SampleFile s;
  bb_parquet_file* f = nullptr;
  EXPECT_EQ(bb_parquet_file_open_path(nullptr, "x", nullptr, 0), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_open_path(&f, nullptr, nullptr, 0), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_open_memory(nullptr, Bytes(s.bytes), 1, nullptr, 0),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_open_memory(&f, nullptr, 1, nullptr, 0), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_open_memory(&f, nullptr, 0, nullptr, 0), BB_ERR_PARQUET_NOT_PARQUET);
  EXPECT_EQ(bb_parquet_file_open_footer(nullptr, Bytes(s.metadata), 1, nullptr, 0),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_open_footer(&f, nullptr, 1, nullptr, 0), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_open_footer(&f, nullptr, 0, nullptr, 0),
            BB_ERR_PARQUET_FOOTER_MALFORMED);
  EXPECT_EQ(f, nullptr);
  bb_parquet_file_close(nullptr);  // harmless

  File file;
  ASSERT_EQ(file.OpenMemory(s.bytes), BB_OK);
  size_t n = 0;
  bb_parquet_column col{};
  col.struct_size = sizeof col;
  bb_parquet_chunk chunk{};
  chunk.struct_size = sizeof chunk;
  bb_filter filter;
  EXPECT_EQ(bb_parquet_file_num_row_groups(nullptr, &n), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_num_row_groups(file.f, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_num_columns(nullptr, &n), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_num_columns(file.f, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_find_column(nullptr, "id", 2, &n), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_find_column(file.f, nullptr, 2, &n), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_find_column(file.f, "id", 2, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_column(nullptr, 0, &col), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_column(file.f, 0, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_chunk(nullptr, 0, 0, &chunk), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_chunk(file.f, 0, 0, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_load_filter(nullptr, 0, 0, &filter), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_load_filter(file.f, 0, 0, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_view_filter(nullptr, 0, 0, &filter), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_view_filter(file.f, 0, 0, nullptr), BB_ERR_NULL_POINTER);
}

TEST(ParquetFile, IndicesPastTheFileAndUnknownPathsAreNoSuchChunk) {
  const SampleFile s;
  File file;
  ASSERT_EQ(file.OpenMemory(s.bytes), BB_OK);
  const size_t columns = s.columns.size();
  bb_parquet_column col;
  std::memset(&col, 0x77, sizeof col);
  col.struct_size = sizeof col;
  const bb_parquet_column before = col;
  EXPECT_EQ(bb_parquet_file_column(file.f, columns, &col), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(bb_parquet_file_column(file.f, SIZE_MAX, &col), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(std::memcmp(&col, &before, sizeof col), 0);  // untouched
  bb_parquet_chunk chunk{};
  chunk.struct_size = sizeof chunk;
  bb_filter f;
  for (auto [g, c] : {std::pair<size_t, size_t>{2, 0}, {0, columns}, {SIZE_MAX, 0}, {0, SIZE_MAX}}) {
    EXPECT_EQ(bb_parquet_file_chunk(file.f, g, c, &chunk), BB_ERR_PARQUET_NO_SUCH_CHUNK);
    EXPECT_EQ(bb_parquet_file_load_filter(file.f, g, c, &f), BB_ERR_PARQUET_NO_SUCH_CHUNK);
    EXPECT_EQ(f.data, nullptr);
    EXPECT_EQ(bb_parquet_file_view_filter(file.f, g, c, &f), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  }
  size_t found = 1234;
  EXPECT_EQ(bb_parquet_file_find_column(file.f, "nested", 6, &found), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(bb_parquet_file_find_column(file.f, "i", 1, &found), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(bb_parquet_file_find_column(file.f, "idx", 2, &found), BB_OK);  // the bytes, not a C string
  EXPECT_EQ(found, 0u);
  EXPECT_EQ(bb_parquet_file_find_column(file.f, nullptr, 0, &found), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(found, 0u);
}

TEST(ParquetFile, StructSizeWritesOnlyWhatTheCallerHas) {
  const SampleFile s;
  File file;
  ASSERT_EQ(file.OpenMemory(s.bytes), BB_OK);
  // A caller compiled against a shorter struct: the members past it stay.
  bb_parquet_chunk chunk;
  std::memset(&chunk, 0x66, sizeof chunk);
  chunk.struct_size = offsetof(bb_parquet_chunk, has_filter);
  ASSERT_EQ(bb_parquet_file_chunk(file.f, 0, 0, &chunk), BB_OK);
  EXPECT_EQ(chunk.struct_size, offsetof(bb_parquet_chunk, has_filter));
  EXPECT_EQ(chunk.num_values, 100);
  EXPECT_EQ(chunk.has_filter, 0x66666666);
  // A caller compiled against a longer one (a later header): only ours is written.
  struct Longer {
    bb_parquet_column column;
    uint64_t more;
  } longer;
  longer.more = 0x1122334455667788u;
  longer.column.struct_size = sizeof longer;
  ASSERT_EQ(bb_parquet_file_column(file.f, 4, &longer.column), BB_OK);
  EXPECT_EQ(longer.column.struct_size, sizeof longer);
  EXPECT_EQ(ColumnPath(longer.column), "name");
  EXPECT_EQ(longer.more, 0x1122334455667788u);
  // Not even the size member: refused, untouched.
  bb_parquet_column col;
  std::memset(&col, 0x55, sizeof col);
  col.struct_size = 0;
  EXPECT_EQ(bb_parquet_file_column(file.f, 0, &col), BB_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(col.physical_type, 0x55555555);
  chunk.struct_size = 4;
  EXPECT_EQ(bb_parquet_file_chunk(file.f, 0, 0, &chunk), BB_ERR_BUFFER_TOO_SMALL);
}

// ------------------------------------------------------------- by path

TEST(ParquetFile, PathsThatAreNoReadableRegularFileAreIoErrorsAtOnce) {
  const TempDir dir;
  File missing;
  EXPECT_EQ(missing.OpenPath(dir.path() + "/absent.parquet"), BB_ERR_PARQUET_IO);
  EXPECT_NE(missing.why.find("absent.parquet: cannot open: No such file"), std::string::npos)
      << missing.why;
  File directory;
  EXPECT_EQ(directory.OpenPath(dir.path()), BB_ERR_PARQUET_IO);
  EXPECT_EQ(directory.why, dir.path() + ": not a regular file");
  // A FIFO without a writer: refused at once, never waited on.
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  File pipe;
  EXPECT_EQ(pipe.OpenPath(fifo), BB_ERR_PARQUET_IO);
  EXPECT_EQ(pipe.why, fifo + ": not a regular file");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  File device;
  EXPECT_EQ(device.OpenPath("/dev/null"), BB_ERR_PARQUET_IO);
  EXPECT_EQ(device.why, "/dev/null: not a regular file");
}

// "PAR1", a filter of one INT64 column at offset 4 holding 42, `gap` zero
// bytes, then the footer: a filter `gap` bytes before the file's tail.
std::string FileWithFilterBeforeGap(size_t gap, std::string* filter) {
  *filter = SerializedFilter(1024, {bb_parquet_hash_int64(42)});
  const std::string metadata =
      bbtest::FileMetaData({Col({"x"}, BB_PARQUET_INT64)}, {{FilterAt(4)}});
  return "PAR1" + *filter + std::string(gap, '\0') + metadata +
         bbtest::LittleEndian32(static_cast<uint32_t>(metadata.size())) + "PAR1";
}

TEST(ParquetFile, AFilterBeforeTheTailWindowIsReadOnLoadAndAShrunkFileIsAnIoError) {
  // 100 KiB between the filter and the footer: the filter lies outside the
  // tail read at open, so loading it reads the file again.
  std::string filter;
  const TempDir dir;
  const std::string path = dir.Write("shrinks.parquet", FileWithFilterBeforeGap(100 << 10, &filter));
  File file;
  ASSERT_EQ(file.OpenPath(path), BB_OK) << file.why;
  bb_filter f;
  ASSERT_EQ(bb_parquet_file_load_filter(file.f, 0, 0, &f), BB_OK);
  EXPECT_EQ(bb_find(&f, bb_parquet_hash_int64(42)), 1);
  bb_filter_release(&f);
  ASSERT_EQ(::truncate(path.c_str(), 10), 0);
  EXPECT_EQ(bb_parquet_file_load_filter(file.f, 0, 0, &f), BB_ERR_PARQUET_IO);
  EXPECT_EQ(f.data, nullptr);
}

TEST(ParquetFile, ASmallFileIsReadWholeAtOpen) {
  // Under 64 KiB: the one read at open holds the footer, the headers and the
  // filters; what happens to the file afterwards does not change them.
  std::string filter;
  const TempDir dir;
  const std::string path = dir.Write("small.parquet", FileWithFilterBeforeGap(1000, &filter));
  File file;
  ASSERT_EQ(file.OpenPath(path), BB_OK) << file.why;
  ASSERT_EQ(::truncate(path.c_str(), 10), 0);
  bb_filter f;
  ASSERT_EQ(bb_parquet_file_load_filter(file.f, 0, 0, &f), BB_OK);
  EXPECT_EQ(bb_find(&f, bb_parquet_hash_int64(42)), 1);
  EXPECT_EQ(std::memcmp(f.data, filter.data() + filter.size() - 1024, 1024), 0);
  bb_filter_release(&f);
}

TEST(ParquetFile, FilesBeyond4GiBAreReadByPath) {
  // A sparse file: a filter at 4.5 GiB, the footer after it. Offsets past
  // 2^31 and 2^32 go through the Thrift i64s and pread unharmed.
  const TempDir dir;
  const std::string path = dir.path() + "/huge.parquet";
  const uint64_t offset = (uint64_t{9} << 29) + 13;  // 4.5 GiB + 13: odd alignment
  const std::string filter = SerializedFilter(1024, {bb_parquet_hash_int64(42)});
  const std::string metadata = bbtest::FileMetaData(
      {Col({"x"}, BB_PARQUET_INT64)}, {{FilterAt(static_cast<int64_t>(offset))}});
  const std::string tail = metadata + bbtest::LittleEndian32(static_cast<uint32_t>(metadata.size())) +
                           "PAR1";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  bool written = ::pwrite(fd, "PAR1", 4, 0) == 4 &&
                 ::pwrite(fd, filter.data(), filter.size(), static_cast<off_t>(offset)) ==
                     static_cast<ssize_t>(filter.size()) &&
                 ::pwrite(fd, tail.data(), tail.size(), static_cast<off_t>(offset + filter.size())) ==
                     static_cast<ssize_t>(tail.size());
  const int write_errno = errno;
  ::close(fd);
  if (!written && (write_errno == EFBIG || write_errno == ENOSPC)) {
    GTEST_SKIP() << "this file system cannot hold a sparse 4.5 GiB file: "
                 << std::strerror(write_errno);
  }
  ASSERT_TRUE(written) << std::strerror(write_errno);
  File file;
  ASSERT_EQ(file.OpenPath(path), BB_OK) << file.why;
  const bb_parquet_chunk k = file.Chunk(0, 0);
  EXPECT_EQ(k.filter_status, BB_OK) << (k.filter_error ? k.filter_error : "");
  EXPECT_EQ(k.filter_offset, static_cast<int64_t>(offset));
  EXPECT_EQ(k.bitset_offset, offset + filter.size() - 1024);
  EXPECT_EQ(k.filter_length, static_cast<int64_t>(filter.size()));
  bb_filter f;
  ASSERT_EQ(bb_parquet_file_load_filter(file.f, 0, 0, &f), BB_OK);
  EXPECT_EQ(bb_find(&f, bb_parquet_hash_int64(42)), 1);
  EXPECT_EQ(std::memcmp(f.data, filter.data() + filter.size() - 1024, 1024), 0);
  bb_filter_release(&f);
}

// ------------------------------------------------------- hostile footers

// FileMetaData with a raw schema list (elements written by the caller) and
// one row group of chunks for the given paths.
std::string WithSchema(const std::string& elements, size_t count,
                       const std::vector<std::vector<std::string>>& chunk_paths, int type = 1) {
  bbtest::CompactWriter w;
  w.BeginStruct().Field(1, bbtest::kI32).I(1);
  w.Field(2, bbtest::kList).ListHeader(bbtest::kStruct, count).Raw(elements);
  w.Field(3, bbtest::kI64).I(1);
  w.Field(4, bbtest::kList).ListHeader(bbtest::kStruct, 1).BeginStruct();
  w.Field(1, bbtest::kList).ListHeader(bbtest::kStruct, chunk_paths.size());
  for (const auto& path : chunk_paths) {
    w.BeginStruct().Field(3, bbtest::kStruct).BeginStruct().Field(1, bbtest::kI32).I(type);
    w.Field(3, bbtest::kList).ListHeader(bbtest::kBinary, path.size());
    for (const std::string& p : path) w.Binary(p);
    w.EndStruct().EndStruct();
  }
  w.EndStruct().EndStruct();
  return w.bytes();
}

// One SchemaElement: name, num_children (kLeaf: absent), type (-1: absent).
constexpr int64_t kLeaf = INT64_MIN;
std::string Element(const std::string& name, int64_t children, int type = -1,
                    int type_length = -1) {
  bbtest::CompactWriter w;
  w.BeginStruct();
  if (type >= 0) w.Field(1, bbtest::kI32).I(type);
  if (type_length >= 0) w.Field(2, bbtest::kI32).I(type_length);
  w.Field(4, bbtest::kBinary).Binary(name);
  if (children != kLeaf) w.Field(5, bbtest::kI32).I(children);
  w.EndStruct();
  return w.bytes();
}

std::string OpenError(const std::string& metadata, int* status) {
  File file;
  *status = file.OpenFooter(metadata);
  return file.why;
}

TEST(ParquetFile, SchemasThatDoNotDescribeTheChunksAreMalformed) {
  struct Case {
    std::string metadata;
    const char* reason;
  };
  const std::string root1 = Element("schema", 1);
  const std::vector<Case> cases = {
      {WithSchema(root1 + Element("a", kLeaf, 1), 2, {{"b"}}), "path_in_schema b is not the schema's"},
      {WithSchema(root1 + Element("a", kLeaf, 1), 2, {{"a"}}, 2),
       "ColumnMetaData.type 2 is not the schema's 1"},
      {WithSchema(root1 + Element("a", kLeaf, 1), 2, {{"a"}, {"a"}}),
       "row group 0 has 2 column chunks, but the schema has 1 columns"},
      {WithSchema(Element("schema", 3) + Element("a", kLeaf, 1), 2, {{"a"}}),
       "announce more children than the 2 elements hold"},
      {WithSchema(root1 + Element("a", kLeaf, 1) + Element("b", kLeaf, 1), 3, {{"a"}}),
       "1 elements after the root's last descendant"},
      {WithSchema(Element("schema", -5), 1, {}), "has -5 children"},
      {WithSchema(root1 + Element("g", -9), 2, {}), "SchemaElement 1 has -9 children"},
      {WithSchema(Element("schema", kLeaf, 1), 1, {}), "root (element 0) is a column"},
      {WithSchema(root1 + Element("a", kLeaf, 9), 2, {{"a"}}), "unknown type 9"},
      {WithSchema(root1 + Element("a", kLeaf, 7), 2, {{"a"}}),
       "FIXED_LEN_BYTE_ARRAY without a positive type_length"},
      {WithSchema(root1 + Element("a", kLeaf, 7, 0), 2, {{"a"}}),
       "FIXED_LEN_BYTE_ARRAY without a positive type_length"},
  };
  for (const Case& c : cases) {
    int status = 0;
    const std::string why = OpenError(c.metadata, &status);
    EXPECT_EQ(status, BB_ERR_PARQUET_FOOTER_MALFORMED) << c.reason;
    EXPECT_NE(why.find(c.reason), std::string::npos) << why;
  }
  // Consistent: fine. An empty schema and no row groups is an empty file.
  int status = 0;
  OpenError(WithSchema(root1 + Element("a", kLeaf, 1), 2, {{"a"}}), &status);
  EXPECT_EQ(status, BB_OK);
  OpenError(WithSchema("", 0, {}), &status);  // a row group of no chunks, for no columns
  EXPECT_EQ(status, BB_OK);
}

// The same rule for every field the footer walk reads: a required field of
// another wire type is missing (and says it was there), an optional one is
// as if absent.
TEST(ParquetFile, FooterFieldsOfAnotherWireTypeReadAsAbsent) {
  const std::string root1 = Element("schema", 1);
  // FileMetaData.version (field 1) as a string: a required field missing.
  bbtest::CompactWriter w;
  w.BeginStruct().Field(1, bbtest::kBinary).Binary("2");
  w.Field(2, bbtest::kList).ListHeader(bbtest::kStruct, 0);
  w.Field(3, bbtest::kI64).I(0).Field(4, bbtest::kList).ListHeader(bbtest::kStruct, 0);
  w.EndStruct();
  int status = 0;
  std::string why = OpenError(w.bytes(), &status);
  EXPECT_EQ(status, BB_ERR_PARQUET_FOOTER_MALFORMED);
  EXPECT_NE(why.find("lacks required version (field 1, present but not an i32)"),
            std::string::npos)
      << why;
  // SchemaElement.converted_type (field 6) as a list, ColumnMetaData.type
  // (field 1) as a string: both as if absent, the column as its type says.
  bbtest::CompactWriter leaf;
  leaf.BeginStruct().Field(1, bbtest::kI32).I(BB_PARQUET_INT64).Field(4, bbtest::kBinary).Binary("a");
  leaf.Field(6, bbtest::kList).ListHeader(bbtest::kI32, 1).I(1).EndStruct();
  bbtest::CompactWriter m;
  m.BeginStruct().Field(1, bbtest::kI32).I(1);
  m.Field(2, bbtest::kList).ListHeader(bbtest::kStruct, 2).Raw(root1).Raw(leaf.bytes());
  m.Field(3, bbtest::kI64).I(1);
  m.Field(4, bbtest::kList).ListHeader(bbtest::kStruct, 1).BeginStruct();
  m.Field(1, bbtest::kList).ListHeader(bbtest::kStruct, 1);
  m.BeginStruct().Field(3, bbtest::kStruct).BeginStruct().Field(1, bbtest::kBinary).Binary("x");
  m.Field(5, bbtest::kList).ListHeader(bbtest::kI64, 1).I(5);  // num_values as a list
  m.EndStruct().EndStruct();
  m.Field(3, bbtest::kBinary).Binary("rows");  // RowGroup.num_rows as a string
  m.EndStruct().EndStruct();
  File file;
  ASSERT_EQ(file.OpenFooter(m.bytes()), BB_OK) << file.why;
  EXPECT_EQ(file.Column(0).physical_type, BB_PARQUET_INT64);
  EXPECT_EQ(file.Column(0).converted_type, BB_PARQUET_CONVERTED_NONE);
  EXPECT_EQ(file.Chunk(0, 0).num_values, -1);
  EXPECT_EQ(file.Chunk(0, 0).has_filter, 0);
}

TEST(ParquetFile, ALegacyDecimalWithoutItsScaleCannotBeProbed) {
  // SchemaElement.scale (field 7) as a string is skipped, as if absent: the
  // column still lists, but its values cannot be written as decimals (scale
  // 0 would hash "1.23" as a different value than the file holds).
  const std::string root1 = Element("schema", 1);
  // A one-column footer: INT32 "d", ConvertedType DECIMAL (5), precision 9,
  // its scale written by `scale` (field 7).
  auto open_with_scale = [&root1](File* file, const std::function<void(bbtest::CompactWriter&)>& scale) {
    bbtest::CompactWriter leaf;
    leaf.BeginStruct().Field(1, bbtest::kI32).I(BB_PARQUET_INT32).Field(4, bbtest::kBinary).Binary("d");
    leaf.Field(6, bbtest::kI32).I(5);  // DECIMAL, old style
    scale(leaf);
    leaf.Field(8, bbtest::kI32).I(9).EndStruct();
    bbtest::CompactWriter m;
    m.BeginStruct().Field(1, bbtest::kI32).I(1);
    m.Field(2, bbtest::kList).ListHeader(bbtest::kStruct, 2).Raw(root1).Raw(leaf.bytes());
    m.Field(3, bbtest::kI64).I(0).Field(4, bbtest::kList).ListHeader(bbtest::kStruct, 0);
    m.EndStruct();
    return file->OpenFooter(m.bytes());
  };
  File file;
  ASSERT_EQ(open_with_scale(&file, [](bbtest::CompactWriter& w) { w.Field(7, bbtest::kBinary).Binary("2"); }), BB_OK)
      << file.why;
  const bb_parquet_column col = file.Column(0);
  EXPECT_EQ(col.converted_type, 5);
  uint8_t out[64];
  size_t out_len = 0;
  char why[BB_PARQUET_VALUE_ERROR_MAX] = "";
  EXPECT_EQ(bb_parquet_encode_text(&col, "123", 3, 0, out, sizeof out, &out_len, why, sizeof why),
            BB_ERR_PARQUET_UNSUPPORTED)
      << why;
  // With its scale, the same column takes decimals.
  File file2;
  ASSERT_EQ(open_with_scale(&file2, [](bbtest::CompactWriter& w) { w.Field(7, bbtest::kI32).I(2); }), BB_OK)
      << file2.why;
  const bb_parquet_column col2 = file2.Column(0);
  ASSERT_EQ(bb_parquet_encode_text(&col2, "1.23", 4, 0, out, sizeof out, &out_len, why, sizeof why),
            BB_OK)
      << why;
  ASSERT_EQ(out_len, 4u);
  EXPECT_EQ(out[0], 123);
}

TEST(ParquetFile, BadLogicalTypesAreMalformed) {
  auto with_logical = [](const std::string& union_bytes) {
    bbtest::CompactWriter e;
    e.BeginStruct().Field(1, bbtest::kI32).I(1).Field(4, bbtest::kBinary).Binary("a");
    e.Field(10, bbtest::kStruct).Raw(union_bytes);
    e.EndStruct();
    return WithSchema(Element("schema", 1) + e.bytes(), 2, {{"a"}});
  };
  struct Case {
    std::string union_bytes;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {std::string("\x1c\x00\x1c\x00\x00", 5), "holds 2 members"},                 // STRING, MAP
      {std::string("\xac\x00\x00", 3), "an IntType lacks"},  // INTEGER {}
      // Fields of another wire type are skipped: a required one is missing.
      {std::string("\xac\x15\x02\x00\x00", 5), "an IntType lacks its required bitWidth"},
      {std::string("\x8c\x11\x00\x00", 4), "a TimestampType lacks"},  // TIMESTAMP{utc}
      {std::string("\x8c\x11\x1c\x4c\x00\x00\x00\x00", 8), "TimeUnit member 4"},
      {std::string("\x8c\x11\x1c\x00\x00\x00", 6), "the TimeUnit union holds 0 members"},
      {std::string("\x5c\x15\x02\x00\x00", 5), "a DecimalType lacks"},
      {std::string("\x7c\x15\x02\x00\x00", 5), "a TimeType lacks its required isAdjustedToUTC"},
  };
  for (const Case& c : cases) {
    int status = 0;
    const std::string why = OpenError(with_logical(c.union_bytes), &status);
    EXPECT_EQ(status, BB_ERR_PARQUET_FOOTER_MALFORMED) << c.reason;
    EXPECT_NE(why.find(c.reason), std::string::npos) << why;
  }
  // A member from a newer format, with fields of its own: passed through by id.
  File file;
  ASSERT_EQ(file.OpenFooter(with_logical(std::string("\x0c\x28\x15\x02\x00\x00", 6))), BB_OK)
      << file.why;
  EXPECT_EQ(file.Column(0).logical_type, 20);
  // No member at all: no logical type; nor with only a member that is no
  // struct (an i32 member 1), skipped as Thrift's readers skip it.
  for (const std::string& members : {std::string("\x00", 1), std::string("\x15\x02\x00", 3)}) {
    File none;
    ASSERT_EQ(none.OpenFooter(with_logical(members)), BB_OK) << none.why;
    EXPECT_EQ(none.Column(0).logical_type, BB_PARQUET_LOGICAL_NONE);
  }
}

TEST(ParquetFile, ColumnPathsAreTheFilesBytesEscapedNowhere) {
  const std::string nul("a\0b", 3);
  const std::vector<ColumnSpec> columns = {Col({"evil\x1b[2J", "a\nb"}, BB_PARQUET_INT32),
                                           Col({nul}, BB_PARQUET_INT32),
                                           Col({"\xff\xfe", ""}, BB_PARQUET_INT32)};
  File file;
  ASSERT_EQ(file.OpenFooter(bbtest::FileMetaData(columns, {{ChunkSpec{}, ChunkSpec{}, ChunkSpec{}}})),
            BB_OK)
      << file.why;
  EXPECT_EQ(ColumnPath(file.Column(0)), "evil\x1b[2J.a\nb");
  EXPECT_EQ(ColumnPath(file.Column(1)), nul);
  EXPECT_EQ(ColumnPath(file.Column(2)), "\xff\xfe.");
  size_t found = 9;
  EXPECT_EQ(bb_parquet_file_find_column(file.f, nul.data(), nul.size(), &found), BB_OK);
  EXPECT_EQ(found, 1u);
  EXPECT_EQ(bb_parquet_file_find_column(file.f, "a", 1, &found), BB_ERR_PARQUET_NO_SUCH_CHUNK);
}

TEST(ParquetFile, DeepAndWideSchemasAreBoundedNotStackOverflows) {
  // 200,000 nested groups: no recursion, so no stack overflow; fine.
  std::string deep;
  const size_t depth = 200000;
  for (size_t i = 0; i < depth; ++i) deep += Element("g", 1);
  deep += Element("leaf", kLeaf, 1);
  int status = 0;
  std::string why = OpenError(WithSchema(Element("schema", 1) + deep, depth + 2, {}), &status);
  EXPECT_EQ(status, BB_ERR_PARQUET_FOOTER_MALFORMED);  // the row group has no chunk for the leaf
  EXPECT_NE(why.find("row group 0 has 0 column chunks, but the schema has 1 columns"),
            std::string::npos)
      << why;
  // A long group name repeated in each of many leaves' paths: past the
  // default memory limit (each path is kept with its names); with that
  // limit lifted, past the cap on the paths a schema may spell out.
  const size_t leaves = 60000;
  std::string wide = Element(std::string(4000, 'n'), static_cast<int64_t>(leaves));
  for (size_t i = 0; i < leaves; ++i) wide += Element("x", kLeaf, 1);
  const std::string metadata = WithSchema(Element("schema", 1) + wide, leaves + 2, {});
  why = OpenError(metadata, &status);
  EXPECT_EQ(status, BB_ERR_PARQUET_LIMIT);
  EXPECT_NE(why.find("schema's columns"), std::string::npos) << why;
  EXPECT_NE(why.find("would take more than max_memory_bytes"), std::string::npos) << why;
  bb_parquet_limits lifted = {sizeof lifted, 0, std::uint64_t{1} << 40};
  bb_parquet_file* f = nullptr;
  char text[512] = "";
  status = bb_parquet_file_open_footer_limits(
      &f, reinterpret_cast<const uint8_t*>(metadata.data()), metadata.size(), &lifted, text,
      sizeof text);
  EXPECT_EQ(status, BB_ERR_PARQUET_FOOTER_MALFORMED);
  EXPECT_EQ(f, nullptr);
  EXPECT_NE(std::string(text).find("column paths add up to more than"), std::string::npos) << text;
}

TEST(ParquetFile, RandomMutationsOfAFileGiveCodesNeverCrashes) {
  const SampleFile s;
  std::mt19937_64 rng(20261201);
  const std::set<int> allowed = {BB_OK, BB_ERR_PARQUET_NOT_PARQUET, BB_ERR_PARQUET_FOOTER_MALFORMED,
                                 BB_ERR_OUT_OF_MEMORY};
  size_t opened = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string bytes = s.bytes;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < flips; ++i) {
      // Mostly inside the footer, where a flip means the most.
      const size_t at = rng() % 4 != 0 ? bytes.size() - 8 - rng() % s.metadata.size()
                                       : rng() % bytes.size();
      bytes[at] = static_cast<char>(rng());
    }
    const std::vector<uint8_t> exact(bytes.begin(), bytes.end());
    bb_parquet_file* f = nullptr;
    const int status = bb_parquet_file_open_memory(&f, exact.data(), exact.size(), nullptr, 0);
    ASSERT_TRUE(allowed.count(status)) << status;
    if (status != BB_OK) continue;
    ++opened;
    size_t groups = 0, columns = 0;
    ASSERT_EQ(bb_parquet_file_num_row_groups(f, &groups), BB_OK);
    ASSERT_EQ(bb_parquet_file_num_columns(f, &columns), BB_OK);
    for (size_t g = 0; g < groups; ++g) {
      for (size_t c = 0; c < columns; ++c) {
        bb_filter filter;
        if (bb_parquet_file_load_filter(f, g, c, &filter) == BB_OK) {
          bb_find(&filter, 12345);
          bb_filter_release(&filter);
        }
        if (bb_parquet_file_view_filter(f, g, c, &filter) == BB_OK) bb_find(&filter, 12345);
      }
    }
    bb_parquet_file_close(f);
  }
  EXPECT_GT(opened, 0u);  // some mutations land in skipped fields or bitsets
}

// ------------------------------------------------------------- hashing

TEST(ParquetHashValue, EveryPhysicalTypeIsXxh64OfTheValuesBytes) {
  std::mt19937_64 rng(7);
  std::string bytes(301, '\0');
  for (char& b : bytes) b = static_cast<char>(rng());
  struct Case {
    int type;
    int32_t type_length;
    size_t len;
  };
  const Case cases[] = {{BB_PARQUET_INT32, 0, 4},       {BB_PARQUET_FLOAT, 0, 4},
                        {BB_PARQUET_INT64, 0, 8},       {BB_PARQUET_DOUBLE, 0, 8},
                        {BB_PARQUET_INT96, 0, 12},      {BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 1, 1},
                        {BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 16, 16},
                        {BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 300, 300},
                        {BB_PARQUET_BYTE_ARRAY, 0, 0},  {BB_PARQUET_BYTE_ARRAY, 0, 1},
                        {BB_PARQUET_BYTE_ARRAY, 0, 31}, {BB_PARQUET_BYTE_ARRAY, 0, 300},
                        {BB_PARQUET_BYTE_ARRAY, 77, 5}};  // type_length means nothing here
  for (const Case& c : cases) {
    for (size_t start : {size_t{0}, size_t{1}}) {  // aligned and not
      uint64_t h = 0;
      ASSERT_EQ(bb_parquet_hash_value(c.type, c.type_length, bytes.data() + start, c.len, &h), BB_OK)
          << c.type << " " << c.len;
      EXPECT_EQ(h, XXH64(bytes.data() + start, c.len, 0)) << c.type << " " << c.len;
    }
  }
  uint64_t h = 0;
  ASSERT_EQ(bb_parquet_hash_value(BB_PARQUET_BYTE_ARRAY, 0, nullptr, 0, &h), BB_OK);
  EXPECT_EQ(h, XXH64("", 0, 0));
  // The typed helpers agree: the plain encoding is the little-endian value.
  const int32_t i32 = -123456;
  ASSERT_EQ(bb_parquet_hash_value(BB_PARQUET_INT32, 0, &i32, 4, &h), BB_OK);
  EXPECT_EQ(h, bb_parquet_hash_int32(i32));
  const int64_t i64 = 1234567890123;
  ASSERT_EQ(bb_parquet_hash_value(BB_PARQUET_INT64, 0, &i64, 8, &h), BB_OK);
  EXPECT_EQ(h, bb_parquet_hash_int64(i64));
  const double d = -0.0;
  ASSERT_EQ(bb_parquet_hash_value(BB_PARQUET_DOUBLE, 0, &d, 8, &h), BB_OK);
  EXPECT_EQ(h, bb_parquet_hash_double(d));
  const float f = 1.5f;
  ASSERT_EQ(bb_parquet_hash_value(BB_PARQUET_FLOAT, 0, &f, 4, &h), BB_OK);
  EXPECT_EQ(h, bb_parquet_hash_float(f));
}

TEST(ParquetHashValue, BooleansUnknownTypesAndWrongLengthsAreRefusedUntouched) {
  const char bytes[32] = {};
  struct Case {
    int type;
    int32_t type_length;
    size_t len;
  };
  const Case cases[] = {{BB_PARQUET_BOOLEAN, 0, 1},  {BB_PARQUET_BOOLEAN, 0, 0},
                        {-1, 0, 4},                  {8, 0, 4},
                        {BB_PARQUET_INT32, 0, 3},    {BB_PARQUET_INT32, 0, 8},
                        {BB_PARQUET_FLOAT, 0, 8},    {BB_PARQUET_INT64, 0, 4},
                        {BB_PARQUET_DOUBLE, 0, 4},   {BB_PARQUET_INT96, 0, 8},
                        {BB_PARQUET_INT96, 0, 16},   {BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 16, 15},
                        {BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 16, 17},
                        {BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 0, 0},
                        {BB_PARQUET_FIXED_LEN_BYTE_ARRAY, -4, 4}};
  for (const Case& c : cases) {
    uint64_t h = 0xfeed;
    EXPECT_EQ(bb_parquet_hash_value(c.type, c.type_length, bytes, c.len, &h),
              BB_ERR_PARQUET_UNSUPPORTED)
        << c.type << " " << c.len;
    EXPECT_EQ(h, 0xfeedu);
  }
  uint64_t h = 0;
  EXPECT_EQ(bb_parquet_hash_value(BB_PARQUET_INT32, 0, bytes, 4, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_hash_value(BB_PARQUET_INT32, 0, nullptr, 4, &h), BB_ERR_NULL_POINTER);
}

// ------------------------------------------------------------------ C++

TEST(ParquetFileCpp, OpensFindsLoadsViewsAndThrowsWithTheReason) {
  const SampleFile s;
  auto file = blockbloom::ParquetFile::from_memory(s.bytes.data(), s.bytes.size());
  EXPECT_EQ(file.num_row_groups(), 2u);
  EXPECT_EQ(file.num_columns(), s.columns.size());
  const auto c = file.find_column("id");
  ASSERT_TRUE(c.has_value());
  EXPECT_FALSE(file.find_column("nope").has_value());
  const int32_t v = 0;  // column 0 holds hash_int32(0)
  const uint64_t h = blockbloom::parquet_hash_value(file.column(*c), &v, sizeof v);
  EXPECT_TRUE(file.load_filter(0, *c).find(h));
  EXPECT_TRUE(file.view_filter(1, *c).find(h));
  EXPECT_EQ(file.chunk(0, *c).filter_status, BB_OK);
  try {
    file.load_filter(0, 2);
    ADD_FAILURE() << "no throw";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_PARQUET_NO_FILTER);
  }
  try {
    blockbloom::parquet_hash_value(file.column(12), &v, 1);  // BOOLEAN
    ADD_FAILURE() << "no throw";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_PARQUET_UNSUPPORTED);
  }
  try {
    blockbloom::ParquetFile::from_memory("PAR1", 4);
    ADD_FAILURE() << "no throw";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_PARQUET_NOT_PARQUET);
    EXPECT_NE(std::string(e.what()).find("4 bytes is too short"), std::string::npos) << e.what();
  }
  auto footer = blockbloom::ParquetFile::from_footer(s.metadata.data(), s.metadata.size());
  EXPECT_EQ(footer.chunk(1, 0).filter_checked, 0);
  const TempDir dir;
  auto by_path = blockbloom::ParquetFile::open(dir.Write("cpp.parquet", s.bytes));
  EXPECT_TRUE(by_path.load_filter(1, *c).find(h));
  blockbloom::ParquetFile moved = std::move(by_path);
  EXPECT_EQ(moved.num_columns(), s.columns.size());
  EXPECT_EQ(by_path.c_file(), nullptr);
  try {
    by_path.num_columns();
    ADD_FAILURE() << "no throw";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_NULL_POINTER);
  }
}

// ------------------------------------------------- the real files, if here

bool ReadTestFile(const char* name, std::string* bytes, std::string* path, std::string* why_not) {
  const char* dir = std::getenv("BLOCKBLOOM_TESTDATA");
  *path = std::string(dir != nullptr ? dir : "") + "/" + name;
  std::ifstream in(*path, std::ios::binary);
  if (dir == nullptr || !in) {
    *why_not = "shared testdata is absent: no " + *path;
    return false;
  }
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

TEST(ParquetFileReal, TheImpalaFileHasSixteenFiltersThatLoadAndViewAlike) {
  std::string bytes, path, why_not;
  if (!ReadTestFile("parquet-bloom-filtering.parquet", &bytes, &path, &why_not)) {
    GTEST_SKIP() << why_not;
  }
  File file, by_path;
  ASSERT_EQ(file.OpenMemory(bytes), BB_OK) << file.why;
  ASSERT_EQ(by_path.OpenPath(path), BB_OK) << by_path.why;
  const char* names[] = {"int8_col",  "int16_col",  "int32_col",  "int64_col",
                         "float_col", "double_col", "string_col", "char_col"};
  const int types[] = {BB_PARQUET_INT32, BB_PARQUET_INT32, BB_PARQUET_INT32, BB_PARQUET_INT64,
                       BB_PARQUET_FLOAT, BB_PARQUET_DOUBLE, BB_PARQUET_BYTE_ARRAY,
                       BB_PARQUET_BYTE_ARRAY};
  size_t n = 0;
  ASSERT_EQ(bb_parquet_file_num_columns(file.f, &n), BB_OK);
  ASSERT_EQ(n, 8u);
  ASSERT_EQ(bb_parquet_file_num_row_groups(file.f, &n), BB_OK);
  ASSERT_EQ(n, 2u);
  for (size_t c = 0; c < 8; ++c) {
    const bb_parquet_column col = file.Column(c);
    EXPECT_EQ(ColumnPath(col), names[c]);
    EXPECT_EQ(col.physical_type, types[c]);
    // parquet-mr 1.12 annotated only string_col (STRING, and UTF8 for older readers).
    EXPECT_EQ(col.logical_type, c == 6 ? BB_PARQUET_LOGICAL_STRING : BB_PARQUET_LOGICAL_NONE);
    EXPECT_EQ(col.converted_type, c == 6 ? 0 : BB_PARQUET_CONVERTED_NONE);
  }
  for (size_t g = 0; g < 2; ++g) {
    for (size_t c = 0; c < 8; ++c) {
      const bb_parquet_chunk k = file.Chunk(g, c);
      const size_t i = g * 8 + c;
      EXPECT_EQ(k.filter_status, BB_OK);
      EXPECT_EQ(k.num_values, 100);
      EXPECT_EQ(k.filter_offset, static_cast<int64_t>(9892 + 528 * i));
      EXPECT_EQ(k.filter_length, 528);  // no bloom_filter_length in 1.12: header 16 + 512
      EXPECT_EQ(k.bitset_offset, 9908 + 528 * i);
      EXPECT_EQ(k.bitset_bytes, 512u);
      bb_filter loaded, view, from_path;
      ASSERT_EQ(bb_parquet_file_load_filter(file.f, g, c, &loaded), BB_OK);
      ASSERT_EQ(bb_parquet_file_view_filter(file.f, g, c, &view), BB_OK);
      ASSERT_EQ(bb_parquet_file_load_filter(by_path.f, g, c, &from_path), BB_OK);
      EXPECT_EQ(std::memcmp(loaded.data, view.data, 512), 0);
      EXPECT_EQ(std::memcmp(loaded.data, from_path.data, 512), 0);
      bb_filter_release(&loaded);
      bb_filter_release(&from_path);
    }
  }
}

TEST(ParquetFileReal, TheParquetMrStringFileHoldsItsMinAndMax) {
  std::string bytes, path, why_not;
  if (!ReadTestFile("data_index_bloom_encoding_stats.parquet", &bytes, &path, &why_not)) {
    GTEST_SKIP() << why_not;
  }
  File file;
  ASSERT_EQ(file.OpenPath(path), BB_OK) << file.why;
  const bb_parquet_column col = file.Column(0);
  EXPECT_EQ(ColumnPath(col), "String");
  EXPECT_EQ(col.physical_type, BB_PARQUET_BYTE_ARRAY);
  EXPECT_EQ(col.logical_type, BB_PARQUET_LOGICAL_STRING);
  const bb_parquet_chunk k = file.Chunk(0, 0);
  EXPECT_EQ((std::vector<int64_t>{k.filter_offset, static_cast<int64_t>(k.bitset_offset),
                                  static_cast<int64_t>(k.bitset_bytes), k.num_values}),
            (std::vector<int64_t>{192, 208, 1024, 14}));
  bb_filter f;
  ASSERT_EQ(bb_parquet_file_load_filter(file.f, 0, 0, &f), BB_OK);
  // The column statistics' min and max are stored values.
  for (const char* v : {"Hello", "today"}) {
    uint64_t h = 0;
    ASSERT_EQ(bb_parquet_hash_value(col.physical_type, col.type_length, v, std::strlen(v), &h), BB_OK);
    EXPECT_EQ(bb_find(&f, h), 1) << v;
  }
  bb_filter_release(&f);
}

}  // namespace

namespace {

bb_parquet_column ColumnOf(int32_t physical, int32_t logical, int32_t converted) {
  bb_parquet_column c{};
  c.struct_size = sizeof c;
  c.physical_type = physical;
  c.logical_type = logical;
  c.converted_type = converted;
  return c;
}

std::string NameOf(int (*name)(const bb_parquet_column*, char*, size_t),
                   const bb_parquet_column& c) {
  char out[BB_PARQUET_TYPE_NAME_MAX];
  EXPECT_EQ(name(&c, out, sizeof out), BB_OK);
  return out;
}

}  // namespace

TEST(ParquetTypeNames, SpellEveryKindAsTheToolPrintsIt) {
  const auto physical = bb_parquet_physical_type_name;
  const auto logical = bb_parquet_logical_type_name;
  bb_parquet_column c = ColumnOf(BB_PARQUET_FIXED_LEN_BYTE_ARRAY, BB_PARQUET_LOGICAL_NONE,
                                 BB_PARQUET_CONVERTED_NONE);
  c.type_length = 16;
  EXPECT_EQ(NameOf(physical, c), "FIXED_LEN_BYTE_ARRAY(16)");
  EXPECT_EQ(NameOf(logical, c), "");
  EXPECT_EQ(NameOf(physical, ColumnOf(9, 0, -1)), "TYPE(9)");
  c = ColumnOf(BB_PARQUET_INT32, BB_PARQUET_LOGICAL_INTEGER, BB_PARQUET_CONVERTED_NONE);
  c.bit_width = 8;
  c.is_signed = 1;
  EXPECT_EQ(NameOf(physical, c), "INT32");
  EXPECT_EQ(NameOf(logical, c), "INTEGER(8,true)");
  c = ColumnOf(BB_PARQUET_INT64, BB_PARQUET_LOGICAL_TIMESTAMP, BB_PARQUET_CONVERTED_NONE);
  c.time_unit = BB_PARQUET_UNIT_MICROS;
  c.is_adjusted_to_utc = 0;
  EXPECT_EQ(NameOf(logical, c), "TIMESTAMP(MICROS,false)");
  c = ColumnOf(BB_PARQUET_FIXED_LEN_BYTE_ARRAY, BB_PARQUET_LOGICAL_DECIMAL, 5);
  c.precision = 18;
  c.scale = 3;
  EXPECT_EQ(NameOf(logical, c), "DECIMAL(18,3)");
  c.logical_type = BB_PARQUET_LOGICAL_NONE;  // only the converted DECIMAL
  EXPECT_EQ(NameOf(logical, c), "DECIMAL(18,3)");
  EXPECT_EQ(NameOf(logical, ColumnOf(BB_PARQUET_BYTE_ARRAY, BB_PARQUET_LOGICAL_STRING, 0)), "STRING");
  EXPECT_EQ(NameOf(logical, ColumnOf(BB_PARQUET_INT32, 0, 11)), "UINT_8");
  EXPECT_EQ(NameOf(logical, ColumnOf(BB_PARQUET_INT32, 42, -1)), "LOGICAL(42)");
  EXPECT_EQ(NameOf(logical, ColumnOf(BB_PARQUET_INT32, 0, 99)), "CONVERTED(99)");
}

TEST(ParquetTypeNames, RefuseShortBuffersAndOldStructsWritingNothing) {
  bb_parquet_column c = ColumnOf(BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 0, -1);
  c.type_length = INT32_MIN;  // the longest physical name there is
  char out[BB_PARQUET_TYPE_NAME_MAX];
  ASSERT_EQ(bb_parquet_physical_type_name(&c, out, sizeof out), BB_OK);
  const size_t len = std::strlen(out);
  std::memset(out, 'x', sizeof out);
  EXPECT_EQ(bb_parquet_physical_type_name(&c, out, len), BB_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(out[0], 'x');
  EXPECT_EQ(bb_parquet_physical_type_name(&c, out, len + 1), BB_OK);
  c.struct_size = sizeof(size_t);
  EXPECT_EQ(bb_parquet_logical_type_name(&c, out, sizeof out), BB_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(bb_parquet_logical_type_name(nullptr, out, sizeof out), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_physical_type_name(&c, nullptr, sizeof out), BB_ERR_NULL_POINTER);
}
