// SPDX-License-Identifier: Apache-2.0
// The C++ surface a Kudu BlockBloomFilter user needs (kudu.hpp), each
// member against the kudu.h call it wraps: the same hashes,
// sizes, directory bytes and fields, and the C call's status in the Error.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "blockbloom/hashing.h"
#include "blockbloom/kudu.h"
#include "blockbloom/kudu.hpp"
#include "blockbloom/sizing.h"
#include "support/thrown_status.h"

namespace {

constexpr std::uint32_t kSeed = 0x5eed;

std::vector<std::uint32_t> Hashes(std::uint32_t first, std::uint32_t count) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t v = first; v < first + count; ++v) out.push_back(bb_kudu_fasthash32(&v, 4, kSeed));
  return out;
}

std::vector<std::uint8_t> Bytes(const bb_filter& f) { return {f.data, f.data + f.num_bytes}; }

// The C filter of 2^log_space_bytes holding hashes (always-false if none).
struct CKudu {
  bb_filter f{};
  CKudu(std::int32_t log_space_bytes, const std::vector<std::uint32_t>& hashes) {
    EXPECT_EQ(bb_kudu_filter_init(&f, log_space_bytes, kSeed), BB_OK);
    EXPECT_EQ(bb_kudu_insert_batch(&f, hashes.data(), hashes.size()), BB_OK);
  }
  ~CKudu() { bb_filter_release(&f); }
};

blockbloom::KuduFilter Holding(std::int32_t log_space_bytes,
                               const std::vector<std::uint32_t>& hashes) {
  blockbloom::KuduFilter f(log_space_bytes, kSeed);
  f.insert_batch(hashes.data(), hashes.size());
  return f;
}

// The C rule for one value: bb_kudu_hash_column, one row.
template <typename T>
std::uint32_t ColumnHash(bb_column_type type, T value, std::uint32_t seed) {
  bb_column col = BB_COLUMN_INIT;
  col.type = type;
  col.length = 1;
  col.values = &value;
  std::uint32_t hash = 0;
  std::size_t n = 0;
  EXPECT_EQ(bb_kudu_hash_column(&col, seed, &hash, &n), BB_OK);
  EXPECT_EQ(n, 1u);
  return hash;
}

TEST(CppKuduHash, TypedValuesAreTheColumnHashOfTheirKuduCell) {
  EXPECT_EQ(blockbloom::kudu_hash(std::int8_t{-3}, kSeed), ColumnHash(BB_TYPE_INT8, std::int8_t{-3}, kSeed));
  EXPECT_EQ(blockbloom::kudu_hash(std::int16_t{-3}, kSeed),
            ColumnHash(BB_TYPE_INT16, std::int16_t{-3}, kSeed));
  EXPECT_EQ(blockbloom::kudu_hash(std::int32_t{77}, kSeed), ColumnHash(BB_TYPE_INT32, 77, kSeed));
  EXPECT_EQ(blockbloom::kudu_hash(std::int64_t{77}, kSeed),
            ColumnHash(BB_TYPE_INT64, std::int64_t{77}, kSeed));
  EXPECT_EQ(blockbloom::kudu_hash(1.5f), ColumnHash(BB_TYPE_FLOAT, 1.5f, 0));
  EXPECT_EQ(blockbloom::kudu_hash(1.5), ColumnHash(BB_TYPE_DOUBLE, 1.5, 0));
  // The cell's width counts: an int8 is 1 byte, not the 4 of an int32.
  const std::int8_t one = 1;
  EXPECT_EQ(blockbloom::kudu_hash(one, kSeed), bb_kudu_fasthash32(&one, 1, kSeed));
  EXPECT_NE(blockbloom::kudu_hash(one, kSeed), blockbloom::kudu_hash(std::int32_t{1}, kSeed));
}

TEST(CppKuduHash, UnsignedValuesThrowTypeNotInLayout) {
  EXPECT_EQ(ThrownStatus([] { blockbloom::kudu_hash(std::uint32_t{1}); }),
            BB_ERR_TYPE_NOT_IN_LAYOUT);
  EXPECT_EQ(ThrownStatus([] { blockbloom::kudu_hash(std::uint64_t{1}); }),
            BB_ERR_TYPE_NOT_IN_LAYOUT);
}

