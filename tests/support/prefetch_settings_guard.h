// SPDX-License-Identifier: Apache-2.0
// Pins the prefetch size classes to the reference table while a test runs,
// and restores the process-wide prefetch settings (src/kernels/prefetch.h) when
// it ends, so a test that changes them cannot leak its choice into the next.
// The classes follow the running CPU's caches (a 2 MiB L2 puts the first
// class at 2 MiB); pinned, the tests' 1 MiB and 4 MiB filters take the
// prefetching loops of their classes on every machine.
#ifndef BLOCKBLOOM_TESTS_PREFETCH_SETTINGS_GUARD_H_
#define BLOCKBLOOM_TESTS_PREFETCH_SETTINGS_GUARD_H_

#include <cstddef>

#include "blockbloom/tuning.h"
#include "src/kernels/prefetch.h"

namespace bbtest {

class PrefetchSettingsGuard {
 public:
  PrefetchSettingsGuard()
      : distance_(bb_prefetch_distance()),
        hint_(bb_prefetch_hint()),
        classes_(blockbloom::internal::g_prefetch_classes.load()) {
    blockbloom::internal::g_prefetch_classes.store(&blockbloom::internal::kReferencePrefetchClasses);
  }
  ~PrefetchSettingsGuard() {
    bb_set_prefetch_distance(distance_);
    bb_set_prefetch_hint(hint_);
    blockbloom::internal::g_prefetch_classes.store(classes_);
  }
  PrefetchSettingsGuard(const PrefetchSettingsGuard&) = delete;
  PrefetchSettingsGuard& operator=(const PrefetchSettingsGuard&) = delete;

 private:
  size_t distance_;
  int hint_;
  const blockbloom::internal::PrefetchClasses* classes_;
};

}  // namespace bbtest

#endif  // BLOCKBLOOM_TESTS_PREFETCH_SETTINGS_GUARD_H_
