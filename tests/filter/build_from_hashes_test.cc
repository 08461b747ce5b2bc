// SPDX-License-Identifier: Apache-2.0
// Whole builds (bb_build_from_hashes, bb_kudu_build_from_hashes, and the
// build_from_hashes kernels behind them): on every ISA, for any number of
// block ranges, they set exactly the bytes of scalar's batch insert, into
// filters that already hold bits, of block counts that are not powers of
// two, with ranges left empty; the public calls check their arguments and
// take their scratch from the filter's allocator, giving it all back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/blockbloom.hpp"
#include "blockbloom/kudu.h"
#include "blockbloom/kudu.hpp"
#include "src/filter/build_ops.h"
#include "support/isa_params.h"
#include "src/core/block_op.h"
#include "support/oracle.h"
#include "support/stress_scale.h"

namespace {

using BuildKernel64 = void (*)(uint8_t*, uint32_t, const uint64_t*, size_t, uint64_t*, uint32_t,
                               uint32_t, uint32_t);
using BuildKernel32 = void (*)(uint8_t*, uint32_t, const uint32_t*, size_t, uint32_t*, uint32_t,
                               uint32_t, uint32_t);
BuildKernel64 BuildOf(const bbi_kernel_table& t, uint64_t) { return t.build_from_hashes; }
BuildKernel32 BuildOf(const bbi_kernel_table& t, uint32_t) { return t.kudu_build_from_hashes; }
using InsertKernel64 = void (*)(uint8_t*, uint32_t, const uint64_t*, size_t);
using InsertKernel32 = void (*)(uint8_t*, uint32_t, const uint32_t*, size_t);
InsertKernel64 InsertOf(const bbi_kernel_table& t, uint64_t) { return t.insert_batch; }
InsertKernel32 InsertOf(const bbi_kernel_table& t, uint32_t) { return t.kudu_insert_batch; }

uint32_t BlockOf(uint64_t h, uint32_t blocks) { return blockbloom::internal::ParquetLayout::Block(h, blocks); }
uint32_t BlockOf(uint32_t h, uint32_t blocks) { return blockbloom::internal::KuduLayout::Block(h, blocks); }

// A filter that already holds some bits: a build adds to it, as an insert does.
std::vector<uint8_t> Prefilled(uint32_t blocks, uint64_t seed) {
  std::vector<uint8_t> bytes(32ull * blocks);
  const std::vector<uint64_t> noise = oracle::Hashes(seed, bytes.size() / 8);
  for (size_t i = 0; i < noise.size(); ++i) {
    const uint64_t sparse = noise[i] & (noise[i] >> 7) & (noise[i] >> 13);  // about 1 bit in 8
    std::memcpy(bytes.data() + 8 * i, &sparse, 8);
  }
  return bytes;
}

// The kernel's build in `parts` ranges against scalar's batch insert of the
// same keys into the same starting bytes; the hashes left unchanged and
// nothing written outside scratch[0 .. n), which starts `lead` elements
// into a 64-byte line (the buckets start at its first whole line). With
// runs > 1, the build is that many calls for disjoint runs of the ranges
// (as threads make it), one after the other, over one scratch.
template <class Hash>
void ExpectBuildEqualsInsert(const bbi_kernel_table& t, const bbi_kernel_table& scalar,
                             const std::vector<Hash>& hashes, uint32_t blocks, uint32_t parts,
                             size_t lead = 0, uint32_t runs = 1) {
  std::vector<uint8_t> built = Prefilled(blocks, blocks + parts);
  std::vector<uint8_t> inserted = built;
  InsertOf(scalar, Hash{})(inserted.data(), blocks, hashes.data(), hashes.size());
  const std::vector<Hash> before = hashes;
  constexpr size_t kLine = 64 / sizeof(Hash);
  constexpr Hash kGuard = static_cast<Hash>(0x5a5a5a5a5a5a5a5aull);
  std::vector<Hash> scratch(hashes.size() + 3 * kLine, kGuard);
  const size_t misalign = reinterpret_cast<uintptr_t>(scratch.data()) % 64 / sizeof(Hash);
  const size_t first = kLine + lead - misalign;  // lead elements past a line boundary
  for (uint32_t r = 0; r < runs; ++r) {
    BuildOf(t, Hash{})(built.data(), blocks, hashes.data(), hashes.size(), scratch.data() + first,
                       parts, static_cast<uint32_t>(uint64_t{parts} * r / runs),
                       static_cast<uint32_t>(uint64_t{parts} * (r + 1) / runs));
  }
  ASSERT_EQ(built, inserted) << "blocks " << blocks << ", parts " << parts << ", n "
                             << hashes.size() << ", lead " << lead << ", runs " << runs;
  // Threads may run the runs at once only if no two write one block: each
  // run alone into an empty filter, the blocks it set owned by it alone.
  std::vector<uint32_t> owner(blocks, runs);
  for (uint32_t r = 0; r < runs && runs > 1; ++r) {
    std::vector<uint8_t> alone(32ull * blocks);
    BuildOf(t, Hash{})(alone.data(), blocks, hashes.data(), hashes.size(), scratch.data() + first,
                       parts, static_cast<uint32_t>(uint64_t{parts} * r / runs),
                       static_cast<uint32_t>(uint64_t{parts} * (r + 1) / runs));
    for (uint32_t b = 0; b < blocks; ++b) {
      if (std::any_of(alone.begin() + 32 * b, alone.begin() + 32 * (b + 1), [](uint8_t x) { return x != 0; })) {
        ASSERT_EQ(owner[b], runs) << "block " << b << " written by runs " << owner[b] << " and " << r;
        owner[b] = r;
      }
    }
  }
  EXPECT_EQ(hashes, before);
  for (size_t i = 0; i < first; ++i) ASSERT_EQ(scratch[i], kGuard) << "before scratch, " << i;
  for (size_t i = first + hashes.size(); i < scratch.size(); ++i) {
    ASSERT_EQ(scratch[i], kGuard) << "past scratch + n, " << i - first - hashes.size();
  }
}

using BuildPerIsa = bbtest::PerIsa;

// Part counts on both sides of the write-combining scatter's range (64 ..
// 512) and of the range tests (8), block counts that are not powers of two
// (Parquet), sizes around the chunk (256).
TEST_P(BuildPerIsa, BuildsEqualScalarBatchInsertForEveryPartCount) {
  for (uint32_t blocks : {1u, 7u, 1000u, 65537u, 100003u}) {
    for (uint32_t parts : {1u, 2u, 3u, 8u, 9u, 33u, 63u, 64u, 65u, 511u, 512u}) {
      if (parts > blocks) continue;
      for (size_t n : {size_t{0}, size_t{1}, size_t{255}, size_t{257}, size_t{6001}}) {
        ExpectBuildEqualsInsert(kernels(), scalar(), oracle::Hashes(blocks * 7 + n, n), blocks, parts);
      }
    }
  }
  for (uint32_t blocks : {2u, 64u, 1024u, 65536u}) {
    for (uint32_t parts : {1u, 2u, 5u, 63u, 64u, 512u}) {
      if (parts > blocks) continue;
      for (size_t n : {size_t{0}, size_t{3}, size_t{257}, size_t{6001}}) {
        ExpectBuildEqualsInsert(kernels(), scalar(), oracle::Hashes32(blocks + n, n), blocks, parts);
      }
    }
  }
}

// Keys in only a few ranges (every other range empty, the first and the last
// among the empty ones), and keys all in one range.
TEST_P(BuildPerIsa, EmptyRangesBuildTheSameBytes) {
  const uint32_t blocks = 100003, parts = 64;
  const blockbloom::internal::PartLocator locate(parts, blocks);
  std::vector<uint64_t> few, one;
  std::vector<uint32_t> few32;
  for (uint64_t h : oracle::Hashes(5, 40000)) {
    const uint32_t part = locate.Part(BlockOf(h, blocks));
    if (part % 5 == 2 && part != parts - 1) few.push_back(h);
    if (part == 17) one.push_back(h);
  }
  const blockbloom::internal::PartLocator locate32(parts, 65536);
  for (uint32_t h : oracle::Hashes32(6, 40000)) {
    if (locate32.Part(BlockOf(h, 65536u)) % 7 == 3) few32.push_back(h);
  }
  ASSERT_GT(one.size(), 300u);
  ExpectBuildEqualsInsert(kernels(), scalar(), few, blocks, parts);
  ExpectBuildEqualsInsert(kernels(), scalar(), one, blocks, parts);
  ExpectBuildEqualsInsert(kernels(), scalar(), one, blocks, 512);
  ExpectBuildEqualsInsert(kernels(), scalar(), few32, 65536, parts);
}

// Builds in disjoint runs of the ranges (a thread's share each), runs not
// dividing the ranges evenly, more runs than ranges (empty runs).
TEST_P(BuildPerIsa, RunsOfRangesTogetherBuildTheSameBytes) {
  for (uint32_t runs : {2u, 3u, 7u}) {
    ExpectBuildEqualsInsert(kernels(), scalar(), oracle::Hashes(runs, 30000), 10007, 64, 1, runs);
    ExpectBuildEqualsInsert(kernels(), scalar(), oracle::Hashes(runs, 30000), 10007, 512, 0, runs);
    ExpectBuildEqualsInsert(kernels(), scalar(), oracle::Hashes(runs, 3000), 100, 5, 0, runs);
    ExpectBuildEqualsInsert(kernels(), scalar(), oracle::Hashes32(runs, 30000), 4096, 33, 2, runs);
  }
}

// Scratch at every element offset within a cache line, with enough keys a
// range that most lines reach their bucket (and some buckets overflow into
// the filter), both hash widths.
TEST_P(BuildPerIsa, ScratchAtAnyOffsetInALine) {
  for (size_t lead = 0; lead < 8; ++lead) {
    ExpectBuildEqualsInsert(kernels(), scalar(), oracle::Hashes(lead, 20000), 5003, 37, lead);
    ExpectBuildEqualsInsert(kernels(), scalar(), oracle::Hashes(lead, 20000), 5003, 512, lead);
  }
  for (size_t lead = 0; lead < 16; lead += 3) {
    ExpectBuildEqualsInsert(kernels(), scalar(), oracle::Hashes32(lead, 20000), 4096, 64, lead);
  }
}

// The partition the build rests on, at the combining scatter's part counts
// and sizes (outputs of 8 MiB and more), with outputs at offsets within a
// cache line: each part's keys in input order, counted, nothing written
// outside out.
TEST_P(BuildPerIsa, CombiningScatterKeepsInputOrderAtAnyOutputOffset) {
  const uint32_t blocks = 100003;
  const std::vector<uint64_t> hashes = oracle::Hashes(11, (size_t{8} << 20) / 8 + 1001);
  for (uint32_t parts : {64u, 100u, 512u}) {
    const blockbloom::internal::PartLocator locate(parts, blocks);
    std::vector<std::vector<uint64_t>> expected(parts);
    for (uint64_t h : hashes) expected[locate.Part(BlockOf(h, blocks))].push_back(h);
    for (size_t lead : {0u, 1u, 7u}) {
      std::vector<uint64_t> out(hashes.size() + 16, 0xabababababababab);
      std::vector<size_t> counts(parts);
      kernels().partition_hashes(blocks, hashes.data(), hashes.size(), parts, out.data() + lead,
                                 counts.data());
      size_t at = lead;
      for (uint32_t p = 0; p < parts; ++p) {
        ASSERT_EQ(counts[p], expected[p].size()) << "part " << p << ", lead " << lead;
        ASSERT_TRUE(std::equal(expected[p].begin(), expected[p].end(), out.begin() + at))
            << "part " << p << " of " << parts << ", lead " << lead;
        at += counts[p];
      }
      for (size_t i = 0; i < lead; ++i) EXPECT_EQ(out[i], 0xabababababababab) << "before out";
      for (size_t i = at; i < out.size(); ++i) EXPECT_EQ(out[i], 0xabababababababab) << "past n";
    }
  }
}

// Outputs of 8 MiB and more are written past the caches (streaming
// stores, whole aligned lines): the same grouping, for both hash widths,
// at an output that starts inside a line.
template <class Hash>
void ExpectStreamedPartition(const bbi_kernel_table& t, const std::vector<Hash>& hashes,
                             uint32_t blocks, uint32_t parts, size_t lead) {
  const blockbloom::internal::PartLocator locate(parts, blocks);
  std::vector<std::vector<Hash>> by_part(parts);
  for (Hash h : hashes) by_part[locate.Part(BlockOf(h, blocks))].push_back(h);
  std::vector<Hash> expected;
  std::vector<size_t> expected_counts;
  for (const std::vector<Hash>& part : by_part) {
    expected.insert(expected.end(), part.begin(), part.end());
    expected_counts.push_back(part.size());
  }
  std::vector<Hash> out(hashes.size() + lead + 1, static_cast<Hash>(0xabababababababab));
  std::vector<size_t> counts(parts);
  if constexpr (sizeof(Hash) == 8) {
    t.partition_hashes(blocks, hashes.data(), hashes.size(), parts, out.data() + lead, counts.data());
  } else {
    t.kudu_partition_hashes(blocks, hashes.data(), hashes.size(), parts, out.data() + lead, counts.data());
  }
  EXPECT_EQ(counts, expected_counts);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), out.begin() + lead));
  EXPECT_EQ(out.back(), static_cast<Hash>(0xabababababababab));
  for (size_t i = 0; i < lead; ++i) EXPECT_EQ(out[i], static_cast<Hash>(0xabababababababab));
}

