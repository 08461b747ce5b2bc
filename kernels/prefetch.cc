// SPDX-License-Identifier: Apache-2.0
#include "kernels/prefetch.h"

namespace blockbloom {

// Constant-initialised: valid before any of the library's initialisers run
// (the environment overrides are applied by dispatch/prefetch_choice.cc).
std::atomic<std::size_t> g_prefetch_distance{kDefaultPrefetchDistance};
std::atomic<int> g_prefetch_hint{kDefaultPrefetchHint};

}  // namespace blockbloom
