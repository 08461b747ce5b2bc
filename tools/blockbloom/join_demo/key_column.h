// SPDX-License-Identifier: Apache-2.0
// The big table's key column, virtual: key(i) is computed from --seed and the
// row number, never stored, so a scan of any length needs one chunk of memory.
// key(i) is SplitMixAt(seed, i) (tools/common/splitmix64.h): a bijection of
// seed + (i + 1) * kSplitMixGamma, so distinct rows have distinct keys (for
// fewer than 2^64 rows).
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_KEY_COLUMN_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_KEY_COLUMN_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tools/common/splitmix64.h"

namespace blockbloom_tools::join_demo {

// Rows generated, and then probed, at a time.
constexpr std::size_t kChunkRows = std::size_t{1} << 16;

class KeyColumn {
 public:
  KeyColumn(std::uint64_t seed, std::uint64_t rows) : seed_(seed), rows_(rows) {}

  std::uint64_t rows() const { return rows_; }

  std::int64_t Key(std::uint64_t row) const {
    return static_cast<std::int64_t>(SplitMixAt(seed_, row));
  }

  // keys[0 .. n) = key(first) .. key(first + n - 1).
  void Fill(std::uint64_t first, std::size_t n, std::int64_t* keys) const {
    for (std::size_t j = 0; j < n; ++j) keys[j] = Key(first + j);
  }

  // Generates the column kChunkRows at a time and calls
  // body(first_row, keys, n) for each chunk, then after(rows_done).
  template <typename Body, typename After>
  void ForEachChunk(Body&& body, After&& after) const {
    std::vector<std::int64_t> keys(kChunkRows);
    for (std::uint64_t first = 0; first < rows_; first += kChunkRows) {
      const std::size_t n =
          static_cast<std::size_t>(std::min<std::uint64_t>(kChunkRows, rows_ - first));
      Fill(first, n, keys.data());
      body(first, static_cast<const std::int64_t*>(keys.data()), n);
      after(first + n);
    }
  }

 private:
  std::uint64_t seed_;
  std::uint64_t rows_;
};

// The small table's second column, as in Kudu's test: a seeded random
// non-negative int32 per key (so some_int1 % 2 is 0 or 1).
inline std::int32_t SomeInt1(std::uint64_t seed, std::int64_t key) {
  const std::uint64_t salted = seed ^ 0x5a17ab1e50e1d71fu;
  return static_cast<std::int32_t>(
      SplitMixFinalize(salted + static_cast<std::uint64_t>(key)) >> 33);
}

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_KEY_COLUMN_H_
