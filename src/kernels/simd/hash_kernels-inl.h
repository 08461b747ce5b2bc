// SPDX-License-Identifier: Apache-2.0
// Parquet's hash of 8-, 4- and 16-byte values (XXH64, seed 0, of their
// little-endian bytes), a whole vector of values at a time: each value is one
// 64-bit lane, and the steps of src/core/xxh64_op.h run on all lanes at once.
// Included from block_kernels-inl.h inside namespace blockbloom::internal::HWY_NAMESPACE
// (with hn = hwy::HWY_NAMESPACE), after hwy/highway.h and src/core/xxh64_op.h,
// for the targets that are an ISA tier.
//
// Values may sit at any byte address (a plain-encoded Parquet page is a byte
// stream), so they are loaded as bytes and bit-cast to lanes, as blocks are.

// Include guard that toggles per target (Highway's -inl.h convention).
#if defined(BLOCKBLOOM_KERNELS_SIMD_HASH_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BLOCKBLOOM_KERNELS_SIMD_HASH_KERNELS_INL_H_
#undef BLOCKBLOOM_KERNELS_SIMD_HASH_KERNELS_INL_H_
#else
#define BLOCKBLOOM_KERNELS_SIMD_HASH_KERNELS_INL_H_
#endif

// The widest vector: the lanes are independent, so more of them is more
// values per instruction. On AVX3, 512-bit vectors measured 1.8x faster than
// 256-bit ones (0.19 vs 0.34 ns per 8-byte value, on the development
// machine's AMD EPYC).
using HashTag = hn::ScalableTag<uint64_t>;
using HashVec = hn::Vec<HashTag>;
using HashTag32 = hn::Repartition<uint32_t, HashTag>;  // the same bits as 32-bit halves

// x * kFactor mod 2^64 (the low 64 bits of the product).
template <uint64_t kFactor>
HWY_INLINE HashVec MulConst(HashVec x) {
  const HashTag d;
#if HWY_TARGET == HWY_AVX3
  // AVX-512DQ has the 64-bit multiply itself (vpmullq).
  return hn::Mul(x, hn::Set(d, kFactor));
#else
  // No 64-bit multiply: build it from 32-bit ones. With x = xh:xl and the
  // factor fh:fl (32-bit halves), x * f mod 2^64 = xl*fl + ((xl*fh + xh*fl)
  // << 32); xh*fh only reaches bits 64 and up. xl*fl needs all 64 bits of
  // its product (MulEven: 32x32->64 of each lane's low half); the two cross
  // products only their low 32 bits, so one 32-bit multiply of x by the
  // factor with its halves swapped gives both, one per half, and they are
  // summed in the high half. That is two multiplies where Highway's generic
  // u64 Mul takes three: measured 12% faster on AVX2 (1.20 vs 1.37 ns per
  // 8-byte value on the development machine).
  const HashTag32 d32;
  const auto x32 = hn::BitCast(d32, x);
  const auto factor_lo = hn::BitCast(d32, hn::Set(d, kFactor & 0xFFFFFFFFu));
  const auto factor_swapped = hn::BitCast(d32, hn::Set(d, (kFactor << 32) | (kFactor >> 32)));
  const HashVec crosses = hn::BitCast(d, hn::Mul(x32, factor_swapped));  // xl*fh : xh*fl
  const HashVec cross_sum = hn::And(hn::Add(crosses, hn::ShiftLeft<32>(crosses)),
                                    hn::Set(d, 0xFFFFFFFF00000000ull));
  return hn::Add(hn::MulEven(x32, factor_lo), cross_sum);
#endif
}

