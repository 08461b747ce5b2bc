// SPDX-License-Identifier: Apache-2.0
// The ISA tier registry: one row per tier, and the CPU features the rows may
// require. Everything else about tiers is generated from these two tables:
// the Isa enum, the best-first order, the names, which Highway targets compile
// kernels and under which name (src/kernels/simd/), the kernel table of each tier
// (CompiledKernels), what a CPU needs to run it (CpuCanRun), the Meson test
// setups and the scripts' view (scripts/isa_registry.py reads the rows).
// A tier is its row here, plus, when it needs a CPU feature this list lacks,
// the feature's detection (src/dispatch/cpu_features_detect.cc), and, when
// its Highway target is one src/kernels/simd/hwy_targets.h disables, that
// target enabled there: one to three files (docs/architecture.md, "How to add
// an ISA tier").
// Shared vocabulary of the kernel tables and the dispatcher.
#ifndef BLOCKBLOOM_CORE_ISA_H_
#define BLOCKBLOOM_CORE_ISA_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

// The instruction-set extensions a tier's compiled code may use: the field of
// CpuFlags (src/dispatch/cpu_features_detect.h) and the name messages give it.
// The order is the order features are checked in, so the first one a CPU
// lacks is the one named: a tier's features come after those of the tier it
// includes.
#define BLOCKBLOOM_CPU_FEATURES(F) \
  F(ssse3, "SSSE3")                \
  F(sse41, "SSE4.1")               \
  F(sse42, "SSE4.2")               \
  F(popcnt, "POPCNT")              \
  F(avx, "AVX")                    \
  F(avx2, "AVX2")                  \
  F(bmi1, "BMI1")                  \
  F(bmi2, "BMI2")                  \
  F(fma, "FMA")                    \
  F(f16c, "F16C")                  \
  F(avx512f, "AVX-512F")           \
  F(avx512vl, "AVX-512VL")         \
  F(avx512dq, "AVX-512DQ")         \
  F(avx512bw, "AVX-512BW")         \
  F(asimd, "ASIMD (NEON)")

// The tiers, best first: the dispatcher picks the first one the CPU supports.
// One row a tier, one line a row (scripts/isa_registry.py reads them):
//   T(enumerator, name, Highway target, tier it includes, features it adds)
// - Highway target: the target that compiles this tier's kernels from
//   src/kernels/simd/ (its namespace N_<target> holds them), or 0 for the portable
//   C++ of src/kernels/scalar/.
// - tier it includes: the CPU must also run that one (itself for none).
// - features it adds: need::<CpuFlags field>, or'ed; with the included tier's,
//   every extension the Highway target string compiles with (SSE4 without
//   PCLMUL/AES: src/kernels/simd/hwy_targets.h; GCC's "sse4.2" also enables POPCNT).
// BLOCKBLOOM_EXTRA_ISA_TIERS: rows a test build adds (meson.build,
// -Dtest_dummy_tier=true); none in a library build.
#define BLOCKBLOOM_ISA_TIERS(T)                                                                    \
  T(kAvx512, "avx512", HWY_AVX3, kAvx2, need::avx512f | need::avx512vl | need::avx512dq | need::avx512bw) \
  T(kAvx2, "avx2", HWY_AVX2, kSse42, need::avx | need::avx2 | need::bmi1 | need::bmi2 | need::fma | need::f16c) \
  T(kSse42, "sse42", HWY_SSE4, kScalar, need::ssse3 | need::sse41 | need::sse42 | need::popcnt) \
  T(kNeon, "neon", HWY_NEON, kScalar, need::asimd)                                                \
  BLOCKBLOOM_EXTRA_ISA_TIERS(T)                                                                    \
  T(kScalar, "scalar", 0, kScalar, 0)

#ifndef BLOCKBLOOM_EXTRA_ISA_TIERS
#define BLOCKBLOOM_EXTRA_ISA_TIERS(T)
#endif

// The Highway targets that are tiers, or'ed: a preprocessor expression (the
// Highway target constants must be defined where it is evaluated), so that
// kernel code is compiled for those targets only.
#define BLOCKBLOOM_ISA_HWY_TARGET_BIT(enumerator, name, target, includes, adds) | (target)
#define BLOCKBLOOM_ISA_HWY_TARGETS (0 BLOCKBLOOM_ISA_TIERS(BLOCKBLOOM_ISA_HWY_TARGET_BIT))

