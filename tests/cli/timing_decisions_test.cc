// SPDX-License-Identifier: Apache-2.0
// The decisions the tools take from their own timings, on synthetic numbers
// (the real ones depend on the machine): tune's median and spread of the
// rounds, when it recommends a change, keeps the default or calls the
// machine too noisy, which cells it flags as outliers; join-demo's warning
// when wall and CPU time part ways.
#include <gtest/gtest.h>

#include <vector>

#include "tools/blockbloom/join_demo/stopwatch.h"
#include "tools/blockbloom/tune/noise.h"

namespace {

using blockbloom_tools::join_demo::WallAndCpuDisagree;
using namespace blockbloom_tools::tune;

TEST(TuneSummarize, MedianAndInterquartileRangeOfTheRounds) {
  // Sorted 1 2 3 4 100: median 3, Q1 2, Q3 4 (linear interpolation): one
  // slow round moves neither.
  const Timing t = Summarize({4.0, 100.0, 1.0, 3.0, 2.0});
  EXPECT_DOUBLE_EQ(t.median, 3.0);
  EXPECT_DOUBLE_EQ(t.spread, 2.0);
  // Even count: 1 2 3 4 -> median 2.5, Q1 1.75, Q3 3.25.
  const Timing even = Summarize({3.0, 1.0, 4.0, 2.0});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_DOUBLE_EQ(even.spread, 1.5);
  // Three rounds (tune's fewest): the spread is half the range.
  EXPECT_DOUBLE_EQ(Summarize({10.0, 12.0, 11.0}).spread, 1.0);
  const Timing one = Summarize({7.0});
  EXPECT_DOUBLE_EQ(one.median, 7.0);
  EXPECT_DOUBLE_EQ(one.spread, 0.0);
  const Timing none = Summarize({});
  EXPECT_DOUBLE_EQ(none.median, 0.0);
  EXPECT_DOUBLE_EQ(none.spread, 0.0);
}

TEST(TuneDecide, AClearWinIsRecommended) {
  // 3.0 against 3.6 ns/key, each spread 0.1: a 0.6 gain, six times the noise.
  const Decision d = Decide({3.0, 0.1}, {3.6, 0.1});
  EXPECT_EQ(d.verdict, Verdict::kChange);
  EXPECT_DOUBLE_EQ(d.gain, 0.6);
  EXPECT_DOUBLE_EQ(d.noise, 0.1);
  EXPECT_STREQ(VerdictName(d.verdict), "change");
  // A clear win stays one on a noisy machine: the gain beats the spread.
  EXPECT_EQ(Decide({2.0, 0.5}, {3.0, 0.6}).verdict, Verdict::kChange);
}

TEST(TuneDecide, AGainWithinTheSpreadKeepsTheDefault) {
  // The case: the default measured 0.98x the best.
  const Decision faster_default = Decide({3.37, 0.05}, {3.30, 0.05});
  EXPECT_EQ(faster_default.verdict, Verdict::kKeepDefault);
  EXPECT_LT(faster_default.gain, 0.0);
  // A real but small gain, 0.04, under the larger spread, 0.06: not enough.
  const Decision small = Decide({3.00, 0.02}, {3.04, 0.06});
  EXPECT_EQ(small.verdict, Verdict::kKeepDefault);
  EXPECT_DOUBLE_EQ(small.noise, 0.06);
  EXPECT_STREQ(VerdictName(small.verdict), "keep_default");
  // The gain exactly equal to the spread is not "more than" it.
  EXPECT_EQ(Decide({3.0, 0.25}, {3.25, 0.1}).verdict, Verdict::kKeepDefault);
}

TEST(TuneDecide, ANoisyMachineDecidesNothing) {
  // Spread 0.9 of a 3.3 median (27%): a 0.3 gain means nothing.
  const Decision d = Decide({3.0, 0.9}, {3.3, 0.4});
  EXPECT_EQ(d.verdict, Verdict::kTooNoisy);
  EXPECT_DOUBLE_EQ(d.noise, 0.9);
  EXPECT_STREQ(VerdictName(d.verdict), "too_noisy");
  // The threshold: a spread of 10% of the default's median is still quiet,
  // just above it is noisy.
  EXPECT_EQ(Decide({10.0, 1.0}, {10.0, 0.0}).verdict, Verdict::kKeepDefault);
  EXPECT_EQ(Decide({10.0, 1.01}, {10.0, 0.0}).verdict, Verdict::kTooNoisy);
}

TEST(TuneOutliers, NoisyRunsAndCellsOutOfLine) {
  EXPECT_EQ(ClassifyCell({10.0, 0.5}, {9.0, 11.0}), Outlier::kNo);
  EXPECT_EQ(ClassifyCell({10.0, 1.5}, {9.0, 11.0}), Outlier::kNoisyRuns);
  // The 51.6 ns/line among cells near 10: steady runs, out of line.
  EXPECT_EQ(ClassifyCell({51.6, 0.2}, {9.0, 11.0}), Outlier::kOutOfLine);
  // Suspiciously fast is as suspicious.
  EXPECT_EQ(ClassifyCell({4.0, 0.1}, {9.0, 11.0}), Outlier::kOutOfLine);
  // Twice one neighbour but not the other: a steep row, not an outlier.
  EXPECT_EQ(ClassifyCell({20.0, 0.1}, {9.0, 11.0}), Outlier::kNo);
  // No neighbours (no prefetch): only its own runs count.
  EXPECT_EQ(ClassifyCell({100.0, 1.0}, {}), Outlier::kNo);
  EXPECT_STREQ(OutlierReason(Outlier::kOutOfLine), "out of line with its neighbours");
  EXPECT_STREQ(OutlierName(Outlier::kNoisyRuns), "noisy_runs");
  EXPECT_EQ(OutlierName(Outlier::kNo), nullptr);
}

TEST(TuneOutliers, NeighboursAreWithinTheRow) {
  // Two rows of three: 10 10 40 | 5 10 10. The 40 ends its row (its only
  // neighbour is the 10 before it); the 5 starts the next row, so the 40
  // before it in storage is no neighbour of it, and 5 against its one
  // neighbour 10 is half: not less than half, not out of line.
  const std::vector<Timing> cells = {{10, 0}, {10, 0}, {40, 0}, {5, 0}, {10, 0}, {10, 0}};
  const std::vector<Outlier> got = ClassifyGrid(cells, 3);
  const std::vector<Outlier> want = {Outlier::kNo, Outlier::kNo, Outlier::kOutOfLine,
                                     Outlier::kNo, Outlier::kNo, Outlier::kNo};
  EXPECT_EQ(got, want);
}

TEST(JoinDemoTimes, WallAndCpuDisagreeBeyondTenPercent) {
  // The run: 10.4 s of CPU over 83 s.
  EXPECT_TRUE(WallAndCpuDisagree(83.0, 10.4));
  EXPECT_FALSE(WallAndCpuDisagree(10.0, 9.5));
  EXPECT_FALSE(WallAndCpuDisagree(10.0, 9.0));   // exactly 10% of the larger
  EXPECT_TRUE(WallAndCpuDisagree(10.0, 8.9));
  EXPECT_TRUE(WallAndCpuDisagree(1.0, 1.2));     // more CPU than wall: threads, or a broken clock
  EXPECT_FALSE(WallAndCpuDisagree(0.0, 0.0));
}

}  // namespace
