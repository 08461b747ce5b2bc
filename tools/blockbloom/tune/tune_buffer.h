// SPDX-License-Identifier: Apache-2.0
// What blockbloom tune measures on: a filter-sized bitset from bb_filter_init
// (so it gets the library's huge-page placement, as a real filter would) and
// a pool of random 64-bit hashes, read in order from a cursor that carries on
// from run to run, so that no run re-reads lines the previous one just
// brought into the caches.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_TUNE_BUFFER_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_TUNE_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "blockbloom/blockbloom.h"

namespace blockbloom_tools::tune {

class TuneBuffer {
 public:
  // Throws CliError when the bitset cannot be allocated.
  explicit TuneBuffer(std::size_t bytes);
  ~TuneBuffer();
  TuneBuffer(const TuneBuffer&) = delete;
  TuneBuffer& operator=(const TuneBuffer&) = delete;

  const bb_filter& filter() const { return filter_; }
  // A multiple of kGranule.
  std::size_t pool_size() const { return hashes_.size(); }

  // Calls f(hashes, count) over the next n hashes of the pool (n a multiple
  // of kGranule), in at most a few pieces where the pool wraps around.
  template <typename F>
  void ForNextHashes(std::size_t n, F&& f) {
    while (n > 0) {
      const std::size_t count = n < hashes_.size() - cursor_ ? n : hashes_.size() - cursor_;
      f(hashes_.data() + cursor_, count);
      cursor_ = (cursor_ + count) % hashes_.size();
      n -= count;
    }
  }

  // Runs are whole find batches.
  static constexpr std::size_t kGranule = 1024;

 private:
  bb_filter filter_{};
  std::vector<std::uint64_t> hashes_;
  std::size_t cursor_ = 0;
};

}  // namespace blockbloom_tools::tune

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_TUNE_BUFFER_H_
