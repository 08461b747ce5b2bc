// SPDX-License-Identifier: Apache-2.0
// bb_parquet_hash_column and bb_kudu_hash_column: every column type against
// the bytes tests/support/column_cases.h writes down for it (libxxhash's XXH64 /
// FastHash32 of the plain encoding or the Kudu cell), on every tier; null
// rows left out, validity at every bit offset; in-place hashing; byte arrays
// with 64-bit offsets beyond 4 GiB.
#include <sys/mman.h>

#include <algorithm>

#include "support/column_cases.h"

namespace {

using coltest::AllCases;
using coltest::Case;
using coltest::CasePtr;
using coltest::MakeValidity;
using coltest::Validity;

constexpr size_t kRows = 2500;  // two whole chunks of 1024 rows and a part
const uint32_t kSeeds[] = {0, 0x9747b28cu};

class ColumnHash : public coltest::PerTier {};

TEST_P(ColumnHash, ParquetHashOfEveryTypeIsXxh64OfItsPlainEncoding) {
  for (const CasePtr& c : AllCases(kRows)) {
    std::vector<uint64_t> hashes(kRows, 0);
    size_t num = 0;
    ASSERT_EQ(bb_parquet_hash_column(&c->col, hashes.data(), &num), BB_OK) << c->name;
    ASSERT_EQ(num, kRows) << c->name;
    for (size_t i = 0; i < kRows; ++i) {
      ASSERT_EQ(hashes[i], c->ParquetHash(i)) << c->name << " row " << i;
    }
  }
}

TEST_P(ColumnHash, KuduHashOfEveryTypeIsFastHash32OfItsCellBytes) {
  for (const CasePtr& c : AllCases(kRows)) {
    for (uint32_t seed : kSeeds) {
      std::vector<uint32_t> hashes(kRows, 7);
      size_t num = 12345;
      const int status = bb_kudu_hash_column(&c->col, seed, hashes.data(), &num);
      if (!c->kudu) {
        // Kudu has no such type: refused, nothing written.
        ASSERT_EQ(status, BB_ERR_TYPE_NOT_IN_LAYOUT) << c->name;
        EXPECT_EQ(num, 12345u);
        EXPECT_TRUE(std::all_of(hashes.begin(), hashes.end(), [](uint32_t h) { return h == 7; }));
        continue;
      }
      ASSERT_EQ(status, BB_OK) << c->name;
      ASSERT_EQ(num, kRows);
      for (size_t i = 0; i < kRows; ++i) {
        ASSERT_EQ(hashes[i], c->KuduHash(i, seed)) << c->name << " seed " << seed << " row " << i;
      }
    }
  }
}

TEST_P(ColumnHash, EveryLengthUpToAFewVectorsAndAcrossAChunkBoundary) {
  std::vector<size_t> lengths;
  for (size_t n = 0; n <= 40; ++n) lengths.push_back(n);
  for (size_t n : {1023, 1024, 1025, 2047, 2048, 2049}) lengths.push_back(n);
  for (const CasePtr& c : AllCases(2049)) {
    for (size_t n : lengths) {
      bb_column col = c->col;
      col.length = n;
      std::vector<uint64_t> hashes(n + 1, 0x5a5a);
      size_t num = 0;
      ASSERT_EQ(bb_parquet_hash_column(&col, hashes.data(), &num), BB_OK);
      ASSERT_EQ(num, n);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(hashes[i], c->ParquetHash(i)) << c->name << " n " << n;
      EXPECT_EQ(hashes[n], 0x5a5au) << c->name << " n " << n << ": wrote past the column";
      if (!c->kudu) continue;
      std::vector<uint32_t> kudu(n + 1, 0x5a5a);
      ASSERT_EQ(bb_kudu_hash_column(&col, 3, kudu.data(), &num), BB_OK);
      ASSERT_EQ(num, n);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(kudu[i], c->KuduHash(i, 3)) << c->name << " n " << n;
      EXPECT_EQ(kudu[n], 0x5a5au);
    }
  }
}

// The hashes of the valid rows, in row order, and nothing after them.
TEST_P(ColumnHash, NullRowsAreLeftOutAtEveryValidityBitOffset) {
  for (const CasePtr& c : AllCases(kRows)) {
    for (int pattern = 0; pattern < 5; ++pattern) {
      for (size_t offset : {0, 1, 2, 3, 4, 5, 6, 7, 64, 1000003}) {
        const Validity v = MakeValidity(kRows, offset, pattern, 77 * pattern + offset);
        bb_column col = c->col;
        col.validity = v.bytes.data();
        col.validity_offset = offset;
        std::vector<uint64_t> expected;
        std::vector<uint32_t> expected_kudu;
        for (size_t i = 0; i < kRows; ++i) {
          if (!v.Valid(i)) continue;
          expected.push_back(c->ParquetHash(i));
          if (c->kudu) expected_kudu.push_back(c->KuduHash(i, 99));
        }
        std::vector<uint64_t> hashes(kRows, 0x77);
        size_t num = 0;
        ASSERT_EQ(bb_parquet_hash_column(&col, hashes.data(), &num), BB_OK);
        ASSERT_EQ(num, v.CountValid()) << c->name << " pattern " << pattern << " offset " << offset;
        ASSERT_TRUE(std::equal(expected.begin(), expected.end(), hashes.begin()))
            << c->name << " pattern " << pattern << " offset " << offset;
        EXPECT_TRUE(std::all_of(hashes.begin() + num, hashes.end(), [](uint64_t h) { return h == 0x77; }))
            << "entries past *num_hashes were written";
        if (!c->kudu) continue;
        std::vector<uint32_t> kudu(kRows, 0x77);
        ASSERT_EQ(bb_kudu_hash_column(&col, 99, kudu.data(), &num), BB_OK);
        ASSERT_EQ(num, expected_kudu.size());
        ASSERT_TRUE(std::equal(expected_kudu.begin(), expected_kudu.end(), kudu.begin()))
            << c->name << " pattern " << pattern << " offset " << offset;
      }
    }
  }
}

TEST_P(ColumnHash, WithoutAValidityBitmapItsOffsetIsIgnoredAndNumHashesMayBeNull) {
  for (const CasePtr& c : AllCases(100)) {
    bb_column col = c->col;
    col.validity_offset = SIZE_MAX;  // meaningless without a bitmap
    std::vector<uint64_t> hashes(100);
    ASSERT_EQ(bb_parquet_hash_column(&col, hashes.data(), nullptr), BB_OK) << c->name;
    for (size_t i = 0; i < 100; ++i) ASSERT_EQ(hashes[i], c->ParquetHash(i)) << c->name;
  }
}

// Copies c's values into a buffer of Hash, hashes them in place with
// hash(col, buffer) and checks buffer[k] == expected(row k of the valid rows).
template <typename Hash, typename HashFn, typename Expected>
void ExpectHashedInPlace(const Case& c, const bb_column* validity_from, HashFn&& hash,
                         Expected&& expected) {
  const size_t bytes = c.size() * c.value_width;
  std::vector<Hash> buffer((bytes + sizeof(Hash) - 1) / sizeof(Hash));
  std::memcpy(buffer.data(), c.col.values, bytes);
  bb_column col = c.col;
  col.values = buffer.data();
  col.validity = validity_from->validity;
  col.validity_offset = validity_from->validity_offset;
  size_t num = 0;
  ASSERT_EQ(hash(&col, buffer.data(), &num), BB_OK) << c.name;
  size_t k = 0;
  for (size_t row = 0; row < c.size(); ++row) {
    if (col.validity != nullptr && !coltest::BitAt(col.validity, col.validity_offset + row)) continue;
    ASSERT_EQ(buffer[k], expected(row)) << c.name << " row " << row;
    ++k;
  }
  EXPECT_EQ(num, k) << c.name;
}

// hashes == values, as column.h allows when a value is at least as wide as
// a hash: 8 bytes for Parquet, 4 for Kudu. With and without nulls.
TEST_P(ColumnHash, InPlaceOverValuesAtLeastAsWideAsAHash) {
  size_t tested_parquet = 0, tested_kudu = 0;
  const Validity v = MakeValidity(kRows, 3, 0, 5);
  for (const CasePtr& c : AllCases(kRows)) {
    if (c->value_width == 0) continue;
    for (bool with_nulls : {false, true}) {
      bb_column validity = BB_COLUMN_INIT;
      validity.validity = with_nulls ? v.bytes.data() : nullptr;
      validity.validity_offset = v.offset;
      if (c->value_width >= 8) {
        ExpectHashedInPlace<uint64_t>(
            *c, &validity,
            [](const bb_column* col, uint64_t* h, size_t* num) { return bb_parquet_hash_column(col, h, num); },
            [&](size_t row) { return c->ParquetHash(row); });
        ++tested_parquet;
      }
      if (c->value_width >= 4 && c->kudu) {
        ExpectHashedInPlace<uint32_t>(
            *c, &validity,
            [](const bb_column* col, uint32_t* h, size_t* num) { return bb_kudu_hash_column(col, 1, h, num); },
            [&](size_t row) { return c->KuduHash(row, 1); });
        ++tested_kudu;
      }
    }
  }
  // int64, uint64, double, date64, time64, timestamp, int96, flba 8/12/16/17/33.
  EXPECT_EQ(tested_parquet, 2u * 12);
  EXPECT_GE(tested_kudu, 2u * 10);
}

COLTEST_INSTANTIATE_PER_TIER(ColumnHash);

// The narrow types and DATE64 are widened (or converted) before hashing: the
// same hash as the INT32 they become, on purpose (a reader probes an INT32
// column; the type it came from is not in the file).
TEST(ColumnHashWidening, NarrowIntegersHashAsTheInt32TheyBecome) {
  const int8_t i8[] = {-128, -1, 0, 127};
  const uint8_t u8[] = {0, 255, 128, 1};
  const int16_t i16[] = {-32768, -1, 0, 32767};
  const uint16_t u16[] = {0, 65535, 32768, 1};
  const int32_t as_i8[] = {-128, -1, 0, 127}, as_u8[] = {0, 255, 128, 1};
  const int32_t as_i16[] = {-32768, -1, 0, 32767}, as_u16[] = {0, 65535, 32768, 1};
  const struct {
    bb_column_type type;
    const void* values;
    const int32_t* wide;
  } cases[] = {{BB_TYPE_INT8, i8, as_i8},
               {BB_TYPE_UINT8, u8, as_u8},
               {BB_TYPE_INT16, i16, as_i16},
               {BB_TYPE_UINT16, u16, as_u16}};
  for (const auto& t : cases) {
    bb_column col = BB_COLUMN_INIT;
    col.type = t.type;
    col.length = 4;
    col.values = t.values;
    uint64_t hashes[4];
    ASSERT_EQ(bb_parquet_hash_column(&col, hashes, nullptr), BB_OK);
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(hashes[i], bb_parquet_hash_int32(t.wide[i])) << t.type;
  }
  // int8 -1 is the INT32 -1 for Parquet (sign-extended), but for Kudu the
  // single byte 0xff: different hashes from an INT32 -1 cell.
  bb_column col = BB_COLUMN_INIT;
  col.type = BB_TYPE_INT8;
  col.length = 1;
  col.values = &i8[1];
  uint32_t kudu = 0;
  ASSERT_EQ(bb_kudu_hash_column(&col, 0, &kudu, nullptr), BB_OK);
  const uint8_t byte = 0xff;
  const int32_t minus_one = -1;
  EXPECT_EQ(kudu, bb_kudu_fasthash32(&byte, 1, 0));
  EXPECT_NE(kudu, bb_kudu_fasthash32(&minus_one, 4, 0));
}

TEST(ColumnHashWidening, Date64HashesAsTheDaysArrowsWriterStores) {
  const int64_t day = 86400000;
  const int64_t ms[] = {0, day, 19000 * day, -day, day - 1, -1, -day - 1};
  const int32_t days[] = {0, 1, 19000, -1, 0, 0, -1};  // truncated toward zero
  bb_column col = BB_COLUMN_INIT;
  col.type = BB_TYPE_DATE64;
  col.length = 7;
  col.values = ms;
  uint64_t hashes[7];
  uint32_t kudu[7];
  ASSERT_EQ(bb_parquet_hash_column(&col, hashes, nullptr), BB_OK);
  ASSERT_EQ(bb_kudu_hash_column(&col, 5, kudu, nullptr), BB_OK);
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(hashes[i], bb_parquet_hash_int32(days[i])) << ms[i];
    EXPECT_EQ(kudu[i], bb_kudu_fasthash32(&days[i], 4, 5)) << ms[i];
  }
}

