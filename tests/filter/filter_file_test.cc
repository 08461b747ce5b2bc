// SPDX-License-Identifier: Apache-2.0
// The filter file (filter_file.h): what is written reads back field for
// field, and a file damaged in any one field, or cut at any length, is
// refused with that field's code, with nothing allocated.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/blockbloom.hpp"
#include "blockbloom/filter_file.h"
#include "blockbloom/hashing.h"
#include "blockbloom/kudu.h"
#include "blockbloom/kudu.hpp"
#include "blockbloom/parquet_value.h"

namespace {

// The field offsets of docs/formats.md ("Filter files"), written out here so
// that a change of the format is a change of this test too.
constexpr size_t kVersionAt = 8, kLayoutAt = 12, kFlagsAt = 16, kSeedAt = 20, kValuesAt = 24,
                 kPhysicalAt = 28, kTypeLengthAt = 32, kLogicalAt = 36, kConvertedAt = 40,
                 kSignedAt = 48, kPrecisionAt = 64, kSizingKindAt = 68, kNdvAt = 72,
                 kFppAt = 80, kNumBytesAt = 88, kHeader = 96;

void Put32(std::vector<uint8_t>* b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*b)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
void Put64(std::vector<uint8_t>* b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) (*b)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t Get32(const std::vector<uint8_t>& b, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | b[at + i];
  return v;
}

// The checksum recomputed, so that a damaged field is judged on its own.
void Reseal(std::vector<uint8_t>* b) {
  const size_t body = b->size() - BB_FILTER_FILE_TRAILER_BYTES;
  Put64(b, body, bb_parquet_hash_bytes(b->data(), body));
}

bb_parquet_column Type(const char* name) {
  bb_parquet_column t{};
  t.struct_size = sizeof t;
  EXPECT_EQ(bb_parquet_type_parse(name, std::strlen(name), &t), BB_OK) << name;
  return t;
}

std::vector<uint8_t> Write(const bb_filter& f, const bb_parquet_column* type,
                           const bb_filter_file_sizing* sizing) {
  size_t n = 0;
  EXPECT_EQ(bb_filter_file_size(&f, &n), BB_OK);
  EXPECT_EQ(n, kHeader + f.num_bytes + 8);
  std::vector<uint8_t> out(n);
  size_t written = 0;
  EXPECT_EQ(bb_filter_file_write(&f, type, sizing, out.data(), out.size(), &written), BB_OK);
  EXPECT_EQ(written, n);
  return out;
}

// An allocator that counts what is live, to prove a refused read keeps nothing.
struct Counting {
  long live = 0;
  long calls = 0;
};
void* CountingAllocate(void* ctx, size_t bytes, size_t alignment) {
  auto* c = static_cast<Counting*>(ctx);
  void* p = std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (p != nullptr) ++c->live, ++c->calls;
  return p;
}
void CountingDeallocate(void* ctx, void* p, size_t) {
  --static_cast<Counting*>(ctx)->live;
  std::free(p);
}

// Reads b through a counting allocator; on a refusal, checks that nothing is
// live and that *f and the out-params were left as the header says.
int ReadCounted(const std::vector<uint8_t>& b, size_t len) {
  Counting counter;
  const bb_allocator allocator{CountingAllocate, CountingDeallocate, &counter};
  bb_filter f;
  std::memset(&f, 0xAB, sizeof f);
  int32_t values = 77;
  bb_parquet_column type{};
  type.struct_size = sizeof type;
  type.physical_type = 99;
  const int status =
      bb_filter_file_read_with_allocator(b.data(), len, &f, &values, &type, nullptr, &allocator);
  if (status != BB_OK) {
    EXPECT_EQ(counter.live, 0);
    EXPECT_EQ(f.data, nullptr);
    EXPECT_EQ(f.num_bytes, 0u);
    EXPECT_EQ(values, 77);
    EXPECT_EQ(type.physical_type, 99);
  }
  bb_filter_release(&f);
  EXPECT_EQ(counter.live, 0);
  return status;
}

int ReadCounted(const std::vector<uint8_t>& b) { return ReadCounted(b, b.size()); }

TEST(FilterFile, RoundTripsLayoutTypeSizeSeedSizingAndBits) {
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 1024), BB_OK);
  const bb_parquet_column dec = Type("decimal(12,3)");
  for (const char* v : {"1.5", "-7.125", "123456789.001"}) {
    uint64_t h = 0;
    ASSERT_EQ(bb_parquet_hash_text(&dec, v, std::strlen(v), 0, &h, nullptr, 0), BB_OK);
    ASSERT_EQ(bb_insert(&f, h), BB_OK);
  }
  bb_filter_file_sizing sizing{};
  sizing.struct_size = sizeof sizing;
  sizing.kind = BB_SIZE_PARQUET_POW2;
  sizing.ndv = 300;
  sizing.fpp = 0.01;
  const std::vector<uint8_t> file = Write(f, &dec, &sizing);
  EXPECT_EQ(std::memcmp(file.data(), "BBFILTER", 8), 0);
  EXPECT_EQ(Get32(file, kVersionAt), 1u);

  bb_filter g;
  int32_t values = -1;
  bb_parquet_column type{};
  type.struct_size = sizeof type;
  bb_filter_file_sizing got{};
  got.struct_size = sizeof got;
  ASSERT_EQ(bb_filter_file_read(file.data(), file.size(), &g, &values, &type, &got), BB_OK);
  EXPECT_EQ(bb_filter_equal(&f, &g), 1);
  EXPECT_NE(g.flags & BB_FILTER_OWNED, 0u);
  EXPECT_EQ(values, BB_FILTER_VALUES_TYPED);
  EXPECT_EQ(type.physical_type, BB_PARQUET_INT64);
  EXPECT_EQ(type.logical_type, BB_PARQUET_LOGICAL_DECIMAL);
  EXPECT_EQ(type.precision, 12);
  EXPECT_EQ(type.scale, 3);
  EXPECT_EQ(type.path, nullptr);
  EXPECT_EQ(got.kind, BB_SIZE_PARQUET_POW2);
  EXPECT_EQ(got.ndv, 300u);
  EXPECT_EQ(got.fpp, 0.01);
  for (const char* v : {"1.5", "-7.125", "123456789.001"}) {
    uint64_t h = 0;
    ASSERT_EQ(bb_parquet_hash_text(&type, v, std::strlen(v), 0, &h, nullptr, 0), BB_OK);
    EXPECT_EQ(bb_find(&g, h), 1) << v;
  }
  bb_filter_release(&g);
  bb_filter_release(&f);
}

