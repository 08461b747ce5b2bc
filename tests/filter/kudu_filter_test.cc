// SPDX-License-Identifier: Apache-2.0
// The Kudu-layout filter API (sizes, always-false, layout checks) and
// union / intersect of filters, through the public API.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/hashing.h"
#include "blockbloom/kudu.h"
#include "support/oracle.h"

namespace {

std::vector<uint8_t> Bytes(const bb_filter& f) { return std::vector<uint8_t>(f.data, f.data + f.num_bytes); }

TEST(KuduFilter, InitTakesLogSpaceBytesWithinKudusRange) {
  bb_filter f;
  EXPECT_EQ(bb_kudu_filter_init(&f, 5, 0), BB_ERR_LOG_SPACE_OUT_OF_RANGE);
  EXPECT_EQ(bb_kudu_filter_init(&f, 36, 0), BB_ERR_LOG_SPACE_OUT_OF_RANGE);
  EXPECT_EQ(bb_kudu_filter_init(&f, -1, 0), BB_ERR_LOG_SPACE_OUT_OF_RANGE);
  EXPECT_EQ(bb_kudu_filter_init(nullptr, 6, 0), BB_ERR_NULL_POINTER);
  ASSERT_EQ(bb_kudu_filter_init(&f, 6, 1234), BB_OK);
  EXPECT_EQ(f.num_bytes, 64u);
  EXPECT_EQ(f.num_blocks, 2u);
  EXPECT_EQ(f.layout, static_cast<uint32_t>(BB_LAYOUT_KUDU));
  EXPECT_EQ(f.hash_seed, 1234u);
  EXPECT_NE(f.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(f.data) % 64, 0u);
  bb_filter_release(&f);
}

TEST(KuduFilter, CheckSizeNamesWhatIsWrongWithASize) {
  EXPECT_EQ(bb_kudu_filter_check_size(64), BB_OK);
  EXPECT_EQ(bb_kudu_filter_check_size(size_t{1} << 35), BB_OK);
  EXPECT_EQ(bb_kudu_filter_check_size(0), BB_ERR_SIZE_ZERO);
  EXPECT_EQ(bb_kudu_filter_check_size(96), BB_ERR_NOT_POWER_OF_TWO);
  EXPECT_EQ(bb_kudu_filter_check_size(32), BB_ERR_LOG_SPACE_OUT_OF_RANGE);
  EXPECT_EQ(bb_kudu_filter_check_size(size_t{1} << 36), BB_ERR_LOG_SPACE_OUT_OF_RANGE);
}

TEST(KuduFilter, ViewsRequireAPowerOfTwoOfAtLeast64Bytes) {
  std::vector<uint8_t> buffer(256, 0);
  bb_filter f;
  EXPECT_EQ(bb_kudu_filter_init_view(&f, buffer.data(), 0, 0, 0), BB_ERR_SIZE_ZERO);
  EXPECT_EQ(bb_kudu_filter_init_view(&f, buffer.data(), 96, 0, 0), BB_ERR_NOT_POWER_OF_TWO);
  EXPECT_EQ(bb_kudu_filter_init_view(&f, buffer.data(), 32, 0, 0), BB_ERR_LOG_SPACE_OUT_OF_RANGE);
  EXPECT_EQ(bb_kudu_filter_init_view(&f, buffer.data(), 40, 0, 0), BB_ERR_SIZE_NOT_MULTIPLE_OF_32);
  EXPECT_EQ(bb_kudu_filter_init_view(&f, nullptr, 64, 0, 0), BB_ERR_NULL_POINTER);
  EXPECT_EQ(f.data, nullptr);
  ASSERT_EQ(bb_kudu_filter_init_view(&f, buffer.data() + 1, 128, 0, 7), BB_OK);
  EXPECT_EQ(f.num_blocks, 4u);
  EXPECT_EQ(f.flags & BB_FILTER_ALWAYS_FALSE, 0u);
}

// The directory is mapped with no access at all: any read would fault.
TEST(KuduFilter, AlwaysFalseAnswersNoWithoutTouchingMemory) {
  void* map = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  bb_filter f;
  ASSERT_EQ(bb_kudu_filter_init_view_readonly(&f, map, 4096, 1, 0), BB_OK);
  const uint32_t hashes[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_EQ(bb_kudu_find(&f, 42), 0);
  uint8_t bitmap[2] = {0xff, 0xff};
  uint32_t selection[10];
  size_t hits = 99;
  ASSERT_EQ(bb_kudu_find_batch_bitmap(&f, hashes, 10, bitmap, &hits), BB_OK);
  EXPECT_EQ(hits, 0u);
  EXPECT_EQ(bitmap[0], 0);
  EXPECT_EQ(bitmap[1], 0);
  ASSERT_EQ(bb_kudu_find_batch_select(&f, hashes, 10, selection, &hits), BB_OK);
  EXPECT_EQ(hits, 0u);
  munmap(map, 4096);
}

TEST(KuduFilter, FirstInsertEndsAlwaysFalse) {
  bb_filter f;
  ASSERT_EQ(bb_kudu_filter_init(&f, 10, 0), BB_OK);
  EXPECT_EQ(bb_kudu_find(&f, 77), 0);
  ASSERT_EQ(bb_kudu_insert(&f, 77), BB_OK);
  EXPECT_EQ(f.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_EQ(bb_kudu_find(&f, 77), 1);
  bb_filter g;
  ASSERT_EQ(bb_kudu_filter_init(&g, 10, 0), BB_OK);
  ASSERT_EQ(bb_kudu_insert_batch(&g, nullptr, 0), BB_OK);  // inserting nothing keeps it
  EXPECT_NE(g.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  const uint32_t one = 77;
  ASSERT_EQ(bb_kudu_insert_batch(&g, &one, 1), BB_OK);
  EXPECT_EQ(g.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_EQ(Bytes(f), Bytes(g));
  bb_filter_release(&f);
  bb_filter_release(&g);
}

TEST(KuduFilter, CallsOfTheOtherLayoutAreRefused) {
  bb_filter kudu, parquet;
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 8, 0), BB_OK);
  ASSERT_EQ(bb_filter_init(&parquet, 256), BB_OK);
  uint8_t bitmap[1];
  uint32_t selection[1];
  const uint64_t h64 = 1;
  const uint32_t h32 = 1;
  EXPECT_EQ(bb_insert(&kudu, 1), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_find(&kudu, 1), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_insert_batch(&kudu, &h64, 1), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_find_batch_bitmap(&kudu, &h64, 1, bitmap, nullptr), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_find_batch_select(&kudu, &h64, 1, selection, nullptr), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_kudu_insert(&parquet, 1), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_kudu_find(&parquet, 1), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_kudu_insert_batch(&parquet, &h32, 1), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_kudu_find_batch_bitmap(&parquet, &h32, 1, bitmap, nullptr), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_kudu_find_batch_select(&parquet, &h32, 1, selection, nullptr), BB_ERR_LAYOUT_MISMATCH);
  bb_filter_release(&kudu);
  bb_filter_release(&parquet);
}

std::vector<std::string> SupportedIsas() {
  std::vector<std::string> out;
  std::stringstream in(bb_supported_isas());
  for (std::string isa; std::getline(in, isa, ',');) out.push_back(isa);
  return out;
}

TEST(KuduFilter, EverySelectableTierBuildsTheOraclesBytes) {
  const std::string before = bb_selected_isa();
  const std::vector<uint32_t> hashes = oracle::Hashes32(4242, 30000);
  std::vector<uint8_t> expected(size_t{1} << 15, 0);
  for (uint32_t h : hashes) oracle::KuduInsert(expected, h);
  for (const std::string& isa : SupportedIsas()) {
    ASSERT_EQ(bb_select_isa(isa.c_str()), BB_OK);
    bb_filter f;
    ASSERT_EQ(bb_kudu_filter_init(&f, 15, 0), BB_OK);
    ASSERT_EQ(bb_kudu_insert_batch(&f, hashes.data(), hashes.size()), BB_OK);
    EXPECT_EQ(Bytes(f), expected) << isa;
    bb_filter_release(&f);
  }
  ASSERT_EQ(bb_select_isa(before.c_str()), BB_OK);
}

TEST(Combine, UnionHoldsEveryKeyOfBothFilters) {
  bb_filter a, b;
  ASSERT_EQ(bb_filter_init(&a, 32 * 1000), BB_OK);
  ASSERT_EQ(bb_filter_init(&b, 32 * 1000), BB_OK);
  const std::vector<uint64_t> left = oracle::Hashes(1, 3000), right = oracle::Hashes(2, 3000);
  ASSERT_EQ(bb_insert_batch(&a, left.data(), left.size()), BB_OK);
  ASSERT_EQ(bb_insert_batch(&b, right.data(), right.size()), BB_OK);
  std::vector<uint8_t> expected(32 * 1000, 0);
  for (uint64_t h : left) oracle::Insert(expected, h);
  for (uint64_t h : right) oracle::Insert(expected, h);
  ASSERT_EQ(bb_filter_union(&a, &b), BB_OK);
  EXPECT_EQ(Bytes(a), expected);
  bb_filter_release(&a);
  bb_filter_release(&b);
}

TEST(Combine, IntersectKeepsOnlyBitsSetInBoth) {
  bb_filter a, b;
  ASSERT_EQ(bb_filter_init(&a, 64), BB_OK);
  ASSERT_EQ(bb_filter_init(&b, 64), BB_OK);
  std::memset(a.data, 0xf0, 64);
  std::memset(b.data, 0x3c, 64);
  ASSERT_EQ(bb_filter_intersect(&a, &b), BB_OK);
  EXPECT_EQ(Bytes(a), std::vector<uint8_t>(64, 0x30));
  bb_filter_release(&a);
  bb_filter_release(&b);
}

TEST(Combine, MismatchedShapesAndReadOnlyTargetsAreRefusedUntouched) {
  bb_filter a, b, kudu, ro;
  ASSERT_EQ(bb_filter_init(&a, 64), BB_OK);
  ASSERT_EQ(bb_filter_init(&b, 128), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 6, 0), BB_OK);
  std::vector<uint8_t> bytes(64, 0x11);
  ASSERT_EQ(bb_filter_init_view_readonly(&ro, bytes.data(), 64), BB_OK);
  std::memset(a.data, 0x22, 64);
  EXPECT_EQ(bb_filter_union(&a, &b), BB_ERR_FILTER_MISMATCH);
  EXPECT_EQ(bb_filter_intersect(&a, &b), BB_ERR_FILTER_MISMATCH);
  EXPECT_EQ(bb_filter_union(&a, &kudu), BB_ERR_FILTER_MISMATCH);  // same size, other layout
  EXPECT_EQ(bb_filter_union(&ro, &a), BB_ERR_READ_ONLY);
  EXPECT_EQ(bb_filter_union(&a, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_filter_union(nullptr, &a), BB_ERR_NULL_POINTER);
  EXPECT_EQ(Bytes(a), std::vector<uint8_t>(64, 0x22));
  EXPECT_EQ(bytes, std::vector<uint8_t>(64, 0x11));
  ASSERT_EQ(bb_filter_union(&a, &ro), BB_OK);  // a read-only source is fine
  EXPECT_EQ(Bytes(a), std::vector<uint8_t>(64, 0x33));
  for (bb_filter* f : {&a, &b, &kudu}) bb_filter_release(f);
}

// A Kudu value's bits depend on the filter's hash seed: filters of two seeds
// cannot be combined (a union used to keep dst's seed and lose every value
// src held). Refused both ways, nothing written; bb_filter_mismatch names
// the seeds.
TEST(Combine, KuduFiltersOfOtherHashSeedsAreRefusedUntouched) {
  bb_filter a, b;
  ASSERT_EQ(bb_kudu_filter_init(&a, 6, 1), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&b, 6, 2), BB_OK);
  const uint32_t value = 42;
  ASSERT_EQ(bb_kudu_insert(&a, bb_kudu_fasthash32(&value, 4, 1)), BB_OK);
  ASSERT_EQ(bb_kudu_insert(&b, bb_kudu_fasthash32(&value, 4, 2)), BB_OK);
  const std::vector<uint8_t> a_bytes = Bytes(a), b_bytes = Bytes(b);
  EXPECT_EQ(bb_filter_union(&a, &b), BB_ERR_FILTER_MISMATCH);
  EXPECT_EQ(bb_filter_intersect(&a, &b), BB_ERR_FILTER_MISMATCH);
  EXPECT_EQ(bb_filter_union(&b, &a), BB_ERR_FILTER_MISMATCH);
  EXPECT_EQ(Bytes(a), a_bytes);
  EXPECT_EQ(Bytes(b), b_bytes);
  EXPECT_EQ(a.hash_seed, 1u);
  EXPECT_EQ(bb_kudu_find(&b, bb_kudu_fasthash32(&value, 4, 2)), 1);  // still holds its value

  char reason[80];
  EXPECT_EQ(bb_filter_mismatch(&a, &b, reason, sizeof reason), BB_ERR_FILTER_MISMATCH);
  EXPECT_STREQ(reason, "the Kudu filters differ in hash seed: 1 and 2");
  for (bb_filter* f : {&a, &b}) bb_filter_release(f);
}

TEST(Combine, MismatchNamesWhatDiffersWithBothValues) {
  bb_filter p64, p128, k64, k64_same;
  ASSERT_EQ(bb_filter_init(&p64, 64), BB_OK);
  ASSERT_EQ(bb_filter_init(&p128, 128), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&k64, 6, 9), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&k64_same, 6, 9), BB_OK);
  char reason[80] = "x";
  EXPECT_EQ(bb_filter_mismatch(&p64, &p128, reason, sizeof reason), BB_ERR_FILTER_MISMATCH);
  EXPECT_STREQ(reason, "the filters differ in size: 64 and 128 bytes");
  EXPECT_EQ(bb_filter_mismatch(&p64, &k64, reason, sizeof reason), BB_ERR_FILTER_MISMATCH);
  EXPECT_STREQ(reason, "the filters differ in layout: Parquet and Kudu");
  EXPECT_EQ(bb_filter_mismatch(&k64, &k64_same, reason, sizeof reason), BB_OK);
  EXPECT_STREQ(reason, "");
  EXPECT_EQ(bb_filter_union(&k64, &k64_same), BB_OK);  // same seed: combined
  // Cut to the capacity, NUL-terminated; no buffer at all is fine.
  EXPECT_EQ(bb_filter_mismatch(&p64, &p128, reason, 12), BB_ERR_FILTER_MISMATCH);
  EXPECT_STREQ(reason, "the filters");
  EXPECT_EQ(bb_filter_mismatch(&p64, &p128, nullptr, 0), BB_ERR_FILTER_MISMATCH);
  EXPECT_EQ(bb_filter_mismatch(nullptr, &p128, reason, sizeof reason), BB_ERR_NULL_POINTER);
  for (bb_filter* f : {&p64, &p128, &k64, &k64_same}) bb_filter_release(f);
}

