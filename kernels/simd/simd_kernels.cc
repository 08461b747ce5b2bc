// SPDX-License-Identifier: Apache-2.0
// Compiles block_kernels-inl.h once per Highway target and exports one
// kernel table per target that maps to an ISA tier.
#include "kernels/simd/hwy_targets.h"  // before any Highway header

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/simd/simd_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/kernel_registry.h"
#include "kernels/simd/block_kernels-inl.h"

#ifdef BLOCKBLOOM_SIMD_TIER
HWY_BEFORE_NAMESPACE();
namespace blockbloom::internal {
namespace HWY_NAMESPACE {

extern const bbi_kernel_table kKernels;
const bbi_kernel_table kKernels = MakeKernelTable(BLOCKBLOOM_SIMD_TIER);

}  // namespace HWY_NAMESPACE
}  // namespace blockbloom::internal
HWY_AFTER_NAMESPACE();
#endif

#if HWY_ONCE
namespace blockbloom::internal {

const bbi_kernel_table* CompiledKernels(Isa isa) {
  switch (isa) {
#if HWY_TARGETS & HWY_AVX3
    case Isa::kAvx512: return &N_AVX3::kKernels;
#endif
#if HWY_TARGETS & HWY_AVX2
    case Isa::kAvx2: return &N_AVX2::kKernels;
#endif
#if HWY_TARGETS & HWY_SSE4
    case Isa::kSse42: return &N_SSE4::kKernels;
#endif
#if HWY_TARGETS & HWY_NEON
    case Isa::kNeon: return &N_NEON::kKernels;
#endif
#ifdef BLOCKBLOOM_TEST_DUMMY_TIER
    case Isa::kDummy: {
      // The scalar table under the dummy tier's name (kernels/isa.h); built
      // on first use, so after kScalarKernels whatever the init order.
      static const bbi_kernel_table dummy = [] {
        bbi_kernel_table t = kScalarKernels;
        t.isa = "dummy";
        return t;
      }();
      return &dummy;
    }
#endif
    case Isa::kScalar: return &kScalarKernels;
    default: return nullptr;
  }
}

}  // namespace blockbloom::internal
#endif  // HWY_ONCE
