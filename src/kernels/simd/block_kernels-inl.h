// SPDX-License-Identifier: Apache-2.0
// The SIMD block operation, written once with Highway and compiled for each
// target by simd_kernels.cc (foreach_target.h). Which Highway target is which
// ISA tier is src/core/isa.h's registry.
//
// A block (8 uint32 lanes) is covered by kParts vectors of up to 8 lanes:
// one vector on AVX2/AVX3, two on SSE4/NEON.
//
// The bitset may sit at any byte address (Parquet files put it at odd
// offsets), so blocks are loaded as bytes and bit-cast to uint32 lanes: no
// misaligned uint32_t pointer is ever formed. Bit-casting little-endian bytes
// is what the format specifies, and every Highway target is little-endian.

#include "hwy/cache_control.h"
#include "hwy/highway.h"

// Outside the toggle guard: re-evaluated for every target. Only the targets
// that are a tier (src/core/isa.h's rows) compile kernel code; SCALAR, EMU128,
// ... compile none.
#include "src/core/isa.h"
#undef BLOCKBLOOM_SIMD_TIER
#if HWY_TARGET & BLOCKBLOOM_ISA_HWY_TARGETS
#define BLOCKBLOOM_SIMD_TIER 1
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
#include <cstring>
#include <type_traits>

#include "src/core/block_op.h"
#include "src/core/fasthash_bytes.h"
#include "src/kernels/prefetch.h"
#include "src/core/xxh64_bytes.h"
#include "src/core/xxh64_op.h"

HWY_BEFORE_NAMESPACE();
namespace blockbloom::internal {
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

// ------------------------------------------------ what the batch loops need
// (the tier contract: src/kernels/kernel_table-inl.h)

// SSE4's per-key loop is bound by vector instructions (two halves a block,
// and 1 << bit takes three without a variable shift), so without prefetching
// the scalar multiply-shift of each block index, on otherwise idle ports,
// beats computing the offsets with vectors first (measured:
// docs/benchmarks.md).
inline constexpr bool kOffsetsInline = HWY_TARGET == HWY_SSE4;

// Insert loops unrolled by 4 where the loop's own instructions are a large
// share of a key's (AVX2/AVX-512, NEON); SSE4's keys are long enough that
// unrolling measured slower (docs/benchmarks.md).
#undef BLOCKBLOOM_INSERT_UNROLL_COUNT
#if HWY_TARGET == HWY_SSE4
#define BLOCKBLOOM_INSERT_UNROLL_COUNT 1
#else
#define BLOCKBLOOM_INSERT_UNROLL_COUNT 4
#endif

#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
inline constexpr bool kFindSetsCarry = true;

// Hand-written twin of FindByte's generic shift-or (probe_loops-inl.h;
// measured faster: docs/benchmarks.md): PTEST leaves the find result in the carry flag, and
// ADC moves it into the bitmap byte (acc + acc + CF) in one instruction,
// where the compiler emits setc, a zero-extension and a shift-or. The "x"
// constraints keep both vectors in ymm0-15, which VEX-encoded VPTEST needs
// (AVX-512 code may otherwise use ymm16-31).
HWY_INLINE uint32_t ShiftInFind(uint32_t acc, const uint8_t* block, uint32_t key) {
  const __m256i bits = LoadBlockPart(block, 0).raw;
  const __m256i mask = MaskPart(key, 0).raw;
  asm("vptest %[mask], %[bits]\n\tadcl %[acc], %[acc]"
      : [acc] "+r"(acc)
      : [bits] "x"(bits), [mask] "x"(mask)
      : "cc");
  return acc;
}
#else
inline constexpr bool kFindSetsCarry = false;  // FindByte ORs FindInBlock's results
#endif

// first + j for each set bit j of byte, in order, as one table load, a
// zero-extension and an add per vector (kHitPositions, block_op.h), stored
// whole: the caller has room. Measured faster than Highway's Compress, which
// is a longer table-driven permute on AVX2 and a masked compress on AVX-512
// (docs/benchmarks.md).
HWY_INLINE size_t AppendHitIndices8(uint32_t* out, uint32_t first, uint32_t byte) {
  const LaneTag d;
  const hn::Rebind<uint8_t, LaneTag> d8;
  const uint8_t* positions = kHitPositions[byte & 0xff];
  for (size_t part = 0; part < kParts; ++part) {
    const auto j = hn::PromoteTo(d, hn::LoadU(d8, positions + part * kLanesPerVec));
    hn::StoreU(hn::Add(j, hn::Set(d, first)), d, out + part * kLanesPerVec);
  }
  return static_cast<size_t>(__builtin_popcount(byte & 0xff));
}

// rows[j] for each set bit j of byte, in order: where a vector holds all 8
// rows (AVX2/AVX-512), one load, a permute by the table's positions
// (VPERMD) and one store; elsewhere by the table, a row at a time.
HWY_INLINE size_t AppendHitRows8(uint32_t* out, const uint32_t* rows, uint32_t byte) {
  if constexpr (kParts == 1) {
    const LaneTag d;
    const hn::Rebind<uint8_t, LaneTag> d8;
    const auto positions = hn::PromoteTo(d, hn::LoadU(d8, kHitPositions[byte & 0xff]));
    hn::StoreU(hn::TableLookupLanes(hn::LoadU(d, rows), hn::IndicesFromVec(d, positions)), d, out);
    return static_cast<size_t>(__builtin_popcount(byte & 0xff));
  } else {
    return AppendHitRowsByTable(out, rows, byte);
  }
}

// The largest of n >= 1 values: a vector of running maxima, then its lanes.
HWY_INLINE uint32_t MaxU32(const uint32_t* values, size_t n) {
  const hn::ScalableTag<uint32_t> d;
  const size_t lanes = hn::Lanes(d);
  auto max = hn::Zero(d);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) max = hn::Max(max, hn::LoadU(d, values + i));
  uint32_t result = hn::GetLane(hn::MaxOfLanes(d, max));
  for (; i < n; ++i) result = values[i] > result ? values[i] : result;
  return result;
}

