// SPDX-License-Identifier: Apache-2.0
// The data a benchmark of one filter size works on, built once per size and
// shared by every ISA and op: a filter filled to ~10.67 bits per key, an empty
// filter of the same size for the insert ops, and a bounded pool of probe
// hashes (half inserted keys, half keys that were never inserted) that the
// benchmarks cycle through.
#ifndef BLOCKBLOOM_BENCH_PROBE_DATA_H_
#define BLOCKBLOOM_BENCH_PROBE_DATA_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "placements.h"

namespace blockbloom_bench {

inline constexpr double kBitsPerKey = 10.67;
// Hashes handled per benchmark iteration, by every op (batch size for the
// batch ops, loop length for the single-key ops): a typical vectorised
// engine batch.
inline constexpr size_t kBatchSize = 1024;

// Everything a kernel benchmark touches, at one placement (placements.h).
struct Placement {
  bb_filter filled;         // a view of a copy of the filled filter
  bb_filter insert_target;  // a view of a copy of the insert target
  const uint64_t* probes;   // a copy of the probe pool (probes().size() hashes)
  uint8_t* bitmap;          // kBatchSize / 8 bytes of output
  uint32_t* selection;      // kBatchSize entries of output
};

class ProbeData {
 public:
  // Owns two bb_filter bitsets; not copyable.
  ProbeData() = default;
  ProbeData(const ProbeData&) = delete;
  ProbeData& operator=(const ProbeData&) = delete;
  ~ProbeData();

  // BB_OK, or the bb_status of a failed allocation.
  int Build(size_t filter_bytes);

  const bb_filter& filled() const { return filled_; }
  bb_filter& insert_target() { return insert_target_; }
  size_t num_keys() const { return num_keys_; }
  // A multiple of kBatchSize.
  const std::vector<uint64_t>& probes() const { return probes_; }
  // Where the next benchmark run starts reading probes (a multiple of
  // kBatchSize). Shared by all runs of this size, so a run does not start
  // where the previous one did, on filter lines that are still cached.
  size_t& cursor() { return cursor_; }
  // PlacementsFor(filter bytes) placements: copies at shifted offsets for
  // in-cache filters, else one that points at filled(), insert_target() and
  // probes() themselves. Built on the first call.
  const std::vector<Placement>& placements();

 private:
  bb_filter filled_{};
  bb_filter insert_target_{};
  size_t num_keys_ = 0;
  std::vector<uint64_t> probes_;
  size_t cursor_ = 0;
  std::unique_ptr<PlacedBuffers> copies_;
  std::vector<uint8_t> bitmap_;      // the outputs of the single placement
  std::vector<uint32_t> selection_;
  std::vector<Placement> placements_;
};

// The ProbeData of one filter size, built on first use and kept for the rest
// of the process. Returns nullptr (and sets *status) if it cannot be built.
ProbeData* ProbeDataFor(size_t filter_bytes, int* status);

// ProbeDataFor, or nullptr after marking the benchmark skipped with the
// library's message.
ProbeData* ProbeDataOrSkip(benchmark::State& state, size_t filter_bytes);

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_PROBE_DATA_H_
