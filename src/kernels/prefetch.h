// SPDX-License-Identifier: Apache-2.0
// How the batch kernels prefetch: a hint and a distance per size class of
// filter unless one is set, the same for every tier, process-wide, read once
// per batch call.
#ifndef BLOCKBLOOM_KERNELS_PREFETCH_H_
#define BLOCKBLOOM_KERNELS_PREFETCH_H_

#include <atomic>
#include <cstddef>
#include <iterator>

#include "blockbloom/tuning.h"

namespace blockbloom::internal {

// The defaults depend on the filter's size class, decided once per batch
// call from its byte size. The classes follow the caches of the running CPU
// (src/dispatch/prefetch_classes.cc derives them from the detected L2 and L3
// sizes when the library loads; docs/benchmarks.md, "Prefetch sweeps", has
// the sweeps of hint x distance x size class on AVX-512 and AVX2, find and
// insert, that chose each class's hint and distance). A filter that fits in
// the L3 is served with a lower latency than DRAM, so fewer keys ahead cover
// it and a farther prefetch only evicts lines still to be used; past the L3,
// the latency of DRAM wants more misses in flight. Set with
// BLOCKBLOOM_PREFETCH_DISTANCE / _HINT or bb_set_prefetch_*, a distance or
// hint applies to every size that is prefetched.
struct PrefetchClass {
  std::size_t min_bytes;  // the class is [min_bytes, the next class's min_bytes)
  int hint;
  std::size_t distance;
};

// The classes of one machine, smallest first, min_bytes strictly increasing;
// filters below the first class's min_bytes are never prefetched (they live
// in the L2 or closer, where a prefetch only costs instructions).
inline constexpr std::size_t kMaxPrefetchClasses = 4;
struct PrefetchClasses {
  std::size_t count;  // 1 .. kMaxPrefetchClasses
  PrefetchClass classes[kMaxPrefetchClasses];

  const PrefetchClass* begin() const { return classes; }
  const PrefetchClass* end() const { return classes + count; }
};

// The reference table: the classes of a CPU with a 1 MiB L2 a core and a
// 32 MiB L3 shared so that 4 MiB is one core's share (AMD Zen 4), in force
// until the library has read the running CPU's caches, and the shape every
// detected table follows:
// - [L2, L3 a core), l1 at 32: the filter sits in the L2 or the L3, a miss
//   is short, and an L1 fill just ahead of the key is what pays (an L2 fill
//   leaves the key an L2 hit).
// - [L3 a core, L3 shared), l2 at 192: the trip to the shared L3 is longer,
//   so the fill starts farther ahead (the setting of the reference kernel
//   these sizes trailed, and the best of the sweep here).
// - L3 shared and up, l2 at 128: DRAM-bound; 128 keys ahead keep enough
//   misses in flight, where 64 was measurably slower.
// The sweeps that chose each hint and distance, with their numbers, are in
// docs/benchmarks.md, "Prefetch defaults by size class".
inline constexpr PrefetchClasses kReferencePrefetchClasses = {
    3,
    {{std::size_t{1} << 20, BB_PREFETCH_L1, 32},
     {std::size_t{4} << 20, BB_PREFETCH_L2, 192},
     {std::size_t{32} << 20, BB_PREFETCH_L2, 128}}};
inline constexpr std::size_t kMaxPrefetchDistance = BB_MAX_PREFETCH_DISTANCE;

// The classes in force: constant-initialised to the reference table (valid
// before any of the library's initialisers run), switched to the detected
// one when the library loads, never changed after.
extern std::atomic<const PrefetchClasses*> g_prefetch_classes;

inline const PrefetchClasses& ActivePrefetchClasses() {
  return *g_prefetch_classes.load(std::memory_order_relaxed);
}

// The smallest filter that is prefetched (the first class's first byte).
inline std::size_t PrefetchMinBytes() { return ActivePrefetchClasses().classes[0].min_bytes; }

// The class of a filter of num_bytes >= classes.classes[0].min_bytes: a few
// compares, once per batch call.
inline constexpr const PrefetchClass& PrefetchClassOf(const PrefetchClasses& classes,
                                                      std::size_t num_bytes) {
  std::size_t i = 0;
  while (i + 1 < classes.count && num_bytes >= classes.classes[i + 1].min_bytes) ++i;
  return classes.classes[i];
}

// 0 = the default of the filter's size class; otherwise 1 .. kMaxPrefetchDistance.
extern std::atomic<std::size_t> g_prefetch_distance;
// A bb_prefetch_level; BB_PREFETCH_DEFAULT = that of the filter's size class.
extern std::atomic<int> g_prefetch_hint;

// What one batch call does: hint BB_PREFETCH_NONE means no prefetching (and
// distance 0).
struct PrefetchPlan {
  int hint;
  std::size_t distance;
};

// The plan of a call on num_bytes of filter given the classes and the
// settings (hint, distance) as stored: pure, so tests can check every boundary.
inline constexpr PrefetchPlan PlanPrefetch(const PrefetchClasses& classes, std::size_t num_bytes,
                                           int hint, std::size_t distance) {
  if (num_bytes < classes.classes[0].min_bytes) return {BB_PREFETCH_NONE, 0};
  const PrefetchClass& c = PrefetchClassOf(classes, num_bytes);
  // Anything outside the levels counts as the default: a value that can
  // never reach the kernels' switch as an unknown hint.
  if (hint < BB_PREFETCH_NONE || hint > BB_PREFETCH_L3) hint = c.hint;
  if (hint == BB_PREFETCH_NONE) return {BB_PREFETCH_NONE, 0};
  if (distance == 0) distance = c.distance;
  return {hint, distance < kMaxPrefetchDistance ? distance : kMaxPrefetchDistance};
}

inline PrefetchPlan PrefetchPlanFor(std::size_t num_bytes) {
  return PlanPrefetch(ActivePrefetchClasses(), num_bytes, g_prefetch_hint.load(std::memory_order_relaxed),
                      g_prefetch_distance.load(std::memory_order_relaxed));
}

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_KERNELS_PREFETCH_H_
