// SPDX-License-Identifier: Apache-2.0
// Unit tests of blockbloom-aligncheck's pieces (tools/aligncheck/): the
// straddle arithmetic against a brute-force count, the core profiles and SKU
// table, the cpu_features -> profile mapping, the Parquet footer (read by the
// library's Parquet file layer) and the report (JSON, fixes, exit status).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "tools/aligncheck/cpu_detect.h"
#include "tools/aligncheck/footer.h"
#include "tools/aligncheck/profiles.h"
#include "tools/aligncheck/report.h"
#include "tools/aligncheck/straddle.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/parquet_format.h"
#include "tools/common/cli_error.h"
#include "tools/common/printable_text.h"
#include "support/parquet_test_file.h"

namespace blockbloom_tools::aligncheck {
namespace {

using blockbloom_tools::CliError;

// ------------------------------------------------------------ straddle math

// The definition, block by block: block i covers bytes [a, a + 31] with
// a = start + 32 i; it straddles when its first and last byte lie in
// different boundary-sized units.
std::uint64_t BruteForce(std::uint64_t start, std::uint64_t blocks, std::uint64_t boundary) {
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < blocks; ++i) {
    const std::uint64_t a = start + 32 * i;
    if (a / boundary != (a + 31) / boundary) ++n;
  }
  return n;
}

const std::uint64_t kBoundaries[] = {64, 128, 4096, 2u << 20};

TEST(StraddleMath, MatchesBruteForceForTheIssueOffsetsFromOneBlockToOneMiB) {
  const std::uint64_t offsets[] = {0, 16, 32, 48, 52, 4090};
  const std::uint64_t sizes[] = {32,   64,   96,    128,   160,   224,    4096,
                                 4128, 8192, 65536, 65568, 262144, 1u << 20};
  for (std::uint64_t offset : offsets) {
    for (std::uint64_t bytes : sizes) {
      for (std::uint64_t boundary : kBoundaries) {
        EXPECT_EQ(CountBlocksStraddling(offset, bytes / 32, boundary),
                  BruteForce(offset, bytes / 32, boundary))
            << "offset " << offset << " bytes " << bytes << " boundary " << boundary;
      }
    }
  }
}

TEST(StraddleMath, MatchesBruteForceAtEveryOffsetOfTwoPagesForSmallFilters) {
  for (std::uint64_t offset = 0; offset < 8192; offset += 4) {
    for (std::uint64_t blocks : {1u, 2u, 3u, 5u, 130u, 257u}) {
      for (std::uint64_t boundary : {64u, 128u, 4096u}) {
        ASSERT_EQ(CountBlocksStraddling(offset, blocks, boundary),
                  BruteForce(offset, blocks, boundary))
            << "offset " << offset << " blocks " << blocks << " boundary " << boundary;
      }
    }
  }
}

TEST(StraddleMath, MatchesBruteForceAtRealAddresses) {
  // Addresses as large as a mapping's, and the testdata files' bitset offsets.
  const std::uint64_t starts[] = {0x7f3a12345000ull + 208, 0x7f3a12345000ull + 9908, 208, 9908,
                                  0x55e0c0fffff0ull};
  for (std::uint64_t start : starts) {
    for (std::uint64_t blocks : {1u, 16u, 32u, 32768u}) {
      for (std::uint64_t boundary : kBoundaries) {
        EXPECT_EQ(CountBlocksStraddling(start, blocks, boundary), BruteForce(start, blocks, boundary));
      }
    }
  }
}

TEST(StraddleMath, KnownCasesByHand) {
  // 32-byte alignment is enough: no block ever crosses a line or a page.
  EXPECT_EQ(CountBlocksStraddling(0, 32768, 64), 0u);
  EXPECT_EQ(CountBlocksStraddling(32, 32768, 64), 0u);
  EXPECT_EQ(CountBlocksStraddling(4064, 32768, 4096), 0u);
  // +16: blocks at 16, 48, 80, ...: every other one (48..79) crosses a line.
  EXPECT_EQ(CountBlocksStraddling(16, 1, 64), 0u);
  EXPECT_EQ(CountBlocksStraddling(16, 2, 64), 1u);
  EXPECT_EQ(CountBlocksStraddling(16, 32, 64), 16u);
  // +48 and +52: the first block crosses already.
  EXPECT_EQ(CountBlocksStraddling(48, 1, 64), 1u);
  EXPECT_EQ(CountBlocksStraddling(52, 1, 64), 1u);
  // 4090: bytes 4090..4121 cross a line and a page.
  EXPECT_EQ(CountBlocksStraddling(4090, 1, 64), 1u);
  EXPECT_EQ(CountBlocksStraddling(4090, 1, 4096), 1u);
  // A misaligned 1 MiB filter: half its blocks cross lines, a quarter cross
  // 128-byte pairs, one in 128 crosses a page.
  const StraddleCounts c = CountStraddles(16, 1u << 20, Boundaries{});
  EXPECT_EQ(c.blocks, 32768u);
  EXPECT_EQ(c.line, 16384u);
  EXPECT_EQ(c.pair, 8192u);
  EXPECT_EQ(c.page, 256u);
  EXPECT_EQ(c.huge_page, 0u);
  // No blocks, or a boundary the arithmetic cannot use, count nothing.
  EXPECT_EQ(CountBlocksStraddling(16, 0, 64), 0u);
  EXPECT_EQ(CountBlocksStraddling(16, 10, 0), 0u);
}

TEST(StraddleMath, LineFootprintCountsWholeLinesTouched) {
  EXPECT_EQ(LineFootprint(0, 1024, 64), 1024u);
  EXPECT_EQ(LineFootprint(16, 1024, 64), 1088u);
  EXPECT_EQ(LineFootprint(64, 32, 64), 64u);
  EXPECT_EQ(LineFootprint(60, 8, 64), 128u);
  EXPECT_EQ(LineFootprint(0, 0, 64), 0u);
}

// ------------------------------------------------------------------ profiles

TEST(Profiles, TheFourE5ProfilesHaveTheirGeometry) {
  ASSERT_EQ(BuiltinProfileNames(), (std::vector<std::string>{"e5-v1", "e5-v2", "e5-v3", "e5-v4"}));
  const char* cores[] = {"Sandy Bridge-EP", "Ivy Bridge-EP", "Haswell-EP", "Broadwell-EP"};
  for (std::size_t i = 0; i < 4; ++i) {
    const std::optional<CoreProfile> p = BuiltinProfile(BuiltinProfileNames()[i]);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->core, cores[i]);
    EXPECT_EQ(p->line_bytes, 64u);
    EXPECT_EQ(p->l1d_bytes, 32u * 1024);
    EXPECT_EQ(p->l2_bytes, 256u * 1024);
    EXPECT_EQ(p->llc_per_core_bytes, 5u * 1024 * 1024 / 2);
    EXPECT_EQ(p->llc_bytes, p->llc_per_core_bytes);  // per core until a SKU says more
    EXPECT_EQ(p->page_bytes, 4096u);
    EXPECT_EQ(p->huge_page_bytes, 2u << 20);
    EXPECT_EQ(p->prefetch_pair_bytes, 128u);
    EXPECT_GT(p->line_split_penalty_cycles, 0);
    EXPECT_GE(p->page_split_penalty_cycles, 50);  // "on the order of 100 cycles"
    EXPECT_TRUE(p->sku.empty());
  }
  EXPECT_FALSE(BuiltinProfile("e5-v5").has_value());
  EXPECT_FALSE(BuiltinProfile("generic").has_value());  // built from detection, not a table
}

