// SPDX-License-Identifier: Apache-2.0
// Placement averaging for the in-cache benchmarks.
//
// With the filter in L1 or L2, a kernel's time depends on where its buffers
// lie relative to each other: loads of the hash array that alias (same
// address bits below 4 KiB) stores to the output bitmap, or blocks that
// crowd a few L1 sets, slow it down. One process measured a kernel up to 40%
// slower than another whose address-space layout differed. So for filters
// under kPlacedBelowBytes every buffer a kernel benchmark touches -- the
// filled filter, the insert target, the probe pool, the outputs -- exists
// kNumPlacements times at different offsets within one allocation, and a run
// spends an equal share of its iterations on each placement (the JSON
// context says "placements": "4").
//
// The placement changes kNumPlacements - 1 times per run, not every
// iteration: the copies together are four times the filter, and cycling them
// per iteration would make a 16 KiB filter's working set 64 KiB, twice the
// L1d, so the benchmark would time refills from L2 rather than the kernel.
#ifndef BLOCKBLOOM_BENCH_PLACEMENTS_H_
#define BLOCKBLOOM_BENCH_PLACEMENTS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"

namespace blockbloom_bench {

inline constexpr size_t kPlacedBelowBytes = size_t{1} << 20;
inline constexpr size_t kNumPlacements = 4;

// How many placements a filter of filter_bytes is measured at.
inline size_t PlacementsFor(size_t filter_bytes) {
  return filter_bytes < kPlacedBelowBytes ? kNumPlacements : 1;
}

// Copies of a few buffers, count() times over, in one allocation. Copy k of
// buffer j starts 64 * ((k * (5 + 8 * j)) % 64) bytes past a 4 KiB boundary:
// a multiple of the cache line, never of the page for k > 0, and a different
// offset for each buffer, so the buffers' positions relative to each other
// differ between placements too (placement 0 has every buffer page-aligned).
class PlacedBuffers {
 public:
  struct Source {
    const void* data;  // copied into every placement; nullptr: zeroed
    size_t bytes;
  };
  PlacedBuffers(size_t count, const std::vector<Source>& buffers);
  PlacedBuffers(const PlacedBuffers&) = delete;
  PlacedBuffers& operator=(const PlacedBuffers&) = delete;
  ~PlacedBuffers();

  size_t count() const { return count_; }
  uint8_t* at(size_t placement, size_t buffer) const {
    return pointers_[placement * num_buffers_ + buffer];
  }

 private:
  size_t count_;
  size_t num_buffers_;
  uint8_t* arena_ = nullptr;
  std::vector<uint8_t*> pointers_;
};

// Which placement each iteration of a run uses: the run's iterations split
// into count() contiguous, equal shares.
class PlacementSchedule {
 public:
  PlacementSchedule(size_t count, benchmark::IterationCount iterations)
      : count_(count), iterations_(iterations > 0 ? iterations : 1) {}
  // The placement of the next iteration.
  size_t Next() {
    const auto placement = static_cast<size_t>(static_cast<uint64_t>(done_) * count_ /
                                               static_cast<uint64_t>(iterations_));
    ++done_;
    return placement < count_ ? placement : count_ - 1;
  }

 private:
  size_t count_;
  benchmark::IterationCount iterations_;
  benchmark::IterationCount done_ = 0;
};

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_PLACEMENTS_H_
