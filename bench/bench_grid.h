// SPDX-License-Identifier: Apache-2.0
// The ISAs and filter sizes every benchmark file registers.
#ifndef BLOCKBLOOM_BENCH_BENCH_GRID_H_
#define BLOCKBLOOM_BENCH_BENCH_GRID_H_

#include <cstddef>
#include <vector>

#include "blockbloom/blockbloom.h"

namespace blockbloom_bench {

// The library's ISA registry (bb_isa_name), scalar first and then upwards
// (the reverse of its best-first order), so a tier added to src/core/isa.h is
// benchmarked without an edit here; those bbi_kernels_for_isa refuses are left
// out by the callers.
inline std::vector<const char*> IsaNames() {
  std::vector<const char*> names;
  for (size_t i = bb_isa_count(); i > 0; --i) names.push_back(bb_isa_name(i - 1));
  return names;
}

// L1-, L2-, L3- and DRAM-sized (this suite's reference machine: 32 KiB L1d,
// 1 MiB L2 per core, 32 MiB L3).
inline constexpr size_t kKiB16 = size_t{16} << 10;
inline constexpr size_t kKiB512 = size_t{512} << 10;
inline constexpr size_t kMiB16 = size_t{16} << 20;
inline constexpr size_t kMiB512 = size_t{512} << 20;
inline constexpr size_t kFilterBytes[] = {kKiB16, kKiB512, kMiB16, kMiB512};

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_BENCH_GRID_H_