TEST(Profiles, SkuLookupGivesTheWholeLlcAndCores) {
  const Sku* sku = FindSku("e5-2630v4");
  ASSERT_NE(sku, nullptr);
  EXPECT_STREQ(sku->profile, "e5-v4");
  EXPECT_EQ(sku->cores, 10u);
  EXPECT_EQ(sku->llc_bytes, 25u << 20);
  // Spellings people type, and the v1 parts that Intel named without "v1".
  EXPECT_EQ(FindSku("E5-2630 v4"), sku);
  EXPECT_EQ(FindSku("e5-2630-v4"), sku);
  ASSERT_NE(FindSku("E5-2670"), nullptr);
  EXPECT_EQ(FindSku("e5-2670v1"), FindSku("e5-2670"));
  EXPECT_STREQ(FindSku("e5-2670")->profile, "e5-v1");
  EXPECT_EQ(FindSku("e5-2643v2")->llc_bytes, 25u << 20);  // 6 cores, the whole 25 MiB

  const CoreProfile p = ApplySku(*BuiltinProfile("e5-v4"), *sku);
  EXPECT_EQ(p.llc_bytes, 25u << 20);
  EXPECT_EQ(p.cores, 10u);
  EXPECT_EQ(p.sku, "e5-2630v4");
  EXPECT_NE(p.llc_scope.find("e5-2630v4"), std::string::npos);
}

TEST(Profiles, UnknownSkuIsAnErrorNamingTheKnownOnes) {
  EXPECT_EQ(FindSku("e5-9999v9"), nullptr);
  EXPECT_EQ(FindSku(""), nullptr);
  DetectedCpu cpu;
  bool detected = false;
  try {
    ResolveProfile("auto", "e5-9999v9", &cpu, &detected);
    FAIL() << "an unknown SKU was accepted";
  } catch (const CliError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown --sku \"e5-9999v9\""), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("e5-2630v4"), std::string::npos);
  }
  // A SKU of another generation than the profile.
  EXPECT_THROW(ApplySku(*BuiltinProfile("e5-v3"), *FindSku("e5-2630v4")), CliError);
  EXPECT_THROW(ResolveProfile("e5-v3", "e5-2630v4", &cpu, &detected), CliError);
  EXPECT_THROW(ResolveProfile("generic", "e5-2630v4", &cpu, &detected), CliError);
}

