// SPDX-License-Identifier: Apache-2.0
// The prefetch setting per size class of filter: the library's own
// find_batch_bitmap timed on a buffer of each class L3-resident on the
// reference VM (2, 8, 16 and 32 MiB; the DRAM class is the main sweep's
// --bytes buffer) at a small hint x distance grid and at the setting in force (by default, the
// library's defaults per size class), interleaved. What the library's
// per-class defaults (src/kernels/prefetch.h) are checked against on a machine.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_CLASS_SWEEP_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_CLASS_SWEEP_H_

#include <cstddef>
#include <functional>
#include <vector>

#include "blockbloom/tuning.h"
#include "tools/blockbloom/tune/find_timing.h"

namespace blockbloom_tools::tune {

inline constexpr std::size_t kClassBytes[] = {std::size_t{2} << 20, std::size_t{8} << 20,
                                              std::size_t{16} << 20, std::size_t{32} << 20};
inline constexpr int kClassHints[] = {BB_PREFETCH_L1, BB_PREFETCH_L2, BB_PREFETCH_L3};
inline constexpr std::size_t kClassDistances[] = {32, 64, 128, 192, 256};

struct ClassResult {
  std::size_t bytes;
  std::vector<FindTiming> cells;  // kClassHints x kClassDistances, hint outermost
  FindTiming best;                // the fastest of cells
  FindTiming current;             // the setting in force
};

// Spends about budget_seconds over all classes, calling after_each() after
// every timed run; leaves the library's setting as it found it.
std::vector<ClassResult> RunClassSweep(PrefetchSetting current, double budget_seconds,
                                       const std::function<void()>& after_each);

}  // namespace blockbloom_tools::tune

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_CLASS_SWEEP_H_