TEST(CppKuduHash, BytesStringsAndNullAreFastHash32) {
  const std::string s = "kudu";
  EXPECT_EQ(blockbloom::kudu_hash(s, kSeed), bb_kudu_fasthash32(s.data(), 4, kSeed));
  EXPECT_EQ(blockbloom::kudu_hash_bytes(s.data(), 2, kSeed), bb_kudu_fasthash32(s.data(), 2, kSeed));
  EXPECT_EQ(blockbloom::kudu_hash_null(kSeed), bb_kudu_fasthash32(nullptr, 0, kSeed));
  // Kudu's rules tell a null cell from an empty one.
  EXPECT_NE(blockbloom::kudu_hash_null(kSeed), blockbloom::kudu_hash(std::string_view(""), kSeed));
}

TEST(CppKuduHash, HashColumnIsBbKuduHashColumn) {
  const std::int64_t values[3] = {1, 2, 3};
  const std::uint8_t validity[1] = {0x5};  // row 1 null
  const blockbloom::Column col = blockbloom::Column::of(values, 3).with_validity(validity, 0);
  std::uint32_t expected[3] = {0, 0, 0}, got[3] = {0, 0, 0};
  std::size_t n = 0;
  ASSERT_EQ(bb_kudu_hash_column(&col, kSeed, expected, &n), BB_OK);
  EXPECT_EQ(blockbloom::kudu_hash_column(col, kSeed, got), n);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(got[0], expected[0]);
  EXPECT_EQ(got[1], expected[1]);
}

TEST(CppKuduFilter, ConstructorAndForNdvAreTheCInit) {
  const blockbloom::KuduFilter f(10, kSeed);
  const CKudu c(10, {});
  EXPECT_TRUE(f == blockbloom::KuduConstView(c.f.data, c.f.num_bytes, true, kSeed));
  EXPECT_EQ(f.num_bytes(), 1024u);
  EXPECT_TRUE(f.always_false());

  std::size_t bytes = 0;
  ASSERT_EQ(bb_bytes_for(100000, 0.01, BB_SIZE_KUDU, &bytes), BB_OK);
  const blockbloom::KuduFilter sized = blockbloom::KuduFilter::for_ndv(100000, 0.01, kSeed);
  EXPECT_EQ(sized.num_bytes(), bytes);
  EXPECT_EQ(std::size_t{1} << sized.log_space_bytes(), bytes);
  EXPECT_EQ(sized.hash_seed(), kSeed);

  EXPECT_EQ(ThrownStatus([] { blockbloom::KuduFilter(5); }), BB_ERR_LOG_SPACE_OUT_OF_RANGE);
  EXPECT_EQ(ThrownMessage([] { blockbloom::KuduFilter(5); }),
            std::string("a filter of log_space_bytes 5: ") + bb_status_message(BB_ERR_LOG_SPACE_OUT_OF_RANGE));
  // An empty build side: the smallest directory, as Kudu's MinLogSpace gives.
  const blockbloom::KuduFilter empty = blockbloom::KuduFilter::for_ndv(0, 0.01, kSeed);
  EXPECT_EQ(empty.num_bytes(), 64u);
  EXPECT_EQ(empty.log_space_bytes(), 6);
  EXPECT_EQ(ThrownStatus([] { blockbloom::KuduFilter::for_ndv(0, 1.0); }), BB_ERR_INVALID_FPP);
}

