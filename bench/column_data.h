// SPDX-License-Identifier: Apache-2.0
// The data of the int64 column benchmarks: an int64 column whose values were
// inserted (as Parquet hashes them: XXH64 of the 8 little-endian bytes) into
// a filter of one size at ~10.67 bits per key, and a pool of probe values
// of which half were inserted and half never were, in random order. Built
// once per size, with the same placements for in-cache sizes as ProbeData
// (placements.h).
#ifndef BLOCKBLOOM_BENCH_COLUMN_DATA_H_
#define BLOCKBLOOM_BENCH_COLUMN_DATA_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "placements.h"

namespace blockbloom_bench {

struct ColumnPlacement {
  bb_filter filter;      // a view of a copy of the filled filter
  const int64_t* values; // a copy of the probe values (ColumnData::num_values())
  uint64_t* hashes;      // kBatchSize hashes of scratch (the unfused benchmark)
  uint8_t* bitmap;       // kBatchSize / 8 bytes of output
};

class ColumnData {
 public:
  ColumnData() = default;
  ColumnData(const ColumnData&) = delete;
  ColumnData& operator=(const ColumnData&) = delete;
  ~ColumnData();

  // BB_OK, or the bb_status of what failed.
  int Build(size_t filter_bytes);

  size_t num_values() const { return values_.size(); }  // a multiple of kBatchSize
  const std::vector<ColumnPlacement>& placements() const { return placements_; }
  size_t& cursor() { return cursor_; }  // as ProbeData::cursor()

 private:
  bb_filter filter_{};
  std::vector<int64_t> values_;
  std::vector<uint64_t> hashes_;  // the scratch and output of the single placement
  std::vector<uint8_t> bitmap_;
  std::unique_ptr<PlacedBuffers> copies_;
  std::vector<ColumnPlacement> placements_;
  size_t cursor_ = 0;
};

// Built on first use and kept; nullptr after SkipWithError when it cannot be.
ColumnData* ColumnDataOrSkip(benchmark::State& state, size_t filter_bytes);

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_COLUMN_DATA_H_
