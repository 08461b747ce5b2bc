// SPDX-License-Identifier: Apache-2.0
// The C++ surface an Arrow BlockSplitBloomFilter user needs (blockbloom.hpp),
// each member against the C call it wraps: the same
// sizes, hashes and bytes, and the C call's status in the Error it throws.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/blockbloom.hpp"
#include "blockbloom/column.h"
#include "blockbloom/hashing.h"
#include "blockbloom/parquet_format.h"
#include "blockbloom/sizing.h"
#include "support/thrown_status.h"

namespace {

std::vector<std::uint64_t> Hashes(std::int64_t first, std::int64_t count) {
  std::vector<std::uint64_t> out;
  for (std::int64_t v = first; v < first + count; ++v) out.push_back(bb_parquet_hash_int64(v));
  return out;
}

std::vector<std::uint8_t> Bytes(const blockbloom::ConstView& v) {
  return std::vector<std::uint8_t>(v.data(), v.data() + v.num_bytes());
}

// The C filter of num_bytes holding hashes.
struct CFilter {
  bb_filter f{};
  CFilter(std::size_t num_bytes, const std::vector<std::uint64_t>& hashes) {
    EXPECT_EQ(bb_filter_init(&f, num_bytes), BB_OK);
    EXPECT_EQ(bb_insert_batch(&f, hashes.data(), hashes.size()), BB_OK);
  }
  ~CFilter() { bb_filter_release(&f); }
  std::vector<std::uint8_t> Bytes() const { return {f.data, f.data + f.num_bytes}; }
};

// The C rule for one value of a column type: bb_parquet_hash_column, one row.
template <typename T>
std::uint64_t ColumnHash(bb_column_type type, T value) {
  bb_column col = BB_COLUMN_INIT;
  col.type = type;
  col.length = 1;
  col.values = &value;
  std::uint64_t hash = 0;
  std::size_t n = 0;
  EXPECT_EQ(bb_parquet_hash_column(&col, &hash, &n), BB_OK);
  EXPECT_EQ(n, 1u);
  return hash;
}

TEST(CppParquetHash, FourByteAndEightByteTypesAreTheCHashes) {
  for (std::int32_t v : {0, 1, -1, std::numeric_limits<std::int32_t>::min(), 123456789}) {
    EXPECT_EQ(blockbloom::parquet_hash(v), bb_parquet_hash_int32(v));
  }
  for (std::int64_t v : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{1} << 40,
                         std::numeric_limits<std::int64_t>::max()}) {
    EXPECT_EQ(blockbloom::parquet_hash(v), bb_parquet_hash_int64(v));
  }
  for (float v : {0.0f, -0.0f, 1.5f, std::numeric_limits<float>::quiet_NaN()}) {
    EXPECT_EQ(blockbloom::parquet_hash(v), bb_parquet_hash_float(v));
  }
  for (double v : {0.0, -0.0, 2.25, std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(blockbloom::parquet_hash(v), bb_parquet_hash_double(v));
  }
  // Distinct keys stay distinct: -0.0 is not +0.0 (hashed by their bits).
  EXPECT_NE(blockbloom::parquet_hash(-0.0), blockbloom::parquet_hash(0.0));
}

TEST(CppParquetHash, OtherIntegerTypesFollowTheColumnWideningRules) {
  EXPECT_EQ(blockbloom::parquet_hash(std::int8_t{-5}), ColumnHash(BB_TYPE_INT8, std::int8_t{-5}));
  EXPECT_EQ(blockbloom::parquet_hash(std::int16_t{-300}),
            ColumnHash(BB_TYPE_INT16, std::int16_t{-300}));
  EXPECT_EQ(blockbloom::parquet_hash(std::uint8_t{200}),
            ColumnHash(BB_TYPE_UINT8, std::uint8_t{200}));
  EXPECT_EQ(blockbloom::parquet_hash(std::uint16_t{60000}),
            ColumnHash(BB_TYPE_UINT16, std::uint16_t{60000}));
  EXPECT_EQ(blockbloom::parquet_hash(std::uint32_t{4000000000u}),
            ColumnHash(BB_TYPE_UINT32, std::uint32_t{4000000000u}));
  EXPECT_EQ(blockbloom::parquet_hash(std::uint64_t{1} << 63),
            ColumnHash(BB_TYPE_UINT64, std::uint64_t{1} << 63));
  EXPECT_EQ(blockbloom::parquet_hash(1234567890123LL), bb_parquet_hash_int64(1234567890123LL));
  // What those rules mean: int8 is the INT32 it widens to, uint32 the INT32
  // of its bits (a Parquet writer stores them so).
  EXPECT_EQ(blockbloom::parquet_hash(std::int8_t{-5}), bb_parquet_hash_int32(-5));
  EXPECT_EQ(blockbloom::parquet_hash(std::uint32_t{0xffffffffu}), bb_parquet_hash_int32(-1));
}

TEST(CppParquetHash, StringsAndBytesAreTheCByteHash) {
  const std::string s = "Arrow";
  EXPECT_EQ(blockbloom::parquet_hash(s), bb_parquet_hash_bytes(s.data(), s.size()));
  EXPECT_EQ(blockbloom::parquet_hash("Arrow"), bb_parquet_hash_bytes("Arrow", 5));
  EXPECT_EQ(blockbloom::parquet_hash(std::string_view()), bb_parquet_hash_bytes(nullptr, 0));
  const std::uint8_t raw[3] = {0, 255, 7};
  EXPECT_EQ(blockbloom::parquet_hash_bytes(raw, sizeof raw), bb_parquet_hash_bytes(raw, 3));
}

// A refused size is named in the message, as Python's Filter(num_bytes=33) names it.
TEST(CppSizeRefusal, ConstructorsNameTheSizeTheyRefused) {
  EXPECT_EQ(ThrownMessage([] { blockbloom::Filter(33); }),
            std::string("a filter of 33 bytes: ") + bb_status_message(BB_ERR_SIZE_NOT_MULTIPLE_OF_32));
  EXPECT_EQ(ThrownMessage([] { blockbloom::Filter(0); }),
            std::string("a filter of 0 bytes: ") + bb_status_message(BB_ERR_SIZE_ZERO));
  // Refused before it is asked for memory.
  static const bb_allocator never = {[](void*, std::size_t, std::size_t) -> void* { return nullptr; },
                                     [](void*, void*, std::size_t) {}, nullptr};
  EXPECT_EQ(ThrownMessage([] { blockbloom::Filter(100, never); }),
            std::string("a filter of 100 bytes: ") + bb_status_message(BB_ERR_SIZE_NOT_MULTIPLE_OF_32));
  alignas(64) static std::uint8_t bytes[96] = {};
  EXPECT_EQ(ThrownMessage([] { blockbloom::ConstView(bytes, 40); }),
            std::string("a view of 40 bytes: ") + bb_status_message(BB_ERR_SIZE_NOT_MULTIPLE_OF_32));
  EXPECT_EQ(ThrownMessage([] { blockbloom::View(bytes, 95); }),
            std::string("a view of 95 bytes: ") + bb_status_message(BB_ERR_SIZE_NOT_MULTIPLE_OF_32));
  EXPECT_EQ(ThrownStatus([] { blockbloom::View(bytes, 95); }), BB_ERR_SIZE_NOT_MULTIPLE_OF_32);
  EXPECT_EQ(ThrownMessage([] { blockbloom::Filter(64); }), "");
}

TEST(CppSizing, EnumValuesAreTheCKinds) {
  EXPECT_EQ(static_cast<int>(blockbloom::Sizing::parquet), BB_SIZE_PARQUET);
  EXPECT_EQ(static_cast<int>(blockbloom::Sizing::parquet_pow2), BB_SIZE_PARQUET_POW2);
  EXPECT_EQ(static_cast<int>(blockbloom::Sizing::kudu), BB_SIZE_KUDU);
  EXPECT_EQ(static_cast<int>(blockbloom::Sizing::parquet_safe), BB_SIZE_PARQUET_SAFE);
}

TEST(CppSizing, BytesForIsBbBytesForOfEachKindAndDefaultsToParquetSafe) {
  for (auto kind : {blockbloom::Sizing::parquet, blockbloom::Sizing::parquet_pow2,
                    blockbloom::Sizing::kudu, blockbloom::Sizing::parquet_safe}) {
    std::size_t expected = 0;
    ASSERT_EQ(bb_bytes_for(1000, 0.01, static_cast<bb_sizing>(kind), &expected), BB_OK);
    EXPECT_EQ(blockbloom::bytes_for(1000, 0.01, kind), expected);
  }
  EXPECT_EQ(blockbloom::bytes_for(1000, 0.01), 2048u);  // docs/sizing.md's SAFE value
  EXPECT_EQ(blockbloom::bytes_for(1000, 0.01, blockbloom::Sizing::parquet), 1344u);
}

// An empty build side sizes the smallest filter (bb_bytes_for), as Arrow's
// OptimalNumOfBytes does.
TEST(CppSizing, ZeroNdvIsTheSmallestFilter) {
  EXPECT_EQ(blockbloom::bytes_for(0, 0.01), 32u);
  EXPECT_EQ(blockbloom::bytes_for(0, 1e-9, blockbloom::Sizing::parquet), 32u);
  const blockbloom::Filter f = blockbloom::Filter::for_ndv(0, 0.01);
  EXPECT_EQ(f.num_bytes(), 32u);
  EXPECT_EQ(f.bits_set(), 0u);
}

TEST(CppSizing, BadTargetsThrowTheCCodes) {
  EXPECT_EQ(ThrownStatus([] { blockbloom::bytes_for(0, 0.0); }), BB_ERR_INVALID_FPP);
  EXPECT_EQ(ThrownStatus([] { blockbloom::bytes_for(10, 1.0); }), BB_ERR_INVALID_FPP);
  EXPECT_EQ(ThrownStatus([] { blockbloom::Filter::for_ndv(101977208, 0.01); }),
            BB_ERR_PARQUET_SIZE_LIMIT);
  EXPECT_EQ(ThrownStatus([] { blockbloom::Filter::for_ndv(10, -0.5); }), BB_ERR_INVALID_FPP);
}

TEST(CppSizing, ForNdvIsAZeroedFilterOfTheSizeBytesForGives) {
  for (auto kind : {blockbloom::Sizing::parquet, blockbloom::Sizing::parquet_safe}) {
    std::size_t expected = 0;
    ASSERT_EQ(bb_bytes_for(50000, 0.001, static_cast<bb_sizing>(kind), &expected), BB_OK);
    const blockbloom::Filter f = blockbloom::Filter::for_ndv(50000, 0.001, kind);
    EXPECT_EQ(f.num_bytes(), expected);
    EXPECT_EQ(f.bits_set(), 0u);
  }
}

TEST(CppSizing, FppMaxNdvAndEstimatedNdvAreTheCAnswersForTheFilter) {
  blockbloom::Filter f(4096);
  const std::vector<std::uint64_t> hashes = Hashes(0, 700);
  f.insert_batch(hashes.data(), hashes.size());

  double fpp = 0.0;
  ASSERT_EQ(bb_fpp(700, 4096, &fpp), BB_OK);
  EXPECT_EQ(f.fpp(700), fpp);
  std::uint64_t max_ndv = 0;
  ASSERT_EQ(bb_max_ndv(4096, 0.01, &max_ndv), BB_OK);
  EXPECT_EQ(f.max_ndv(0.01), max_ndv);
  std::uint64_t bits = 0;
  double ndv = 0.0;
  ASSERT_EQ(bb_filter_estimate_ndv(f.c_filter(), &bits, &ndv), BB_OK);
  EXPECT_EQ(f.estimated_ndv(), ndv);
  EXPECT_EQ(f.bits_set(), bits);
  EXPECT_GT(ndv, 600.0);  // the density implies about what went in
  EXPECT_LT(ndv, 800.0);
  EXPECT_EQ(ThrownStatus([&] { f.max_ndv(0.0); }), BB_ERR_INVALID_FPP);
}

TEST(CppCombine, UnionAndIntersectAreByteEqualToTheCCalls) {
  const std::vector<std::uint64_t> a = Hashes(0, 300), b = Hashes(200, 300);
  CFilter c_union(2048, a), c_intersect(2048, a);
  const CFilter c_b(2048, b);
  ASSERT_EQ(bb_filter_union(&c_union.f, &c_b.f), BB_OK);
  ASSERT_EQ(bb_filter_intersect(&c_intersect.f, &c_b.f), BB_OK);

  blockbloom::Filter fa(2048), fb(2048);
  fa.insert_batch(a.data(), a.size());
  fb.insert_batch(b.data(), b.size());
  blockbloom::Filter both = blockbloom::Filter::copy_of(fa);
  both &= fb;
  fa |= fb;
  EXPECT_EQ(Bytes(fa), c_union.Bytes());
  EXPECT_EQ(Bytes(both), c_intersect.Bytes());
  for (std::uint64_t h : b) EXPECT_TRUE(fa.find(h));

  // A view over someone else's bytes is combined in place too.
  std::vector<std::uint8_t> raw = Bytes(fb);
  blockbloom::View view(raw.data(), raw.size());
  view |= blockbloom::ConstView(c_union.f.data, c_union.f.num_bytes);
  EXPECT_EQ(raw, c_union.Bytes());
}

TEST(CppCombine, FiltersOfDifferentSizesThrowFilterMismatch) {
  blockbloom::Filter small(1024), large(2048);
  EXPECT_EQ(ThrownStatus([&] { small |= large; }), BB_ERR_FILTER_MISMATCH);
  EXPECT_EQ(ThrownStatus([&] { small &= large; }), BB_ERR_FILTER_MISMATCH);
  // The message says what differs, with both values.
  EXPECT_NE(ThrownMessage([&] { small |= large; })
                .find("the filters differ in size: 1024 and 2048 bytes"),
            std::string::npos);
}

TEST(CppParquetBytes, ToParquetBytesIsBbParquetFilterWrite) {
  blockbloom::Filter f = blockbloom::Filter::for_ndv(1000, 0.01);
  const std::vector<std::uint64_t> hashes = Hashes(0, 1000);
  f.insert_batch(hashes.data(), hashes.size());
  std::vector<std::uint8_t> expected(f.num_bytes() + BB_PARQUET_HEADER_MAX_BYTES);
  std::size_t written = 0;
  ASSERT_EQ(bb_parquet_filter_write(f.c_filter(), expected.data(), expected.size(), &written),
            BB_OK);
  expected.resize(written);
  EXPECT_EQ(f.to_parquet_bytes(), expected);
  EXPECT_EQ(f.to_parquet_bytes_any_size(), expected);  // the same for a safe size
}

TEST(CppParquetBytes, SizesReadersRefuseThrowUnlessAnySizeIsAsked) {
  blockbloom::Filter f(1344);  // 42 blocks: not a power of two
  EXPECT_EQ(ThrownStatus([&] { f.to_parquet_bytes(); }), BB_ERR_PARQUET_UNSAFE_SIZE);
  std::vector<std::uint8_t> expected(1344 + BB_PARQUET_HEADER_MAX_BYTES);
  std::size_t written = 0;
  ASSERT_EQ(bb_parquet_filter_write_any_size(f.c_filter(), expected.data(), expected.size(),
                                             &written),
            BB_OK);
  expected.resize(written);
  EXPECT_EQ(f.to_parquet_bytes_any_size(), expected);
}

TEST(CppParquetBytes, FromParquetBytesRoundTripsAndReportsWhatItConsumed) {
  blockbloom::Filter f(4096);
  const std::vector<std::uint64_t> hashes = Hashes(7, 500);
  f.insert_batch(hashes.data(), hashes.size());
  std::vector<std::uint8_t> bytes = f.to_parquet_bytes();
  const std::size_t serialized = bytes.size();
  bytes.push_back(0xab);  // what follows in a file is not read
  std::size_t consumed = 0;
  const blockbloom::Filter back =
      blockbloom::Filter::from_parquet_bytes(bytes.data(), bytes.size(), &consumed);
  EXPECT_EQ(consumed, serialized);
  EXPECT_TRUE(back == f);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(back.data()) % BB_ALLOC_ALIGNMENT, 0u);

