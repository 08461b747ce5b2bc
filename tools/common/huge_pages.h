// SPDX-License-Identifier: Apache-2.0
// Whether a buffer got transparent huge pages: the share of the mapping that
// holds addr backed by them, from /proc/self/smaps (-1 if it cannot be read,
// e.g. not on Linux). With 4 KiB pages nearly every random read of a large
// filter also misses the TLB, so the DRAM-sized numbers of the benchmark and
// of `blockbloom tune` report it next to their timings.
#ifndef BLOCKBLOOM_TOOLS_COMMON_HUGE_PAGES_H_
#define BLOCKBLOOM_TOOLS_COMMON_HUGE_PAGES_H_

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

namespace blockbloom_tools {

inline double HugePageFraction(const void* addr) {
  std::ifstream smaps("/proc/self/smaps");
  if (!smaps) return -1.0;
  const auto target = reinterpret_cast<std::uintptr_t>(addr);
  bool inside = false;
  double size_kib = 0, huge_kib = 0;
  for (std::string line; std::getline(smaps, line);) {
    unsigned long long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      if (inside) break;  // past the mapping we wanted
      inside = target >= lo && target < hi;
      continue;
    }
    if (!inside) continue;
    unsigned long long kib = 0;
    if (std::sscanf(line.c_str(), "Size: %llu kB", &kib) == 1) size_kib = static_cast<double>(kib);
    if (std::sscanf(line.c_str(), "AnonHugePages: %llu kB", &kib) == 1) huge_kib = static_cast<double>(kib);
  }
  return size_kib > 0 ? huge_kib / size_kib : -1.0;
}

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_HUGE_PAGES_H_
