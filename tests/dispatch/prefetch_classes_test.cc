// SPDX-License-Identifier: Apache-2.0
// The prefetch size classes from the cache sizes: CPUID leaves decoded (the
// registers of real CPUs, fed as numbers, so this host can check CPUs it is
// not), sysfs sizes parsed, and the classes derived for the reference Zen 4,
// the Xeon the sweeps also ran on, an emulator that reports no caches, and
// odd or hostile descriptions, none of which may divide by zero or disorder
// the classes.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "blockbloom/tuning.h"
#include "src/dispatch/cache_sizes.h"
#include "src/dispatch/prefetch_classes.h"
#include "src/kernels/prefetch.h"

namespace {

using blockbloom::internal::CacheLeaf;
using blockbloom::internal::CacheSizes;
using blockbloom::internal::CacheSizesFromLeaves;
using blockbloom::internal::ChoosePrefetchClasses;
using blockbloom::internal::DecodeCacheLeaf;
using blockbloom::internal::kReferencePrefetchClasses;
using blockbloom::internal::L3PerCore;
using blockbloom::internal::ParseSysfsCacheSize;
using blockbloom::internal::PrefetchClass;
using blockbloom::internal::PrefetchClasses;

constexpr std::size_t kKiB = 1024, kMiB = kKiB * 1024;

struct Registers {
  std::uint32_t eax, ebx, ecx;
};

std::vector<CacheLeaf> Decode(const std::vector<Registers>& subleaves) {
  std::vector<CacheLeaf> leaves;
  for (const Registers& r : subleaves) leaves.push_back(DecodeCacheLeaf(r.eax, r.ebx, r.ecx));
  return leaves;
}

// Leaf 4 of the Intel Xeon VM (Sapphire Rapids, KVM, 2 vCPUs) this project's
// sweeps also ran on, as read there: L1d 48 KiB, L1i 32 KiB, L2 2 MiB, L3
// 300 MiB shared by the 2 vCPUs.
const std::vector<Registers> kXeonLeaf4 = {{0x4000121, 0x2c0003f, 0x3f},
                                          {0x4000122, 0x1c0003f, 0x3f},
                                          {0x4000143, 0x3c0003f, 0x7ff},
                                          {0x4004163, 0x4c0003f, 0x3bfff}};

// Leaf 0x8000001D of a Zen 4 core complex as a guest without SMT sees it:
// L1d 32 KiB 8-way, L1i 32 KiB, L2 1 MiB 8-way, L3 32 MiB 16-way shared by
// the 8 cores of the CCX.
const std::vector<Registers> kZen4Leaf8000001D = {{0x0121, 0x01c0003f, 0x3f},
                                                 {0x0122, 0x01c0003f, 0x3f},
                                                 {0x0143, 0x01c0003f, 0x7ff},
                                                 {0x1c163, 0x03c0003f, 0x7fff}};

void ExpectClasses(const PrefetchClasses& got, const std::vector<PrefetchClass>& want) {
  ASSERT_EQ(got.count, want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got.classes[i].min_bytes, want[i].min_bytes) << i;
    EXPECT_EQ(got.classes[i].hint, want[i].hint) << i;
    EXPECT_EQ(got.classes[i].distance, want[i].distance) << i;
  }
}

// Every table any description yields: at least one class, within bounds,
// strictly increasing, with hints and distances the kernels know.
void ExpectWellFormed(const PrefetchClasses& classes) {
  ASSERT_GE(classes.count, 1u);
  ASSERT_LE(classes.count, blockbloom::internal::kMaxPrefetchClasses);
  for (std::size_t i = 0; i < classes.count; ++i) {
    const PrefetchClass& c = classes.classes[i];
    EXPECT_GT(c.min_bytes, 0u) << i;
    if (i > 0) {
      EXPECT_GT(c.min_bytes, classes.classes[i - 1].min_bytes) << i;
    }
    EXPECT_TRUE(c.hint >= BB_PREFETCH_L1 && c.hint <= BB_PREFETCH_L3) << i;
    EXPECT_TRUE(c.distance >= 1 && c.distance <= BB_MAX_PREFETCH_DISTANCE) << i;
  }
}

