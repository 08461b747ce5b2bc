#include "kernels/prefetch.h"

#include "blockbloom/kernels.h"

namespace blockbloom {

std::atomic<std::size_t> g_prefetch_distance{kDefaultPrefetchDistance};

}  // namespace blockbloom

extern "C" {

size_t bb_prefetch_distance(void) {
  return blockbloom::g_prefetch_distance.load(std::memory_order_relaxed);
}

void bb_set_prefetch_distance(size_t keys_ahead) {
  blockbloom::g_prefetch_distance.store(keys_ahead == 0 ? blockbloom::kDefaultPrefetchDistance
                                                        : keys_ahead,
                                        std::memory_order_relaxed);
}

}  // extern "C"
