// SPDX-License-Identifier: Apache-2.0
#include "src/kernels/prefetch.h"

namespace blockbloom::internal {

// Constant-initialised: valid before any of the library's initialisers run
// (the environment overrides are applied by src/dispatch/prefetch_choice.cc,
// the detected classes by src/dispatch/prefetch_classes.cc).
// 0 and BB_PREFETCH_DEFAULT: the defaults of each filter's size class.
std::atomic<std::size_t> g_prefetch_distance{0};
std::atomic<int> g_prefetch_hint{BB_PREFETCH_DEFAULT};
std::atomic<const PrefetchClasses*> g_prefetch_classes{&kReferencePrefetchClasses};

}  // namespace blockbloom::internal