TEST_P(BuildPerIsa, StreamedPartitionsOfLargeOutputsKeepTheGrouping) {
  ExpectStreamedPartition(kernels(), oracle::Hashes(21, (size_t{8} << 20) / 8 + 77), 100003, 100, 3);
  ExpectStreamedPartition(kernels(), oracle::Hashes32(22, (size_t{8} << 20) / 4 + 5), 1u << 16, 128, 5);
}

BB_INSTANTIATE_PER_ISA(BuildPerIsa);

// An allocator that counts what is outstanding (and can refuse).
struct Counting {
  size_t live_bytes = 0;
  size_t allocations = 0;
  bool refuse = false;
};
void* CountingAllocate(void* ctx, size_t bytes, size_t alignment) {
  auto* c = static_cast<Counting*>(ctx);
  if (c->refuse) return nullptr;
  void* p = aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
  if (p != nullptr) {
    c->live_bytes += bytes;
    ++c->allocations;
  }
  return p;
}
void CountingDeallocate(void* ctx, void* p, size_t bytes) {
  static_cast<Counting*>(ctx)->live_bytes -= bytes;
  free(p);
}

// The public calls partition only filters of BuildPartitionMinBytes() (1
// GiB, or twice a larger L3) and more, too large for a test: these run the same op with the
// partition from any size past two ranges.
int BuildPartitioned(bb_filter* f, const uint64_t* hashes, size_t n, uint64_t* scratch) {
  return blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_PARQUET>(f, hashes, n, scratch, 0, 1, 0);
}
int KuduBuildPartitioned(bb_filter* f, const uint32_t* hashes, size_t n, uint32_t* scratch) {
  return blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_KUDU>(f, hashes, n, scratch, 0, 1, 0);
}