// x * kFactor mod 2^64 when every lane of x is below 2^32: the xh*fl product
// is zero, so one multiply fewer.
template <uint64_t kFactor>
HWY_INLINE HashVec MulConstNarrow(HashVec x) {
#if HWY_TARGET == HWY_AVX3
  return MulConst<kFactor>(x);
#else
  const HashTag d;
  const HashTag32 d32;
  const auto factor_lo = hn::BitCast(d32, hn::Set(d, kFactor & 0xFFFFFFFFu));
  const auto factor_hi = hn::BitCast(d32, hn::Set(d, kFactor >> 32));
  const auto x_lo = hn::BitCast(d32, x);
  return hn::Add(hn::MulEven(x_lo, factor_lo), hn::ShiftLeft<32>(hn::MulEven(x_lo, factor_hi)));
#endif
}

// Native rotates on AVX3 (vprorq); shifts and an or elsewhere, which
// Highway's RotateRight does for us.
template <int kBits>
HWY_INLINE HashVec RotateLeft(HashVec x) {
  return hn::RotateRight<64 - kBits>(x);
}

HWY_INLINE HashVec Avalanche(HashVec acc) {
  acc = hn::Xor(acc, hn::ShiftRight<33>(acc));
  acc = MulConst<xxh64::kPrime2>(acc);
  acc = hn::Xor(acc, hn::ShiftRight<29>(acc));
  acc = MulConst<xxh64::kPrime3>(acc);
  return hn::Xor(acc, hn::ShiftRight<32>(acc));
}

// xxh64::MergeWord of each lane: the word v mixed into acc.
HWY_INLINE HashVec MergeWordLanes(HashVec acc, HashVec v) {
  const HashTag d;
  const HashVec lane = MulConst<xxh64::kPrime1>(RotateLeft<31>(MulConst<xxh64::kPrime2>(v)));
  return hn::Add(MulConst<xxh64::kPrime1>(RotateLeft<27>(hn::Xor(acc, lane))),
                 hn::Set(d, xxh64::kPrime4));
}

// xxh64::Hash8 of each lane.
HWY_INLINE HashVec Hash8Lanes(HashVec v) {
  const HashTag d;
  return Avalanche(MergeWordLanes(hn::Set(d, xxh64::kStart8), v));
}

// xxh64::Hash16 of each lane's pair of words.
HWY_INLINE HashVec Hash16Lanes(HashVec lo, HashVec hi) {
  const HashTag d;
  return Avalanche(MergeWordLanes(MergeWordLanes(hn::Set(d, xxh64::kStart16), lo), hi));
}

// xxh64::Hash4 of each lane (each holds a zero-extended 32-bit value).
HWY_INLINE HashVec Hash4Lanes(HashVec v) {
  const HashTag d;
  const HashVec acc = hn::Xor(hn::Set(d, xxh64::kStart4), MulConstNarrow<xxh64::kPrime1>(v));
  return Avalanche(hn::Add(MulConst<xxh64::kPrime2>(RotateLeft<23>(acc)), hn::Set(d, xxh64::kPrime3)));
}

// SSE4 has two 64-bit lanes and no 64-bit multiply: each multiply is five
// instructions for two values, where scalar code needs one imul per value. The vector form measured 1.8x slower than the
// scalar steps (2.5 vs 1.35 ns per 8-byte value on the development machine),
// so the sse42 tier hashes one value at a time. (Not measured on the
// Nehalem-class CPUs the tier is for; pmulld is two uops there, so the vector
// form is unlikely to fare better.)
inline constexpr bool kHashVectors = HWY_TARGET != HWY_SSE4;

// A 16-byte value takes six 64-bit multiplies and two word gathers
// (ConcatEven/ConcatOdd) a vector. Only AVX-512, with its own 64-bit multiply,
// wins with vectors: the fused FIXED_LEN_BYTE_ARRAY(16) probe of a 16 KiB
// filter took 0.73 ns/row against 2.27 one value at a time. On AVX2 the
// emulated multiplies lost (2.55 vs 2.40 ns/row, two interleaved A/B runs),
// so AVX2, SSE4 and NEON (two lanes, no 64-bit multiply either; not timed)
// hash 16-byte values one at a time.
inline constexpr bool kHash16Vectors = HWY_TARGET == HWY_AVX3;

