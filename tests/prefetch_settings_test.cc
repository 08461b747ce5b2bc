// SPDX-License-Identifier: Apache-2.0
// The prefetch settings: the C API's setters (clamping, refusal), the pure
// parser of BLOCKBLOOM_PREFETCH_DISTANCE / BLOCKBLOOM_PREFETCH_HINT, and both
// variables end to end, by re-running this binary with them set.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "blockbloom/blockbloom.h"
#include "blockbloom/tuning.h"
#include "dispatch/prefetch_choice.h"
#include "prefetch_settings_guard.h"
#include "command_output.h"

namespace {

using blockbloom::ChoosePrefetch;
using blockbloom::PrefetchChoice;

// The default distance the library documents (kernels/prefetch.h; the
// default hint, l2, is checked in a fresh process below).
constexpr size_t kDefaultDistance = 128;

using bbtest::PrefetchSettingsGuard;

TEST(PrefetchApi, DistanceIsClampedAndZeroRestoresTheDefault) {
  PrefetchSettingsGuard guard;
  bb_set_prefetch_distance(100000);
  EXPECT_EQ(bb_prefetch_distance(), BB_MAX_PREFETCH_DISTANCE);
  bb_set_prefetch_distance(3);
  EXPECT_EQ(bb_prefetch_distance(), 3u);
  bb_set_prefetch_distance(0);
  EXPECT_EQ(bb_prefetch_distance(), kDefaultDistance);
}

TEST(PrefetchApi, HintsAreNamedAndBadHintsRefusedWithoutChange) {
  PrefetchSettingsGuard guard;
  ASSERT_EQ(bb_set_prefetch_hint(BB_PREFETCH_L1), BB_OK);
  EXPECT_EQ(bb_set_prefetch_hint(4), BB_ERR_INVALID_PREFETCH_HINT);
  EXPECT_EQ(bb_set_prefetch_hint(-1), BB_ERR_INVALID_PREFETCH_HINT);
  EXPECT_EQ(bb_prefetch_hint(), BB_PREFETCH_L1);
  EXPECT_STREQ(bb_prefetch_hint_name(BB_PREFETCH_NONE), "none");
  EXPECT_STREQ(bb_prefetch_hint_name(BB_PREFETCH_L1), "l1");
  EXPECT_STREQ(bb_prefetch_hint_name(BB_PREFETCH_L2), "l2");
  EXPECT_STREQ(bb_prefetch_hint_name(BB_PREFETCH_L3), "l3");
  EXPECT_EQ(bb_prefetch_hint_name(7), nullptr);
}

TEST(ChoosePrefetch, NoVariablesMeansNoOverride) {
  for (const char* empty : {static_cast<const char*>(nullptr), ""}) {
    const PrefetchChoice c = ChoosePrefetch(empty, empty);
    EXPECT_EQ(c.distance, 0u);
    EXPECT_EQ(c.hint, -1);
    EXPECT_TRUE(c.refused.empty()) << c.refused;
  }
}

TEST(ChoosePrefetch, AcceptsWholeNumbersInRangeAndEveryHintName) {
  EXPECT_EQ(ChoosePrefetch("1", nullptr).distance, 1u);
  EXPECT_EQ(ChoosePrefetch(" 128 ", nullptr).distance, 128u);
  EXPECT_EQ(ChoosePrefetch("512", nullptr).distance, 512u);
  EXPECT_EQ(ChoosePrefetch(nullptr, "none").hint, BB_PREFETCH_NONE);
  EXPECT_EQ(ChoosePrefetch(nullptr, "l1").hint, BB_PREFETCH_L1);
  EXPECT_EQ(ChoosePrefetch(nullptr, "l2").hint, BB_PREFETCH_L2);
  EXPECT_EQ(ChoosePrefetch(nullptr, "l3").hint, BB_PREFETCH_L3);
  EXPECT_TRUE(ChoosePrefetch("64", "l1").refused.empty());
}

TEST(ChoosePrefetch, RefusesEverythingElseWithAReasonNamingTheVariable) {
  for (const char* bad : {"0", "513", "-1", "12abc", "1e3", "0x40", "99999999999999999999999",
                          "6 4", "+8", "\t"}) {
    const PrefetchChoice c = ChoosePrefetch(bad, nullptr);
    EXPECT_EQ(c.distance, 0u) << bad;
    EXPECT_NE(c.refused.find("BLOCKBLOOM_PREFETCH_DISTANCE"), std::string::npos) << bad;
    EXPECT_NE(c.refused.find("1 to 512"), std::string::npos) << c.refused;
  }
  for (const char* bad : {"L2", "t0", "l4", "nta", " l1"}) {
    const PrefetchChoice c = ChoosePrefetch(nullptr, bad);
    EXPECT_EQ(c.hint, -1) << bad;
    EXPECT_NE(c.refused.find("BLOCKBLOOM_PREFETCH_HINT"), std::string::npos) << bad;
  }
  const PrefetchChoice both = ChoosePrefetch("x", "y");
  EXPECT_NE(both.refused.find("DISTANCE"), std::string::npos);
  EXPECT_NE(both.refused.find("HINT"), std::string::npos);
}

TEST(ChoosePrefetch, HostileValuesAreReportedShortAndPrintable) {
  const std::string hostile = "\x1b[31m" + std::string(500, '7') + "\n";
  const PrefetchChoice c = ChoosePrefetch(hostile.c_str(), hostile.c_str());
  EXPECT_LT(c.refused.size(), 400u);
  for (char ch : c.refused) EXPECT_TRUE(ch >= 0x20 && ch < 0x7f) << static_cast<int>(ch);
}

// --- end to end: this binary re-run with the variables set.

std::string self_path;

std::string SettingsWith(const std::string& distance, const std::string& hint) {
  const char* wrapper = std::getenv("BLOCKBLOOM_TEST_WRAPPER");
  const std::string command = "BLOCKBLOOM_PREFETCH_DISTANCE='" + distance +
                              "' BLOCKBLOOM_PREFETCH_HINT='" + hint + "' " +
                              (wrapper ? wrapper : "") + " '" + self_path + "' --print-prefetch";
  return bbtest::CommandOutput(command);
}

TEST(PrefetchEnvironment, ValidValuesSetTheDistanceAndHintAtLoad) {
  EXPECT_EQ(SettingsWith("200", "l1"), "distance=200 hint=l1 refused=(none)\n");
  EXPECT_EQ(SettingsWith("", "none"), "distance=128 hint=none refused=(none)\n");
  EXPECT_EQ(SettingsWith("", ""), "distance=128 hint=l2 refused=(none)\n");
}

TEST(PrefetchEnvironment, BadValuesKeepTheDefaultsAndSayWhy) {
  const std::string out = SettingsWith("lots", "fast");
  EXPECT_EQ(out.rfind("distance=128 hint=l2 refused=BLOCKBLOOM_PREFETCH_DISTANCE=\"lots\"", 0), 0u)
      << out;
  EXPECT_NE(out.find("BLOCKBLOOM_PREFETCH_HINT=\"fast\""), std::string::npos) << out;
  // One bad variable does not stop the other from applying.
  const std::string half = SettingsWith("100", "fast");
  EXPECT_EQ(half.rfind("distance=100 hint=l2 refused=", 0), 0u) << half;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--print-prefetch") == 0) {
    const char* refused = bb_prefetch_override_refused();
    std::printf("distance=%zu hint=%s refused=%s\n", bb_prefetch_distance(),
                bb_prefetch_hint_name(bb_prefetch_hint()), refused ? refused : "(none)");
    return 0;
  }
  self_path = bbtest::SelfExecutablePath();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
