// SPDX-License-Identifier: Apache-2.0
// Compiles block_kernels-inl.h once per Highway target and exports one
// kernel table per target that is an ISA tier (src/core/isa.h's rows).
#include "src/kernels/simd/hwy_targets.h"  // before any Highway header

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/simd/simd_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <cstdint>
#include <cstring>

#include "hwy/highway.h"
#include "src/kernels/kernel_registry.h"
#include "src/kernels/simd/block_kernels-inl.h"

#ifndef BLOCKBLOOM_KERNELS_SIMD_KERNELS_OF_TARGET_
#define BLOCKBLOOM_KERNELS_SIMD_KERNELS_OF_TARGET_
namespace blockbloom::internal {

// The kernel table compiled for a Highway target (0: the portable C++ of
// src/kernels/scalar/). Each target this build compiles as a tier specializes it
// below, so a target it does not compile has none.
template <int64_t kHwyTarget>
const bbi_kernel_table* KernelsOfTarget() {
  return nullptr;
}
template <>
const bbi_kernel_table* KernelsOfTarget<0>() {
  return &kScalarKernels;
}

// The tier whose kernels the Highway target compiles.
constexpr Isa IsaOfHwyTarget(int64_t hwy_target) {
#define BLOCKBLOOM_ISA_OF_TARGET(enumerator, name, target, includes, adds) \
  if ((target) != 0 && hwy_target == (target)) return Isa::enumerator;
  BLOCKBLOOM_ISA_TIERS(BLOCKBLOOM_ISA_OF_TARGET)
#undef BLOCKBLOOM_ISA_OF_TARGET
  return Isa::kScalar;
}

}  // namespace blockbloom::internal
#endif

#ifdef BLOCKBLOOM_SIMD_TIER
HWY_BEFORE_NAMESPACE();
namespace blockbloom::internal {
namespace HWY_NAMESPACE {

static_assert(IsaOfHwyTarget(HWY_TARGET) != Isa::kScalar, "a tier's target names a tier");
extern const bbi_kernel_table kKernels;
const bbi_kernel_table kKernels = MakeKernelTable(IsaName(IsaOfHwyTarget(HWY_TARGET)));

}  // namespace HWY_NAMESPACE
}  // namespace blockbloom::internal
HWY_AFTER_NAMESPACE();

// Outside HWY_BEFORE_NAMESPACE: compiled for the baseline, as the dispatcher
// asks for every tier's table on any CPU.
namespace blockbloom::internal {
template <>
const bbi_kernel_table* KernelsOfTarget<HWY_TARGET>() {
  return &HWY_NAMESPACE::kKernels;
}
}  // namespace blockbloom::internal
#endif

#if HWY_ONCE
namespace blockbloom::internal {
namespace {

// A tier that reuses another tier's code (a test build's dummy tier: the
// portable C++) hands out a copy of that table under its own name, built on
// first use, so after the table it copies whatever the init order.
template <Isa kIsa>
const bbi_kernel_table* UnderTierName(const bbi_kernel_table* table) {
  if (table == nullptr || std::strcmp(table->isa, IsaName(kIsa)) == 0) return table;
  static const bbi_kernel_table renamed = [table] {
    bbi_kernel_table t = *table;
    t.isa = IsaName(kIsa);
    return t;
  }();
  return &renamed;
}

}  // namespace

const bbi_kernel_table* CompiledKernels(Isa isa) {
  switch (isa) {
#define BLOCKBLOOM_COMPILED_KERNELS(enumerator, name, target, includes, adds) \
  case Isa::enumerator: return UnderTierName<Isa::enumerator>(KernelsOfTarget<(target)>());
    BLOCKBLOOM_ISA_TIERS(BLOCKBLOOM_COMPILED_KERNELS)
#undef BLOCKBLOOM_COMPILED_KERNELS
  }
  return nullptr;
}

}  // namespace blockbloom::internal
#endif  // HWY_ONCE
