// SPDX-License-Identifier: Apache-2.0
// The dispatcher: best-tier choice for known CPUs (fed as flags, so this
// host can check CPUs it is not), the BLOCKBLOOM_ISA override end to end (by
// re-running this binary with the variable set), and run-time selection.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "src/core/kernel_table.h"
#include "src/dispatch/isa_choice.h"
#include "support/command_output.h"
#include "support/isa_names.h"
#include "support/oracle.h"

namespace {

using blockbloom::internal::ChooseIsa;
using blockbloom::internal::CpuFlags;
using blockbloom::internal::Isa;
using blockbloom::internal::IsaChoice;
using blockbloom::internal::IsaSet;

IsaSet X86Build() {
  IsaSet s;
  for (Isa isa : {Isa::kAvx512, Isa::kAvx2, Isa::kSse42, Isa::kScalar}) s.Add(isa);
  return s;
}

// Flags of the CPU models the test matrix emulates.
CpuFlags Qemu64() { return CpuFlags{}; }
CpuFlags Nehalem() {
  CpuFlags f;
  f.ssse3 = f.sse41 = f.sse42 = f.popcnt = true;
  return f;
}
CpuFlags SandyBridge() {
  CpuFlags f = Nehalem();
  f.avx = true;
  return f;
}
CpuFlags Haswell() {
  CpuFlags f = SandyBridge();
  f.avx2 = f.bmi1 = f.bmi2 = f.fma = f.f16c = true;
  return f;
}
CpuFlags SkylakeServer() {
  CpuFlags f = Haswell();
  f.avx512f = f.avx512vl = f.avx512dq = f.avx512bw = true;
  return f;
}

TEST(ChooseIsa, PicksTheBestTierEachCpuModelCanRun) {
  EXPECT_EQ(ChooseIsa(nullptr, X86Build(), Qemu64()).selected, Isa::kScalar);
  EXPECT_EQ(ChooseIsa(nullptr, X86Build(), Nehalem()).selected, Isa::kSse42);
  EXPECT_EQ(ChooseIsa(nullptr, X86Build(), SandyBridge()).selected, Isa::kSse42);
  EXPECT_EQ(ChooseIsa(nullptr, X86Build(), Haswell()).selected, Isa::kAvx2);
  EXPECT_EQ(ChooseIsa(nullptr, X86Build(), SkylakeServer()).selected, Isa::kAvx512);
}

TEST(ChooseIsa, RequiresEveryFeatureTheTierIsCompiledWith) {
  CpuFlags avx2_no_bmi2 = Haswell();
  avx2_no_bmi2.bmi2 = false;
  EXPECT_EQ(ChooseIsa(nullptr, X86Build(), avx2_no_bmi2).selected, Isa::kSse42);
  CpuFlags avx512f_only = Haswell();
  avx512f_only.avx512f = true;  // Knights Landing style: no BW/DQ/VL
  EXPECT_EQ(ChooseIsa(nullptr, X86Build(), avx512f_only).selected, Isa::kAvx2);
  CpuFlags sse41_only = Nehalem();
  sse41_only.sse42 = false;
  EXPECT_EQ(ChooseIsa(nullptr, X86Build(), sse41_only).selected, Isa::kScalar);
  CpuFlags no_popcnt = Nehalem();
  no_popcnt.popcnt = false;
  EXPECT_EQ(ChooseIsa(nullptr, X86Build(), no_popcnt).selected, Isa::kScalar);
}

TEST(ChooseIsa, OverrideSelectsAnySupportedTier) {
  for (Isa isa : {Isa::kScalar, Isa::kSse42, Isa::kAvx2, Isa::kAvx512}) {
    const IsaChoice c = ChooseIsa(blockbloom::internal::IsaName(isa), X86Build(), SkylakeServer());
    EXPECT_EQ(c.selected, isa);
    EXPECT_EQ(c.forced, blockbloom::internal::IsaName(isa));
    EXPECT_EQ(c.refused, "");
  }
}

TEST(ChooseIsa, RefusesUnknownUncompiledAndUnsupportedNamesKeepingTheBest) {
  IsaChoice c = ChooseIsa("bogus", X86Build(), Haswell());
  EXPECT_EQ(c.selected, Isa::kAvx2);
  EXPECT_NE(c.refused.find("unknown ISA \"bogus\""), std::string::npos) << c.refused;

  c = ChooseIsa("neon", X86Build(), Haswell());
  EXPECT_EQ(c.selected, Isa::kAvx2);
  EXPECT_NE(c.refused.find("not compiled"), std::string::npos) << c.refused;

  c = ChooseIsa("avx512", X86Build(), Haswell());
  EXPECT_EQ(c.selected, Isa::kAvx2);
  EXPECT_NE(c.refused.find("lacks AVX-512F"), std::string::npos) << c.refused;

  c = ChooseIsa("avx2", X86Build(), SandyBridge());
  EXPECT_EQ(c.selected, Isa::kSse42);
  EXPECT_NE(c.refused.find("lacks AVX2"), std::string::npos) << c.refused;

  c = ChooseIsa("AVX2", X86Build(), Haswell());  // names are exact
  EXPECT_NE(c.refused.find("unknown ISA"), std::string::npos) << c.refused;
}

// CpuCanRun checks a tier's features after those of the tiers it includes
// (src/core/isa.h's feature order), so the message names the lowest gap.
TEST(CpuCanRun, NamesTheFirstMissingFeatureOfTheLowestTier) {
  using blockbloom::internal::CpuCanRun;
  std::string missing;
  CpuFlags f = SkylakeServer();
  f.popcnt = f.fma = f.avx512dq = false;
  EXPECT_FALSE(CpuCanRun(Isa::kAvx512, f, &missing));
  EXPECT_EQ(missing, "POPCNT");
  f.popcnt = true;
  EXPECT_FALSE(CpuCanRun(Isa::kAvx512, f, &missing));
  EXPECT_EQ(missing, "FMA");
  f.fma = true;
  EXPECT_FALSE(CpuCanRun(Isa::kAvx512, f, &missing));
  EXPECT_EQ(missing, "AVX-512DQ");
  f.avx512dq = true;
  missing = "untouched";
  EXPECT_TRUE(CpuCanRun(Isa::kAvx512, f, &missing));
  EXPECT_EQ(missing, "untouched");
  EXPECT_FALSE(CpuCanRun(Isa::kNeon, f, &missing));
  EXPECT_EQ(missing, "ASIMD (NEON)");
  EXPECT_TRUE(CpuCanRun(Isa::kScalar, CpuFlags{}, nullptr));
}

TEST(ChooseIsa, EmptyOverrideMeansNone) {
  const IsaChoice c = ChooseIsa("", X86Build(), Haswell());
  EXPECT_EQ(c.selected, Isa::kAvx2);
  EXPECT_EQ(c.forced, "");
  EXPECT_EQ(c.refused, "");
}

TEST(ChooseIsa, HostileOverrideIsReportedShortAndPrintable) {
  std::string hostile(10000, 'A');
  hostile[3] = '\n';
  hostile[5] = '\x1b';
  const IsaChoice c = ChooseIsa(hostile.c_str(), X86Build(), Haswell());
  EXPECT_EQ(c.selected, Isa::kAvx2);
  EXPECT_LE(c.forced.size(), 67u);
  EXPECT_EQ(c.forced.find('\n'), std::string::npos);
  EXPECT_EQ(c.forced.find('\x1b'), std::string::npos);
  EXPECT_FALSE(c.refused.empty());
}

std::vector<std::string> Split(const std::string& csv) {
  std::vector<std::string> out;
  std::stringstream in(csv);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

TEST(Dispatcher, SelectsTheBestSupportedIsaAtLoad) {
  if (bb_forced_isa() != nullptr) GTEST_SKIP() << "BLOCKBLOOM_ISA is set: the override test covers it";
  const std::vector<std::string> supported = Split(bb_supported_isas());
  ASSERT_FALSE(supported.empty());
  EXPECT_EQ(supported.back(), "scalar");
  EXPECT_EQ(bb_selected_isa(), supported.front());
  EXPECT_EQ(bb_forced_isa_refused(), nullptr);
}

TEST(Dispatcher, SupportedIsasAreCompiledIsasInBestFirstOrder) {
  const std::vector<std::string> compiled = Split(bb_compiled_isas());
  const std::vector<std::string> supported = Split(bb_supported_isas());
  size_t at = 0;
  for (const std::string& isa : supported) {
    while (at < compiled.size() && compiled[at] != isa) ++at;
    EXPECT_LT(at, compiled.size()) << isa << " supported but not compiled, or out of order";
    EXPECT_EQ(bb_isa_supported(isa.c_str()), 1);
  }
  for (const char* isa : bbtest::RegistryIsaNames()) {
    const bool listed = std::find(supported.begin(), supported.end(), isa) != supported.end();
    EXPECT_EQ(bb_isa_supported(isa), listed ? 1 : 0) << isa;
  }
}

TEST(IsaRegistry, NamesEveryTierOnceBestFirstWithScalarLastAndNullPastTheEnd) {
  const std::vector<const char*> names = bbtest::RegistryIsaNames();
  ASSERT_EQ(names.size(), blockbloom::internal::kNumIsas);
  for (size_t i = 0; i < names.size(); ++i) {
    ASSERT_NE(names[i], nullptr) << i;
    EXPECT_STREQ(names[i], blockbloom::internal::IsaName(blockbloom::internal::kIsasBestFirst[i])) << i;
    Isa parsed;
    EXPECT_TRUE(blockbloom::internal::IsaFromName(names[i], &parsed)) << names[i];
    for (size_t j = 0; j < i; ++j) EXPECT_STRNE(names[i], names[j]);
  }
  EXPECT_STREQ(names.back(), "scalar");
  EXPECT_EQ(bb_isa_name(bb_isa_count()), nullptr);
  EXPECT_EQ(bb_isa_name(static_cast<size_t>(-1)), nullptr);
}

TEST(IsaRegistry, CompiledIsasAreRegistryNamesInRegistryOrder) {
  const std::vector<const char*> names = bbtest::RegistryIsaNames();
  size_t at = 0;
  for (const std::string& isa : Split(bb_compiled_isas())) {
    while (at < names.size() && isa != names[at]) ++at;
    EXPECT_LT(at, names.size()) << isa << " compiled but not in the registry, or out of order";
  }
}

TEST(Dispatcher, RunTimeSelectionAcceptsSupportedAndRefusesOthers) {
  const std::string before = bb_selected_isa();
  EXPECT_EQ(bb_select_isa("bogus"), BB_ERR_UNKNOWN_ISA);
  EXPECT_EQ(bb_select_isa(nullptr), BB_ERR_NULL_POINTER);
#if defined(__x86_64__)
  EXPECT_EQ(bb_select_isa("neon"), BB_ERR_ISA_NOT_COMPILED);
#elif defined(__aarch64__)
  EXPECT_EQ(bb_select_isa("avx2"), BB_ERR_ISA_NOT_COMPILED);
#endif
  EXPECT_EQ(bb_selected_isa(), before);
  for (const std::string& isa : Split(bb_compiled_isas())) {
    if (bb_isa_supported(isa.c_str()) == 0) {
      EXPECT_EQ(bb_select_isa(isa.c_str()), BB_ERR_ISA_UNSUPPORTED) << isa;
    }
  }
  ASSERT_EQ(bb_select_isa(before.c_str()), BB_OK);
}

// The public API gives the same bytes whichever tier is selected.
TEST(Dispatcher, EverySelectableTierBuildsIdenticalFiltersThroughThePublicApi) {
  const std::string before = bb_selected_isa();
  const std::vector<uint64_t> hashes = oracle::Hashes(31337, 20000);
  std::vector<uint8_t> expected(32 * 2000, 0);
  for (uint64_t h : hashes) oracle::Insert(expected, h);
  for (const std::string& isa : Split(bb_supported_isas())) {
    ASSERT_EQ(bb_select_isa(isa.c_str()), BB_OK);
    EXPECT_EQ(bb_selected_isa(), isa);
    bb_filter f;
    ASSERT_EQ(bb_filter_init(&f, 32 * 2000), BB_OK);
    ASSERT_EQ(bb_insert_batch(&f, hashes.data(), hashes.size()), BB_OK);
    EXPECT_EQ(std::vector<uint8_t>(f.data, f.data + f.num_bytes), expected) << isa;
    bb_filter_release(&f);
  }
  ASSERT_EQ(bb_select_isa(before.c_str()), BB_OK);
}

TEST(KernelsForIsa, HandsOutOnlyTablesThisCpuCanRun) {
  const bbi_kernel_table* table = reinterpret_cast<const bbi_kernel_table*>(1);
  EXPECT_EQ(bbi_kernels_for_isa("bogus", &table), BB_ERR_UNKNOWN_ISA);
  EXPECT_EQ(table, nullptr);
  EXPECT_EQ(bbi_kernels_for_isa("scalar", nullptr), BB_ERR_NULL_POINTER);
  for (const std::string& isa : Split(bb_supported_isas())) {
    ASSERT_EQ(bbi_kernels_for_isa(isa.c_str(), &table), BB_OK);
    EXPECT_EQ(table->isa, isa);
  }
}

// --- BLOCKBLOOM_ISA end to end: this binary re-run with the variable set.

std::string self_path;

// What a fresh process reports with BLOCKBLOOM_ISA=value. Under emulation
// (the qemu test matrix) BLOCKBLOOM_TEST_WRAPPER, e.g. "qemu-x86_64 -cpu
// Nehalem", runs the child on the same emulated CPU.
std::string DispatchOf(const std::string& value) {
  const char* wrapper = std::getenv("BLOCKBLOOM_TEST_WRAPPER");
  const std::string command = "BLOCKBLOOM_ISA='" + value + "' " + (wrapper ? wrapper : "") + " '" +
                              self_path + "' --print-dispatch";
  return bbtest::CommandOutput(command);
}

TEST(EnvOverride, ForcesEachSupportedTierInANewProcess) {
  for (const std::string& isa : Split(bb_supported_isas())) {
    EXPECT_EQ(DispatchOf(isa), "selected=" + isa + " forced=" + isa + " refused=(none)\n");
  }
}

TEST(EnvOverride, RefusesUnknownAndUnsupportedNamesWithAReason) {
  const std::string best = Split(bb_supported_isas()).front();
  std::vector<std::string> refused_names = {"bogus", "AVX2", "sse4"};
  for (const char* isa : bbtest::RegistryIsaNames()) {
    if (bb_isa_supported(isa) == 0) refused_names.push_back(isa);
  }
  for (const std::string& name : refused_names) {
    const std::string out = DispatchOf(name);
    EXPECT_EQ(out.rfind("selected=" + best + " forced=" + name + " refused=", 0), 0u) << out;
    EXPECT_EQ(out.find("refused=(none)"), std::string::npos) << out;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--print-dispatch") == 0) {
    const char* forced = bb_forced_isa();
    const char* refused = bb_forced_isa_refused();
    std::printf("selected=%s forced=%s refused=%s\n", bb_selected_isa(), forced ? forced : "(none)",
                refused ? refused : "(none)");
    return 0;
  }
  self_path = bbtest::SelfExecutablePath();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