// Overlapping views: the decision is to refuse partly overlapping bitsets
// (BB_ERR_FILTERS_OVERLAP, nothing written) and to allow exactly the same
// bytes (a no-op on the bits). Checked on every tier this CPU can run, since
// the bytes an overlapping combine gave used to differ between tiers.
TEST(Combine, PartlyOverlappingViewsAreRefusedOnEveryTierAndNothingIsWritten) {
  const std::string before = bb_selected_isa();
  constexpr size_t kBytes = 32 * 64;  // 2048: also a valid Kudu size
  std::vector<uint8_t> buffer(3 * kBytes);
  for (size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<uint8_t>(i * 37 + 11);
  const std::vector<uint8_t> original = buffer;
  uint8_t* const mid = buffer.data() + kBytes;
  for (const std::string& isa : SupportedIsas()) {
    ASSERT_EQ(bb_select_isa(isa.c_str()), BB_OK);
    // src before and after dst, overlapping by all but one byte down to one byte.
    for (ptrdiff_t shift : {ptrdiff_t{1}, ptrdiff_t{-1}, ptrdiff_t{8}, ptrdiff_t{32}, ptrdiff_t{-32},
                            ptrdiff_t{64}, ptrdiff_t{kBytes / 2}, -ptrdiff_t{kBytes / 2},
                            ptrdiff_t{kBytes - 32}, ptrdiff_t{kBytes - 1}, -ptrdiff_t{kBytes - 1}}) {
      bb_filter dst, src, kdst, ksrc;
      ASSERT_EQ(bb_filter_init_view(&dst, mid, kBytes), BB_OK);
      ASSERT_EQ(bb_filter_init_view_readonly(&src, mid + shift, kBytes), BB_OK);
      ASSERT_EQ(bb_kudu_filter_init_view(&kdst, mid, kBytes, 0, 0), BB_OK);
      ASSERT_EQ(bb_kudu_filter_init_view(&ksrc, mid + shift, kBytes, 0, 0), BB_OK);
      EXPECT_EQ(bb_filter_union(&dst, &src), BB_ERR_FILTERS_OVERLAP) << isa << " " << shift;
      EXPECT_EQ(bb_filter_intersect(&dst, &src), BB_ERR_FILTERS_OVERLAP) << isa << " " << shift;
      EXPECT_EQ(bb_filter_union(&kdst, &ksrc), BB_ERR_FILTERS_OVERLAP) << isa << " " << shift;
      EXPECT_EQ(bb_filter_intersect(&kdst, &ksrc), BB_ERR_FILTERS_OVERLAP) << isa << " " << shift;
      EXPECT_EQ(bb_filter_union(&ksrc, &kdst), BB_ERR_FILTERS_OVERLAP) << isa << " " << shift;
      EXPECT_EQ(kdst.flags & BB_FILTER_ALWAYS_FALSE, 0u);
      ASSERT_EQ(buffer, original) << isa << " shift " << shift << ": bytes were written";
    }
    // The same bytes: accepted, and x | x == x & x == x.
    bb_filter a, b;
    ASSERT_EQ(bb_filter_init_view(&a, mid, kBytes), BB_OK);
    ASSERT_EQ(bb_filter_init_view(&b, mid, kBytes), BB_OK);
    EXPECT_EQ(bb_filter_union(&a, &a), BB_OK) << isa;
    EXPECT_EQ(bb_filter_intersect(&a, &b), BB_OK) << isa;
    EXPECT_EQ(buffer, original) << isa;
    // Adjacent, not overlapping: combined as usual.
    bb_filter next;
    ASSERT_EQ(bb_filter_init_view(&next, mid + kBytes, kBytes), BB_OK);
    EXPECT_EQ(bb_filter_union(&a, &next), BB_OK) << isa;
    for (size_t i = 0; i < kBytes; ++i) {
      ASSERT_EQ(mid[i], static_cast<uint8_t>(original[kBytes + i] | original[2 * kBytes + i])) << isa;
    }
    buffer = original;
  }
  ASSERT_EQ(bb_select_isa(before.c_str()), BB_OK);
}

TEST(Combine, KuduAlwaysFalseFiltersCombineAsEmptySets) {
  bb_filter full, empty;
  ASSERT_EQ(bb_kudu_filter_init(&full, 7, 0), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&empty, 7, 0), BB_OK);
  ASSERT_EQ(bb_kudu_insert(&full, 5), BB_OK);
  const std::vector<uint8_t> before = Bytes(full);

  ASSERT_EQ(bb_filter_union(&full, &empty), BB_OK);  // adding nothing changes nothing
  EXPECT_EQ(Bytes(full), before);
  EXPECT_EQ(bb_kudu_find(&full, 5), 1);

  ASSERT_EQ(bb_filter_union(&empty, &full), BB_OK);  // the empty one takes the other's keys
  EXPECT_EQ(empty.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_EQ(Bytes(empty), before);
  EXPECT_EQ(bb_kudu_find(&empty, 5), 1);

  bb_filter none;
  ASSERT_EQ(bb_kudu_filter_init(&none, 7, 0), BB_OK);
  ASSERT_EQ(bb_filter_intersect(&full, &none), BB_OK);  // nothing is in both
  EXPECT_NE(full.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_EQ(bb_kudu_find(&full, 5), 0);
  for (bb_filter* f : {&full, &empty, &none}) bb_filter_release(f);
}

}  // namespace
