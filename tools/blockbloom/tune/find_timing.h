// SPDX-License-Identifier: Apache-2.0
// The check that the sweep's winner helps the real kernel: the library's
// find_batch_bitmap (the selected ISA, 1024-key batches, as an engine would
// call it) on the tune buffer at the sweep's best hint and distance and at
// the setting in force when tune started (the library default, unless
// BLOCKBLOOM_PREFETCH_HINT / _DISTANCE changed it), runs interleaved.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_FIND_TIMING_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_FIND_TIMING_H_

#include <cstddef>
#include <functional>
#include <vector>

#include "tools/blockbloom/tune/tune_buffer.h"

namespace blockbloom_tools::tune {

struct PrefetchSetting {
  int hint;              // a bb_prefetch_level
  std::size_t distance;  // 0 for BB_PREFETCH_NONE
};

struct FindTiming {
  PrefetchSetting setting;
  double ns_per_key;         // median over the rounds
  double spread_ns_per_key;  // interquartile range of the rounds (noise.h)
};

struct FindComparison {
  FindTiming best;
  FindTiming current;
  std::size_t batch;  // keys per bb_find_batch_bitmap call
  std::size_t rounds;
  std::size_t keys_per_run;
};

// bb_find_batch_bitmap over the buffer's next `keys` hashes (a multiple of
// TuneBuffer::kGranule) with setting in force, then the previous one back.
// BB_PREFETCH_DEFAULT / distance 0 are the library's defaults by size class.
void FindKeys(TuneBuffer& buffer, PrefetchSetting setting, std::size_t keys);

// Each setting's ns per key (median and spread) over interleaved rounds of
// runs of the same length (at least min_keys, at most max_keys), in about
// budget_seconds; after_each() after every timed run.
struct FindTimes {
  std::vector<FindTiming> timings;  // one per setting, in order
  std::size_t rounds;
  std::size_t keys_per_run;
};
FindTimes TimeFinds(TuneBuffer& buffer, const std::vector<PrefetchSetting>& settings,
                    std::size_t min_keys, std::size_t max_keys, double budget_seconds,
                    const std::function<void()>& after_each);

// The prefetch setting now in force (distance 0 when the hint is none, or
// when the distance is the default of each size class).
PrefetchSetting CurrentPrefetch();

// Spends about budget_seconds; leaves the library's setting as it found it.
FindComparison CompareFind(TuneBuffer& buffer, PrefetchSetting best, PrefetchSetting current,
                           double budget_seconds, const std::function<void()>& after_each);

}  // namespace blockbloom_tools::tune

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_FIND_TIMING_H_