  bb_filter c{};
  ASSERT_EQ(bb_parquet_filter_read(&c, bytes.data(), bytes.size(), nullptr), BB_OK);
  EXPECT_EQ(Bytes(back), std::vector<std::uint8_t>(c.data, c.data + c.num_bytes));
  bb_filter_release(&c);
}

TEST(CppParquetBytes, TruncatedOrMalformedInputThrowsTheReadersCode) {
  blockbloom::Filter f(1024);
  const std::vector<std::uint8_t> bytes = f.to_parquet_bytes();
  EXPECT_EQ(ThrownStatus([&] { blockbloom::Filter::from_parquet_bytes(bytes.data(), 2); }),
            BB_ERR_HEADER_TRUNCATED);
  EXPECT_EQ(ThrownStatus([&] {
              blockbloom::Filter::from_parquet_bytes(bytes.data(), bytes.size() - 1);
            }),
            BB_ERR_BITSET_TRUNCATED);
  EXPECT_EQ(ThrownStatus([&] {
              blockbloom::ConstView::parquet_in_place(bytes.data(), bytes.size() - 1);
            }),
            BB_ERR_BITSET_TRUNCATED);
  EXPECT_EQ(ThrownStatus([] { blockbloom::Filter::from_parquet_bytes(nullptr, 16); }),
            BB_ERR_NULL_POINTER);
}

