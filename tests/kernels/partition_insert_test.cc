// SPDX-License-Identifier: Apache-2.0
// Partitioned inserts, the multi-threaded build path: on every ISA the
// partitions together give exactly the bytes of one batch insert, and
// threads filling one filter through them lose no key.
#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/tuning.h"
#include "blockbloom/kudu.h"
#include "support/isa_params.h"
#include "support/oracle.h"
#include "support/prefetch_settings_guard.h"
#include "support/stress_scale.h"

namespace {

using PartitionPerIsa = bbtest::PerIsa;

// Small filters and one large enough (2 MiB) for the prefetching path (the
// reference classes pinned: prefetched from 1 MiB on).
TEST_P(PartitionPerIsa, RangesTogetherEqualOneBatchInsertForBothLayouts) {
  const bbtest::PrefetchSettingsGuard reference_classes;
  for (uint32_t blocks : {1u, 3u, 1000u, 65536u}) {
    const std::vector<uint64_t> hashes = oracle::Hashes(blocks, 4 * blocks + 17);
    std::vector<uint8_t> whole(32ull * blocks, 0);
    kernels().insert_batch(whole.data(), blocks, hashes.data(), hashes.size());
    for (uint32_t parts : {1u, 2u, 3u, 7u}) {
      std::vector<uint8_t> pieced(32ull * blocks, 0);
      for (uint32_t p = 0; p < parts; ++p) {
        const auto first = static_cast<uint32_t>(uint64_t{blocks} * p / parts);
        const auto end = static_cast<uint32_t>(uint64_t{blocks} * (p + 1) / parts);
        kernels().insert_batch_range(pieced.data(), blocks, hashes.data(), hashes.size(), first, end);
      }
      EXPECT_EQ(pieced, whole) << "parquet blocks=" << blocks << " parts=" << parts;
    }
  }
  for (uint32_t blocks : {2u, 1024u, 65536u}) {
    const std::vector<uint32_t> hashes = oracle::Hashes32(blocks, 4 * blocks + 5);
    std::vector<uint8_t> whole(32ull * blocks, 0), pieced(32ull * blocks, 0);
    kernels().kudu_insert_batch(whole.data(), blocks, hashes.data(), hashes.size());
    kernels().kudu_insert_batch_range(pieced.data(), blocks, hashes.data(), hashes.size(), 0, blocks / 2);
    kernels().kudu_insert_batch_range(pieced.data(), blocks, hashes.data(), hashes.size(), blocks / 2, blocks);
    EXPECT_EQ(pieced, whole) << "kudu blocks=" << blocks;
  }
}

TEST_P(PartitionPerIsa, ARangeWritesNoBlockOutsideIt) {
  const uint32_t blocks = 64;
  const std::vector<uint64_t> hashes = oracle::Hashes(3, 5000);
  std::vector<uint8_t> bytes(32ull * blocks, 0);
  kernels().insert_batch_range(bytes.data(), blocks, hashes.data(), hashes.size(), 16, 48);
  for (uint32_t b = 0; b < blocks; ++b) {
    bool any = false;
    for (size_t i = 0; i < 32; ++i) any |= bytes[32ull * b + i] != 0;
    EXPECT_EQ(any, b >= 16 && b < 48) << "block " << b;
  }
}

BB_INSTANTIATE_PER_ISA(PartitionPerIsa);

TEST(PartitionApi, RejectsBadPartitionsAndOtherLayouts) {
  bb_filter f, kudu;
  ASSERT_EQ(bb_filter_init(&f, 1024), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 10, 0), BB_OK);
  const uint64_t h = 1;
  const uint32_t h32 = 1;
  EXPECT_EQ(bb_insert_batch_partition(&f, &h, 1, 0, 0), BB_ERR_INVALID_PARTITION);
  EXPECT_EQ(bb_insert_batch_partition(&f, &h, 1, 2, 2), BB_ERR_INVALID_PARTITION);
  EXPECT_EQ(bb_insert_batch_partition(&f, nullptr, 1, 0, 1), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_insert_batch_partition(&kudu, &h, 1, 0, 1), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_kudu_insert_batch_partition(&f, &h32, 1, 0, 1), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_kudu_insert_batch_partition(&kudu, &h32, 1, 1, 1), BB_ERR_INVALID_PARTITION);
  EXPECT_NE(kudu.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  ASSERT_EQ(bb_kudu_insert_batch_partition(&kudu, &h32, 1, 0, 1), BB_OK);
  EXPECT_EQ(kudu.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_EQ(bb_kudu_find(&kudu, 1), 1);
  bb_filter_release(&f);
  bb_filter_release(&kudu);
}

// 10^7 keys (stress_scale.h) into one 64 MiB filter from 4 threads: no key
// is lost, and the bytes equal a single-threaded build of the same keys.
TEST(PartitionThreads, FourThreadsLoseNoKeyAndMatchASingleThreadedBuild) {
  if (const char* why = bbtest::ThreadedTestSkipReason()) GTEST_SKIP() << why;
  const size_t kKeys = bbtest::StressKeys();
  constexpr uint32_t kThreads = 4;
  const std::vector<uint64_t> hashes = oracle::Hashes(2026, kKeys);
  bb_filter parallel, serial;
  ASSERT_EQ(bb_filter_init(&parallel, size_t{64} << 20), BB_OK);
  ASSERT_EQ(bb_filter_init(&serial, size_t{64} << 20), BB_OK);
  std::vector<std::thread> threads;
  std::vector<int> status(kThreads, -1);
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      status[t] = bb_insert_batch_partition(&parallel, hashes.data(), hashes.size(), t, kThreads);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (uint32_t t = 0; t < kThreads; ++t) EXPECT_EQ(status[t], BB_OK);
  ASSERT_EQ(bb_insert_batch(&serial, hashes.data(), hashes.size()), BB_OK);

  std::vector<uint8_t> bitmap((kKeys + 7) / 8);
  size_t hits = 0;
  ASSERT_EQ(bb_find_batch_bitmap(&parallel, hashes.data(), kKeys, bitmap.data(), &hits), BB_OK);
  EXPECT_EQ(hits, kKeys) << "false negatives: " << kKeys - hits;
  EXPECT_EQ(std::vector<uint8_t>(parallel.data, parallel.data + parallel.num_bytes),
            std::vector<uint8_t>(serial.data, serial.data + serial.num_bytes));
  bb_filter_release(&parallel);
  bb_filter_release(&serial);
}

// Kudu through the partitioned API from 2 threads on a fresh filter, which
// starts always-false: every thread clears that flag after its first insert
// while the others check the read-only bit of the same flag word. Under
// ThreadSanitizer (no suppressions) this must be race-free; natively, no key
// is lost and the bytes equal a single-threaded build.
TEST(PartitionThreads, TwoThreadsKuduFreshFilterIsRaceFreeAndLoseNoKey) {
  if (const char* why = bbtest::ThreadedTestSkipReason()) GTEST_SKIP() << why;
  constexpr uint32_t kThreads = 2;
  constexpr size_t kKeys = 4096;
  const std::vector<uint32_t> hashes = oracle::Hashes32(12, kKeys);
  for (int round = 0; round < 20; ++round) {
    bb_filter k, serial;
    ASSERT_EQ(bb_kudu_filter_init(&k, 16, 0), BB_OK);
    ASSERT_EQ(bb_kudu_filter_init(&serial, 16, 0), BB_OK);
    ASSERT_NE(k.flags & BB_FILTER_ALWAYS_FALSE, 0u);
    std::vector<std::thread> threads;
    std::vector<int> status(kThreads, -1);
    for (uint32_t t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        status[t] = bb_kudu_insert_batch_partition(&k, hashes.data(), kKeys, t, kThreads);
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (uint32_t t = 0; t < kThreads; ++t) EXPECT_EQ(status[t], BB_OK);
    EXPECT_EQ(k.flags & BB_FILTER_ALWAYS_FALSE, 0u);
    ASSERT_EQ(bb_kudu_insert_batch(&serial, hashes.data(), kKeys), BB_OK);
    std::vector<uint8_t> bitmap(kKeys / 8);
    size_t hits = 0;
    ASSERT_EQ(bb_kudu_find_batch_bitmap(&k, hashes.data(), kKeys, bitmap.data(), &hits), BB_OK);
    EXPECT_EQ(hits, kKeys);
    EXPECT_EQ(std::vector<uint8_t>(k.data, k.data + k.num_bytes),
              std::vector<uint8_t>(serial.data, serial.data + serial.num_bytes));
    bb_filter_release(&k);
    bb_filter_release(&serial);
  }
}

}  // namespace