// The generic twin of the vector code below (and its tail): the layout's
// own formula (block_op.h), one hash at a time.
template <class Layout>
HWY_INLINE void BlockOffsetsGeneric(const typename Layout::Hash* hashes, size_t n,
                                    uint32_t num_blocks, uint64_t* offsets) {
  for (size_t i = 0; i < n; ++i) offsets[i] = uint64_t{kBlockBytes} * Layout::Block(hashes[i], num_blocks);
}

// Byte offsets of the blocks of n hashes, a whole vector of hashes at a time;
// the last few one at a time with the layout's own formula (block_op.h),
// which the vector code computes exactly:
// Parquet: ((h >> 32) * z) >> 32, a 32 x 32 -> 64-bit multiply (MulEven
// multiplies the even 32-bit halves, where h >> 32 puts the high half).
HWY_INLINE void BlockOffsets(const uint64_t* hashes, size_t n, uint32_t num_blocks,
                             uint64_t* offsets) {
  const hn::ScalableTag<uint64_t> d64;
  const hn::Repartition<uint32_t, decltype(d64)> d32;
  const auto z = hn::Set(d32, num_blocks);
  const size_t lanes = hn::Lanes(d64);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto high = hn::BitCast(d32, hn::ShiftRight<32>(hn::LoadU(d64, hashes + i)));
    const auto block = hn::ShiftRight<32>(hn::MulEven(high, z));
    hn::StoreU(hn::ShiftLeft<5>(block), d64, offsets + i);
  }
  BlockOffsetsGeneric<ParquetLayout>(hashes + i, n - i, num_blocks, offsets + i);
}

// Kudu: Rehash32to32(h) & (z - 1), where the rehash is the high half of the
// 64-bit h * C + D. Its low 64 bits are h * C_lo + ((h * C_hi) << 32) + D:
// two 32 x 32 -> 64-bit multiplies of h, zero-extended to 64-bit lanes.
HWY_INLINE void BlockOffsets(const uint32_t* hashes, size_t n, uint32_t num_blocks,
                             uint64_t* offsets) {
  constexpr uint64_t kMul = KuduLayout::kRehashMul;
  constexpr uint64_t kAdd = KuduLayout::kRehashAdd;
  const hn::ScalableTag<uint64_t> d64;
  const hn::Repartition<uint32_t, decltype(d64)> d32;
  const hn::Rebind<uint32_t, decltype(d64)> d32_half;  // one 32-bit hash per 64-bit lane
  const auto mul_lo = hn::Set(d32, static_cast<uint32_t>(kMul));
  const auto mul_hi = hn::Set(d32, static_cast<uint32_t>(kMul >> 32));
  const auto add = hn::Set(d64, kAdd);
  const auto block_mask = hn::Set(d64, uint64_t{num_blocks} - 1);
  const size_t lanes = hn::Lanes(d64);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto h = hn::BitCast(d32, hn::PromoteTo(d64, hn::LoadU(d32_half, hashes + i)));
    const auto low = hn::Add(hn::MulEven(h, mul_lo), add);
    const auto product = hn::Add(low, hn::ShiftLeft<32>(hn::MulEven(h, mul_hi)));
    const auto block = hn::And(hn::ShiftRight<32>(product), block_mask);
    hn::StoreU(hn::ShiftLeft<5>(block), d64, offsets + i);
  }
  BlockOffsetsGeneric<KuduLayout>(hashes + i, n - i, num_blocks, offsets + i);
}