TEST(FilterFile, RoundTripsAKuduFilterWithItsSeedAndAlwaysFalseState) {
  for (const bool insert : {false, true}) {
    bb_filter f;
    ASSERT_EQ(bb_kudu_filter_init(&f, 7, 0xC0FFEE), BB_OK);
    if (insert) {
      ASSERT_EQ(bb_kudu_insert(&f, 12345u), BB_OK);
    }
    const bb_parquet_column ts = Type("timestamp(us,utc)");
    const std::vector<uint8_t> file = Write(f, &ts, nullptr);
    EXPECT_EQ(Get32(file, kFlagsAt), insert ? 0u : 1u);
    bb_filter g;
    int32_t values = -1;
    bb_filter_file_sizing sizing{};
    sizing.struct_size = sizeof sizing;
    ASSERT_EQ(bb_filter_file_read(file.data(), file.size(), &g, &values, nullptr, &sizing), BB_OK);
    EXPECT_EQ(bb_filter_equal(&f, &g), 1);
    EXPECT_EQ(g.layout, static_cast<uint32_t>(BB_LAYOUT_KUDU));
    EXPECT_EQ(g.hash_seed, 0xC0FFEEu);
    EXPECT_EQ((g.flags & BB_FILTER_ALWAYS_FALSE) != 0, !insert);
    EXPECT_EQ(bb_kudu_find(&g, 12345u), insert ? 1 : 0);
    EXPECT_EQ(sizing.kind, BB_FILTER_SIZING_UNKNOWN);
    EXPECT_EQ(sizing.ndv, 0u);
    bb_filter_release(&g);
    bb_filter_release(&f);
  }
}

TEST(FilterFile, RawHashesReadBackAsRawHashesWithNoType) {
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 64), BB_OK);
  ASSERT_EQ(bb_insert(&f, 42), BB_OK);
  const std::vector<uint8_t> file = Write(f, nullptr, nullptr);
  bb_filter g;
  int32_t values = -1;
  bb_parquet_column type{};
  type.struct_size = sizeof type;
  type.physical_type = 5;
  ASSERT_EQ(bb_filter_file_read(file.data(), file.size(), &g, &values, &type, nullptr), BB_OK);
  EXPECT_EQ(values, BB_FILTER_VALUES_RAW_HASHES);
  EXPECT_EQ(type.physical_type, 0);
  EXPECT_EQ(type.converted_type, BB_PARQUET_CONVERTED_NONE);
  EXPECT_EQ(bb_find(&g, 42), 1);
  bb_filter_release(&g);
  bb_filter_release(&f);
}