TEST(CacheLeaves, TheXeonsLeaf4DecodesToItsCaches) {
  const std::vector<CacheLeaf> leaves = Decode(kXeonLeaf4);
  EXPECT_EQ(leaves[0].level, 1u);
  EXPECT_EQ(leaves[0].type, 1u);
  EXPECT_EQ(leaves[1].type, 2u);
  EXPECT_EQ(leaves[3].level, 3u);
  EXPECT_EQ(leaves[3].type, 3u);
  const CacheSizes c = CacheSizesFromLeaves(leaves, "cpuid leaf 4");
  EXPECT_EQ(c.l1d, 48 * kKiB);  // not the 32 KiB instruction cache listed after it
  EXPECT_EQ(c.l2, 2 * kMiB);
  EXPECT_EQ(c.l3, 300 * kMiB);
  EXPECT_EQ(c.l3_sharing, 2u);
  EXPECT_EQ(L3PerCore(c), 150 * kMiB);
  EXPECT_EQ(c.source, "cpuid leaf 4");
}

TEST(CacheLeaves, TheZen4sLeaf8000001DDecodesToItsCaches) {
  const CacheSizes c = CacheSizesFromLeaves(Decode(kZen4Leaf8000001D), "cpuid leaf 0x8000001d");
  EXPECT_EQ(c.l1d, 32 * kKiB);
  EXPECT_EQ(c.l2, 1 * kMiB);
  EXPECT_EQ(c.l3, 32 * kMiB);
  EXPECT_EQ(c.l3_sharing, 8u);
  EXPECT_EQ(L3PerCore(c), 4 * kMiB);
}

TEST(CacheLeaves, EveryFieldAtItsMaximumIsCappedNotOverflowed) {
  const CacheLeaf leaf = DecodeCacheLeaf(0xffffffffu, 0xffffffffu, 0xffffffffu);
  EXPECT_EQ(leaf.bytes, std::size_t{1} << 40);
  EXPECT_EQ(leaf.sharing, 4096u);
  EXPECT_EQ(leaf.level, 7u);
  // All zero: type 0, the end of the list, and a one-byte "cache" nobody uses.
  EXPECT_EQ(DecodeCacheLeaf(0, 0, 0).type, 0u);
}

TEST(CacheLeaves, NoLeavesMeansNoCaches) {
  const CacheSizes c = CacheSizesFromLeaves({}, "none");
  EXPECT_EQ(c.l1d + c.l2 + c.l3, 0u);
  EXPECT_EQ(L3PerCore(c), 0u);
}

TEST(SysfsSizes, SizesWithTheirUnitsAndNothingElse) {
  EXPECT_EQ(ParseSysfsCacheSize("48K"), 48 * kKiB);
  EXPECT_EQ(ParseSysfsCacheSize("307200K"), 300 * kMiB);
  EXPECT_EQ(ParseSysfsCacheSize("2M\n"), 2 * kMiB);
  EXPECT_EQ(ParseSysfsCacheSize("1G"), 1024 * kMiB);
  EXPECT_EQ(ParseSysfsCacheSize("512"), 512u);
  for (const char* bad : {"", "K", "12Q", "-1K", "1K2", "99999999999999999999K", "2048T"}) {
    EXPECT_EQ(ParseSysfsCacheSize(bad), 0u) << bad;
  }
}

TEST(ChoosePrefetchClasses, Zen4GetsTheReferenceTable) {
  const PrefetchClasses classes =
      ChoosePrefetchClasses(CacheSizesFromLeaves(Decode(kZen4Leaf8000001D), "cpuid"));
  ExpectClasses(classes, {kReferencePrefetchClasses.classes[0], kReferencePrefetchClasses.classes[1],
                          kReferencePrefetchClasses.classes[2]});
}

TEST(ChoosePrefetchClasses, TheXeonsBoundariesAreItsL2AndL3) {
  const PrefetchClasses classes =
      ChoosePrefetchClasses(CacheSizesFromLeaves(Decode(kXeonLeaf4), "cpuid"));
  ExpectClasses(classes, {{2 * kMiB, BB_PREFETCH_L1, 32},
                          {150 * kMiB, BB_PREFETCH_L2, 192},
                          {300 * kMiB, BB_PREFETCH_L2, 128}});
}