TEST(CppKuduFilter, InsertsAndProbesAreByteEqualToTheCCalls) {
  const std::vector<std::uint32_t> in = Hashes(0, 200), probe = Hashes(100, 200);
  const CKudu c(11, in);
  blockbloom::KuduFilter f(11, kSeed);
  f.insert(in[0]);
  f.insert_batch(in.data() + 1, in.size() - 1);
  EXPECT_EQ(Bytes(*f.c_filter()), Bytes(c.f));
  EXPECT_FALSE(f.always_false());
  EXPECT_TRUE(f.find(in[5]));

  std::vector<std::uint8_t> bitmap(25), c_bitmap(25);
  std::size_t c_hits = 0;
  ASSERT_EQ(bb_kudu_find_batch_bitmap(&c.f, probe.data(), 200, c_bitmap.data(), &c_hits), BB_OK);
  EXPECT_EQ(f.find_batch_bitmap(probe.data(), 200, bitmap.data()), c_hits);
  EXPECT_EQ(bitmap, c_bitmap);
  EXPECT_GE(c_hits, 100u);  // the 100 inserted ones at least

  std::vector<std::uint32_t> sel(200), c_sel(200);
  ASSERT_EQ(bb_kudu_find_batch_select(&c.f, probe.data(), 200, c_sel.data(), &c_hits), BB_OK);
  ASSERT_EQ(f.find_batch_select(probe.data(), 200, sel.data()), c_hits);
  EXPECT_EQ(std::vector<std::uint32_t>(sel.begin(), sel.begin() + static_cast<long>(c_hits)),
            std::vector<std::uint32_t>(c_sel.begin(), c_sel.begin() + static_cast<long>(c_hits)));

  // Pipeline probes: the even rows, then bitmap_and over all-live rows.
  std::vector<std::uint32_t> rows, c_rows;
  for (std::uint32_t r = 0; r < 200; r += 2) rows.push_back(r);
  c_rows = rows;
  ASSERT_EQ(bb_kudu_find_batch_select_from(&c.f, probe.data(), 200, c_rows.data(), c_rows.size(),
                                           c_rows.data(), &c_hits),
            BB_OK);
  EXPECT_EQ(f.find_batch_select_from(probe.data(), 200, rows.data(), rows.size(), rows.data()),
            c_hits);
  EXPECT_EQ(rows, c_rows);
  std::vector<std::uint8_t> live(25, 0xff), c_live(25, 0xff);
  ASSERT_EQ(bb_kudu_find_batch_bitmap_and(&c.f, probe.data(), 200, c_live.data(), &c_hits), BB_OK);
  EXPECT_EQ(f.find_batch_bitmap_and(probe.data(), 200, live.data()), c_hits);
  EXPECT_EQ(live, c_live);
}

TEST(CppKuduFilter, TypedColumnsHashWithTheFiltersSeed) {
  const std::int32_t values[4] = {10, 20, 30, 40};
  const blockbloom::Column col = blockbloom::Column::of(values, 4);
  blockbloom::KuduFilter f(8, kSeed);
  f.insert_column(col);
  for (std::int32_t v : values) EXPECT_TRUE(f.find(blockbloom::kudu_hash(v, kSeed)));
  CKudu c(8, {});
  ASSERT_EQ(bb_insert_column(&c.f, &col), BB_OK);
  EXPECT_EQ(Bytes(*f.c_filter()), Bytes(c.f));
  std::uint8_t bitmap[1] = {0};
  std::uint32_t sel[4] = {0, 0, 0, 0};
  EXPECT_EQ(f.find_column_bitmap(col, bitmap), 4u);
  EXPECT_EQ(bitmap[0], 0x0f);
  EXPECT_EQ(f.find_column_select(col, sel), 4u);
  const std::uint64_t unsigned_values[1] = {1};
  EXPECT_EQ(ThrownStatus([&] { f.insert_column(blockbloom::Column::of(unsigned_values, 1)); }),
            BB_ERR_TYPE_NOT_IN_LAYOUT);
}

TEST(CppKuduFilter, PartitionHashesIsBbKuduPartitionHashes) {
  const std::vector<std::uint32_t> in = Hashes(0, 64);
  const blockbloom::KuduFilter f(12, kSeed);
  std::vector<std::uint32_t> out(64), c_out(64);
  std::size_t counts[4] = {0, 0, 0, 0}, c_counts[4] = {0, 0, 0, 0};
  f.partition_hashes(in.data(), in.size(), 4, out.data(), counts);
  ASSERT_EQ(bb_kudu_partition_hashes(f.c_filter(), in.data(), in.size(), 4, c_out.data(), c_counts),
            BB_OK);
  EXPECT_EQ(out, c_out);
  EXPECT_EQ(std::vector<std::size_t>(counts, counts + 4),
            std::vector<std::size_t>(c_counts, c_counts + 4));
  EXPECT_EQ(ThrownStatus([&] { f.partition_hashes(in.data(), in.size(), 0, out.data(), counts); }),
            BB_ERR_INVALID_PARTITION);
}

