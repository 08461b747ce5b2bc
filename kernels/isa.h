// SPDX-License-Identifier: Apache-2.0
// The ISA tiers, best first, and their names. Shared vocabulary of the kernel
// tables (which tier a table is) and the dispatcher (which tier to pick).
#ifndef BLOCKBLOOM_KERNELS_ISA_H_
#define BLOCKBLOOM_KERNELS_ISA_H_

#include <cstddef>
#include <string_view>

namespace blockbloom::internal {

// Best first: the dispatcher picks the first one the CPU supports.
// kDummy exists only in a test build (meson -Dtest_dummy_tier=true): the
// scalar kernels under another name, proving that the per-ISA tests pick up
// a tier added here and nowhere else (tests/dummy_tier_check.py).
enum class Isa {
  kAvx512, kAvx2, kSse42, kNeon,
#ifdef BLOCKBLOOM_TEST_DUMMY_TIER
  kDummy,
#endif
  kScalar
};
inline constexpr Isa kIsasBestFirst[] = {Isa::kAvx512, Isa::kAvx2, Isa::kSse42, Isa::kNeon,
#ifdef BLOCKBLOOM_TEST_DUMMY_TIER
                                        Isa::kDummy,
#endif
                                        Isa::kScalar};
inline constexpr std::size_t kNumIsas = sizeof(kIsasBestFirst) / sizeof(kIsasBestFirst[0]);

constexpr const char* IsaName(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return "avx512";
    case Isa::kAvx2: return "avx2";
    case Isa::kSse42: return "sse42";
    case Isa::kNeon: return "neon";
#ifdef BLOCKBLOOM_TEST_DUMMY_TIER
    case Isa::kDummy: return "dummy";
#endif
    case Isa::kScalar: return "scalar";
  }
  return "?";
}

// False when name is not an ISA name (exact, case-sensitive match).
inline bool IsaFromName(std::string_view name, Isa* isa) {
  for (Isa candidate : kIsasBestFirst) {
    if (name == IsaName(candidate)) {
      *isa = candidate;
      return true;
    }
  }
  return false;
}

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_KERNELS_ISA_H_