// Filters of one range (a plain batch insert), of several, of a size that
// is no whole number of ranges, each built by the public call and by the
// partition, with the call's own scratch and the caller's: the bytes of
// bb_insert_batch.
TEST(BuildFromHashesApi, EqualsInsertBatchForEverySizeClass) {
  using Build = int (*)(bb_filter*, const uint64_t*, size_t, uint64_t*);
  for (size_t bytes : {size_t{1024}, size_t{2} << 20, (size_t{5} << 20) + 96}) {
    const size_t n = bytes / 32 * 3 + 5;
    const std::vector<uint64_t> hashes = oracle::Hashes(bytes, n);
    bb_filter a;
    ASSERT_EQ(bb_filter_init(&a, bytes), BB_OK);
    ASSERT_EQ(bb_insert_batch(&a, hashes.data(), n), BB_OK);
    for (Build build : {Build{&bb_build_from_hashes}, Build{&BuildPartitioned}}) {
      for (bool own_scratch : {true, false}) {
        bb_filter b;
        ASSERT_EQ(bb_filter_init(&b, bytes), BB_OK);
        std::vector<uint64_t> scratch(own_scratch ? 0 : n);
        ASSERT_EQ(build(&b, hashes.data(), n, own_scratch ? nullptr : scratch.data()), BB_OK);
        EXPECT_EQ(bb_filter_equal(&a, &b), 1) << bytes << (build == &BuildPartitioned ? " partitioned" : "")
                                              << (own_scratch ? ", own scratch" : "");
        bb_filter_release(&b);
      }
    }
    bb_filter_release(&a);
  }
  // Kudu: 4 MiB (4 ranges), starting always-false; the build clears it.
  const std::vector<uint32_t> hashes = oracle::Hashes32(9, 300000);
  bb_filter a, b, c;
  ASSERT_EQ(bb_kudu_filter_init(&a, 22, 7), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&b, 22, 7), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&c, 22, 7), BB_OK);
  ASSERT_EQ(bb_kudu_insert_batch(&a, hashes.data(), hashes.size()), BB_OK);
  ASSERT_EQ(bb_kudu_build_from_hashes(&b, hashes.data(), hashes.size(), nullptr), BB_OK);
  ASSERT_EQ(KuduBuildPartitioned(&c, hashes.data(), hashes.size(), nullptr), BB_OK);
  EXPECT_EQ(b.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_EQ(c.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_EQ(bb_filter_equal(&a, &b), 1);
  EXPECT_EQ(bb_filter_equal(&a, &c), 1);
  bb_filter_release(&a);
  bb_filter_release(&b);
  bb_filter_release(&c);
}

// The partition threshold follows the detected L3 upward only: a filter the
// L3 could hold twice over is never partitioned, and no L3 (or a small one)
// leaves the measured 1 GiB.
TEST(BuildFromHashesApi, PartitionThresholdIsTwiceTheL3AndNeverBelowOneGiB) {
  using blockbloom::internal::BuildPartitionMinBytesFor;
  using blockbloom::internal::kBuildPartitionMinBytes;
  EXPECT_EQ(kBuildPartitionMinBytes, size_t{1} << 30);
  EXPECT_EQ(BuildPartitionMinBytesFor(0), kBuildPartitionMinBytes);             // not reported
  EXPECT_EQ(BuildPartitionMinBytesFor(size_t{32} << 20), kBuildPartitionMinBytes);  // Zen 4
  EXPECT_EQ(BuildPartitionMinBytesFor(size_t{300} << 20), kBuildPartitionMinBytes);  // this Xeon
  EXPECT_EQ(BuildPartitionMinBytesFor(size_t{512} << 20), kBuildPartitionMinBytes);
  EXPECT_EQ(BuildPartitionMinBytesFor((size_t{512} << 20) + 64), (size_t{1} << 30) + 128);
  EXPECT_EQ(BuildPartitionMinBytesFor(size_t{1152} << 20), size_t{2304} << 20);  // 3D V-Cache
  EXPECT_GE(blockbloom::internal::BuildPartitionMinBytes(), kBuildPartitionMinBytes);
}

// More thread parts than ranges: a part with no range inserts nothing and
// takes no scratch (it used to map 8n bytes, and fail when it could not).
TEST(BuildFromHashesApi, APartWithNoRangesTakesNoScratch) {
  Counting counting;
  const bb_allocator allocator{&CountingAllocate, &CountingDeallocate, &counting};
  bb_filter f;
  ASSERT_EQ(bb_filter_init_with_allocator(&f, size_t{3} << 20, &allocator), BB_OK);
  const std::vector<uint64_t> hashes = oracle::Hashes(5, 100000);
  // 3 ranges over 7 parts: part 1 gets ranges [0, 0).
  ASSERT_EQ(blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_PARQUET>(&f, hashes.data(),
                                                                      hashes.size(), nullptr, 1,
                                                                      7, 0),
            BB_OK);
  EXPECT_EQ(counting.allocations, 1u) << "a scratch for a part with nothing to insert";
  bb_filter empty;
  ASSERT_EQ(bb_filter_init(&empty, size_t{3} << 20), BB_OK);
  EXPECT_EQ(bb_filter_equal(&f, &empty), 1) << "a part with no range inserted something";
  bb_filter_release(&empty);
  bb_filter_release(&f);
}

TEST(BuildFromHashesApi, TakesItsScratchFromTheFiltersAllocatorAndGivesItBack) {
  Counting counting;
  const bb_allocator allocator{&CountingAllocate, &CountingDeallocate, &counting};
  const size_t bytes = size_t{4} << 20;
  bb_filter f;
  ASSERT_EQ(bb_filter_init_with_allocator(&f, bytes, &allocator), BB_OK);
  ASSERT_EQ(counting.allocations, 1u);
  const std::vector<uint64_t> hashes = oracle::Hashes(3, 100001);
  // Below BuildPartitionMinBytes() the public call is a batch insert: no scratch.
  ASSERT_EQ(bb_build_from_hashes(&f, hashes.data(), hashes.size(), nullptr), BB_OK);
  EXPECT_EQ(counting.allocations, 1u) << "a scratch for an unpartitioned build";
  ASSERT_EQ(BuildPartitioned(&f, hashes.data(), hashes.size(), nullptr), BB_OK);
  EXPECT_EQ(counting.allocations, 2u) << "one scratch for the build";
  EXPECT_EQ(counting.live_bytes, bytes) << "the scratch was not given back";
  size_t hits = 0;
  std::vector<uint8_t> bitmap((hashes.size() + 7) / 8);
  ASSERT_EQ(bb_find_batch_bitmap(&f, hashes.data(), hashes.size(), bitmap.data(), &hits), BB_OK);
  EXPECT_EQ(hits, hashes.size());
  // Refused: out of memory, nothing inserted; a caller's scratch needs none.
  ASSERT_EQ(bb_filter_clear(&f), BB_OK);
  counting.refuse = true;
  EXPECT_EQ(BuildPartitioned(&f, hashes.data(), hashes.size(), nullptr), BB_ERR_OUT_OF_MEMORY);
  bb_filter empty;
  ASSERT_EQ(bb_filter_init(&empty, bytes), BB_OK);
  EXPECT_EQ(bb_filter_equal(&f, &empty), 1) << "a refused build wrote the filter";
  std::vector<uint64_t> scratch(hashes.size());
  EXPECT_EQ(BuildPartitioned(&f, hashes.data(), hashes.size(), scratch.data()), BB_OK);
  EXPECT_EQ(counting.allocations, 2u);
  bb_filter_release(&empty);
  bb_filter_release(&f);
  EXPECT_EQ(counting.live_bytes, 0u);
}

// Thread part t of T from T threads at once, over one scratch: the bytes of
// bb_insert_batch, partitioned (through the op) and not (the public call
// below its threshold: bb_insert_batch_partition's parts), both layouts.
TEST(BuildFromHashesApi, ThreadsEachBuildingTheirPartBuildTheSameBytes) {
  // Threads stall under qemu-aarch64 (stress_scale.h); the runs of ranges one
  // after the other (BuildPerIsa.RunsOfRangesTogetherBuildTheSameBytes) cover
  // the neon kernel there.
  if (const char* reason = bbtest::ThreadedTestSkipReason()) GTEST_SKIP() << reason;
  const size_t bytes = (size_t{5} << 20) + 96;
  const std::vector<uint64_t> hashes = oracle::Hashes(77, 400001);
  const std::vector<uint32_t> hashes32 = oracle::Hashes32(78, 400001);
  bb_filter a, ka;
  ASSERT_EQ(bb_filter_init(&a, bytes), BB_OK);
  ASSERT_EQ(bb_insert_batch(&a, hashes.data(), hashes.size()), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&ka, 22, 0), BB_OK);
  ASSERT_EQ(bb_kudu_insert_batch(&ka, hashes32.data(), hashes32.size()), BB_OK);
  for (uint32_t threads : {2u, 3u}) {
    for (bool partitioned : {true, false}) {
      const size_t min_bytes = partitioned ? 0 : blockbloom::internal::BuildPartitionMinBytes();
      bb_filter b, kb;
      ASSERT_EQ(bb_filter_init(&b, bytes), BB_OK);
      ASSERT_EQ(bb_kudu_filter_init(&kb, 22, 0), BB_OK);
      std::vector<uint64_t> scratch(hashes.size());
      std::vector<uint32_t> scratch32(hashes32.size());
      std::vector<int> status(2 * threads, -1);
      std::vector<std::thread> pool;
      for (uint32_t t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
          status[t] = blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_PARQUET>(
              &b, hashes.data(), hashes.size(), scratch.data(), t, threads, min_bytes);
          status[threads + t] = blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_KUDU>(
              &kb, hashes32.data(), hashes32.size(), scratch32.data(), t, threads, min_bytes);
        });
      }
      for (std::thread& th : pool) th.join();
      for (int s : status) EXPECT_EQ(s, BB_OK);
      EXPECT_EQ(bb_filter_equal(&a, &b), 1) << threads << " threads, partitioned " << partitioned;
      EXPECT_EQ(bb_filter_equal(&ka, &kb), 1) << threads << " threads, partitioned " << partitioned;
      bb_filter_release(&b);
      bb_filter_release(&kb);
    }
  }
  // The public calls, one thread after the other.
  bb_filter c;
  ASSERT_EQ(bb_filter_init(&c, bytes), BB_OK);
  for (uint32_t t = 0; t < 4; ++t) {
    ASSERT_EQ(bb_build_from_hashes_partition(&c, hashes.data(), hashes.size(), nullptr, t, 4), BB_OK);
  }
  EXPECT_EQ(bb_filter_equal(&a, &c), 1);
  bb_filter_release(&a);
  bb_filter_release(&ka);
  bb_filter_release(&c);
}