TEST(CppKuduFilter, UnionAndIntersectAreTheCCallsAndHonourAlwaysFalse) {
  const std::vector<std::uint32_t> a = Hashes(0, 100), b = Hashes(50, 100);
  CKudu c_union(10, a), c_intersect(10, a);
  const CKudu c_b(10, b);
  ASSERT_EQ(bb_filter_union(&c_union.f, &c_b.f), BB_OK);
  ASSERT_EQ(bb_filter_intersect(&c_intersect.f, &c_b.f), BB_OK);
  blockbloom::KuduFilter fa = Holding(10, a), both = Holding(10, a);
  const blockbloom::KuduFilter fb = Holding(10, b);
  fa |= fb;
  both &= fb;
  EXPECT_EQ(Bytes(*fa.c_filter()), Bytes(c_union.f));
  EXPECT_EQ(Bytes(*both.c_filter()), Bytes(c_intersect.f));

  const blockbloom::KuduFilter empty(10, kSeed);
  blockbloom::KuduFilter unchanged = blockbloom::KuduFilter::copy_of(fa);
  unchanged |= empty;
  EXPECT_TRUE(unchanged == fa);
  unchanged &= empty;
  EXPECT_TRUE(unchanged.always_false());

  blockbloom::KuduFilter other_size(11, kSeed);
  EXPECT_EQ(ThrownStatus([&] { other_size |= fa; }), BB_ERR_FILTER_MISMATCH);
  EXPECT_EQ(ThrownStatus([&] { other_size &= fa; }), BB_ERR_FILTER_MISMATCH);
}

// The same values set other bits under another seed: a union would keep
// this filter's seed and lose everything the other held, so it is refused,
// naming both seeds, and the filter is left as it was.
TEST(CppKuduFilter, FiltersOfOtherHashSeedsAreNotCombined) {
  const std::vector<std::uint32_t> a = Hashes(0, 100);
  blockbloom::KuduFilter fa = Holding(10, a);
  const blockbloom::KuduFilter before = blockbloom::KuduFilter::copy_of(fa);
  blockbloom::KuduFilter other_seed(10, kSeed + 1);
  const std::uint32_t value = 7;
  other_seed.insert(bb_kudu_fasthash32(&value, 4, kSeed + 1));
  EXPECT_EQ(ThrownStatus([&] { fa |= other_seed; }), BB_ERR_FILTER_MISMATCH);
  EXPECT_EQ(ThrownStatus([&] { fa &= other_seed; }), BB_ERR_FILTER_MISMATCH);
  const std::string message = ThrownMessage([&] { fa |= other_seed; });
  EXPECT_NE(message.find("the Kudu filters differ in hash seed: " + std::to_string(kSeed) +
                         " and " + std::to_string(kSeed + 1)),
            std::string::npos)
      << message;
  EXPECT_TRUE(fa == before);
}

// max_ndv and for_ndv use one model (collisions of the 32-bit hash counted):
// the values a directory holds are sized into no larger a directory. Up to
// 1 MiB here (real directories); sizing_test checks every Kudu size.
TEST(CppKuduFilter, ForNdvOfMaxNdvFitsTheFilter) {
  for (std::int32_t log = BB_KUDU_MIN_LOG_SPACE_BYTES; log <= 20; ++log) {
    const blockbloom::KuduFilter f(log, kSeed);
    for (const double p : {1e-2, 1e-4, 1e-6}) {
      const std::uint64_t ndv = f.max_ndv(p);
      EXPECT_LE(blockbloom::KuduFilter::for_ndv(ndv, p).num_bytes(), f.num_bytes())
          << ndv << " values at " << p;
    }
  }
}

TEST(CppKuduFilter, DirectoryFieldsAreBbKuduExport) {
  const blockbloom::KuduFilter f = Holding(9, Hashes(0, 30));
  bb_kudu_directory d{};
  ASSERT_EQ(bb_kudu_export(f.c_filter(), &d), BB_OK);
  EXPECT_EQ(f.log_space_bytes(), d.log_space_bytes);
  EXPECT_EQ(f.always_false(), d.always_false != 0);
  EXPECT_EQ(f.hash_algorithm(), d.hash_algorithm);
  EXPECT_EQ(f.hash_algorithm(), BB_KUDU_HASH_FAST_HASH);
  EXPECT_EQ(f.hash_seed(), d.hash_seed);
  const blockbloom::KuduDirectory pb = f.to_directory();
  EXPECT_EQ(pb.log_space_bytes, 9);
  EXPECT_EQ(pb.bloom_data, std::vector<std::uint8_t>(d.bloom_data, d.bloom_data + d.bloom_data_size));
  EXPECT_FALSE(pb.always_false);
  EXPECT_EQ(pb.hash_seed, kSeed);
}

