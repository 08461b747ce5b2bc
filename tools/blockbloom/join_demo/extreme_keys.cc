// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/join_demo/extreme_keys.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace blockbloom_tools::join_demo {
namespace {

// Drains a heap into an ascending vector.
template <typename Heap>
std::vector<std::int64_t> Ascending(Heap heap) {
  std::vector<std::int64_t> keys;
  keys.reserve(heap.size());
  while (!heap.empty()) {
    keys.push_back(heap.top());
    heap.pop();
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace

ExtremeKeys FindExtremeKeys(const KeyColumn& column, std::uint64_t k, Progress* progress) {
  // The k smallest so far under a max-heap (its top is the first to go), the
  // k largest under a min-heap.
  std::priority_queue<std::int64_t> smallest;
  std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<std::int64_t>> largest;
  column.ForEachChunk(
      [&](std::uint64_t, const std::int64_t* keys, std::size_t n) {
        for (std::size_t j = 0; j < n; ++j) {
          const std::int64_t key = keys[j];
          if (smallest.size() < k) {
            smallest.push(key);
          } else if (k > 0 && key < smallest.top()) {
            smallest.pop();
            smallest.push(key);
          }
          if (largest.size() < k) {
            largest.push(key);
          } else if (k > 0 && key > largest.top()) {
            largest.pop();
            largest.push(key);
          }
        }
      },
      [&](std::uint64_t done) { progress->Update(done); });
  return {Ascending(std::move(smallest)), Ascending(std::move(largest))};
}

}  // namespace blockbloom_tools::join_demo
