// SPDX-License-Identifier: Apache-2.0
#include "tools/aligncheck/cpu_detect.h"

#include <unistd.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "tools/common/cli_error.h"
#include "src/tools_interface.h"

namespace blockbloom_tools::aligncheck {
namespace {

using blockbloom_tools::CliError;
using blockbloom_tools::UsageError;

bool IsPowerOfTwo(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// A line size the straddle arithmetic can use.
bool IsUsableLine(std::uint64_t line) { return line >= 32 && line <= 4096 && IsPowerOfTwo(line); }

std::string ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return "";
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  return line;
}

std::string DescribeGeometry(const CacheGeometry& g) {
  return "line " + (g.line_bytes ? std::to_string(g.line_bytes) + " B" : std::string("?")) +
         ", L1D " + HumanBytes(g.l1d_bytes) + ", L2 " + HumanBytes(g.l2_bytes) + ", L3 " +
         HumanBytes(g.l3_bytes);
}

std::string CpuName(const DetectedCpu& cpu) {
  std::string name = cpu.microarchitecture_name.empty() ? cpu.architecture
                                                        : cpu.microarchitecture_name;
  if (cpu.family >= 0) {
    name += " (family " + std::to_string(cpu.family) + ", model " + std::to_string(cpu.model) + ")";
  }
  return name;
}

CoreProfile GenericProfile(const DetectedCpu& cpu, std::uint64_t page_bytes, std::string* note) {
  CoreProfile p;
  p.name = "generic";
  p.core = cpu.microarchitecture_name.empty() || cpu.microarchitecture_name == "X86_UNKNOWN"
               ? (cpu.brand.empty() ? cpu.architecture : cpu.brand)
               : cpu.microarchitecture_name;
  p.product = cpu.brand;
  const CacheGeometry& g = cpu.caches;
  if (IsUsableLine(g.line_bytes)) {
    p.line_bytes = g.line_bytes;
  } else {
    p.line_bytes = 64;
    *note = "; no usable line size was detected, 64 B assumed";
  }
  p.l1d_bytes = g.l1d_bytes;
  p.l2_bytes = g.l2_bytes;
  p.llc_bytes = g.l3_bytes;
  p.llc_scope = g.l3_bytes ? "whole L3 as detected" : "unknown";
  p.page_bytes = page_bytes >= 4096 && IsPowerOfTwo(page_bytes) ? page_bytes : 4096;
  p.huge_page_bytes = 2 * kMiB;
  p.prefetch_pair_bytes = 0;
  p.line_split_penalty_cycles = -1;
  p.page_split_penalty_cycles = -1;
  return p;
}

}  // namespace

std::string E5ProfileFor(Microarchitecture uarch) {
#if defined(CPU_FEATURES_ARCH_X86)
  switch (uarch) {
    case cpu_features::INTEL_SNB: return "e5-v1";
    case cpu_features::INTEL_IVB: return "e5-v2";
    case cpu_features::INTEL_HSW: return "e5-v3";
    case cpu_features::INTEL_BDW: return "e5-v4";
    default: return "";
  }
#else
  (void)uarch;
  return "";
#endif
}

int EpModelFor(Microarchitecture uarch) {
#if defined(CPU_FEATURES_ARCH_X86)
  switch (uarch) {
    case cpu_features::INTEL_SNB: return 45;  // 0x2D Sandy Bridge-EP
    case cpu_features::INTEL_IVB: return 62;  // 0x3E Ivy Bridge-EP
    case cpu_features::INTEL_HSW: return 63;  // 0x3F Haswell-EP
    case cpu_features::INTEL_BDW: return 79;  // 0x4F Broadwell-EP
    default: return -1;
  }
#else
  (void)uarch;
  return -1;
#endif
}

CacheGeometry GeometryFromCacheInfo(const cpu_features::CacheInfo& info) {
  CacheGeometry g;
  g.source = "cpu_features GetX86CacheInfo";
  for (int i = 0; i < info.size && i < CPU_FEATURES_MAX_CACHE_LEVEL; ++i) {
    const cpu_features::CacheLevelInfo& level = info.levels[i];
    const bool data = level.cache_type == cpu_features::CPU_FEATURE_CACHE_DATA;
    const bool unified = level.cache_type == cpu_features::CPU_FEATURE_CACHE_UNIFIED;
    if (!data && !unified) continue;
    if (level.cache_size <= 0) continue;
    const auto size = static_cast<std::uint64_t>(level.cache_size);
    if (level.level == 1 && data) {
      g.l1d_bytes = size;
      if (level.line_size > 0) g.line_bytes = static_cast<std::uint64_t>(level.line_size);
    } else if (level.level == 2) {
      g.l2_bytes = size;
    } else if (level.level == 3) {
      g.l3_bytes = size;
    }
    if (g.line_bytes == 0 && level.line_size > 0) {
      g.line_bytes = static_cast<std::uint64_t>(level.line_size);
    }
  }
  return g;
}

std::uint64_t ParseSysfsCacheSize(const std::string& text) {
  std::size_t i = 0;
  std::uint64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    if (value > (UINT64_MAX - 9) / 10) return 0;
    value = value * 10 + static_cast<std::uint64_t>(text[i++] - '0');
  }
  if (i == 0) return 0;
  std::uint64_t unit = 1;
  if (i < text.size()) {
    const char suffix = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i++])));
    if (suffix == 'K') {
      unit = kKiB;
    } else if (suffix == 'M') {
      unit = kMiB;
    } else if (suffix == 'G') {
      unit = kMiB * kKiB;
    } else {
      return 0;
    }
    if (i < text.size()) return 0;  // nothing may follow the unit
  }
  if (value > UINT64_MAX / unit) return 0;
  return value * unit;
}