namespace blockbloom::internal {

enum class CpuFeature {
#define BLOCKBLOOM_CPU_FEATURE_ENUMERATOR(field, name) field,
  BLOCKBLOOM_CPU_FEATURES(BLOCKBLOOM_CPU_FEATURE_ENUMERATOR)
#undef BLOCKBLOOM_CPU_FEATURE_ENUMERATOR
};
inline constexpr const char* kCpuFeatureNames[] = {
#define BLOCKBLOOM_CPU_FEATURE_NAME(field, name) name,
    BLOCKBLOOM_CPU_FEATURES(BLOCKBLOOM_CPU_FEATURE_NAME)
#undef BLOCKBLOOM_CPU_FEATURE_NAME
};
inline constexpr std::size_t kNumCpuFeatures = sizeof(kCpuFeatureNames) / sizeof(kCpuFeatureNames[0]);
static_assert(kNumCpuFeatures <= 32, "CpuFeatureSet is 32 bits");

// A set of CpuFeatures, one bit each.
using CpuFeatureSet = uint32_t;
namespace need {
#define BLOCKBLOOM_CPU_FEATURE_BIT(field, name) \
  inline constexpr CpuFeatureSet field = CpuFeatureSet{1} << static_cast<unsigned>(CpuFeature::field);
BLOCKBLOOM_CPU_FEATURES(BLOCKBLOOM_CPU_FEATURE_BIT)
#undef BLOCKBLOOM_CPU_FEATURE_BIT
}  // namespace need

enum class Isa {
#define BLOCKBLOOM_ISA_ENUMERATOR(enumerator, name, target, includes, adds) enumerator,
  BLOCKBLOOM_ISA_TIERS(BLOCKBLOOM_ISA_ENUMERATOR)
#undef BLOCKBLOOM_ISA_ENUMERATOR
};

inline constexpr Isa kIsasBestFirst[] = {
#define BLOCKBLOOM_ISA_ORDER(enumerator, name, target, includes, adds) Isa::enumerator,
    BLOCKBLOOM_ISA_TIERS(BLOCKBLOOM_ISA_ORDER)
#undef BLOCKBLOOM_ISA_ORDER
};
inline constexpr std::size_t kNumIsas = sizeof(kIsasBestFirst) / sizeof(kIsasBestFirst[0]);

constexpr const char* IsaName(Isa isa) {
  switch (isa) {
#define BLOCKBLOOM_ISA_NAME(enumerator, name, target, includes, adds) \
  case Isa::enumerator: return name;
    BLOCKBLOOM_ISA_TIERS(BLOCKBLOOM_ISA_NAME)
#undef BLOCKBLOOM_ISA_NAME
  }
  return "?";
}

// The tier a tier includes (itself for none), and the features it adds.
constexpr Isa IsaIncludes(Isa isa) {
  switch (isa) {
#define BLOCKBLOOM_ISA_INCLUDES(enumerator, name, target, includes, adds) \
  case Isa::enumerator: return Isa::includes;
    BLOCKBLOOM_ISA_TIERS(BLOCKBLOOM_ISA_INCLUDES)
#undef BLOCKBLOOM_ISA_INCLUDES
  }
  return isa;
}
constexpr CpuFeatureSet IsaAdds(Isa isa) {
  switch (isa) {
#define BLOCKBLOOM_ISA_ADDS(enumerator, name, target, includes, adds) \
  case Isa::enumerator: return (adds);
    BLOCKBLOOM_ISA_TIERS(BLOCKBLOOM_ISA_ADDS)
#undef BLOCKBLOOM_ISA_ADDS
  }
  return 0;
}

// Every CPU feature the tier's code may use, those of the tiers it includes
// too. Evaluated for every tier below, so a cycle of includes does not
// compile (the loop never ends). A loop, not a recursion: clang 14 compiles
// the recursive form of this function into one that never returns at run
// time (the fuzz build hung in the dispatcher's initialiser).
constexpr CpuFeatureSet IsaNeeds(Isa isa) {
  CpuFeatureSet needs = IsaAdds(isa);
  for (Isa tier = isa; IsaIncludes(tier) != tier;) {
    tier = IsaIncludes(tier);
    needs |= IsaAdds(tier);
  }
  return needs;
}

static_assert([] {
  for (std::size_t i = 0; i < kNumIsas; ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (std::string_view(IsaName(kIsasBestFirst[i])) == IsaName(kIsasBestFirst[j])) return false;
    }
  }
  return true;
}(), "two tiers share a name");
// Evaluates every tier's needs, so a cycle of includes cannot compile.
#define BLOCKBLOOM_ISA_INCLUDES_CHECK(enumerator, name, target, includes, adds)                  \
  static_assert((IsaNeeds(Isa::enumerator) & IsaNeeds(Isa::includes)) == IsaNeeds(Isa::includes), \
                "a tier needs what the tier it includes needs");
BLOCKBLOOM_ISA_TIERS(BLOCKBLOOM_ISA_INCLUDES_CHECK)
#undef BLOCKBLOOM_ISA_INCLUDES_CHECK
// IsaSet (src/dispatch/isa_choice.h) holds one bit per tier.
static_assert(kNumIsas <= 32, "more tiers than IsaSet has bits");
static_assert(kIsasBestFirst[kNumIsas - 1] == Isa::kScalar && IsaNeeds(Isa::kScalar) == 0,
              "scalar, which every CPU runs, must be the last tier");

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

#endif  // BLOCKBLOOM_CORE_ISA_H_