TEST(BuildFromHashesApi, RejectsBadArgumentsWithoutWriting) {
  const size_t bytes = size_t{3} << 20;
  bb_filter f, ro, kudu;
  ASSERT_EQ(bb_filter_init(&f, bytes), BB_OK);
  ASSERT_EQ(bb_filter_init_view_readonly(&ro, f.data, f.num_bytes), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 21, 0), BB_OK);
  std::vector<uint64_t> hashes = oracle::Hashes(4, 1000);
  std::vector<uint32_t> hashes32 = oracle::Hashes32(4, 1000);
  std::vector<uint64_t> scratch(2000);
  EXPECT_EQ(bb_build_from_hashes(nullptr, hashes.data(), 1000, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_build_from_hashes(&f, nullptr, 1000, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_build_from_hashes(&ro, hashes.data(), 1000, nullptr), BB_ERR_READ_ONLY);
  EXPECT_EQ(bb_build_from_hashes(&kudu, hashes.data(), 1000, nullptr), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_kudu_build_from_hashes(&f, hashes32.data(), 1000, nullptr), BB_ERR_LAYOUT_MISMATCH);
  // Scratch over the hashes, or over the filter: refused before any write.
  EXPECT_EQ(bb_build_from_hashes(&f, hashes.data(), 1000, hashes.data() + 999), BB_ERR_PARTITION_OVERLAP);
  EXPECT_EQ(bb_build_from_hashes(&f, hashes.data(), 1000, reinterpret_cast<uint64_t*>(f.data) + 100),
            BB_ERR_PARTITION_OVERLAP);
  EXPECT_EQ(bb_kudu_build_from_hashes(&kudu, hashes32.data(), 1000, hashes32.data()),
            BB_ERR_PARTITION_OVERLAP);
  EXPECT_EQ(bb_build_from_hashes(&f, hashes.data(), 1000, scratch.data() + 1000), BB_OK);
  EXPECT_NE(std::string(bb_status_message(BB_ERR_PARTITION_OVERLAP)).find("bb_build_from_hashes"),
            std::string::npos);
  // No such part: refused, even with nothing to insert.
  EXPECT_EQ(bb_build_from_hashes_partition(&f, hashes.data(), 1000, nullptr, 0, 0),
            BB_ERR_INVALID_PARTITION);
  EXPECT_EQ(bb_build_from_hashes_partition(&f, hashes.data(), 0, nullptr, 2, 2),
            BB_ERR_INVALID_PARTITION);
  EXPECT_EQ(bb_kudu_build_from_hashes_partition(&kudu, hashes32.data(), 1000, nullptr, 3, 1),
            BB_ERR_INVALID_PARTITION);
  EXPECT_EQ(bb_build_from_hashes_partition(&f, hashes.data(), 1000, hashes.data(), 0, 2),
            BB_ERR_PARTITION_OVERLAP);
  // n == 0: NULL arrays are fine and nothing changes (Kudu stays always-false).
  EXPECT_EQ(bb_kudu_build_from_hashes(&kudu, nullptr, 0, nullptr), BB_OK);
  EXPECT_NE(kudu.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  // The C++ wrappers: the same bytes, and the code thrown.
  blockbloom::Filter a(bytes), b(bytes);
  a.insert_batch(hashes.data(), hashes.size());
  b.build_from_hashes(hashes.data(), hashes.size());
  EXPECT_TRUE(a == b);
  blockbloom::Filter c(bytes);
  for (uint32_t t = 0; t < 3; ++t) c.build_from_hashes_partition(hashes.data(), hashes.size(), nullptr, t, 3);
  EXPECT_TRUE(a == c);
  blockbloom::KuduFilter ka(21, 3), kb(21, 3), kc(21, 3);
  ka.insert_batch(hashes32.data(), hashes32.size());
  kb.build_from_hashes(hashes32.data(), hashes32.size());
  EXPECT_TRUE(ka == kb);
  for (uint32_t t = 0; t < 2; ++t) kc.build_from_hashes_partition(hashes32.data(), hashes32.size(), nullptr, t, 2);
  EXPECT_TRUE(ka == kc);
  try {
    kc.build_from_hashes_partition(hashes32.data(), hashes32.size(), nullptr, 2, 2);
    ADD_FAILURE() << "no throw";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_INVALID_PARTITION);
  }
  try {
    b.build_from_hashes(hashes.data(), hashes.size(), hashes.data());
    ADD_FAILURE() << "no throw";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_PARTITION_OVERLAP);
  }
  bb_filter_release(&f);
  bb_filter_release(&kudu);
}

}  // namespace
