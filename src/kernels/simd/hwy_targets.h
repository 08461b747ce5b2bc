// SPDX-License-Identifier: Apache-2.0
// Which Highway targets become ISA tiers. Included before any Highway header by
// the one file that includes them (simd_kernels.cc), so that any build of these
// sources -- Meson's, or a vendored copy in another build system -- compiles
// the same tiers without copying flags (docs/embedding.md).
#ifndef BLOCKBLOOM_KERNELS_SIMD_HWY_TARGETS_H_
#define BLOCKBLOOM_KERNELS_SIMD_HWY_TARGETS_H_

#if defined(HWY_HIGHWAY_INCLUDED) || defined(HIGHWAY_HWY_BASE_H_)
#error "src/kernels/simd/hwy_targets.h must come before any Highway header"
#endif

// The SSE4 target without PCLMUL/AES, so the sse42 tier runs on Nehalem-class
// CPUs (Highway's SSE4 target otherwise requires both; the kernels use neither).
#ifndef HWY_DISABLE_PCLMUL_AES
#define HWY_DISABLE_PCLMUL_AES
#endif

// Highway targets that are not an ISA tier: SSSE3 (no tier), and SVE/SVE2 (no
// tier yet; g++ 12 has crashed compiling them).
#ifndef HWY_DISABLED_TARGETS
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#define HWY_DISABLED_TARGETS (HWY_SSSE3)
#elif defined(__aarch64__)
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2)
#endif
#endif

// Highway's debug checks (HWY_DASSERT) off in every build, an unoptimized
// one (-O0 without NDEBUG, as a vendored debug build compiles) included: they
// call hwy::Abort, which lives in libhwy.so, so with them the library would
// need libhwy at link and load time, and a static link libhwy.a, which Debian
// does not ship. The kernels are tested against the oracle on every tier
// instead. (Highway's own header defines it only when it is not defined.)
#ifndef HWY_IS_DEBUG_BUILD
#define HWY_IS_DEBUG_BUILD 0
#endif

#endif  // BLOCKBLOOM_KERNELS_SIMD_HWY_TARGETS_H_