CacheGeometry ReadSysfsCaches(const std::string& cache_dir) {
  CacheGeometry g;
  g.source = "sysfs " + cache_dir + "/index*/";
  for (int index = 0; index < 16; ++index) {
    const std::string dir = cache_dir + "/index" + std::to_string(index) + "/";
    const std::string level_text = ReadFirstLine(dir + "level");
    if (level_text.empty()) continue;
    const std::string type = ReadFirstLine(dir + "type");
    const std::uint64_t size = ParseSysfsCacheSize(ReadFirstLine(dir + "size"));
    const std::uint64_t line = ParseSysfsCacheSize(ReadFirstLine(dir + "coherency_line_size"));
    const bool data = type == "Data";
    const bool unified = type == "Unified";
    if (!data && !unified) continue;
    if (level_text == "1" && data) {
      g.l1d_bytes = size;
      if (line) g.line_bytes = line;
    } else if (level_text == "2") {
      g.l2_bytes = size;
    } else if (level_text == "3") {
      g.l3_bytes = size;
    }
    if (g.line_bytes == 0 && line) g.line_bytes = line;
  }
  return g;
}

DetectedCpu DetectCpu() {
  DetectedCpu d;
  const blockbloom::internal::CpuDescription described = blockbloom::internal::DescribeCpu();
  d.architecture = described.architecture;
  d.vendor = described.vendor;
  d.brand = described.brand;
#if defined(CPU_FEATURES_ARCH_X86)
  const cpu_features::X86Info info = cpu_features::GetX86Info();
  d.microarchitecture = cpu_features::GetX86Microarchitecture(&info);
  d.microarchitecture_name = cpu_features::GetX86MicroarchitectureName(d.microarchitecture);
  d.family = info.family;
  d.model = info.model;
  // GetX86CacheInfo reads Intel's CPUID leaves only.
  if (d.vendor == "GenuineIntel") d.caches = GeometryFromCacheInfo(cpu_features::GetX86CacheInfo());
#endif
  if (d.caches.l1d_bytes == 0 && d.caches.l2_bytes == 0 && d.caches.l3_bytes == 0) {
    d.caches = ReadSysfsCaches("/sys/devices/system/cpu/cpu0/cache");
    if (d.caches.l1d_bytes == 0 && d.caches.l2_bytes == 0 && d.caches.l3_bytes == 0 &&
        d.caches.line_bytes == 0) {
      d.caches.source = "none (neither cpu_features nor sysfs gave cache sizes)";
    }
  }
  return d;
}