// Values [begin, n) one at a time: the tail after the whole vectors.
HWY_INLINE void Hash8ByteValues(const uint8_t* bytes, size_t begin, size_t n, uint64_t* hashes) {
  for (size_t i = begin; i < n; ++i) {
    uint64_t v;
    hwy::CopyBytes<8>(bytes + 8 * i, &v);
    hashes[i] = xxh64::Hash8(v);
  }
}

HWY_INLINE void Hash4ByteValues(const uint8_t* bytes, size_t begin, size_t n, uint64_t* hashes) {
  for (size_t i = begin; i < n; ++i) {
    uint32_t v;
    hwy::CopyBytes<4>(bytes + 4 * i, &v);
    hashes[i] = xxh64::Hash4(v);
  }
}

HWY_INLINE void Hash16ByteValues(const uint8_t* bytes, size_t begin, size_t n, uint64_t* hashes) {
  for (size_t i = begin; i < n; ++i) {
    uint64_t words[2];
    hwy::CopyBytes<16>(bytes + 16 * i, words);
    hashes[i] = xxh64::Hash16(words[0], words[1]);
  }
}

HWY_INLINE void ParquetHash8Byte(const void* values, size_t n, uint64_t* hashes) {
  const HashTag d;
  const hn::Repartition<uint8_t, HashTag> d_bytes;
  const size_t lanes = hn::Lanes(d);
  const uint8_t* bytes = static_cast<const uint8_t*>(values);
  size_t i = 0;
  if (kHashVectors) {
    for (; i + lanes <= n; i += lanes) {
      const HashVec v = hn::BitCast(d, hn::LoadU(d_bytes, bytes + 8 * i));
      hn::StoreU(Hash8Lanes(v), d, hashes + i);
    }
  }
  Hash8ByteValues(bytes, i, n, hashes);
}

// Two vectors of words hold `lanes` values: ConcatEven gathers their low
// words, ConcatOdd their high ones, in value order.
HWY_INLINE void ParquetHash16Byte(const void* values, size_t n, uint64_t* hashes) {
  const HashTag d;
  const hn::Repartition<uint8_t, HashTag> d_bytes;
  const size_t lanes = hn::Lanes(d);
  const uint8_t* bytes = static_cast<const uint8_t*>(values);
  size_t i = 0;
  if (kHash16Vectors) {
    for (; i + lanes <= n; i += lanes) {
      const HashVec first = hn::BitCast(d, hn::LoadU(d_bytes, bytes + 16 * i));
      const HashVec second = hn::BitCast(d, hn::LoadU(d_bytes, bytes + 16 * i + 8 * lanes));
      hn::StoreU(Hash16Lanes(hn::ConcatEven(d, second, first), hn::ConcatOdd(d, second, first)), d,
                 hashes + i);
    }
  }
  Hash16ByteValues(bytes, i, n, hashes);
}

HWY_INLINE void ParquetHash4Byte(const void* values, size_t n, uint64_t* hashes) {
  const HashTag d;
  const hn::Rebind<uint32_t, HashTag> d_values;  // one 32-bit value per 64-bit lane
  const hn::Repartition<uint8_t, decltype(d_values)> d_bytes;
  const size_t lanes = hn::Lanes(d);
  const uint8_t* bytes = static_cast<const uint8_t*>(values);
  size_t i = 0;
  if (kHashVectors) {
    for (; i + lanes <= n; i += lanes) {
      const auto v = hn::BitCast(d_values, hn::LoadU(d_bytes, bytes + 4 * i));
      hn::StoreU(Hash4Lanes(hn::PromoteTo(d, v)), d, hashes + i);
    }
  }
  Hash4ByteValues(bytes, i, n, hashes);
}

#endif  // toggle guard
