// SPDX-License-Identifier: Apache-2.0
#include "src/dispatch/cpu_features_detect.h"

#include <cstdio>

#include "cpu_features_macros.h"

#if defined(CPU_FEATURES_ARCH_X86)
#include "cpuinfo_x86.h"
#elif defined(CPU_FEATURES_ARCH_AARCH64)
#include <asm/hwcap.h>
#include <sys/auxv.h>

#include "cpuinfo_aarch64.h"
#endif

namespace blockbloom::internal {

#if defined(CPU_FEATURES_ARCH_AARCH64)
namespace {

// Debian's cpu_features 0.7.0 puts() a debug line on stdout whenever
// getauxval() is 0 for AT_HWCAP or AT_HWCAP2, and AT_HWCAP2 is 0 on every
// ARMv8.0 core (Cortex-A72, Graviton 1, ...). A library must not write to its
// caller's stdout (it corrupted `blockbloom info --json`), so cpu_features is
// asked only when it will stay quiet; otherwise the same auxiliary vector it
// would read is read here.
bool CpuFeaturesStaysQuiet() { return getauxval(AT_HWCAP) != 0 && getauxval(AT_HWCAP2) != 0; }

}  // namespace
#endif

// cpu_features' feature fields are signed 1-bit bit-fields: a set one reads as
// -1, so every test is `!= 0`.
CpuFlags DetectCpuFlags() {
  CpuFlags flags;
#if defined(CPU_FEATURES_ARCH_X86)
  const cpu_features::X86Features f = cpu_features::GetX86Info().features;
  flags.ssse3 = f.ssse3 != 0;
  flags.sse41 = f.sse4_1 != 0;
  flags.sse42 = f.sse4_2 != 0;
  flags.popcnt = f.popcnt != 0;
  flags.avx = f.avx != 0;
  flags.avx2 = f.avx2 != 0;
  flags.bmi1 = f.bmi1 != 0;
  flags.bmi2 = f.bmi2 != 0;
  flags.fma = f.fma3 != 0;
  flags.f16c = f.f16c != 0;
  flags.avx512f = f.avx512f != 0;
  flags.avx512vl = f.avx512vl != 0;
  flags.avx512dq = f.avx512dq != 0;
  flags.avx512bw = f.avx512bw != 0;
#elif defined(CPU_FEATURES_ARCH_AARCH64)
  flags.asimd = CpuFeaturesStaysQuiet() ? cpu_features::GetAarch64Info().features.asimd != 0
                                        : (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0;
#endif
  return flags;
}

CpuDescription DescribeCpu() {
  CpuDescription d;
#if defined(CPU_FEATURES_ARCH_X86)
  const cpu_features::X86Info info = cpu_features::GetX86Info();
  d.architecture = "x86-64";
  d.vendor = info.vendor;
  d.brand = info.brand_string;
  // Trim the padding some CPUs put around the brand string.
  const auto first = d.brand.find_first_not_of(' ');
  d.brand = first == std::string::npos ? "" : d.brand.substr(first, d.brand.find_last_not_of(' ') - first + 1);
  d.microarchitecture =
      cpu_features::GetX86MicroarchitectureName(cpu_features::GetX86Microarchitecture(&info));
#elif defined(CPU_FEATURES_ARCH_AARCH64)
  d.architecture = "aarch64";
  if (!CpuFeaturesStaysQuiet()) return d;  // vendor/brand unknown rather than a polluted stdout
  const cpu_features::Aarch64Info info = cpu_features::GetAarch64Info();
  char text[64];
  std::snprintf(text, sizeof text, "implementer 0x%02x", static_cast<unsigned>(info.implementer));
  d.vendor = text;
  std::snprintf(text, sizeof text, "part 0x%03x variant %d revision %d",
                static_cast<unsigned>(info.part), info.variant, info.revision);
  d.brand = text;
#else
  d.architecture = "other";
#endif
  return d;
}

}  // namespace blockbloom::internal
