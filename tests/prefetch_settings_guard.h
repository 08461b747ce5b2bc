// SPDX-License-Identifier: Apache-2.0
// Restores the process-wide prefetch settings (kernels.h) when a test ends,
// so a test that changes them cannot leak its choice into the next.
#ifndef BLOCKBLOOM_TESTS_PREFETCH_SETTINGS_GUARD_H_
#define BLOCKBLOOM_TESTS_PREFETCH_SETTINGS_GUARD_H_

#include <cstddef>

#include "blockbloom/tuning.h"

namespace bbtest {

class PrefetchSettingsGuard {
 public:
  PrefetchSettingsGuard() : distance_(bb_prefetch_distance()), hint_(bb_prefetch_hint()) {}
  ~PrefetchSettingsGuard() {
    bb_set_prefetch_distance(distance_);
    bb_set_prefetch_hint(hint_);
  }
  PrefetchSettingsGuard(const PrefetchSettingsGuard&) = delete;
  PrefetchSettingsGuard& operator=(const PrefetchSettingsGuard&) = delete;

 private:
  size_t distance_;
  int hint_;
};

}  // namespace bbtest

#endif  // BLOCKBLOOM_TESTS_PREFETCH_SETTINGS_GUARD_H_
