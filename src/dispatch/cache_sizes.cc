// SPDX-License-Identifier: Apache-2.0
#include "src/dispatch/cache_sizes.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace blockbloom::internal {
namespace {

constexpr std::uint64_t kMaxCacheBytes = std::uint64_t{1} << 40;

// Bits [low, low + width) of value.
constexpr std::uint32_t Field(std::uint32_t value, unsigned low, unsigned width) {
  return (value >> low) & ((std::uint32_t{1} << width) - 1);
}

}  // namespace

std::size_t L3PerCore(const CacheSizes& caches) {
  return caches.l3_sharing == 0 ? caches.l3 : caches.l3 / caches.l3_sharing;
}

CacheLeaf DecodeCacheLeaf(std::uint32_t eax, std::uint32_t ebx, std::uint32_t ecx) {
  CacheLeaf leaf;
  leaf.type = Field(eax, 0, 5);
  leaf.level = Field(eax, 5, 3);
  leaf.sharing = Field(eax, 14, 12) + 1;
  // Each factor fits in 32 bits + 1: multiplied step by step against the
  // cap, the product never overflows 64 bits.
  const std::uint64_t factors[] = {std::uint64_t{Field(ebx, 22, 10)} + 1,
                                   std::uint64_t{Field(ebx, 12, 10)} + 1,
                                   std::uint64_t{Field(ebx, 0, 12)} + 1, std::uint64_t{ecx} + 1};
  std::uint64_t bytes = 1;
  for (const std::uint64_t f : factors) {
    bytes = bytes > kMaxCacheBytes / f ? kMaxCacheBytes : bytes * f;
  }
  leaf.bytes = static_cast<std::size_t>(bytes);
  return leaf;
}

CacheSizes CacheSizesFromLeaves(const std::vector<CacheLeaf>& leaves, const std::string& source) {
  CacheSizes caches;
  caches.source = source;
  for (const CacheLeaf& leaf : leaves) {
    if (leaf.type != 1 && leaf.type != 3) continue;  // instruction caches and unknown types
    if (leaf.level == 1 && caches.l1d == 0) caches.l1d = leaf.bytes;
    if (leaf.level == 2 && caches.l2 == 0) caches.l2 = leaf.bytes;
    if (leaf.level == 3 && caches.l3 == 0) {
      caches.l3 = leaf.bytes;
      caches.l3_sharing = leaf.sharing;
    }
  }
  return caches;
}

std::size_t ParseSysfsCacheSize(const std::string& text) {
  std::uint64_t value = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
    if (value > kMaxCacheBytes) return 0;
  }
  if (i == 0) return 0;
  unsigned shift = 0;
  if (i < text.size()) {
    switch (text[i]) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      default: return 0;
    }
    ++i;
  }
  while (i < text.size() && (text[i] == '\n' || text[i] == ' ')) ++i;
  if (i != text.size() || value > (kMaxCacheBytes >> shift)) return 0;
  return static_cast<std::size_t>(value << shift);
}

namespace {

#if defined(__x86_64__) || defined(__i386__)
// The subleaves of leaf 4 (Intel) or 0x8000001D (AMD), up to the first
// without a type; none if the CPU's highest leaf is below it.
std::vector<CacheLeaf> CpuidCacheLeaves(unsigned leaf) {
  std::vector<CacheLeaf> leaves;
  unsigned eax, ebx, ecx, edx;
  if (__get_cpuid_max(leaf & 0x80000000u, nullptr) < leaf) return leaves;
  for (unsigned sub = 0; sub < 16; ++sub) {
    __cpuid_count(leaf, sub, eax, ebx, ecx, edx);
    const CacheLeaf decoded = DecodeCacheLeaf(eax, ebx, ecx);
    if (decoded.type == 0) break;
    leaves.push_back(decoded);
  }
  return leaves;
}

CacheSizes CpuidCacheSizes() {
  unsigned eax, ebx, ecx, edx;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) return {};
  // "AuthenticAMD" / "HygonGenuine": ebx holds the first four characters.
  const bool amd = ebx == 0x68747541u || ebx == 0x6f677948u;
  const unsigned leaf = amd ? 0x8000001Du : 4u;
  return CacheSizesFromLeaves(CpuidCacheLeaves(leaf),
                              amd ? "cpuid leaf 0x8000001d" : "cpuid leaf 4");
}
#endif

std::string ReadLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// Logical processors in a sysfs CPU list such as "0-15" or "0,2,4-7".
unsigned CountCpuList(const std::string& list) {
  unsigned count = 0;
  std::size_t i = 0;
  while (i < list.size()) {
    const std::size_t comma = std::min(list.find(',', i), list.size());
    const std::string range = list.substr(i, comma - i);
    const std::size_t dash = range.find('-');
    if (dash == std::string::npos) {
      count += range.empty() ? 0 : 1;
    } else {
      const unsigned long first = std::strtoul(range.c_str(), nullptr, 10);
      const unsigned long last = std::strtoul(range.c_str() + dash + 1, nullptr, 10);
      count += last >= first && last - first < 65536 ? static_cast<unsigned>(last - first + 1) : 0;
    }
    i = comma + 1;
  }
  return count;
}

CacheSizes SysfsCacheSizes() {
  std::vector<CacheLeaf> leaves;
  for (unsigned index = 0; index < 16; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string type = ReadLine(dir + "type");
    if (type.empty()) break;
    CacheLeaf leaf;
    leaf.type = type == "Data" ? 1 : type == "Instruction" ? 2 : type == "Unified" ? 3 : 0;
    leaf.level = static_cast<unsigned>(std::strtoul(ReadLine(dir + "level").c_str(), nullptr, 10));
    leaf.bytes = ParseSysfsCacheSize(ReadLine(dir + "size"));
    leaf.sharing = CountCpuList(ReadLine(dir + "shared_cpu_list"));
    leaves.push_back(leaf);
  }
  return CacheSizesFromLeaves(leaves, "sysfs");
}

}  // namespace

CacheSizes DetectCacheSizes() {
#if defined(__x86_64__) || defined(__i386__)
  const CacheSizes cpuid = CpuidCacheSizes();
  if (cpuid.l1d != 0 || cpuid.l2 != 0 || cpuid.l3 != 0) return cpuid;
#endif
  CacheSizes sysfs = SysfsCacheSizes();
  if (sysfs.l1d != 0 || sysfs.l2 != 0 || sysfs.l3 != 0) return sysfs;
  CacheSizes none;
  none.source = "none";
  return none;
}

}  // namespace blockbloom::internal
