// SPDX-License-Identifier: Apache-2.0
// --cpu auto: which profile the running CPU gets, and why.
//
// cpu_features names the microarchitecture; the four Xeon E5 cores map to the
// built-in e5-v1 .. e5-v4 profiles. Any other CPU gets a "generic" profile
// built from its detected cache geometry: cpu_features GetX86CacheInfo on
// Intel, else /sys/devices/system/cpu/cpu0/cache/index*/.
#ifndef BLOCKBLOOM_TOOLS_ALIGNCHECK_CPU_DETECT_H_
#define BLOCKBLOOM_TOOLS_ALIGNCHECK_CPU_DETECT_H_

#include <cstdint>
#include <string>

#include "tools/aligncheck/profiles.h"
#include "cpu_features_cache_info.h"
#include "cpu_features_macros.h"
#if defined(CPU_FEATURES_ARCH_X86)
#include "cpuinfo_x86.h"
#endif

namespace blockbloom_tools::aligncheck {

#if defined(CPU_FEATURES_ARCH_X86)
using Microarchitecture = cpu_features::X86Microarchitecture;
constexpr Microarchitecture kUnknownMicroarchitecture = cpu_features::X86_UNKNOWN;
#else
// cpuinfo_x86.h may only be included on x86: elsewhere there is no E5 to find.
enum Microarchitecture { kUnknownMicroarchitecture = 0 };
#endif

struct CacheGeometry {
  std::uint64_t line_bytes = 0;  // 0 = unknown, for every field
  std::uint64_t l1d_bytes = 0;
  std::uint64_t l2_bytes = 0;
  std::uint64_t l3_bytes = 0;
  std::string source;  // "cpu_features GetX86CacheInfo", "sysfs ...", or "none"
};

struct DetectedCpu {
  std::string architecture;  // "x86-64", "aarch64", "other"
  std::string vendor;
  std::string brand;
  Microarchitecture microarchitecture = kUnknownMicroarchitecture;
  std::string microarchitecture_name;  // cpu_features' name, "" off x86
  int family = -1;                     // -1 off x86
  int model = -1;
  CacheGeometry caches;
};

// The built-in profile for a cpu_features microarchitecture: "e5-v1" for
// INTEL_SNB, "e5-v2" for INTEL_IVB, "e5-v3" for INTEL_HSW, "e5-v4" for
// INTEL_BDW; "" for anything else (and always off x86).
std::string E5ProfileFor(Microarchitecture uarch);

// The family 6 model number of the server (EP) part of that core: 45, 62,
// 63, 79; -1 for anything else.
int EpModelFor(Microarchitecture uarch);

// The levels of a cpu_features CacheInfo: the level-1 data cache, level-2
// and level-3 data or unified caches; TLB and prefetch entries are ignored.
CacheGeometry GeometryFromCacheInfo(const cpu_features::CacheInfo& info);

// "32K" -> 32768, "1024K", "32M", "8192" (bytes); 0 when unreadable.
std::uint64_t ParseSysfsCacheSize(const std::string& text);

// Reads cache_dir/index*/{level,type,size,coherency_line_size} (cache_dir is
// normally /sys/devices/system/cpu/cpu0/cache). Missing entries stay 0.
CacheGeometry ReadSysfsCaches(const std::string& cache_dir);

// The running CPU, read with cpu_features (and sysfs).
DetectedCpu DetectCpu();

struct ProfileChoice {
  CoreProfile profile;
  std::string reason;  // profile_reason in the report
};

// --cpu auto for a detected CPU (pure: tests feed it CPUs this host is not).
// page_bytes is the running system's base page size for a generic profile.
ProfileChoice ChooseAutoProfile(const DetectedCpu& cpu, std::uint64_t page_bytes);

// The whole choice from the flags: cpu_flag is "auto" (or ""), "e5-v1" ..
// "e5-v4" or "generic"; sku_flag is "" or a SKU name. *detected is filled when
// the CPU had to be read (auto or generic). Throws CliError on a bad flag.
ProfileChoice ResolveProfile(const std::string& cpu_flag, const std::string& sku_flag,
                             DetectedCpu* detected, bool* was_detected);

}  // namespace blockbloom_tools::aligncheck

#endif  // BLOCKBLOOM_TOOLS_ALIGNCHECK_CPU_DETECT_H_
