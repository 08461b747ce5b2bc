// SPDX-License-Identifier: Apache-2.0
// The prefetch size classes of a machine, derived from its cache sizes by a
// pure function (tests feed it any CPU), and installed for the kernels
// (src/kernels/prefetch.h) when the library loads.
#ifndef BLOCKBLOOM_DISPATCH_PREFETCH_CLASSES_H_
#define BLOCKBLOOM_DISPATCH_PREFETCH_CLASSES_H_

#include "src/dispatch/cache_sizes.h"
#include "src/kernels/prefetch.h"

namespace blockbloom::internal {

// The classes for a CPU with these caches: the rows of
// kReferencePrefetchClasses (their hints and distances) starting at the L2
// size, the L3 share of one core and the whole L3, each boundary kept only
// if larger than the one before it:
// - no cache reported (an emulator, a hypervisor that hides them): the
//   reference table itself;
// - an L2 but no L3, or an L3 no larger than the L2: past the L2 is memory,
//   so one class from the L2 up with the DRAM row's setting;
// - an L3 whose share of a core is not above the L2: no middle class.
// Zeros anywhere never divide or crash: they count as "not reported".
PrefetchClasses ChoosePrefetchClasses(const CacheSizes& caches);

// This machine's caches and classes, detected once (thread-safe); the
// classes are what the kernels use from the library's load on.
const CacheSizes& DetectedCacheSizes();
const PrefetchClasses& DetectedPrefetchClasses();

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_DISPATCH_PREFETCH_CLASSES_H_