// ------------------------------------------ the radix partition's range tests
// (partition_loops-inl.h). Offsets are below 2^36, so signed 64-bit compares
// (what SSE4.2 and AVX2 have) test the range: first - 1 < offset < end.
template <class D>
HWY_INLINE hn::Mask<D> OffsetsInRange(D d, const uint64_t* offsets, uint64_t first, uint64_t end) {
  const hn::RebindToSigned<D> di;
  const auto o = hn::BitCast(di, hn::LoadU(d, offsets));
  const auto above = hn::Gt(o, hn::Set(di, static_cast<int64_t>(first) - 1));
  const auto below = hn::Gt(hn::Set(di, static_cast<int64_t>(end)), o);
  return hn::RebindMask(d, hn::And(above, below));
}

HWY_INLINE size_t CountInRange(const uint64_t* offsets, size_t n, uint64_t first, uint64_t end) {
  const hn::ScalableTag<uint64_t> d;
  const size_t lanes = hn::Lanes(d);
  size_t count = 0, i = 0;
  for (; i + lanes <= n; i += lanes) count += hn::CountTrue(d, OffsetsInRange(d, offsets + i, first, end));
  for (; i < n; ++i) count += static_cast<size_t>(InByteRange(offsets[i], first, end));
  return count;
}

// PartLocator::Part (block_op.h) of each key's block, a vector of keys at
// a time: every factor of its products is below 2^32 (blocks and parts
// below 2^31, the reciprocal below 2^32), so each is one MulEven of 32-bit
// halves, and every product below 2^63, so signed compares order them.
HWY_INLINE void PartsOfOffsets(const PartLocator& locate, const uint64_t* offsets, size_t n,
                               uint32_t* parts) {
  const hn::ScalableTag<uint64_t> d64;
  const hn::Repartition<uint32_t, decltype(d64)> d32;
  const hn::Rebind<uint32_t, decltype(d64)> d32_half;  // one part per 64-bit lane
  const hn::RebindToSigned<decltype(d64)> di;
  const auto reciprocal = hn::Set(d32, locate.reciprocal());
  const auto num_parts = hn::Set(d32, locate.num_parts());
  const auto num_blocks = hn::Set(d32, locate.num_blocks());
  const auto one = hn::Set(d64, 1);
  const size_t lanes = hn::Lanes(d64);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto block = hn::ShiftRight<5>(hn::LoadU(d64, offsets + i));
    auto q = hn::ShiftRight<32>(hn::MulEven(hn::BitCast(d32, block), reciprocal));
    const auto limit = hn::BitCast(di, hn::MulEven(hn::BitCast(d32, hn::Add(block, one)), num_parts));
    for (int step = 0; step < 2; ++step) {  // the estimate is at most 2 below the part
      const auto next = hn::Add(q, one);
      const auto below = hn::Lt(hn::BitCast(di, hn::MulEven(hn::BitCast(d32, next), num_blocks)), limit);
      q = hn::IfThenElse(hn::RebindMask(d64, below), next, q);
    }
    hn::StoreU(hn::TruncateTo(d32_half, q), d32_half, parts + i);
  }
  for (; i < n; ++i) parts[i] = locate.Part(static_cast<uint32_t>(offsets[i] / kBlockBytes));
}

// One 64-byte line to dst (64-byte aligned) past the caches (non-temporal
// stores): the scatter's output lines, which are not read again soon.
HWY_INLINE void StreamLine(void* dst, const void* src) {
  const hn::ScalableTag<uint8_t> d;
  for (size_t k = 0; k < 64; k += hn::Lanes(d)) {
    hn::Stream(hn::LoadU(d, static_cast<const uint8_t*>(src) + k), d, static_cast<uint8_t*>(dst) + k);
  }
}
// Orders the streamed lines before whatever the caller writes next.
HWY_INLINE void EndStreams() { hwy::FlushStream(); }