// Offsets past 4 GiB: the data is a 5 GiB sparse mapping of which only the
// pages holding the strings are touched.
TEST(ColumnHashLargeOffsets, SixtyFourBitOffsetsBeyondFourGiB) {
  const size_t span = (size_t{5} << 30) + 4096;
  void* map = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
  if (map == MAP_FAILED) GTEST_SKIP() << "cannot map 5 GiB of address space here";
  auto* data = static_cast<uint8_t*>(map);
  const int64_t base = (int64_t{1} << 32) + 4093;  // straddles a page boundary
  const std::string strings[] = {"beyond", "", "four gigabytes", "x"};
  std::vector<int64_t> offsets = {base};
  for (const std::string& s : strings) {
    std::memcpy(data + offsets.back(), s.data(), s.size());
    offsets.push_back(offsets.back() + static_cast<int64_t>(s.size()));
  }
  bb_column col = BB_COLUMN_INIT;
  col.type = BB_TYPE_LARGE_BYTE_ARRAY;
  col.length = 4;
  col.offsets = offsets.data();
  col.data = data;
  col.data_len = static_cast<size_t>(offsets.back());  // ends exactly at the last byte
  uint64_t hashes[4];
  uint32_t kudu[4];
  EXPECT_EQ(bb_parquet_hash_column(&col, hashes, nullptr), BB_OK);
  EXPECT_EQ(bb_kudu_hash_column(&col, 0, kudu, nullptr), BB_OK);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(hashes[i], XXH64(strings[i].data(), strings[i].size(), 0)) << i;
    EXPECT_EQ(kudu[i], coltest::KuduReference(strings[i], 0)) << i;
  }
  col.data_len -= 1;  // the last string now runs past the data
  EXPECT_EQ(bb_parquet_hash_column(&col, hashes, nullptr), BB_ERR_INVALID_OFFSETS);
  munmap(map, span);
}

}  // namespace