ProfileChoice ChooseAutoProfile(const DetectedCpu& cpu, std::uint64_t page_bytes) {
  ProfileChoice choice;
  const std::string e5 = E5ProfileFor(cpu.microarchitecture);
  if (!e5.empty()) {
    choice.profile = *BuiltinProfile(e5);
    std::string core = choice.profile.core;  // "Sandy Bridge-EP" -> "Sandy Bridge"
    if (core.size() > 3 && core.compare(core.size() - 3, 3, "-EP") == 0) core.resize(core.size() - 3);
    const int ep_model = EpModelFor(cpu.microarchitecture);
    choice.reason = "cpu_features reports " + CpuName(cpu) + ": the " + core +
                    " core of the " + choice.profile.product;
    if (cpu.family == 6 && cpu.model == ep_model) {
      choice.reason += ", and model " + std::to_string(ep_model) + " is " + choice.profile.core +
                       " itself";
    } else {
      choice.reason += " (" + choice.profile.core + " is model " + std::to_string(ep_model) +
                       ": this is a client or emulated part, so the E5 cache sizes are "
                       "assumed, not detected)";
    }
    const std::string sku_name = SkuFromBrand(cpu.brand);
    const Sku* sku = sku_name.empty() ? nullptr : FindSku(sku_name);
    if (sku != nullptr && sku->profile == choice.profile.name) {
      choice.profile = ApplySku(choice.profile, *sku);
      choice.reason += "; the brand string names the " + std::string(sku->name) +
                       ", so the LLC is its whole " + HumanBytes(sku->llc_bytes);
    } else if (!sku_name.empty()) {
      choice.reason += "; the brand string names the " + sku_name +
                       ", which is not in the SKU table, so the LLC is judged per core "
                       "(give --sku to say more)";
    }
    return choice;
  }
  std::string note;
  choice.profile = GenericProfile(cpu, page_bytes, &note);
  if (cpu.architecture != "x86-64") {
    choice.reason = "not an x86 CPU (" + cpu.architecture + ")";
  } else {
    choice.reason = "cpu_features reports " + CpuName(cpu);
    if (!cpu.brand.empty()) choice.reason += ", \"" + cpu.brand + "\"";
    choice.reason += ": not one of the Xeon E5 cores (INTEL_SNB, INTEL_IVB, INTEL_HSW, INTEL_BDW)";
  }
  choice.reason += "; generic profile from the detected geometry (" + DescribeGeometry(cpu.caches) +
                   ", from " + cpu.caches.source + ")" + note;
  return choice;
}

ProfileChoice ResolveProfile(const std::string& cpu_flag, const std::string& sku_flag,
                             DetectedCpu* detected, bool* was_detected) {
  *was_detected = false;
  const Sku* sku = nullptr;
  if (!sku_flag.empty()) {
    sku = FindSku(sku_flag);
    if (sku == nullptr) {
      throw CliError("unknown --sku \"" + sku_flag + "\"; known SKUs: " + KnownSkuList());
    }
  }
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::string cpu = cpu_flag.empty() ? "auto" : cpu_flag;

  if (cpu == "auto") {
    if (sku != nullptr) {
      ProfileChoice choice{ApplySku(*BuiltinProfile(sku->profile), *sku), ""};
      choice.reason = "--sku " + std::string(sku->name) + " is a " + choice.profile.core +
                      " part, so profile " + choice.profile.name +
                      " with its whole LLC; the running CPU was not examined";
      return choice;
    }
    *detected = DetectCpu();
    *was_detected = true;
    return ChooseAutoProfile(*detected, page);
  }
  if (cpu == "generic") {
    if (sku != nullptr) throw UsageError("--sku is for the e5-v1 .. e5-v4 profiles, not generic");
    *detected = DetectCpu();
    *was_detected = true;
    std::string note;
    ProfileChoice choice{GenericProfile(*detected, page, &note), ""};
    choice.reason = "forced by --cpu generic: the detected geometry (" +
                    DescribeGeometry(detected->caches) + ", from " + detected->caches.source +
                    ")" + note;
    return choice;
  }
  if (const std::optional<CoreProfile> builtin = BuiltinProfile(cpu)) {
    ProfileChoice choice{*builtin, "forced by --cpu " + cpu};
    if (sku != nullptr) {
      choice.profile = ApplySku(choice.profile, *sku);
      choice.reason += " with --sku " + std::string(sku->name);
    }
    return choice;
  }
  throw UsageError("unknown --cpu \"" + cpu_flag +
                   "\"; expected auto, e5-v1, e5-v2, e5-v3, e5-v4 or generic");
}

}  // namespace blockbloom_tools::aligncheck