TEST(CppKuduFilter, FromDirectoryRoundTripsAndRefusesWhatImportRefuses) {
  const blockbloom::KuduFilter f = Holding(9, Hashes(0, 30));
  const blockbloom::KuduFilter back = blockbloom::KuduFilter::from_directory(f.to_directory());
  EXPECT_TRUE(back == f);
  EXPECT_NE(back.data(), f.data());  // a copy
  // A new filter's always-false state goes through the directory too.
  const blockbloom::KuduDirectory empty = blockbloom::KuduFilter(9, kSeed).to_directory();
  EXPECT_TRUE(empty.always_false);
  EXPECT_TRUE(blockbloom::KuduFilter::from_directory(empty).always_false());

  blockbloom::KuduDirectory bad = f.to_directory();
  bad.hash_algorithm = 2;
  EXPECT_EQ(ThrownStatus([&] { blockbloom::KuduFilter::from_directory(bad); }),
            BB_ERR_UNSUPPORTED_HASH);
  bad = f.to_directory();
  bad.bloom_data.resize(256);
  EXPECT_EQ(ThrownStatus([&] { blockbloom::KuduFilter::from_directory(bad); }),
            BB_ERR_DIRECTORY_SIZE_MISMATCH);
  bad = f.to_directory();
  bad.log_space_bytes = 40;
  EXPECT_NE(ThrownStatus([&] { blockbloom::KuduFilter::from_directory(bad); }), BB_OK);
}

TEST(CppKuduFilter, ViewsWrapTheCallersDirectory) {
  const std::vector<std::uint32_t> in = Hashes(0, 40);
  std::vector<std::uint8_t> raw(256, 0);
  blockbloom::KuduView view(raw.data(), raw.size(), true, kSeed);
  view.insert_batch(in.data(), in.size());
  const CKudu c(8, in);
  EXPECT_EQ(raw, Bytes(c.f));  // written in place
  const blockbloom::KuduConstView readonly(raw.data(), raw.size(), false, kSeed);
  EXPECT_TRUE(readonly == view);
  EXPECT_TRUE(readonly.find(in[3]));
  view.clear();
  EXPECT_TRUE(view.always_false());
  EXPECT_EQ(ThrownStatus([&] { blockbloom::KuduView(raw.data(), 96, false, 0); }),
            BB_ERR_NOT_POWER_OF_TWO);
}

TEST(CppKuduFilter, SizingQuestionsAreTheCAnswers) {
  const blockbloom::KuduFilter f = Holding(12, Hashes(0, 500));
  double fpp = 0.0, ndv = 0.0;
  std::uint64_t max_ndv = 0, bits = 0;
  ASSERT_EQ(bb_fpp(500, 4096, &fpp), BB_OK);
  ASSERT_EQ(bb_max_ndv_for(4096, 0.01, BB_SIZE_KUDU, &max_ndv), BB_OK);
  ASSERT_EQ(bb_filter_estimate_ndv(f.c_filter(), &bits, &ndv), BB_OK);
  EXPECT_EQ(f.fpp(500), fpp);
  EXPECT_EQ(f.max_ndv(0.01), max_ndv);
  EXPECT_EQ(f.estimated_ndv(), ndv);
  EXPECT_EQ(f.bits_set(), bits);
  EXPECT_EQ(blockbloom::KuduFilter(12, kSeed).estimated_ndv(), 0.0);  // always-false
}

TEST(CppKuduFilter, AMovedFromFilterThrowsNullPointer) {
  blockbloom::KuduFilter a(8, kSeed);
  blockbloom::KuduFilter b(std::move(a));
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): the point
  EXPECT_EQ(ThrownStatus([&] { a.insert(1); }), BB_ERR_NULL_POINTER);
  EXPECT_EQ(ThrownStatus([&] { a.find(1); }), BB_ERR_NULL_POINTER);
  a = std::move(b);
  a.insert(1);
  EXPECT_TRUE(a.find(1));
}

}  // namespace
