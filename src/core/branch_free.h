// SPDX-License-Identifier: Apache-2.0
// keep ? a : b as mask arithmetic, for the hashes of short byte strings
// (src/core/xxh64_bytes.h, src/hashing/fasthash.h): each step of a hash's tail is
// computed for every length and kept by this, so no branch depends on the
// length (random lengths mispredict a branch about once a string). Written
// as masks because compilers may turn a ?: of two values back into a branch.
#ifndef BLOCKBLOOM_CORE_BRANCH_FREE_H_
#define BLOCKBLOOM_CORE_BRANCH_FREE_H_

#include <cstdint>

namespace blockbloom::internal {

constexpr std::uint64_t KeepIf(bool keep, std::uint64_t a, std::uint64_t b) {
  const std::uint64_t mask = std::uint64_t{0} - static_cast<std::uint64_t>(keep);
  return (a & mask) | (b & ~mask);
}

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_CORE_BRANCH_FREE_H_
