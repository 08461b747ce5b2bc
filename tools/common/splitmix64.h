// SPDX-License-Identifier: Apache-2.0
// SplitMix64 (Steele, Lea and Flood): the one generator of made-up 64-bit
// hashes and keys for the tools, the tests and the benchmarks. Counter-based,
// so output i of a stream can be recomputed from (seed, i) without storing
// the stream; every output is a bijection of seed + (i + 1) * kSplitMixGamma,
// so one stream never repeats a value within 2^64 outputs.
#ifndef BLOCKBLOOM_TOOLS_COMMON_SPLITMIX64_H_
#define BLOCKBLOOM_TOOLS_COMMON_SPLITMIX64_H_

#include <cstdint>

namespace blockbloom_tools {

// The golden-ratio increment of the generator's state.
inline constexpr std::uint64_t kSplitMixGamma = 0x9e3779b97f4a7c15ull;

// The finaliser of SplitMix64 (a bijection on 64-bit values).
constexpr std::uint64_t SplitMixFinalize(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Output number `index` (0-based) of the generator seeded with `seed`.
constexpr std::uint64_t SplitMixAt(std::uint64_t seed, std::uint64_t index) {
  return SplitMixFinalize(seed + (index + 1) * kSplitMixGamma);
}

// The sequential generator: Next() returns SplitMixAt(seed, 0), then
// SplitMixAt(seed, 1), and so on.
class SplitMix64 {
 public:
  explicit constexpr SplitMix64(std::uint64_t seed) : state_(seed) {}
  constexpr std::uint64_t Next() {
    state_ += kSplitMixGamma;
    return SplitMixFinalize(state_);
  }

 private:
  std::uint64_t state_;
};

// The published first output for seed 0 (the reference implementation's):
// a changed constant fails to compile here rather than shifting every
// seeded stream of the tests.
static_assert(SplitMixAt(0, 0) == 0xe220a8397b1dcdafull, "SplitMix64 constants");

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_SPLITMIX64_H_
