// SPDX-License-Identifier: Apache-2.0
// What the running CPU can do, read once with cpu_features. Plain data, so
// that the ISA choice can be tested against CPUs this host is not.
#ifndef BLOCKBLOOM_DISPATCH_CPU_FEATURES_DETECT_H_
#define BLOCKBLOOM_DISPATCH_CPU_FEATURES_DETECT_H_

#include <string>

namespace blockbloom::internal {

// The instruction-set extensions the tiers' compiled code may use. On x86 a
// flag is set only when the OS also saves the registers it needs (cpu_features
// checks XCR0), so a set flag means "safe to execute".
struct CpuFlags {
  bool ssse3 = false, sse41 = false, sse42 = false, popcnt = false;
  bool avx = false, avx2 = false, bmi1 = false, bmi2 = false, fma = false, f16c = false;
  bool avx512f = false, avx512vl = false, avx512dq = false, avx512bw = false;
  bool asimd = false;  // aarch64 NEON
};

struct CpuDescription {
  std::string architecture;       // "x86-64", "aarch64" or "other"
  std::string vendor;             // e.g. "GenuineIntel"; "" where unknown
  std::string brand;              // e.g. "Intel(R) Xeon(R) CPU E5-2630 v4 @ 2.20GHz"
  std::string microarchitecture;  // cpu_features' name, e.g. "INTEL_BDW"
};

CpuFlags DetectCpuFlags();
CpuDescription DescribeCpu();

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_DISPATCH_CPU_FEATURES_DETECT_H_
