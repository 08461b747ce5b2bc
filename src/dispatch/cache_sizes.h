// SPDX-License-Identifier: Apache-2.0
// The data cache sizes of the running CPU, which the prefetch size classes
// follow (src/dispatch/prefetch_classes.h). Decoding is pure, so that tests can
// feed it the CPUID leaves of CPUs this host is not.
#ifndef BLOCKBLOOM_DISPATCH_CACHE_SIZES_H_
#define BLOCKBLOOM_DISPATCH_CACHE_SIZES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace blockbloom::internal {

// Sizes in bytes; 0 where the CPU (or the hypervisor, or an emulator) did not
// report that cache.
struct CacheSizes {
  std::size_t l1d = 0;          // one core's L1 data cache
  std::size_t l2 = 0;           // one core's L2 (data or unified)
  std::size_t l3 = 0;           // the whole shared L3
  unsigned l3_sharing = 0;      // logical processors sharing that L3; 0: not reported
  std::string source;           // "cpuid leaf 4", "cpuid leaf 0x8000001d", "sysfs" or "none"
};

// The L3's share of one core: l3 / l3_sharing (l3 itself when the sharing
// is not reported); 0 when there is no L3.
std::size_t L3PerCore(const CacheSizes& caches);

// One cache as CPUID describes it.
struct CacheLeaf {
  unsigned level = 0;  // 1, 2, 3, ...
  unsigned type = 0;   // 1 data, 2 instruction, 3 unified; 0 ends the list
  std::size_t bytes = 0;
  unsigned sharing = 0;  // logical processors sharing it
};

// Decodes one subleaf of Intel's leaf 4 or AMD's leaf 0x8000001D (the same
// layout): ways x partitions x line size x sets, each field + 1. The size is
// capped at 1 TiB, so that no register contents can overflow it.
CacheLeaf DecodeCacheLeaf(std::uint32_t eax, std::uint32_t ebx, std::uint32_t ecx);

// The L1d, L2 and L3 among the caches listed (the first data or unified
// cache of each level; instruction caches ignored).
CacheSizes CacheSizesFromLeaves(const std::vector<CacheLeaf>& leaves, const std::string& source);

// Parses a sysfs cache size ("48K", "2048K", "300M", "1G"): 0 if the text is
// not one.
std::size_t ParseSysfsCacheSize(const std::string& text);

// The caches of the CPU this runs on: CPUID on x86 (leaf 4 on Intel, leaf
// 0x8000001D on AMD and Hygon), /sys/devices/system/cpu/cpu0/cache elsewhere
// or when CPUID lists none; source "none" and every size 0 when neither
// says anything (e.g. under an emulator).
CacheSizes DetectCacheSizes();

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_DISPATCH_CACHE_SIZES_H_
