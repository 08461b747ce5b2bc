// SPDX-License-Identifier: Apache-2.0
// What the running CPU can do, read once with cpu_features. Plain data, so
// that the ISA choice can be tested against CPUs this host is not.
#ifndef BLOCKBLOOM_DISPATCH_CPU_FEATURES_DETECT_H_
#define BLOCKBLOOM_DISPATCH_CPU_FEATURES_DETECT_H_

#include <string>

#include "src/core/isa.h"

namespace blockbloom::internal {

// The instruction-set extensions the tiers' compiled code may use, one bool
// per feature of src/core/isa.h's list. On x86 a flag is set only when the OS
// also saves the registers it needs (cpu_features checks XCR0), so a set flag
// means "safe to execute".
struct CpuFlags {
#define BLOCKBLOOM_CPU_FLAG(field, name) bool field = false;
  BLOCKBLOOM_CPU_FEATURES(BLOCKBLOOM_CPU_FLAG)
#undef BLOCKBLOOM_CPU_FLAG
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