TEST(CppParquetBytes, ParquetInPlaceProbesTheBitsetWhereItLies) {
  blockbloom::Filter f(2048);
  const std::vector<std::uint64_t> hashes = Hashes(0, 100);
  f.insert_batch(hashes.data(), hashes.size());
  std::vector<std::uint8_t> file(3, 0);  // the filter at an odd offset
  const std::vector<std::uint8_t> bytes = f.to_parquet_bytes();
  file.insert(file.end(), bytes.begin(), bytes.end());

  std::size_t header_bytes = 0, num_bytes = 0;
  ASSERT_EQ(bb_parquet_header_read(file.data() + 3, file.size() - 3, &header_bytes, &num_bytes),
            BB_OK);
  const blockbloom::ParquetHeader header = blockbloom::parquet_header(file.data() + 3,
                                                                      file.size() - 3);
  EXPECT_EQ(header.header_bytes, header_bytes);
  EXPECT_EQ(header.num_bytes, num_bytes);

  const blockbloom::ConstView view =
      blockbloom::ConstView::parquet_in_place(file.data() + 3, file.size() - 3);
  EXPECT_EQ(view.data(), file.data() + 3 + header_bytes);  // no copy
  EXPECT_EQ(view.num_bytes(), 2048u);
  EXPECT_TRUE(view == f);
  for (std::uint64_t h : hashes) EXPECT_TRUE(view.find(h));
}

}  // namespace
