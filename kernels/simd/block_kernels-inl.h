// The SIMD block operation, written once with Highway and compiled for each
// target by simd_kernels.cc (foreach_target.h). Highway targets map to ISA
// tiers: SSE4 -> sse42, AVX2 -> avx2, AVX3 -> avx512, NEON -> neon.
//
// A block (8 uint32 lanes) is covered by kParts vectors of up to 8 lanes:
// one vector on AVX2/AVX3, two on SSE4/NEON.
//
// The bitset may sit at any byte address (Parquet files put it at odd
// offsets), so blocks are loaded as bytes and bit-cast to uint32 lanes: no
// misaligned uint32_t pointer is ever formed. Bit-casting little-endian bytes
// is what the format specifies, and every Highway target is little-endian.

#include "hwy/highway.h"

// Outside the toggle guard: re-evaluated for every target. Targets that are
// not a tier (SCALAR, EMU128, ...) compile no kernel code.
#undef BLOCKBLOOM_SIMD_TIER
#if HWY_TARGET == HWY_AVX3
#define BLOCKBLOOM_SIMD_TIER "avx512"
#elif HWY_TARGET == HWY_AVX2
#define BLOCKBLOOM_SIMD_TIER "avx2"
#elif HWY_TARGET == HWY_SSE4
#define BLOCKBLOOM_SIMD_TIER "sse42"
#elif HWY_TARGET == HWY_NEON
#define BLOCKBLOOM_SIMD_TIER "neon"
#endif

// Include guard that toggles per target (Highway's -inl.h convention).
#if defined(BLOCKBLOOM_KERNELS_SIMD_BLOCK_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BLOCKBLOOM_KERNELS_SIMD_BLOCK_KERNELS_INL_H_
#undef BLOCKBLOOM_KERNELS_SIMD_BLOCK_KERNELS_INL_H_
#else
#define BLOCKBLOOM_KERNELS_SIMD_BLOCK_KERNELS_INL_H_
#endif

#ifdef BLOCKBLOOM_SIMD_TIER
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/block_op.h"
#include "kernels/prefetch.h"

HWY_BEFORE_NAMESPACE();
namespace blockbloom {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using LaneTag = hn::CappedTag<uint32_t, kLanesPerBlock>;
using ByteTag = hn::Repartition<uint8_t, LaneTag>;
using LaneVec = hn::Vec<LaneTag>;
inline constexpr size_t kLanesPerVec = hn::MaxLanes(LaneTag());
inline constexpr size_t kParts = kLanesPerBlock / kLanesPerVec;
static_assert(kParts * kLanesPerVec == kLanesPerBlock, "a block must be whole vectors");

HWY_INLINE LaneVec LoadBlockPart(const uint8_t* block, size_t part) {
  return hn::BitCast(LaneTag(), hn::LoadU(ByteTag(), block + part * 4 * kLanesPerVec));
}

HWY_INLINE void StoreBlockPart(LaneVec v, uint8_t* block, size_t part) {
  hn::StoreU(hn::BitCast(ByteTag(), v), ByteTag(), block + part * 4 * kLanesPerVec);
}

// The bits of `key` in lanes [part * kLanesPerVec, (part + 1) * kLanesPerVec):
// 1 << (top 5 bits of key * salt), the same formula as BitInLane().
HWY_INLINE LaneVec MaskPart(uint32_t key, size_t part) {
  const LaneTag d;
  const LaneVec salts = hn::LoadU(d, kSalts + part * kLanesPerVec);
  const LaneVec bit = hn::ShiftRight<27>(hn::Mul(hn::Set(d, key), salts));
  return hn::Shl(hn::Set(d, 1u), bit);
}

// Generic: 1 if no lane of `key`'s mask has a bit the block lacks.
HWY_INLINE uint32_t FindInBlockGeneric(const uint8_t* block, uint32_t key) {
  const LaneTag d;
  LaneVec missing = hn::Zero(d);
  for (size_t part = 0; part < kParts; ++part) {
    missing = hn::Or(missing, hn::AndNot(LoadBlockPart(block, part), MaskPart(key, part)));
  }
  return hn::AllTrue(d, hn::Eq(missing, hn::Zero(d))) ? 1u : 0u;
}

// Hand-written twins where they measured faster (docs/benchmarks.md):
// (~block & mask) == 0 is exactly PTEST's carry flag, one instruction where
// the generic form needs and-not, compare, movemask and a scalar compare.
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
HWY_INLINE uint32_t FindInBlock(const uint8_t* block, uint32_t key) {
  return static_cast<uint32_t>(_mm256_testc_si256(LoadBlockPart(block, 0).raw, MaskPart(key, 0).raw));
}
#elif HWY_TARGET == HWY_SSE4
HWY_INLINE uint32_t FindInBlock(const uint8_t* block, uint32_t key) {
  const LaneVec missing = hn::Or(hn::AndNot(LoadBlockPart(block, 0), MaskPart(key, 0)),
                                 hn::AndNot(LoadBlockPart(block, 1), MaskPart(key, 1)));
  return static_cast<uint32_t>(_mm_testz_si128(missing.raw, missing.raw));
}
#else
HWY_INLINE uint32_t FindInBlock(const uint8_t* block, uint32_t key) {
  return FindInBlockGeneric(block, key);
}
#endif

HWY_INLINE void InsertIntoBlock(uint8_t* block, uint32_t key) {
  for (size_t part = 0; part < kParts; ++part) {
    StoreBlockPart(hn::Or(LoadBlockPart(block, part), MaskPart(key, part)), block, part);
  }
}

// dst = op(dst, src) over whole vectors, then block-sized vectors for the
// tail (num_bytes is a multiple of 32, so nothing is left after them).
template <class Op>
HWY_INLINE void CombineBytes(uint8_t* dst, const uint8_t* src, size_t num_bytes, Op op) {
  const hn::ScalableTag<uint8_t> d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= num_bytes; i += lanes) {
    hn::StoreU(op(hn::LoadU(d, dst + i), hn::LoadU(d, src + i)), d, dst + i);
  }
  const ByteTag d_tail;
  for (; i < num_bytes; i += hn::Lanes(d_tail)) {
    hn::StoreU(op(hn::LoadU(d_tail, dst + i), hn::LoadU(d_tail, src + i)), d_tail, dst + i);
  }
}

HWY_INLINE void UnionBytes(uint8_t* dst, const uint8_t* src, size_t num_bytes) {
  CombineBytes(dst, src, num_bytes, [](auto a, auto b) HWY_ATTR { return hn::Or(a, b); });
}

HWY_INLINE void IntersectBytes(uint8_t* dst, const uint8_t* src, size_t num_bytes) {
  CombineBytes(dst, src, num_bytes, [](auto a, auto b) HWY_ATTR { return hn::And(a, b); });
}

#include "kernels/kernel_table-inl.h"

}  // namespace HWY_NAMESPACE
}  // namespace blockbloom
HWY_AFTER_NAMESPACE();

#endif  // BLOCKBLOOM_SIMD_TIER
#endif  // toggle guard
