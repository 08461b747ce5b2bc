// How far ahead the batch kernels prefetch: one setting for every tier.
#ifndef BLOCKBLOOM_KERNELS_PREFETCH_H_
#define BLOCKBLOOM_KERNELS_PREFETCH_H_

#include <atomic>
#include <cstddef>

namespace blockbloom {

// Filters below this size live in L2 or closer: prefetching there only costs
// instructions. Measured: docs/benchmarks.md.
inline constexpr std::size_t kPrefetchMinBytes = std::size_t{1} << 20;

// Keys ahead: tuned by a sweep (docs/benchmarks.md); settable for other
// hardware through bb_set_prefetch_distance().
inline constexpr std::size_t kDefaultPrefetchDistance = 16;

extern std::atomic<std::size_t> g_prefetch_distance;

// The distance for a filter of num_bytes; 0 means no prefetching. Read once
// per batch call.
inline std::size_t PrefetchDistanceFor(std::size_t num_bytes) {
  return num_bytes < kPrefetchMinBytes ? 0 : g_prefetch_distance.load(std::memory_order_relaxed);
}

}  // namespace blockbloom

#endif  // BLOCKBLOOM_KERNELS_PREFETCH_H_