TEST(Profiles, EveryGenerationHasSeveralSkusWithWholeSlices) {
  for (const std::string& name : BuiltinProfileNames()) {
    int count = 0;
    for (const Sku& sku : KnownSkus()) {
      ASSERT_TRUE(BuiltinProfile(sku.profile).has_value()) << sku.name;
      if (sku.profile != name) continue;
      ++count;
      EXPECT_EQ(FindSku(sku.name), &sku);
      // The LLC is made of 2.5 MiB slices, at least one per enabled core.
      EXPECT_EQ(sku.llc_bytes % (5u << 19), 0u) << sku.name;
      EXPECT_GE(sku.llc_bytes, sku.cores * (5ull << 19)) << sku.name;
    }
    EXPECT_GE(count, 5) << name;
  }
}

TEST(Profiles, SkuFromBrandString) {
  EXPECT_EQ(SkuFromBrand("Intel(R) Xeon(R) CPU E5-2630 v4 @ 2.20GHz"), "e5-2630v4");
  EXPECT_EQ(SkuFromBrand("Intel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz"), "e5-2670");
  EXPECT_EQ(SkuFromBrand("Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz"), "e5-2680v3");
  EXPECT_EQ(SkuFromBrand("Intel Xeon E312xx (Sandy Bridge)"), "");
  EXPECT_EQ(SkuFromBrand("AMD EPYC"), "");
}

TEST(Profiles, HumanBytes) {
  EXPECT_EQ(HumanBytes(32 * 1024), "32 KiB");
  EXPECT_EQ(HumanBytes(5u << 19), "2.5 MiB");
  EXPECT_EQ(HumanBytes(25u << 20), "25 MiB");
  EXPECT_EQ(HumanBytes(1040), "1040 B");
  EXPECT_EQ(HumanBytes(0), "unknown");
}

// ---------------------------------------------------------------- cpu mapping

#if defined(CPU_FEATURES_ARCH_X86)
TEST(CpuMapping, TheFourE5CoresMapToTheirProfilesAndNothingElseDoes) {
  EXPECT_EQ(E5ProfileFor(cpu_features::INTEL_SNB), "e5-v1");
  EXPECT_EQ(E5ProfileFor(cpu_features::INTEL_IVB), "e5-v2");
  EXPECT_EQ(E5ProfileFor(cpu_features::INTEL_HSW), "e5-v3");
  EXPECT_EQ(E5ProfileFor(cpu_features::INTEL_BDW), "e5-v4");
  for (int u = 0; u < cpu_features::X86_MICROARCHITECTURE_LAST_; ++u) {
    const auto uarch = static_cast<cpu_features::X86Microarchitecture>(u);
    if (uarch == cpu_features::INTEL_SNB || uarch == cpu_features::INTEL_IVB ||
        uarch == cpu_features::INTEL_HSW || uarch == cpu_features::INTEL_BDW) {
      continue;
    }
    EXPECT_EQ(E5ProfileFor(uarch), "") << cpu_features::GetX86MicroarchitectureName(uarch);
  }
  EXPECT_EQ(EpModelFor(cpu_features::INTEL_BDW), 79);
  EXPECT_EQ(EpModelFor(cpu_features::INTEL_SNB), 45);
}

DetectedCpu FakeIntel(cpu_features::X86Microarchitecture uarch, int model, const char* brand) {
  DetectedCpu cpu;
  cpu.architecture = "x86-64";
  cpu.vendor = "GenuineIntel";
  cpu.brand = brand;
  cpu.microarchitecture = uarch;
  cpu.microarchitecture_name = cpu_features::GetX86MicroarchitectureName(uarch);
  cpu.family = 6;
  cpu.model = model;
  cpu.caches.line_bytes = 64;
  cpu.caches.l1d_bytes = 32 * 1024;
  cpu.caches.l2_bytes = 256 * 1024;
  cpu.caches.l3_bytes = 25u << 20;
  cpu.caches.source = "test";
  return cpu;
}

