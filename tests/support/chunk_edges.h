// SPDX-License-Identifier: Apache-2.0
// The cases every test of the chunked batch loops (src/kernels/batch_loops-inl.h)
// runs: batch lengths on and around the 256-key chunk's edges, a filter
// below and one at the reference table's 1 MiB prefetch threshold (the
// tests pin that table with a PrefetchSettingsGuard, whatever this
// machine's caches), and the prefetch settings (each hint, distances
// shorter than, around and longer than a chunk).
#ifndef BLOCKBLOOM_TESTS_CHUNK_EDGES_H_
#define BLOCKBLOOM_TESTS_CHUNK_EDGES_H_

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "blockbloom/tuning.h"

namespace bbtest {

inline constexpr size_t kChunkEdgeLengths[] = {0, 1, 7, 8, 9, 63, 255, 256, 257, 511, 512, 513, 1031};
inline constexpr size_t kMaxChunkEdgeLength = 1031;

// Small (no prefetching) and 1 MiB (the prefetching loops), both powers of
// two so that the Kudu layout can use them too.
inline constexpr uint32_t kChunkEdgeBlockCounts[] = {64, 32768};

// With a 1 MiB filter: no prefetching, each hint at a short distance, and
// distances around the chunk and past every batch length (the maximum).
struct PrefetchSetting {
  int hint;
  size_t distance;
};
inline constexpr PrefetchSetting kPrefetchSettings[] = {
    {BB_PREFETCH_NONE, 1},  {BB_PREFETCH_L1, 1},   {BB_PREFETCH_L2, 31},
    {BB_PREFETCH_L3, 64},   {BB_PREFETCH_L2, 256}, {BB_PREFETCH_L2, 257},
    {BB_PREFETCH_L1, BB_MAX_PREFETCH_DISTANCE}};

// Calls check(where) for each setting that applies to a filter of `blocks`
// blocks (small filters never prefetch: only one run for them), with the
// setting applied; where names it. Restore the settings with a
// PrefetchSettingsGuard.
template <class Check>
void ForEachPrefetchSetting(uint32_t blocks, Check&& check) {
  for (const PrefetchSetting& s : kPrefetchSettings) {
    if (blocks < 32768 && s.hint != BB_PREFETCH_L2) continue;
    ASSERT_EQ(bb_set_prefetch_hint(s.hint), BB_OK);
    bb_set_prefetch_distance(s.distance);
    check("blocks=" + std::to_string(blocks) + " hint=" + bb_prefetch_hint_name(s.hint) +
          " distance=" + std::to_string(s.distance));
  }
}

}  // namespace bbtest

#endif  // BLOCKBLOOM_TESTS_CHUNK_EDGES_H_