TEST(FilterFile, WriteRefusesWhatItCouldNotReadBack) {
  bb_filter f;
  ASSERT_EQ(bb_kudu_filter_init(&f, 6, 0), BB_OK);
  std::vector<uint8_t> out(1024, 0xEE);
  size_t written = 1;
  const bb_parquet_column uuid = Type("uuid");
  EXPECT_EQ(bb_filter_file_write(&f, &uuid, nullptr, out.data(), out.size(), &written),
            BB_ERR_TYPE_NOT_IN_LAYOUT);
  bb_parquet_column bad = Type("date");
  bad.physical_type = BB_PARQUET_INT64;
  EXPECT_EQ(bb_filter_file_write(&f, &bad, nullptr, out.data(), out.size(), &written),
            BB_ERR_PARQUET_UNSUPPORTED);
  bb_filter_file_sizing sizing{sizeof sizing, BB_SIZE_KUDU, 0, 10, 1.5};
  EXPECT_EQ(bb_filter_file_write(&f, nullptr, &sizing, out.data(), out.size(), &written),
            BB_ERR_INVALID_FPP);
  sizing.fpp = 0.5;
  sizing.kind = 9;
  EXPECT_EQ(bb_filter_file_write(&f, nullptr, &sizing, out.data(), out.size(), &written),
            BB_ERR_INVALID_SIZING);
  EXPECT_EQ(bb_filter_file_write(&f, nullptr, nullptr, out.data(), 64 + 103, &written),
            BB_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(written, 1u);
  EXPECT_EQ(out[0], 0xEE);
  bb_filter_release(&f);
}

TEST(FilterFile, LayoutColumnTypeGivesKuduCellsAndRefusesWhatKuduHasNot) {
  const struct {
    const char* name;
    uint32_t parquet, kudu;  // 0: BB_ERR_TYPE_NOT_IN_LAYOUT
  } cases[] = {
      {"int8", BB_TYPE_INT32, BB_TYPE_INT8},     {"int16", BB_TYPE_INT32, BB_TYPE_INT16},
      {"int64", BB_TYPE_INT64, BB_TYPE_INT64},   {"uint32", BB_TYPE_INT32, 0},
      {"date", BB_TYPE_INT32, BB_TYPE_DATE32},   {"decimal(9,2)", BB_TYPE_INT32, BB_TYPE_INT32},
      {"decimal(30,2)", BB_TYPE_FIXED_LEN_BYTE_ARRAY, 0},
      {"timestamp(us)", BB_TYPE_INT64, BB_TYPE_TIMESTAMP}, {"timestamp(ns,utc)", BB_TYPE_INT64, 0},
      {"time(us)", BB_TYPE_INT64, 0},            {"string", BB_TYPE_BYTE_ARRAY, BB_TYPE_BYTE_ARRAY},
      {"double", BB_TYPE_DOUBLE, BB_TYPE_DOUBLE}, {"int96", BB_TYPE_INT96, 0},
  };
  for (const auto& c : cases) {
    const bb_parquet_column t = Type(c.name);
    uint32_t got = 0;
    EXPECT_EQ(bb_layout_column_type(BB_LAYOUT_PARQUET, &t, &got, nullptr), BB_OK) << c.name;
    EXPECT_EQ(got, c.parquet) << c.name;
    got = 0;
    EXPECT_EQ(bb_layout_column_type(BB_LAYOUT_KUDU, &t, &got, nullptr),
              c.kudu ? BB_OK : BB_ERR_TYPE_NOT_IN_LAYOUT)
        << c.name;
    EXPECT_EQ(got, c.kudu) << c.name;
  }
  const bb_parquet_column boolean = Type("boolean");
  uint32_t got = 0;
  EXPECT_EQ(bb_layout_column_type(BB_LAYOUT_PARQUET, &boolean, &got, nullptr),
            BB_ERR_PARQUET_UNSUPPORTED);
  const bb_parquet_column i32 = Type("int32");
  EXPECT_EQ(bb_layout_column_type(7, &i32, &got, nullptr), BB_ERR_LAYOUT_MISMATCH);
}

// A typed Parquet file and a typed Kudu file to damage.
std::vector<uint8_t> ParquetFile() {
  bb_filter f;
  EXPECT_EQ(bb_filter_init(&f, 128), BB_OK);
  EXPECT_EQ(bb_insert(&f, 0x123456789ull), BB_OK);
  const bb_parquet_column t = Type("string");
  bb_filter_file_sizing sizing{sizeof sizing, BB_SIZE_PARQUET, 0, 10, 0.05};
  std::vector<uint8_t> file = Write(f, &t, &sizing);
  bb_filter_release(&f);
  return file;
}

std::vector<uint8_t> KuduFile(bool insert) {
  bb_filter f;
  EXPECT_EQ(bb_kudu_filter_init(&f, 6, 7), BB_OK);
  if (insert) {
    EXPECT_EQ(bb_kudu_insert(&f, 99u), BB_OK);
  }
  const bb_parquet_column t = Type("int32");
  std::vector<uint8_t> file = Write(f, &t, nullptr);
  bb_filter_release(&f);
  return file;
}

TEST(FilterFile, EachDamagedFieldIsRefusedWithItsCodeSealedOrNot) {
  struct Damage {
    const char* what;
    int code;
    void (*apply)(std::vector<uint8_t>*);
  };
  const Damage damages[] = {
      {"magic", BB_ERR_FILTER_FILE_MAGIC, [](std::vector<uint8_t>* b) { (*b)[0] = 'X'; }},
      {"version 2", BB_ERR_FILTER_FILE_VERSION, [](std::vector<uint8_t>* b) { Put32(b, kVersionAt, 2); }},
      {"version 0", BB_ERR_FILTER_FILE_VERSION, [](std::vector<uint8_t>* b) { Put32(b, kVersionAt, 0); }},
      {"layout 2", BB_ERR_FILTER_FILE_LAYOUT, [](std::vector<uint8_t>* b) { Put32(b, kLayoutAt, 2); }},
      {"unknown flag", BB_ERR_FILTER_FILE_LAYOUT, [](std::vector<uint8_t>* b) { Put32(b, kFlagsAt, 2); }},
      {"always-false on parquet", BB_ERR_FILTER_FILE_LAYOUT,
       [](std::vector<uint8_t>* b) { Put32(b, kFlagsAt, 1); }},
      {"parquet with a seed", BB_ERR_FILTER_FILE_SEED, [](std::vector<uint8_t>* b) { Put32(b, kSeedAt, 1); }},
      {"value kind 2", BB_ERR_FILTER_FILE_TYPE, [](std::vector<uint8_t>* b) { Put32(b, kValuesAt, 2); }},
      {"raw hashes with a type", BB_ERR_FILTER_FILE_TYPE,
       [](std::vector<uint8_t>* b) { Put32(b, kValuesAt, 0); }},
      {"string annotation on INT32", BB_ERR_FILTER_FILE_TYPE,
       [](std::vector<uint8_t>* b) { Put32(b, kPhysicalAt, BB_PARQUET_INT32); }},
      {"BOOLEAN", BB_ERR_FILTER_FILE_TYPE,
       [](std::vector<uint8_t>* b) { Put32(b, kPhysicalAt, BB_PARQUET_BOOLEAN); Put32(b, kLogicalAt, 0); }},
      {"physical type 9", BB_ERR_FILTER_FILE_TYPE, [](std::vector<uint8_t>* b) { Put32(b, kPhysicalAt, 9); }},
      {"a length on BYTE_ARRAY", BB_ERR_FILTER_FILE_TYPE,
       [](std::vector<uint8_t>* b) { Put32(b, kTypeLengthAt, 4); }},
      {"DECIMAL(0,0)", BB_ERR_FILTER_FILE_TYPE,
       [](std::vector<uint8_t>* b) { Put32(b, kLogicalAt, BB_PARQUET_LOGICAL_DECIMAL); }},
      {"is_signed 2", BB_ERR_FILTER_FILE_TYPE, [](std::vector<uint8_t>* b) { Put32(b, kSignedAt, 2); }},
      {"sizing kind 7", BB_ERR_FILTER_FILE_SIZING, [](std::vector<uint8_t>* b) { Put32(b, kSizingKindAt, 7); }},
      {"fpp 1.0", BB_ERR_FILTER_FILE_SIZING,
       [](std::vector<uint8_t>* b) { Put64(b, kFppAt, 0x3FF0000000000000ull); }},
      {"fpp NaN", BB_ERR_FILTER_FILE_SIZING,
       [](std::vector<uint8_t>* b) { Put64(b, kFppAt, 0x7FF8000000000000ull); }},
      {"unknown sizing with an ndv", BB_ERR_FILTER_FILE_SIZING,
       [](std::vector<uint8_t>* b) { Put32(b, kSizingKindAt, 0xFFFFFFFFu); }},
      {"size 64 (smaller)", BB_ERR_FILTER_FILE_SIZE, [](std::vector<uint8_t>* b) { Put64(b, kNumBytesAt, 64); }},
      {"size 256 (larger)", BB_ERR_FILTER_FILE_SIZE, [](std::vector<uint8_t>* b) { Put64(b, kNumBytesAt, 256); }},
      {"size 0", BB_ERR_FILTER_FILE_SIZE, [](std::vector<uint8_t>* b) { Put64(b, kNumBytesAt, 0); }},
      {"size 100", BB_ERR_FILTER_FILE_SIZE, [](std::vector<uint8_t>* b) { Put64(b, kNumBytesAt, 100); }},
      {"size 2^63", BB_ERR_FILTER_FILE_SIZE, [](std::vector<uint8_t>* b) { Put64(b, kNumBytesAt, 1ull << 63); }},
      {"a byte appended", BB_ERR_FILTER_FILE_SIZE, [](std::vector<uint8_t>* b) { b->push_back(0); }},
      {"a block appended", BB_ERR_FILTER_FILE_SIZE,
       [](std::vector<uint8_t>* b) { b->insert(b->begin() + kHeader, 32, 0); }},
  };
  for (const Damage& d : damages) {
    for (const bool reseal : {false, true}) {
      std::vector<uint8_t> b = ParquetFile();
      ASSERT_EQ(ReadCounted(b), BB_OK);
      d.apply(&b);
      if (reseal) Reseal(&b);
      EXPECT_EQ(ReadCounted(b), d.code) << d.what << (reseal ? " (checksum recomputed)" : "");
    }
  }
  // A bit of the bitset, of the checksum, or of a field no check reads
  // alone (the ndv) changed: only the checksum tells.
  for (const size_t at : {size_t{kHeader + 5}, size_t{kHeader + 128 + 3}, size_t{kNdvAt}}) {
    std::vector<uint8_t> b = ParquetFile();
    b[at] ^= 0x10;
    EXPECT_EQ(ReadCounted(b), BB_ERR_FILTER_FILE_CHECKSUM) << "byte " << at;
  }
}

TEST(FilterFile, KuduFilesAreCheckedForTheirLayoutToo) {
  std::vector<uint8_t> b = KuduFile(true);
  ASSERT_EQ(ReadCounted(b), BB_OK);
  Put64(&b, kNumBytesAt, 32);  // a Parquet size, not Kudu's (64 B minimum)
  b.erase(b.begin() + kHeader, b.begin() + kHeader + 32);
  Reseal(&b);
  EXPECT_EQ(ReadCounted(b), BB_ERR_FILTER_FILE_SIZE);

  b = KuduFile(true);
  Put32(&b, kFlagsAt, 1);  // always-false with bits set
  Reseal(&b);
  EXPECT_EQ(ReadCounted(b), BB_ERR_FILTER_FILE_LAYOUT);

  b = KuduFile(false);
  ASSERT_EQ(Get32(b, kFlagsAt), 1u);
  EXPECT_EQ(ReadCounted(b), BB_OK);

  b = KuduFile(true);  // an unsigned type Kudu has no cell for
  Put32(&b, kLogicalAt, BB_PARQUET_LOGICAL_INTEGER);
  Put32(&b, 44, 32);  // bit_width
  Put32(&b, kSignedAt, 0);
  Reseal(&b);
  EXPECT_EQ(ReadCounted(b), BB_ERR_FILTER_FILE_TYPE);
  Put32(&b, kSignedAt, 1);
  Reseal(&b);
  EXPECT_EQ(ReadCounted(b), BB_OK);
}

TEST(FilterFile, EveryTruncationIsRefused) {
  for (const std::vector<uint8_t>& b : {ParquetFile(), KuduFile(true)}) {
    for (size_t len = 0; len < b.size(); ++len) {
      const int want = len < kHeader + 8 ? BB_ERR_FILTER_FILE_TRUNCATED
                                         : BB_ERR_FILTER_FILE_SIZE;
      ASSERT_EQ(ReadCounted(b, len), want) << "length " << len;
    }
    ASSERT_EQ(ReadCounted(b, b.size()), BB_OK);
  }
}

TEST(FilterFile, ReadChecksItsArguments) {
  const std::vector<uint8_t> b = ParquetFile();
  bb_filter f;
  int32_t values = 0;
  EXPECT_EQ(bb_filter_file_read(nullptr, 10, &f, &values, nullptr, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_filter_file_read(b.data(), b.size(), nullptr, &values, nullptr, nullptr),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_filter_file_read(b.data(), b.size(), &f, nullptr, nullptr, nullptr),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_filter_file_read(nullptr, 0, &f, &values, nullptr, nullptr),
            BB_ERR_FILTER_FILE_TRUNCATED);
  const std::vector<uint8_t> raw_bitset(64, 0);  // no filter file, however short
  EXPECT_EQ(ReadCounted(raw_bitset), BB_ERR_FILTER_FILE_MAGIC);
  bb_parquet_column small{};
  small.struct_size = 8;
  EXPECT_EQ(bb_filter_file_read(b.data(), b.size(), &f, &values, &small, nullptr),
            BB_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(f.data, nullptr);
}

TEST(FilterFile, EveryNewCodeHasItsOwnMessage) {
  std::vector<std::string> seen;
  for (int code = BB_ERR_FILTER_FILE_TRUNCATED; code >= BB_ERR_FILTER_FILE_CHECKSUM; --code) {
    const std::string m = bb_status_message(code);
    EXPECT_NE(m, bb_status_message(-1000)) << code;
    EXPECT_NE(m.find("filter file"), std::string::npos) << m;
    for (const std::string& s : seen) EXPECT_NE(m, s);
    seen.push_back(m);
  }
}

TEST(FilterFileCpp, SaveAndLoadKeepTheTypeAndRefuseTheOtherLayout) {
  blockbloom::Filter f(256);
  const blockbloom::ValueType date = blockbloom::ValueType::parse("date");
  uint64_t h = 0;
  ASSERT_EQ(bb_parquet_hash_text(&date.type, "2024-01-31", 10, 0, &h, nullptr, 0), BB_OK);
  f.insert(h);
  const std::string path = ::testing::TempDir() + "filter_file_test.bbf";
  f.save(path, date);
  blockbloom::ValueType got;
  const blockbloom::Filter g = blockbloom::Filter::load(path, &got);
  EXPECT_TRUE(g == f);
  EXPECT_TRUE(got.typed);
  EXPECT_EQ(got.type.physical_type, BB_PARQUET_INT32);
  EXPECT_EQ(got.type.logical_type, BB_PARQUET_LOGICAL_DATE);
  EXPECT_TRUE(g.find(h));
  try {
    (void)blockbloom::KuduFilter::load(path);
    ADD_FAILURE() << "a Parquet file loaded as a Kudu filter";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_LAYOUT_MISMATCH);
  }
  std::vector<uint8_t> bytes = f.to_file_bytes(blockbloom::ValueType::raw_hashes());
  bytes[kSeedAt] = 1;
  try {
    (void)blockbloom::Filter::from_file_bytes(bytes.data(), bytes.size());
    ADD_FAILURE() << "a Parquet file with a seed loaded";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_FILTER_FILE_SEED);
  }
  std::remove(path.c_str());
}

TEST(FilterFileCpp, KuduFiltersKeepTheirSeed) {
  blockbloom::KuduFilter f(8, 4242);
  f.insert(17u);
  const std::vector<uint8_t> bytes = f.to_file_bytes(blockbloom::ValueType::parse("int64"));
  blockbloom::ValueType got;
  const blockbloom::KuduFilter g =
      blockbloom::KuduFilter::from_file_bytes(bytes.data(), bytes.size(), &got);
  EXPECT_TRUE(g == f);
  EXPECT_EQ(g.c_filter()->hash_seed, 4242u);
  EXPECT_TRUE(g.find(17u));
  EXPECT_TRUE(got.typed);
  EXPECT_EQ(got.type.physical_type, BB_PARQUET_INT64);
}

}  // namespace
