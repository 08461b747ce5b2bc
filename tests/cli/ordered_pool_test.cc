// SPDX-License-Identifier: Apache-2.0
// tools/common/ordered_pool.h: results handed over in index order for any
// number of threads, the bytes waiting for the consumer bounded by the
// budget plus one result a thread, a budget of 0 still making progress, and
// an exception from the consumer stopping the pool.
#include "tools/common/ordered_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/stress_scale.h"

namespace {

using blockbloom_tools::RunOrdered;

// A result weighing `bytes`; the pool only sees it through the weigher.
struct Weighed {
  std::size_t index = 0;
  std::size_t bytes = 0;
};

// Later items finish first (index 0 sleeps longest among each group of 8),
// so that order comes from the pool, not from the timing.
void Stagger(std::size_t i) {
  std::this_thread::sleep_for(std::chrono::microseconds(50 * (7 - i % 8)));
}

TEST(OrderedPool, HandsResultsOverInIndexOrderForAnyNumberOfThreads) {
  if (const char* why = bbtest::ThreadedTestSkipReason()) GTEST_SKIP() << why;
  for (std::size_t jobs : {1, 2, 3, 8}) {
    std::vector<std::size_t> seen;
    RunOrdered<Weighed>(
        200, jobs, std::size_t{1} << 20,
        [](std::size_t i) {
          Stagger(i);
          return Weighed{i, 100};
        },
        [&](std::size_t i, Weighed w) {
          EXPECT_EQ(i, w.index);
          seen.push_back(w.index);
        },
        [](const Weighed& w) { return w.bytes; });
    ASSERT_EQ(seen.size(), 200u) << "jobs " << jobs;
    for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], i) << "jobs " << jobs;
  }
}

TEST(OrderedPool, BytesWaitingStayWithinTheBudgetPlusOneResultAThread) {
  if (const char* why = bbtest::ThreadedTestSkipReason()) GTEST_SKIP() << why;
  constexpr std::size_t kWeight = 1000;
  for (std::size_t budget : {std::size_t{0}, std::size_t{2500}, std::size_t{10000}}) {
    constexpr std::size_t kJobs = 4;
    std::atomic<std::size_t> waiting{0};
    std::atomic<std::size_t> peak{0};
    std::size_t consumed = 0;
    RunOrdered<Weighed>(
        120, kJobs, budget,
        [&](std::size_t i) {
          Stagger(i);
          const std::size_t now = waiting.fetch_add(kWeight) + kWeight;
          std::size_t before = peak.load();
          while (now > before && !peak.compare_exchange_weak(before, now)) {
          }
          return Weighed{i, kWeight};
        },
        [&](std::size_t, Weighed w) {
          // A slow writer: without the budget, the window (4 x 4 + 16 = 32
          // results) would fill.
          std::this_thread::sleep_for(std::chrono::microseconds(300));
          waiting.fetch_sub(w.bytes);
          ++consumed;
        },
        [](const Weighed& w) { return w.bytes; });
    EXPECT_EQ(consumed, 120u);
    // Counted from the end of compute to the end of consume: what waits,
    // what is being consumed, and one result in the hands of each thread.
    EXPECT_LE(peak.load(), budget + (kJobs + 2) * kWeight) << "budget " << budget;
  }
}

TEST(OrderedPool, WithoutABudgetTheWindowBoundsWhatWaits) {
  if (const char* why = bbtest::ThreadedTestSkipReason()) GTEST_SKIP() << why;
  std::atomic<std::size_t> ahead{0};
  std::atomic<std::size_t> peak{0};
  RunOrdered<std::size_t>(
      200, 2,
      [&](std::size_t i) {
        const std::size_t now = ahead.fetch_add(1) + 1;
        std::size_t before = peak.load();
        while (now > before && !peak.compare_exchange_weak(before, now)) {
        }
        return i;
      },
      [&](std::size_t, std::size_t) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        ahead.fetch_sub(1);
      });
  EXPECT_LE(peak.load(), 4u * 2u + 16u + 2u);
  EXPECT_GT(peak.load(), 2u);  // the window was used: the threads ran ahead
}

TEST(OrderedPool, AnExceptionFromTheConsumerStopsThePoolAndIsRethrown) {
  if (const char* why = bbtest::ThreadedTestSkipReason()) GTEST_SKIP() << why;
  std::atomic<std::size_t> computed{0};
  EXPECT_THROW(RunOrdered<std::size_t>(
                   100000, 2,
                   [&](std::size_t i) {
                     ++computed;
                     return i;
                   },
                   [](std::size_t i, std::size_t) {
                     if (i == 10) throw std::runtime_error("stop");
                   }),
               std::runtime_error);
  EXPECT_LT(computed.load(), 100u);  // stopped near the window, not run to the end
}

}  // namespace