// The 64-bit lanes of v where m is set, moved to the front (the rest are
// garbage). Not Highway 1.0.3's Compress: for 64-bit lanes on AVX-512 and
// AVX2 it keeps its permutation table in a local constexpr array that GCC
// copies onto the stack at every call (measured: 6.6 ns a key for the
// 2-part partition on avx512, 65% of it that copy). AVX-512 has the
// instruction (register form: the memory form is microcoded on Zen 4); SSE4
// and AVX2 permute by a table of their own at namespace scope.
using D64 = hn::ScalableTag<uint64_t>;
inline constexpr size_t kLanes64 = hn::MaxLanes(D64());
#if HWY_TARGET == HWY_AVX3
HWY_INLINE hn::Vec<D64> Compress64(hn::Vec<D64> v, hn::Mask<D64> m) {
  return hn::Vec<D64>{_mm512_maskz_compress_epi64(m.raw, v.raw)};
}
#elif HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4
// For each mask of kLanes64 bits, the 32-bit lane indices that gather the
// set 64-bit lanes first (lane j is 32-bit lanes 2j and 2j + 1).
struct Compress64Table {
  uint32_t indices[1u << kLanes64][2 * kLanes64];
  constexpr Compress64Table() : indices() {
    for (uint32_t m = 0; m < (1u << kLanes64); ++m) {
      uint32_t k = 0;
      for (uint32_t j = 0; j < kLanes64; ++j) {
        if ((m >> j) & 1u) {
          indices[m][k++] = 2 * j;
          indices[m][k++] = 2 * j + 1;
        }
      }
      while (k < 2 * kLanes64) indices[m][k++] = 0;
    }
  }
};
alignas(32) inline constexpr Compress64Table kCompress64Table{};
HWY_INLINE hn::Vec<D64> Compress64(hn::Vec<D64> v, hn::Mask<D64> m) {
  const hn::Repartition<uint32_t, D64> d32;
  uint8_t bits = 0;
  hn::StoreMaskBits(D64(), m, &bits);
  const auto indices = hn::IndicesFromVec(d32, hn::Load(d32, kCompress64Table.indices[bits & ((1u << kLanes64) - 1)]));
  return hn::BitCast(D64(), hn::TableLookupLanes(hn::BitCast(d32, v), indices));
}
#else
HWY_INLINE hn::Vec<D64> Compress64(hn::Vec<D64> v, hn::Mask<D64> m) { return hn::Compress(v, m); }
#endif

// The keys of a vector of hashes (64-bit lanes; Kudu's 32-bit hashes widened
// to them and narrowed back) compressed to the front of a register, stored
// whole while a whole vector fits before out_end, else lane by lane.
template <class Hash>
HWY_INLINE size_t CompressInRange(const Hash* hashes, const uint64_t* offsets, size_t n,
                                  uint64_t first, uint64_t end, Hash* out, Hash* out_end) {
  const D64 d;
  const hn::Rebind<Hash, decltype(d)> dh;  // a Hash per 64-bit lane
  const size_t lanes = hn::Lanes(d);
  Hash* at = out;
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto own = OffsetsInRange(d, offsets + i, first, end);
    hn::Vec<decltype(dh)> packed;
    if constexpr (sizeof(Hash) == sizeof(uint64_t)) {
      packed = Compress64(hn::LoadU(d, reinterpret_cast<const uint64_t*>(hashes) + i), own);
    } else {
      packed = hn::TruncateTo(dh, Compress64(hn::PromoteTo(d, hn::LoadU(dh, hashes + i)), own));
    }
    const size_t count = hn::CountTrue(d, own);
    if (static_cast<size_t>(out_end - at) >= lanes) {
      hn::StoreU(packed, dh, at);
    } else {
      alignas(64) Hash lanes_out[hn::MaxLanes(d)];
      hn::Store(packed, dh, lanes_out);
      for (size_t k = 0; k < count; ++k) at[k] = lanes_out[k];
    }
    at += count;
  }
  for (; i < n; ++i) {
    if (InByteRange(offsets[i], first, end)) *at++ = hashes[i];
  }
  return static_cast<size_t>(at - out);
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

#include "src/kernels/simd/hash_kernels-inl.h"
#include "src/kernels/simd/string_hash_kernels-inl.h"
#include "src/kernels/kernel_table-inl.h"

}  // namespace HWY_NAMESPACE
}  // namespace blockbloom::internal
HWY_AFTER_NAMESPACE();

#endif  // BLOCKBLOOM_SIMD_TIER
#endif  // toggle guard