TEST(ChoosePrefetchClasses, AnEmulatorWithoutCacheLeavesGetsTheReferenceTable) {
  CacheSizes none;
  none.source = "none";
  ExpectClasses(ChoosePrefetchClasses(none),
                {kReferencePrefetchClasses.classes[0], kReferencePrefetchClasses.classes[1],
                 kReferencePrefetchClasses.classes[2]});
  // An L1d alone says nothing about where memory starts.
  none.l1d = 32 * kKiB;
  EXPECT_EQ(ChoosePrefetchClasses(none).classes[0].min_bytes, kReferencePrefetchClasses.classes[0].min_bytes);
}

TEST(ChoosePrefetchClasses, OddSizesKeepTheClassesOrdered) {
  // Alder Lake P-core: 1.25 MiB L2, 30 MiB L3 over 20 threads (1.5 MiB each).
  CacheSizes odd;
  odd.l1d = 48 * kKiB;
  odd.l2 = 1280 * kKiB;
  odd.l3 = 30 * kMiB;
  odd.l3_sharing = 20;
  ExpectClasses(ChoosePrefetchClasses(odd), {{1280 * kKiB, BB_PREFETCH_L1, 32},
                                             {30 * kMiB / 20, BB_PREFETCH_L2, 192},
                                             {30 * kMiB, BB_PREFETCH_L2, 128}});
  // An L3 share smaller than the L2 (many threads on a small L3): no middle class.
  odd.l3_sharing = 64;
  ExpectClasses(ChoosePrefetchClasses(odd), {{1280 * kKiB, BB_PREFETCH_L1, 32},
                                             {30 * kMiB, BB_PREFETCH_L2, 128}});
  // The sharing unreported (0): the whole L3 is the share, no middle class, no division by zero.
  odd.l3_sharing = 0;
  EXPECT_EQ(L3PerCore(odd), 30 * kMiB);
  ExpectClasses(ChoosePrefetchClasses(odd), {{1280 * kKiB, BB_PREFETCH_L1, 32},
                                             {30 * kMiB, BB_PREFETCH_L2, 128}});
}

TEST(ChoosePrefetchClasses, NoL3OrOneNoLargerThanTheL2MeansMemoryPastTheL2) {
  CacheSizes c;
  c.l2 = 2 * kMiB;
  ExpectClasses(ChoosePrefetchClasses(c), {{2 * kMiB, BB_PREFETCH_L2, 128}});
  c.l3 = 2 * kMiB;
  c.l3_sharing = 4;
  ExpectClasses(ChoosePrefetchClasses(c), {{2 * kMiB, BB_PREFETCH_L2, 128}});
  // An L3 but no L2 reported: the reference machine's L2 stands in.
  c.l2 = 0;
  c.l3 = 64 * kMiB;
  c.l3_sharing = 8;
  ExpectClasses(ChoosePrefetchClasses(c), {{1 * kMiB, BB_PREFETCH_L1, 32},
                                           {8 * kMiB, BB_PREFETCH_L2, 192},
                                           {64 * kMiB, BB_PREFETCH_L2, 128}});
}

TEST(ChoosePrefetchClasses, AnyDescriptionGivesAWellFormedTable) {
  const std::size_t sizes[] = {0, 1, 32 * kKiB, 1 * kMiB, 3 * kMiB, 32 * kMiB, std::size_t{1} << 40,
                               std::numeric_limits<std::size_t>::max()};
  for (const std::size_t l2 : sizes) {
    for (const std::size_t l3 : sizes) {
      for (const unsigned sharing : {0u, 1u, 3u, 4096u}) {
        CacheSizes c;
        c.l2 = l2;
        c.l3 = l3;
        c.l3_sharing = sharing;
        SCOPED_TRACE(testing::Message() << "l2 " << l2 << " l3 " << l3 << " sharing " << sharing);
        ExpectWellFormed(ChoosePrefetchClasses(c));
      }
    }
  }
}

TEST(DetectedPrefetchClasses, AreTheClassesInForceAndFollowThisMachinesCaches) {
  const PrefetchClasses& detected = blockbloom::internal::DetectedPrefetchClasses();
  ExpectWellFormed(detected);
  EXPECT_EQ(&blockbloom::internal::ActivePrefetchClasses(), &detected);
  const PrefetchClasses chosen = ChoosePrefetchClasses(blockbloom::internal::DetectedCacheSizes());
  ExpectClasses(detected, std::vector<PrefetchClass>(chosen.begin(), chosen.end()));
}

}  // namespace
