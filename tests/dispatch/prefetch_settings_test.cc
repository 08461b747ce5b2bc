// SPDX-License-Identifier: Apache-2.0
// The prefetch settings: the C API's setters (clamping, refusal), the pure
// parser of BLOCKBLOOM_PREFETCH_DISTANCE / BLOCKBLOOM_PREFETCH_HINT, and both
// variables end to end, by re-running this binary with them set.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/tuning.h"
#include "src/dispatch/prefetch_choice.h"
#include "src/kernels/prefetch.h"
#include "support/prefetch_settings_guard.h"
#include "support/command_output.h"

namespace {

using blockbloom::internal::ChoosePrefetch;
using blockbloom::internal::PrefetchChoice;

using blockbloom::internal::ActivePrefetchClasses;
using blockbloom::internal::kReferencePrefetchClasses;
using blockbloom::internal::PrefetchClasses;
using blockbloom::internal::PlanPrefetch;
using blockbloom::internal::PrefetchPlan;

using bbtest::PrefetchSettingsGuard;

TEST(PrefetchApi, DistanceIsClampedAndZeroRestoresTheDefault) {
  PrefetchSettingsGuard guard;
  bb_set_prefetch_distance(100000);
  EXPECT_EQ(bb_prefetch_distance(), BB_MAX_PREFETCH_DISTANCE);
  bb_set_prefetch_distance(3);
  EXPECT_EQ(bb_prefetch_distance(), 3u);
  bb_set_prefetch_distance(0);  // back to the defaults of the size classes
  EXPECT_EQ(bb_prefetch_distance(), 0u);
}

TEST(PrefetchApi, HintsAreNamedAndBadHintsRefusedWithoutChange) {
  PrefetchSettingsGuard guard;
  ASSERT_EQ(bb_set_prefetch_hint(BB_PREFETCH_L1), BB_OK);
  EXPECT_EQ(bb_set_prefetch_hint(4), BB_ERR_INVALID_PREFETCH_HINT);
  EXPECT_EQ(bb_set_prefetch_hint(-2), BB_ERR_INVALID_PREFETCH_HINT);
  EXPECT_EQ(bb_prefetch_hint(), BB_PREFETCH_L1);
  ASSERT_EQ(bb_set_prefetch_hint(BB_PREFETCH_DEFAULT), BB_OK);
  EXPECT_EQ(bb_prefetch_hint(), BB_PREFETCH_DEFAULT);
  EXPECT_STREQ(bb_prefetch_hint_name(BB_PREFETCH_DEFAULT), "default");
  EXPECT_STREQ(bb_prefetch_hint_name(BB_PREFETCH_NONE), "none");
  EXPECT_STREQ(bb_prefetch_hint_name(BB_PREFETCH_L1), "l1");
  EXPECT_STREQ(bb_prefetch_hint_name(BB_PREFETCH_L2), "l2");
  EXPECT_STREQ(bb_prefetch_hint_name(BB_PREFETCH_L3), "l3");
  EXPECT_EQ(bb_prefetch_hint_name(7), nullptr);
}

// --- the plan of one call: size classes, and settings that override them.

bool SamePlan(PrefetchPlan a, PrefetchPlan b) { return a.hint == b.hint && a.distance == b.distance; }

// The reference table and the one detected on this machine: every property
// below holds for both.
std::vector<const PrefetchClasses*> Tables() {
  return {&kReferencePrefetchClasses, &ActivePrefetchClasses()};
}

TEST(PlanPrefetch, TheClassesAreOrderedAndTheFirstIsThePrefetchThreshold) {
  for (const PrefetchClasses* t : Tables()) {
    ASSERT_GE(t->count, 1u);
    ASSERT_LE(t->count, blockbloom::internal::kMaxPrefetchClasses);
    for (size_t i = 0; i < t->count; ++i) {
      const auto& c = t->classes[i];
      if (i > 0) {
        EXPECT_GT(c.min_bytes, t->classes[i - 1].min_bytes) << i;
      }
      EXPECT_TRUE(c.hint >= BB_PREFETCH_L1 && c.hint <= BB_PREFETCH_L3) << i;
      EXPECT_TRUE(c.distance >= 1 && c.distance <= BB_MAX_PREFETCH_DISTANCE) << i;
    }
  }
  EXPECT_EQ(blockbloom::internal::PrefetchMinBytes(), ActivePrefetchClasses().classes[0].min_bytes);
}

TEST(PlanPrefetch, BelowTheFirstClassNothingIsPrefetchedWhateverTheSetting) {
  for (const PrefetchClasses* t : Tables()) {
    for (const int hint : {BB_PREFETCH_DEFAULT, BB_PREFETCH_L1, BB_PREFETCH_L3}) {
      for (const size_t distance : {size_t{0}, size_t{64}}) {
        EXPECT_TRUE(SamePlan(PlanPrefetch(*t, t->classes[0].min_bytes - 32, hint, distance),
                             {BB_PREFETCH_NONE, 0}));
        EXPECT_TRUE(SamePlan(PlanPrefetch(*t, 0, hint, distance), {BB_PREFETCH_NONE, 0}));
      }
    }
  }
}

TEST(PlanPrefetch, EachClassStartsAtItsFirstByteAndEndsWhereTheNextStarts) {
  for (const PrefetchClasses* t : Tables()) {
    for (size_t i = 0; i < t->count; ++i) {
      const auto& c = t->classes[i];
      const PrefetchPlan own{c.hint, c.distance};
      const bool has_next = i + 1 < t->count;
      EXPECT_TRUE(SamePlan(PlanPrefetch(*t, c.min_bytes, BB_PREFETCH_DEFAULT, 0), own)) << i;
      EXPECT_TRUE(SamePlan(PlanPrefetch(*t, c.min_bytes * 2 - 32, BB_PREFETCH_DEFAULT, 0),
                           has_next && c.min_bytes * 2 - 32 >= t->classes[i + 1].min_bytes
                               ? PrefetchPlan{t->classes[i + 1].hint, t->classes[i + 1].distance}
                               : own))
          << i;
      if (has_next) {
        EXPECT_TRUE(SamePlan(PlanPrefetch(*t, t->classes[i + 1].min_bytes - 32, BB_PREFETCH_DEFAULT, 0),
                             own))
            << i;
      }
    }
    // The largest filter the API allows falls in the last class.
    const auto& last = t->classes[t->count - 1];
    EXPECT_TRUE(SamePlan(PlanPrefetch(*t, size_t{32} << 32, BB_PREFETCH_DEFAULT, 0),
                         {last.hint, last.distance}));
  }
}

TEST(PlanPrefetch, ASetHintOrDistanceWinsAtEverySizeEachOnItsOwn) {
  for (const PrefetchClasses* t : Tables()) {
    for (const auto& c : *t) {
      EXPECT_TRUE(SamePlan(PlanPrefetch(*t, c.min_bytes, BB_PREFETCH_L3, 0), {BB_PREFETCH_L3, c.distance}));
      EXPECT_TRUE(SamePlan(PlanPrefetch(*t, c.min_bytes, BB_PREFETCH_DEFAULT, 7), {c.hint, 7}));
      EXPECT_TRUE(SamePlan(PlanPrefetch(*t, c.min_bytes, BB_PREFETCH_L1, 300), {BB_PREFETCH_L1, 300}));
      EXPECT_TRUE(SamePlan(PlanPrefetch(*t, c.min_bytes, BB_PREFETCH_NONE, 300), {BB_PREFETCH_NONE, 0}));
      // Out of range: clamped, and a stored hint no kernel knows is the default.
      EXPECT_TRUE(SamePlan(PlanPrefetch(*t, c.min_bytes, BB_PREFETCH_L2, 100000),
                           {BB_PREFETCH_L2, BB_MAX_PREFETCH_DISTANCE}));
      for (const int bad : {-7, 4, 1 << 30}) {
        EXPECT_TRUE(SamePlan(PlanPrefetch(*t, c.min_bytes, bad, 0), {c.hint, c.distance})) << bad;
      }
    }
  }
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

// What --print-prefetch's batch finds report: every inserted key found in a
// filter of every size class's first byte count (1, and those of the table).
const std::string kFound = "all\n";

std::string SettingsWith(const std::string& distance, const std::string& hint) {
  const char* wrapper = std::getenv("BLOCKBLOOM_TEST_WRAPPER");
  const std::string command = "BLOCKBLOOM_PREFETCH_DISTANCE='" + distance +
                              "' BLOCKBLOOM_PREFETCH_HINT='" + hint + "' " +
                              (wrapper ? wrapper : "") + " '" + self_path + "' --print-prefetch";
  return bbtest::CommandOutput(command);
}

TEST(PrefetchEnvironment, ValidValuesSetTheDistanceAndHintAtLoad) {
  EXPECT_EQ(SettingsWith("200", "l1"), "distance=200 hint=l1 refused=(none) found=" + kFound);
  EXPECT_EQ(SettingsWith("", "none"), "distance=0 hint=none refused=(none) found=" + kFound);
  EXPECT_EQ(SettingsWith("", ""), "distance=0 hint=default refused=(none) found=" + kFound);
  EXPECT_EQ(SettingsWith("", "l3"), "distance=0 hint=l3 refused=(none) found=" + kFound);
  EXPECT_EQ(SettingsWith("512", ""), "distance=512 hint=default refused=(none) found=" + kFound);
}

TEST(PrefetchEnvironment, BadValuesKeepTheDefaultsAndSayWhy) {
  const std::string out = SettingsWith("lots", "fast");
  EXPECT_EQ(out.rfind("distance=0 hint=default refused=BLOCKBLOOM_PREFETCH_DISTANCE=\"lots\"", 0), 0u)
      << out;
  EXPECT_NE(out.find(" found=" + kFound), std::string::npos) << out;
  EXPECT_NE(out.find("BLOCKBLOOM_PREFETCH_HINT=\"fast\""), std::string::npos) << out;
  // One bad variable does not stop the other from applying.
  const std::string half = SettingsWith("100", "fast");
  EXPECT_EQ(half.rfind("distance=100 hint=default refused=", 0), 0u) << half;
  // "default" is what the library reports, not a value to set: left unset is the default.
  const std::string named = SettingsWith("", "default");
  EXPECT_EQ(named.rfind("distance=0 hint=default refused=BLOCKBLOOM_PREFETCH_HINT=", 0), 0u) << named;
  EXPECT_NE(named.find(" found=" + kFound), std::string::npos) << named;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--print-prefetch") == 0) {
    const char* refused = bb_prefetch_override_refused();
    // Then a batch find with whatever the variables set, in a filter of
    // each size class (no setting the environment can give may break one)
    // of either table up to 64 MiB (a detected L3 may be hundreds of MiB:
    // too much memory for a test run several times over).
    bool all = true;
    std::vector<size_t> sizes;
    for (const PrefetchClasses* t : Tables()) {
      for (const auto& c : *t) {
        if (c.min_bytes <= (size_t{64} << 20)) sizes.push_back(c.min_bytes);
      }
    }
    for (const size_t bytes : sizes) {
      bb_filter f;
      if (bb_filter_init(&f, bytes) != BB_OK) return 1;
      std::vector<uint64_t> hashes(4096);
      for (size_t i = 0; i < hashes.size(); ++i) hashes[i] = (i + 1) * 0x9E3779B97F4A7C15ull;
      bb_insert_batch(&f, hashes.data(), hashes.size());
      std::vector<uint8_t> bitmap(hashes.size() / 8);
      size_t hits = 0;
      all = all && bb_find_batch_bitmap(&f, hashes.data(), hashes.size(), bitmap.data(), &hits) == BB_OK &&
            hits == hashes.size();
      bb_filter_release(&f);
    }
    std::printf("distance=%zu hint=%s refused=%s found=%s\n", bb_prefetch_distance(),
                bb_prefetch_hint_name(bb_prefetch_hint()), refused ? refused : "(none)",
                all ? "all" : "missing");
    return 0;
  }
  self_path = bbtest::SelfExecutablePath();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
