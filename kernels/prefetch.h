// SPDX-License-Identifier: Apache-2.0
// How the batch kernels prefetch: one setting (hint and distance) for every
// tier, process-wide, read once per batch call.
#ifndef BLOCKBLOOM_KERNELS_PREFETCH_H_
#define BLOCKBLOOM_KERNELS_PREFETCH_H_

#include <atomic>
#include <cstddef>

#include "blockbloom/tuning.h"

namespace blockbloom {

// Filters below this size live in L2 or closer: prefetching there only costs
// instructions. From 1 MiB up it pays, even at L3 sizes, because the L3 of a
// shared VM does not keep a 16 MiB filter (docs/benchmarks.md).
inline constexpr std::size_t kPrefetchMinBytes = std::size_t{1} << 20;

// Chosen by sweeps of hint x distance x filter size (docs/benchmarks.md,
// "Prefetch sweep"). Distance: 128 keys ahead was the best or within a few
// percent of it at 16 MiB and 512 MiB for find and insert; 64 was 10-25%
// slower, 32 much slower. Hint: on the development VM the L1 hint
// (prefetcht0) and the L2 hint (prefetcht1) were within 2-5% of each other
// at 128, but on an earlier host of the same type prefetcht0 stalled at
// 8 ns per random line at every distance while prefetcht1 reached 5.2 (an
// L1-targeted prefetch holds one of the few L1 miss buffers until its line
// arrives): L2 is never much worse and sometimes far better.
inline constexpr std::size_t kDefaultPrefetchDistance = 128;
inline constexpr int kDefaultPrefetchHint = BB_PREFETCH_L2;
inline constexpr std::size_t kMaxPrefetchDistance = BB_MAX_PREFETCH_DISTANCE;

extern std::atomic<std::size_t> g_prefetch_distance;  // 1 .. kMaxPrefetchDistance
extern std::atomic<int> g_prefetch_hint;              // a bb_prefetch_level

// What one batch call does: hint BB_PREFETCH_NONE means no prefetching (and
// distance 0).
struct PrefetchPlan {
  int hint;
  std::size_t distance;
};

inline PrefetchPlan PrefetchPlanFor(std::size_t num_bytes) {
  const int hint = g_prefetch_hint.load(std::memory_order_relaxed);
  if (num_bytes < kPrefetchMinBytes || hint == BB_PREFETCH_NONE) return {BB_PREFETCH_NONE, 0};
  const std::size_t distance = g_prefetch_distance.load(std::memory_order_relaxed);
  return {hint, distance < kMaxPrefetchDistance ? distance : kMaxPrefetchDistance};
}

}  // namespace blockbloom

#endif  // BLOCKBLOOM_KERNELS_PREFETCH_H_
