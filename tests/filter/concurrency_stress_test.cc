// SPDX-License-Identifier: Apache-2.0
// Stress: writer threads fill one filter through the thread-safe path
// (partitioned inserts of disjoint key sets, 10^7 keys in all) while prober
// threads keep probing keys inserted before the writers started. Bits only
// ever go from 0 to 1, so those keys must be found at every moment; after
// the writers finish every key is found and the bytes equal a
// single-threaded build. (Probes concurrent with writes are outside the
// documented contract -- docs/concurrency.md -- and are tolerated here on
// purpose: the ThreadSanitizer run suppresses exactly that race.)
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "support/oracle.h"
#include "support/stress_scale.h"

namespace {

constexpr size_t kEarlyKeys = 50000;  // inserted before the stress starts
constexpr uint32_t kWriters = 3;
constexpr uint32_t kProbers = 2;

TEST(ConcurrencyStress, WritersLoseNoKeyAndProbersNeverMissAnEarlierKey) {
  if (const char* why = bbtest::ThreadedTestSkipReason()) GTEST_SKIP() << why;
  const size_t kKeys = bbtest::StressKeys();
  const std::vector<uint64_t> keys = oracle::Hashes(99, kKeys);
  bb_filter f, reference;
  ASSERT_EQ(bb_filter_init(&f, size_t{32} << 20), BB_OK);
  ASSERT_EQ(bb_filter_init(&reference, size_t{32} << 20), BB_OK);
  ASSERT_EQ(bb_insert_batch(&f, keys.data(), kEarlyKeys), BB_OK);

  // Writer w inserts its own slice of the remaining keys, in every
  // partition in turn, so writers share the filter but never a partition at
  // the same time: round r, writer w takes partition (w + r) % kWriters.
  const size_t rest = kKeys - kEarlyKeys;
  std::atomic<bool> writing{true};
  std::atomic<int> writer_errors{0};
  std::vector<std::thread> writers;
  std::atomic<uint32_t> round_done[kWriters] = {};
  for (uint32_t w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      const uint64_t* mine = keys.data() + kEarlyKeys + rest * w / kWriters;
      const size_t n = rest * (w + 1) / kWriters - rest * w / kWriters;
      for (uint32_t round = 0; round < kWriters; ++round) {
        // Wait until every writer finished the previous round: no two write
        // the same partition at once.
        for (uint32_t other = 0; other < kWriters; ++other) {
          while (round_done[other].load(std::memory_order_acquire) < round) std::this_thread::yield();
        }
        if (bb_insert_batch_partition(&f, mine, n, (w + round) % kWriters, kWriters) != BB_OK) {
          writer_errors.fetch_add(1);
        }
        round_done[w].store(round + 1, std::memory_order_release);
      }
    });
  }
  std::atomic<size_t> probe_rounds{0}, early_misses{0};
  std::vector<std::thread> probers;
  for (uint32_t p = 0; p < kProbers; ++p) {
    probers.emplace_back([&, p] {
      std::vector<uint8_t> bitmap(kEarlyKeys / 8);
      do {
        size_t hits = 0;
        bb_find_batch_bitmap(&f, keys.data(), kEarlyKeys, bitmap.data(), &hits);
        early_misses.fetch_add(kEarlyKeys - hits);
        probe_rounds.fetch_add(1);
        (void)p;
        // Leave the writers most of the (two) cores.
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      } while (writing.load(std::memory_order_acquire));
    });
  }
  for (std::thread& t : writers) t.join();
  writing.store(false, std::memory_order_release);
  for (std::thread& t : probers) t.join();

  EXPECT_EQ(writer_errors.load(), 0);
  EXPECT_GT(probe_rounds.load(), 0u);
  EXPECT_EQ(early_misses.load(), 0u) << "a key inserted before the stress went missing";
  std::vector<uint8_t> bitmap((kKeys + 7) / 8);
  size_t hits = 0;
  ASSERT_EQ(bb_find_batch_bitmap(&f, keys.data(), kKeys, bitmap.data(), &hits), BB_OK);
  EXPECT_EQ(hits, kKeys) << "false negatives: " << kKeys - hits;
  ASSERT_EQ(bb_insert_batch(&reference, keys.data(), kKeys), BB_OK);
  EXPECT_EQ(std::vector<uint8_t>(f.data, f.data + f.num_bytes),
            std::vector<uint8_t>(reference.data, reference.data + reference.num_bytes));
  bb_filter_release(&f);
  bb_filter_release(&reference);
}

}  // namespace
