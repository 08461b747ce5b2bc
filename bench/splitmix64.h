// SPDX-License-Identifier: Apache-2.0
// SplitMix64: the benchmark's source of pre-hashed keys. Counter-based, so the
// i-th key of a stream can be recomputed from (seed, i) without storing it.
#ifndef BLOCKBLOOM_BENCH_SPLITMIX64_H_
#define BLOCKBLOOM_BENCH_SPLITMIX64_H_

#include <cstdint>

namespace blockbloom_bench {

inline constexpr uint64_t kSplitMixGamma = 0x9e3779b97f4a7c15ull;

// The finaliser of SplitMix64 (a bijection on 64-bit values).
constexpr uint64_t SplitMixFinalize(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Output number `index` (0-based) of the SplitMix64 generator seeded with `seed`.
constexpr uint64_t SplitMixAt(uint64_t seed, uint64_t index) {
  return SplitMixFinalize(seed + (index + 1) * kSplitMixGamma);
}

// The sequential generator, for shuffling and the like.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    state_ += kSplitMixGamma;
    return SplitMixFinalize(state_);
  }

 private:
  uint64_t state_;
};

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_SPLITMIX64_H_