TEST(CpuMapping, AutoOnARealBroadwellEpUsesTheSkuInTheBrandString) {
  const ProfileChoice c = ChooseAutoProfile(
      FakeIntel(cpu_features::INTEL_BDW, 79, "Intel(R) Xeon(R) CPU E5-2630 v4 @ 2.20GHz"), 4096);
  EXPECT_EQ(c.profile.name, "e5-v4");
  EXPECT_EQ(c.profile.sku, "e5-2630v4");
  EXPECT_EQ(c.profile.llc_bytes, 25u << 20);
  EXPECT_NE(c.reason.find("INTEL_BDW"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("model 79"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("e5-2630v4"), std::string::npos) << c.reason;
}

TEST(CpuMapping, AutoOnAClientOrEmulatedCoreSaysTheSizesAreAssumed) {
  // What qemu -cpu Haswell looks like: a client model number.
  const ProfileChoice c =
      ChooseAutoProfile(FakeIntel(cpu_features::INTEL_HSW, 60, "Intel Core Processor (Haswell)"), 4096);
  EXPECT_EQ(c.profile.name, "e5-v3");
  EXPECT_EQ(c.profile.llc_bytes, 5u << 19);  // per core: no SKU known
  EXPECT_NE(c.reason.find("INTEL_HSW"), std::string::npos);
  EXPECT_NE(c.reason.find("assumed"), std::string::npos) << c.reason;
  // An E5 brand not in the table: said so, LLC stays per core.
  const ProfileChoice d = ChooseAutoProfile(
      FakeIntel(cpu_features::INTEL_IVB, 62, "Intel(R) Xeon(R) CPU E5-2695 v2 @ 2.40GHz"), 4096);
  EXPECT_EQ(d.profile.name, "e5-v2");
  EXPECT_TRUE(d.profile.sku.empty());
  EXPECT_NE(d.reason.find("not in the SKU table"), std::string::npos) << d.reason;
}

TEST(CpuMapping, AnyOtherCpuGetsAGenericProfileFromItsGeometry) {
  DetectedCpu amd;
  amd.architecture = "x86-64";
  amd.vendor = "AuthenticAMD";
  amd.brand = "AMD EPYC";
  amd.microarchitecture = cpu_features::X86_UNKNOWN;
  amd.microarchitecture_name = "X86_UNKNOWN";
  amd.family = 25;
  amd.model = 17;
  amd.caches = {64, 32 * 1024, 1u << 20, 32u << 20, "sysfs test"};
  const ProfileChoice c = ChooseAutoProfile(amd, 4096);
  EXPECT_EQ(c.profile.name, "generic");
  EXPECT_EQ(c.profile.l1d_bytes, 32u * 1024);
  EXPECT_EQ(c.profile.l2_bytes, 1u << 20);
  EXPECT_EQ(c.profile.llc_bytes, 32u << 20);
  EXPECT_EQ(c.profile.prefetch_pair_bytes, 0u);
  EXPECT_LT(c.profile.line_split_penalty_cycles, 0);  // unknown: no estimate
  EXPECT_NE(c.reason.find("not one of the Xeon E5 cores"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("sysfs test"), std::string::npos) << c.reason;

  // A Skylake is no E5 either, and an unusable line size falls back to 64.
  DetectedCpu skl = FakeIntel(cpu_features::INTEL_SKL, 85, "Intel Xeon Gold");
  skl.caches.line_bytes = 0;
  const ProfileChoice s = ChooseAutoProfile(skl, 4096);
  EXPECT_EQ(s.profile.name, "generic");
  EXPECT_EQ(s.profile.line_bytes, 64u);
  EXPECT_NE(s.reason.find("64 B assumed"), std::string::npos) << s.reason;
}
#endif  // CPU_FEATURES_ARCH_X86

TEST(CpuMapping, ANonX86CpuGetsAGenericProfile) {
  DetectedCpu arm;
  arm.architecture = "aarch64";
  arm.caches = {64, 64 * 1024, 1u << 20, 0, "sysfs test"};
  const ProfileChoice a = ChooseAutoProfile(arm, 65536);
  EXPECT_EQ(a.profile.name, "generic");
  EXPECT_EQ(a.profile.page_bytes, 65536u);
  EXPECT_NE(a.reason.find("not an x86 CPU (aarch64)"), std::string::npos) << a.reason;
}

TEST(CpuMapping, ForcedProfilesAndFlagErrors) {
  DetectedCpu cpu;
  bool detected = true;
  ProfileChoice c = ResolveProfile("e5-v2", "", &cpu, &detected);
  EXPECT_EQ(c.profile.name, "e5-v2");
  EXPECT_FALSE(detected);
  EXPECT_NE(c.reason.find("forced by --cpu e5-v2"), std::string::npos);
  c = ResolveProfile("e5-v4", "e5-2699v4", &cpu, &detected);
  EXPECT_EQ(c.profile.llc_bytes, 55u << 20);
  EXPECT_EQ(c.profile.cores, 22u);
  // --sku alone picks its generation without looking at this CPU.
  c = ResolveProfile("auto", "e5-2680v3", &cpu, &detected);
  EXPECT_EQ(c.profile.name, "e5-v3");
  EXPECT_FALSE(detected);
  EXPECT_THROW(ResolveProfile("skylake", "", &cpu, &detected), CliError);
  // auto and generic read this CPU; whatever it is, the choice is one of ours.
  c = ResolveProfile("auto", "", &cpu, &detected);
  EXPECT_TRUE(detected);
  EXPECT_TRUE(c.profile.name == "generic" || BuiltinProfile(c.profile.name).has_value());
  EXPECT_FALSE(c.reason.empty());
  c = ResolveProfile("generic", "", &cpu, &detected);
  EXPECT_EQ(c.profile.name, "generic");
  EXPECT_NE(c.reason.find("forced by --cpu generic"), std::string::npos);
}

TEST(CpuMapping, CacheInfoLevelsAndSysfsSizes) {
  cpu_features::CacheInfo info{};
  auto add = [&](int level, cpu_features::CacheType type, int size, int line) {
    cpu_features::CacheLevelInfo& l = info.levels[info.size++];
    l.level = level;
    l.cache_type = type;
    l.cache_size = size;
    l.line_size = line;
  };
  add(1, cpu_features::CPU_FEATURE_CACHE_TLB, 64, 0);  // ignored
  add(1, cpu_features::CPU_FEATURE_CACHE_INSTRUCTION, 32768, 64);  // ignored
  add(1, cpu_features::CPU_FEATURE_CACHE_DATA, 32768, 64);
  add(2, cpu_features::CPU_FEATURE_CACHE_UNIFIED, 262144, 64);
  add(3, cpu_features::CPU_FEATURE_CACHE_UNIFIED, 26214400, 64);
  const CacheGeometry g = GeometryFromCacheInfo(info);
  EXPECT_EQ(g.line_bytes, 64u);
  EXPECT_EQ(g.l1d_bytes, 32768u);
  EXPECT_EQ(g.l2_bytes, 262144u);
  EXPECT_EQ(g.l3_bytes, 26214400u);

  EXPECT_EQ(ParseSysfsCacheSize("32K"), 32768u);
  EXPECT_EQ(ParseSysfsCacheSize("1024K"), 1u << 20);
  EXPECT_EQ(ParseSysfsCacheSize("32M"), 32u << 20);
  EXPECT_EQ(ParseSysfsCacheSize("64"), 64u);
  EXPECT_EQ(ParseSysfsCacheSize(""), 0u);
  EXPECT_EQ(ParseSysfsCacheSize("K"), 0u);
  EXPECT_EQ(ParseSysfsCacheSize("32KB"), 0u);
  EXPECT_EQ(ParseSysfsCacheSize("99999999999999999999K"), 0u);
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text << "\n";
}

TEST(CpuMapping, SysfsCacheDirectoryIsRead) {
  char dir_template[] = "/tmp/aligncheck_sysfs_XXXXXX";
  const char* dir = mkdtemp(dir_template);
  ASSERT_NE(dir, nullptr);
  const std::string root = dir;
  const struct {
    int index;
    const char *level, *type, *size;
  } entries[] = {{0, "1", "Data", "48K"}, {1, "1", "Instruction", "32K"},
                 {2, "2", "Unified", "2048K"}, {3, "3", "Unified", "105M"}};
  for (const auto& e : entries) {
    const std::string d = root + "/index" + std::to_string(e.index);
    ASSERT_EQ(mkdir(d.c_str(), 0755), 0);
    WriteFile(d + "/level", e.level);
    WriteFile(d + "/type", e.type);
    WriteFile(d + "/size", e.size);
    WriteFile(d + "/coherency_line_size", "64");
  }
  const CacheGeometry g = ReadSysfsCaches(root);
  EXPECT_EQ(g.line_bytes, 64u);
  EXPECT_EQ(g.l1d_bytes, 48u * 1024);
  EXPECT_EQ(g.l2_bytes, 2u << 20);
  EXPECT_EQ(g.l3_bytes, 105u << 20);
  EXPECT_NE(g.source.find(root), std::string::npos);
  EXPECT_EQ(ReadSysfsCaches(root + "/absent").l1d_bytes, 0u);
  std::filesystem::remove_all(root);
}

// ------------------------------------------------------------ footer reader

// Footers made by hand (tests/support/parquet_test_file.h): a chunk names its
// column's path; the schema has one leaf per chunk of the first row group.
using bbtest::CompactWriter;
using bbtest::kI32;
using bbtest::ParquetBytes;
using bbtest::LittleEndian32;
using bbtest::HeaderFor;

struct ChunkSpec {
  std::vector<std::string> path;
  std::int64_t bloom_offset = -1;  // -1: absent
  std::int32_t bloom_length = -1;  // -1: absent
};

std::string FileMetaData(const std::vector<std::vector<ChunkSpec>>& groups) {
  std::vector<bbtest::ColumnSpec> columns;
  for (const ChunkSpec& chunk : groups.at(0)) {
    columns.emplace_back();
    columns.back().path = chunk.path;
  }
  std::vector<std::vector<bbtest::ChunkSpec>> chunks;
  for (const auto& group : groups) {
    chunks.emplace_back();
    for (const ChunkSpec& chunk : group) {
      bbtest::ChunkSpec c;
      c.bloom_offset = chunk.bloom_offset;
      c.bloom_length = chunk.bloom_length;
      chunks.back().push_back(c);
    }
  }
  return bbtest::FileMetaData(columns, chunks);
}

ParquetFooter Read(const std::string& file) {
  return ReadParquetFooter(reinterpret_cast<const std::uint8_t*>(file.data()), file.size());
}

TEST(FooterReader, ReadsPathsAndBloomFieldsAndSkipsEverythingElse) {
  const std::string file = ParquetBytes(
      std::string(2000, 'x'),
      FileMetaData({{{{"a"}, 4, 1040}, {{"nested", "leaf"}, -1, -1}},
                    {{{"a"}, 1000, -1}, {{"nested", "leaf"}, 123456789012345, 7}}}));
  const ParquetFooter f = Read(file);
  ASSERT_EQ(f.chunks.size(), 4u);
  EXPECT_EQ(f.chunks[0].path, "a");
  EXPECT_TRUE(f.chunks[0].has_bloom_filter_offset);
  EXPECT_EQ(f.chunks[0].bloom_filter_offset, 4);
  EXPECT_EQ(f.chunks[0].bloom_filter_length, 1040);
  EXPECT_EQ(f.chunks[1].path, "nested.leaf");
  EXPECT_FALSE(f.chunks[1].has_bloom_filter_offset);
  EXPECT_EQ(f.chunks[1].filter_status, BB_ERR_PARQUET_NO_FILTER);
  EXPECT_EQ(f.chunks[2].row_group, 1u);
  EXPECT_EQ(f.chunks[2].column, 0u);
  EXPECT_EQ(f.chunks[2].bloom_filter_length, 0);  // omitted, and no header to size it from
  EXPECT_EQ(f.chunks[3].bloom_filter_offset, 123456789012345);  // a full i64
  EXPECT_EQ(f.chunks[3].filter_status, BB_ERR_PARQUET_FOOTER_MALFORMED);  // past the file
  EXPECT_EQ(f.chunks[3].column, 1u);
  for (const auto& chunk : {f.chunks[0], f.chunks[2], f.chunks[3]}) {
    // 'x' bytes are no BloomFilterHeader, and the last offset is past the file.
    EXPECT_NE(chunk.filter_status, BB_OK);
    EXPECT_NE(chunk.filter_status, BB_ERR_PARQUET_NO_FILTER);
    EXPECT_FALSE(chunk.filter_error.empty());
  }
}

TEST(FooterReader, CorruptFilesAreErrorsThatNameTheProblem) {
  const std::string good = ParquetBytes("", FileMetaData({{{{"a"}, 4, -1}}}));
  auto message = [](const std::string& file) -> std::string {
    try {
      Read(file);
    } catch (const CliError& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_NE(message("PAR1PAR1").find("too short"), std::string::npos);
  EXPECT_NE(message("").find("too short"), std::string::npos);
  std::string bad_tail = good;
  bad_tail.back() = 'X';
  EXPECT_NE(message(bad_tail).find("bad magic"), std::string::npos);
  std::string bad_head = good;
  bad_head[0] = 'X';
  EXPECT_NE(message(bad_head).find("bad magic"), std::string::npos);
  std::string encrypted = good;
  encrypted.replace(encrypted.size() - 4, 4, "PARE");
  EXPECT_NE(message(encrypted).find("encrypted"), std::string::npos);
  std::string too_long = good;
  too_long.replace(too_long.size() - 8, 4, LittleEndian32(static_cast<std::uint32_t>(good.size())));
  EXPECT_NE(message(too_long).find("footer length"), std::string::npos);
  // Every truncation of the FileMetaData (with the length adjusted to match)
  // is a clean error, never a read past it.
  const std::string metadata = FileMetaData({{{{"a", "b"}, 4, 20}}});
  for (std::size_t cut = 1; cut < metadata.size(); ++cut) {
    const std::string m = message(ParquetBytes("", metadata.substr(0, cut)));
    EXPECT_NE(m.find("corrupt footer"), std::string::npos) << "cut at " << cut << ": " << m;
  }
  // A required field the walk reads, with the wrong type: skipped, as
  // Thrift's readers do, so it is missing, and the message says so.
  CompactWriter c;
  c.BeginStruct().Field(4, kI32).I(1).EndStruct();
  EXPECT_NE(message(ParquetBytes("", c.bytes())).find("row_groups (field 4, present but not a list)"),
            std::string::npos);
  // Not Thrift at all: type nibble 15.
  EXPECT_NE(message(ParquetBytes("", "\x1f\x00")).find("malformed"), std::string::npos);
}

TEST(FooterReader, LocatesEachFilterThroughItsHeader) {
  // Two filters: one at offset 4 (bitset at 20), one at 100 + header.
  std::string body = HeaderFor(64) + std::string(64, '\0');  // offsets 4 .. 84
  body += std::string(100 - 4 - body.size(), 'p');
  body += HeaderFor(1024) + std::string(1024, '\0');
  const std::string file = ParquetBytes(
      body, FileMetaData({{{{"x"}, 4, 80}, {{"y"}, 100, -1}, {{"z"}, -1, -1}}}));
  const ParquetFooter footer = Read(file);
  const std::vector<LocatedFilter> located = LocateBloomFilters(footer);
  ASSERT_EQ(located.size(), 2u);
  EXPECT_EQ(located[0].chunk.path, "x");
  EXPECT_EQ(located[0].header_offset, 4u);
  EXPECT_EQ(located[0].header_bytes, 16u);
  EXPECT_EQ(located[0].bitset_offset, 20u);
  EXPECT_EQ(located[0].bitset_bytes, 64u);
  EXPECT_EQ(located[1].chunk.path, "y");
  EXPECT_EQ(located[1].bitset_offset, 100u + located[1].header_bytes);
  EXPECT_EQ(located[1].bitset_bytes, 1024u);

  auto locate_error = [&](std::int64_t offset, std::int32_t length) -> std::string {
    const std::string f = ParquetBytes(body, FileMetaData({{{{"c"}, offset, length}}}));
    try {
      LocateBloomFilters(Read(f));
    } catch (const CliError& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_NE(locate_error(1u << 30, -1).find("outside the file"), std::string::npos);
  // A length other than header + bitset disagrees with the header: the footer is wrong.
  EXPECT_NE(locate_error(4, 40).find("corrupt footer: row group 0 column 0 (c): BloomFilterHeader "
                                     "at offset 4: numBytes 64 (+ 16 header bytes = 80) disagrees "
                                     "with bloom_filter_length 40"),
            std::string::npos);
  EXPECT_NE(locate_error(4, 1u << 30).find("runs past the end"), std::string::npos);
  EXPECT_NE(locate_error(90, -1).find("corrupt BloomFilterHeader of row group 0 column 0 (c)"),
            std::string::npos);  // 'p' padding is no header
}

TEST(FooterReader, TheImpalaTestFileHasSixteenFilters) {
  const char* testdata = std::getenv("BLOCKBLOOM_TESTDATA");
  const std::string path =
      std::string(testdata ? testdata : "") + "/parquet-bloom-filtering.parquet";
  std::ifstream in(path, std::ios::binary);
  if (testdata == nullptr || !in) {
    GTEST_SKIP() << "shared testdata is absent: no " << path;
  }
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const ParquetFooter footer = Read(file);
  const std::vector<LocatedFilter> located = LocateBloomFilters(footer);
  ASSERT_EQ(located.size(), 16u);
  EXPECT_EQ(located[0].chunk.path, "int8_col");
  EXPECT_EQ(located[0].header_offset, 9892u);
  EXPECT_EQ(located[0].bitset_offset, 9908u);
  for (std::size_t i = 0; i < located.size(); ++i) {
    EXPECT_EQ(located[i].header_offset, 9892u + 528 * i);  // 16 B header + 512 B bitset apart
    EXPECT_EQ(located[i].bitset_bytes, 512u);
    EXPECT_EQ(located[i].chunk.row_group, i / 8);
  }
}

// -------------------------------------------------------------- the report

FilterCheck FileCheck(const CoreProfile& p, std::uint64_t header_offset, std::uint64_t bytes) {
  FilterCheck c = CheckBitset(p, header_offset + 16, bytes);
  c.source = "file";
  c.path = "x.bin";
  c.has_header = true;
  c.header_offset = header_offset;
  c.header_bytes = 16;
  c.fix = FixFor(c);
  return c;
}

TEST(Report, ChecksFitsAndTheFix) {
  const CoreProfile e5 = *BuiltinProfile("e5-v4");
  const FilterCheck misaligned = FileCheck(e5, 192, 1024);  // bitset at 208, as in the testdata
  EXPECT_FALSE(misaligned.aligned);
  EXPECT_EQ(misaligned.straddles.blocks, 32u);
  EXPECT_EQ(misaligned.straddles.line, 16u);
  EXPECT_EQ(misaligned.fits_l1d, Fits::kYes);
  EXPECT_NE(misaligned.fix.find("bb_parquet_filter_read(&f, base + 192"), std::string::npos)
      << misaligned.fix;
  EXPECT_NE(misaligned.fix.find("bb_filter_init(&f, 1024) + memcpy(f.data, base + 208, 1024)"),
            std::string::npos)
      << misaligned.fix;
  ASSERT_TRUE(EstimatedExtraCyclesPerProbe(e5, misaligned.straddles).has_value());
  EXPECT_DOUBLE_EQ(*EstimatedExtraCyclesPerProbe(e5, misaligned.straddles), 16 * 3.5 / 32);
  EXPECT_DOUBLE_EQ(PerProbe(misaligned.straddles.line, misaligned.straddles.blocks), 0.5);

  const FilterCheck aligned = FileCheck(e5, 48, 1024);  // bitset at 64
  EXPECT_TRUE(aligned.aligned);
  EXPECT_NE(aligned.fix.find("none needed"), std::string::npos);

  // 1 MiB fits L2 (256 KiB)? no; the per-core LLC? yes; 4 MiB does not.
  EXPECT_EQ(CheckBitset(e5, 0, 1u << 20).fits_l2, Fits::kNo);
  EXPECT_EQ(CheckBitset(e5, 0, 1u << 20).fits_llc, Fits::kYes);
  EXPECT_EQ(CheckBitset(e5, 0, 4u << 20).fits_llc, Fits::kNo);
  EXPECT_EQ(CheckBitset(ApplySku(e5, *FindSku("e5-2630v4")), 0, 4u << 20).fits_llc, Fits::kYes);
  // The footprint counts the extra line of a misaligned bitset: 32 KiB at +16
  // no longer fits a 32 KiB L1D.
  EXPECT_EQ(CheckBitset(e5, 0, 32 * 1024).fits_l1d, Fits::kYes);
  EXPECT_EQ(CheckBitset(e5, 16, 32 * 1024).fits_l1d, Fits::kNo);
  CoreProfile unknown = e5;
  unknown.l2_bytes = 0;
  EXPECT_EQ(CheckBitset(unknown, 0, 64).fits_l2, Fits::kUnknown);
}

TEST(Report, JsonHasTheRequiredKeysAndExitStatusFollowsAlignment) {
  Report r;
  r.choice = {*BuiltinProfile("e5-v4"), "forced by --cpu e5-v4"};
  r.mode = "parquet";
  r.parquet_file = "f.parquet";
  r.column_chunks = 3;
  FilterCheck a = FileCheck(r.choice.profile, 48, 512);
  a.source = "parquet";
  a.column = "quote\"d";
  r.filters.push_back(a);
  EXPECT_EQ(ExitStatus(r), 0);
  FilterCheck b = FileCheck(r.choice.profile, 192, 1024);
  b.source = "parquet";
  b.column = "b";
  b.row_group = 1;
  r.filters.push_back(b);
  EXPECT_EQ(ExitStatus(r), 1);

  const std::string json = ReportJson(r);
  for (const char* needle :
       {"\"profile\": \"e5-v4\"", "\"profile_reason\": \"forced by --cpu e5-v4\"",
        "\"filters\": [", "\"column\": \"quote\\\"d\"", "\"column\": \"b\"", "\"offset\": 64",
        "\"offset\": 208", "\"bytes\": 1024", "\"blocks\": 32", "\"blocks_straddling_line\": 16",
        "\"blocks_straddling_page\": 0", "\"aligned\": true", "\"aligned\": false",
        "\"column_chunks\": 3", "\"column_chunks_without_bloom_filter\": 1",
        "\"all_aligned\": false", "\"mod_32\": 16", "\"line_split_penalty_cycles\": 3.5",
        "\"page_split_penalty_cycles\": 100", "\"cpu\": null"}) {
    EXPECT_NE(json.find(needle), std::string::npos) << needle << "\n" << json;
  }
  const std::string text = ReportText(r);
  EXPECT_NE(text.find("MISALIGNED"), std::string::npos) << text;
  EXPECT_NE(text.find("1 of 2 filters straddle"), std::string::npos) << text;

  Report empty;
  empty.choice = r.choice;
  empty.mode = "measure";
  EXPECT_EQ(ExitStatus(empty), 0);
  EXPECT_NE(ReportJson(empty).find("\"filters\": []"), std::string::npos);
}

}  // namespace
}  // namespace blockbloom_tools::aligncheck

// Text reports and messages of both tools print names through Printable.
TEST(PrintableText, EscapesControlCharactersAndInvalidUtf8KeepsTheRest) {
  using blockbloom_tools::Printable;
  EXPECT_EQ(Printable("plain a.b_c-1 [x]"), "plain a.b_c-1 [x]");
  // One rule: \\ and \xHH are the only escapes, so a tab and the text "\t"
  // print differently.
  EXPECT_EQ(Printable("a\nb\rc\td"), "a\\x0ab\\x0dc\\x09d");
  EXPECT_EQ(Printable("\\t \\x09 \\"), "\\\\t \\\\x09 \\\\");
  EXPECT_EQ(Printable("\x1b[2J\x07\x7f"), "\\x1b[2J\\x07\\x7f");
  EXPECT_EQ(Printable(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(Printable("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");  // UTF-8 as is
  EXPECT_EQ(Printable("\xc2\x9b" "2J"), "\\xc2\\x9b" "2J");             // C1 CSI
  EXPECT_EQ(Printable("\xc2\xa0"), "\xc2\xa0");                           // U+00A0 is not C1
  EXPECT_EQ(Printable("\xff\xc3"), "\\xff\\xc3");                         // invalid, truncated
  EXPECT_EQ(Printable("\xc0\xaf"), "\\xc0\\xaf");                         // overlong '/'
  EXPECT_EQ(Printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");               // a surrogate
  EXPECT_EQ(Printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");     // past U+10FFFF
}

// Quote's cut (input_lines.h): never inside a character, "..." after it.
TEST(PrintableText, ShortenedCutsBeforeASplitCharacter) {
  using blockbloom_tools::Shortened;
  EXPECT_EQ(Shortened("abc", 3), "abc");
  EXPECT_EQ(Shortened("abcd", 3), "abc...");
  EXPECT_EQ(Shortened("ab\xc3\xa9z", 3), "ab...");              // é would be split
  EXPECT_EQ(Shortened("ab\xc3\xa9z", 4), "ab\xc3\xa9...");
  EXPECT_EQ(Shortened("a\xf0\x9f\x98\x80z", 4), "a...");         // a 4-byte character
  EXPECT_EQ(Shortened("ab\xff\xfe\xfd", 3), "ab\xff...");       // bytes that are not UTF-8
  EXPECT_EQ(Shortened("\x80\x80\x80\x80\x80", 2), "\x80\x80...");
}
