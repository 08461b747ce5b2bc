// SPDX-License-Identifier: Apache-2.0
// Sets the library's process-wide prefetch hint and distance for one scope
// and puts the previous setting back when it ends, so that measuring one
// (hint, distance) cannot leak into whatever runs next. Used by
// `blockbloom tune` and bench/prefetch_benchmarks.cc.
#ifndef BLOCKBLOOM_TOOLS_COMMON_SCOPED_PREFETCH_H_
#define BLOCKBLOOM_TOOLS_COMMON_SCOPED_PREFETCH_H_

#include <cstddef>

#include "blockbloom/tuning.h"

namespace blockbloom_tools {

class ScopedPrefetch {
 public:
  // BB_PREFETCH_NONE leaves the distance alone: it does not apply.
  ScopedPrefetch(int hint, std::size_t distance)
      : saved_hint_(bb_prefetch_hint()), saved_distance_(bb_prefetch_distance()) {
    bb_set_prefetch_hint(hint);
    if (hint != BB_PREFETCH_NONE) bb_set_prefetch_distance(distance);
  }
  ~ScopedPrefetch() {
    bb_set_prefetch_hint(saved_hint_);
    bb_set_prefetch_distance(saved_distance_);
  }
  ScopedPrefetch(const ScopedPrefetch&) = delete;
  ScopedPrefetch& operator=(const ScopedPrefetch&) = delete;

 private:
  int saved_hint_;
  std::size_t saved_distance_;
};

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_SCOPED_PREFETCH_H_
