// SPDX-License-Identifier: Apache-2.0
// Parquet's hash of BYTE_ARRAY values (XXH64, seed 0, of each payload) and
// Kudu's (FastHash32 with a seed), a vector of strings at a time: each
// string of up to 32 bytes is one 64-bit lane, and the branch-free tail of
// src/core/xxh64_bytes.h (src/core/fasthash_bytes.h) runs on all lanes at
// once, each step kept per lane by a mask of the lane's length (XXH64's
// 32-byte string is one stripe and no tail, computed only for the groups
// that hold one). Longer strings are hashed one at a time by the scalar code
// (their 32-byte stripes are no work for lanes of different lengths).
// Included from block_kernels-inl.h after hash_kernels-inl.h (MulConst,
// MergeWordLanes, Avalanche), inside namespace blockbloom::internal::HWY_NAMESPACE.

#if defined(BLOCKBLOOM_KERNELS_SIMD_STRING_HASH_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BLOCKBLOOM_KERNELS_SIMD_STRING_HASH_KERNELS_INL_H_
#undef BLOCKBLOOM_KERNELS_SIMD_STRING_HASH_KERNELS_INL_H_
#else
#define BLOCKBLOOM_KERNELS_SIMD_STRING_HASH_KERNELS_INL_H_
#endif

// SSE4 and NEON have two lanes and no 64-bit multiply: the 8-byte kernel
// already lost to scalar code there (hash_kernels-inl.h), and a short
// string takes up to 19 multiplies, so they use the scalar branch-free path.
inline constexpr bool kStringVectors = HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX2;

// Groups of lanes hashed side by side (ShortStringLanes): on Sapphire
// Rapids, 0..32-byte strings took 6.3 / 5.2 / 4.8 / 5.0 ns a string with
// 1 / 2 / 3 / 4 groups (AVX3); AVX2 15.4 / 13.0 / 12.5 / 12.9.
// (BLOCKBLOOM_STRING_GROUPS and BLOCKBLOOM_STRING_PREFETCH_BYTES replace the
// two for scripts/string_sweep.py.)
#ifndef BLOCKBLOOM_STRING_GROUPS
#define BLOCKBLOOM_STRING_GROUPS 3
#endif
inline constexpr size_t kStringGroups = BLOCKBLOOM_STRING_GROUPS;
static_assert(kStringGroups >= 1, "BLOCKBLOOM_STRING_GROUPS: at least one group of lanes");

// Bytes of string data prefetched ahead of the rows being hashed: 0..32-byte
// strings from a DRAM-sized pool took 5.45 ns a string without, 5.02 with
// 4 KiB ahead (AVX3, Sapphire Rapids; 1 KiB measured alike), and strings in
// cache the same either way.
#ifndef BLOCKBLOOM_STRING_PREFETCH_BYTES
#define BLOCKBLOOM_STRING_PREFETCH_BYTES 4096
#endif
inline constexpr size_t kStringPrefetchBytes = BLOCKBLOOM_STRING_PREFETCH_BYTES;

using HashTagI = hn::RebindToSigned<HashTag>;
using HashVecI = hn::Vec<HashTagI>;

// Offsets [i, i + lanes) as 64-bit lanes, from bytes at any alignment.
template <typename Offset>
HWY_INLINE HashVecI LoadOffsets(const uint8_t* offsets, size_t i) {
  const HashTagI di;
  if constexpr (sizeof(Offset) == 8) {
    const hn::Repartition<uint8_t, HashTagI> d_bytes;
    return hn::BitCast(di, hn::LoadU(d_bytes, offsets + 8 * i));
  } else {
    const hn::Rebind<int32_t, HashTagI> d32;
    const hn::Repartition<uint8_t, decltype(d32)> d_bytes;
    return hn::PromoteTo(di, hn::BitCast(d32, hn::LoadU(d_bytes, offsets + 4 * i)));
  }
}

// xxh64::Step1 of each lane (byte < 256).
HWY_INLINE HashVec Step1Lanes(HashVec acc, HashVec byte) {
  return MulConst<xxh64::kPrime1>(
      RotateLeft<11>(hn::Xor(acc, MulConstNarrow<xxh64::kPrime5>(byte))));
}

// The 32 bytes from each of the group's rows (row j's at data + begin_j,
// all readable) as four vectors of words: w[k] lane j = row j's word k.
// One unaligned 32-byte load a row and a transpose of 64-bit words (12
// shuffles for 8 rows) instead of four 64-bit gathers: 0..32-byte strings
// 5% faster on AVX3 and 22% on AVX2 (Sapphire Rapids, one group at a time).
template <typename Offset>
HWY_INLINE void LoadRowWords(const uint8_t* data, const uint8_t* offsets, size_t i, HashVec* w) {
  const HashTag d;
  const hn::CappedTag<uint64_t, 4> d_row;  // one row's 32 bytes
  const hn::Repartition<uint8_t, decltype(d_row)> d_row_bytes;
  const auto row = [&](size_t j) {
    return hn::BitCast(d_row, hn::LoadU(d_row_bytes, data + xxh64::OffsetAt<Offset>(offsets, i + j)));
  };
  // Four vectors of whole rows, lane order [a b c d] a row (words 0..3).
  HashVec p0, p1, p2, p3;
  if constexpr (hn::MaxLanes(d) == 8) {
    p0 = hn::Combine(d, row(1), row(0));
    p1 = hn::Combine(d, row(3), row(2));
    p2 = hn::Combine(d, row(5), row(4));
    p3 = hn::Combine(d, row(7), row(6));
  } else {
    static_assert(sizeof(Offset) != 0 && hn::MaxLanes(d) == 4, "rows are 4 words: 4 or 8 lanes");
    p0 = row(0);
    p1 = row(1);
    p2 = row(2);
    p3 = row(3);
  }
  // Even words (a, c) and odd ones (b, d) of rows 0..N/2 and N/2..N, then
  // the evens of those are the a's (word 0), the odds the c's (word 2).
  const HashVec even_lo = hn::ConcatEven(d, p1, p0);
  const HashVec odd_lo = hn::ConcatOdd(d, p1, p0);
  const HashVec even_hi = hn::ConcatEven(d, p3, p2);
  const HashVec odd_hi = hn::ConcatOdd(d, p3, p2);
  w[0] = hn::ConcatEven(d, even_hi, even_lo);
  w[1] = hn::ConcatEven(d, odd_hi, odd_lo);
  w[2] = hn::ConcatOdd(d, even_hi, even_lo);
  w[3] = hn::ConcatOdd(d, odd_hi, odd_lo);
}

// xxh64::Round on lanes.
HWY_INLINE HashVec RoundLanes(HashVec acc, HashVec input) {
  return MulConst<xxh64::kPrime1>(RotateLeft<31>(hn::Add(acc, MulConst<xxh64::kPrime2>(input))));
}

// xxh64::MergeRound on lanes.
HWY_INLINE HashVec MergeRoundLanes(HashVec acc, HashVec v) {
  const HashTag d;
  return hn::Add(MulConst<xxh64::kPrime1>(hn::Xor(acc, RoundLanes(hn::Zero(d), v))),
                 hn::Set(d, xxh64::kPrime4));
}

// The accumulator (before Avalanche) of each lane's 32-byte string, its
// words w[0..4): xxh64::Stripes of one stripe, with no tail after it.
HWY_INLINE HashVec Exactly32Lanes(const HashVec* w) {
  const HashTag d;
  const HashVec v1 = RoundLanes(hn::Set(d, xxh64::kPrime1 + xxh64::kPrime2), w[0]);
  const HashVec v2 = RoundLanes(hn::Set(d, xxh64::kPrime2), w[1]);
  const HashVec v3 = RoundLanes(hn::Zero(d), w[2]);
  const HashVec v4 = RoundLanes(hn::Set(d, uint64_t{0} - xxh64::kPrime1), w[3]);
  HashVec acc = hn::Add(hn::Add(RotateLeft<1>(v1), RotateLeft<7>(v2)),
                        hn::Add(RotateLeft<12>(v3), RotateLeft<18>(v4)));
  acc = MergeRoundLanes(acc, v1);
  acc = MergeRoundLanes(acc, v2);
  acc = MergeRoundLanes(acc, v3);
  acc = MergeRoundLanes(acc, v4);
  return hn::Add(acc, hn::Set(d, 32));
}

// The accumulators (before Avalanche) of kGroups groups of lanes, each
// lane's string of len < 32 bytes with its first 32 bytes in the words
// w[g][0..4) (other lanes get garbage): xxh64::TailNoBranch on lanes. Each
// step is taken for every group before the next step: the steps of one
// group are a chain of multiplies (each 15 cycles on Sapphire Rapids), so
// the groups' chains run side by side.
template <size_t kGroups>
HWY_INLINE void ShortStringLanes(const HashVec (*w)[4], const HashVecI* len, HashVec* acc) {
  const HashTag d;
  const HashTagI di;
  HashVec rest[kGroups];
  HWY_UNROLL(4) for (size_t g = 0; g < kGroups; ++g) {
    acc[g] = hn::Add(hn::Set(d, xxh64::kPrime5), hn::BitCast(d, len[g]));
    rest[g] = w[g][0];
  }
  // Whole words k = 0..2 while len > 8k + 7; the word after them holds the
  // last len % 8 bytes.
  HWY_UNROLL(4) for (size_t k = 0; k < 3; ++k) {
    HWY_UNROLL(4) for (size_t g = 0; g < kGroups; ++g) {
      const auto whole = hn::RebindMask(d, hn::Gt(len[g], hn::Set(di, static_cast<int64_t>(8 * k + 7))));
      acc[g] = hn::IfThenElse(whole, MergeWordLanes(acc[g], w[g][k]), acc[g]);
      rest[g] = hn::IfThenElse(whole, w[g][k + 1], rest[g]);
    }
  }
  HWY_UNROLL(4) for (size_t g = 0; g < kGroups; ++g) {
    const auto has4 = hn::TestBit(hn::BitCast(d, len[g]), hn::Set(d, 4));
    const HashVec low = MulConstNarrow<xxh64::kPrime1>(hn::And(rest[g], hn::Set(d, 0xFFFFFFFFull)));
    const HashVec step4 = hn::Add(MulConst<xxh64::kPrime2>(RotateLeft<23>(hn::Xor(acc[g], low))),
                                  hn::Set(d, xxh64::kPrime3));
    acc[g] = hn::IfThenElse(has4, step4, acc[g]);
    rest[g] = hn::IfThenElse(has4, hn::ShiftRight<32>(rest[g]), rest[g]);
  }
  // Then one byte at a time while len % 4 > k.
  HWY_UNROLL(4) for (size_t k = 0; k < 3; ++k) {
    HWY_UNROLL(4) for (size_t g = 0; g < kGroups; ++g) {
      const HashVecI bytes = hn::And(len[g], hn::Set(di, 3));
      const auto more = hn::RebindMask(d, hn::Gt(bytes, hn::Set(di, static_cast<int64_t>(k))));
      acc[g] = hn::IfThenElse(more, Step1Lanes(acc[g], hn::And(rest[g], hn::Set(d, 0xFF))), acc[g]);
      rest[g] = hn::ShiftRight<8>(rest[g]);
    }
  }
}

// Parquet's hash on lanes: XXH64 of strings of up to 32 bytes (for
// HashRowGroups), and of any string one at a time.
struct Xxh64Lanes {
  using Out = uint64_t;

  template <typename Offset>
  void Rows(const uint8_t* data, size_t data_len, const uint8_t* offsets, size_t first, size_t end,
            Out* out) const {
    xxh64::HashByteArrays<Offset>(data, data_len, offsets, first, end, out);
  }

  Out One(const uint8_t* p, size_t len, size_t room) const { return xxh64::HashBytes(p, len, room); }

  // out[g * lanes + j] = the hash of group g's lane j, len <= 32.
  template <size_t kGroups>
  HWY_INLINE void Short(const HashVec (*w)[4], const HashVecI* len, Out* out) const {
    const HashTag d;
    const HashTagI di;
    HashVec acc[kGroups];
    ShortStringLanes<kGroups>(w, len, acc);
    // A 32-byte string's stripe (20 multiplies a group) only for the groups
    // that hold one: a group of 8 of 0..32-byte strings does 22% of the
    // time, some group of 3 52%. Per group, 0..32-byte strings took 4.19
    // ns a string against 4.67 with the test over all groups (AVX3,
    // Sapphire Rapids; AVX2 11.49 against 12.48).
    HWY_UNROLL(4) for (size_t g = 0; g < kGroups; ++g) {
      const auto exactly32 = hn::Eq(len[g], hn::Set(di, 32));
      if (!hn::AllFalse(di, exactly32)) {
        acc[g] = hn::IfThenElse(hn::RebindMask(d, exactly32), Exactly32Lanes(w[g]), acc[g]);
      }
    }
    HWY_UNROLL(4) for (size_t g = 0; g < kGroups; ++g) {
      hn::StoreU(Avalanche(acc[g]), d, out + g * hn::Lanes(d));
    }
  }
};

// FastHash's mix on lanes.
HWY_INLINE HashVec FastHashMixLanes(HashVec x) {
  x = hn::Xor(x, hn::ShiftRight<23>(x));
  x = MulConst<kFastHashMixFactor>(x);
  return hn::Xor(x, hn::ShiftRight<47>(x));
}

// Kudu's hash on lanes: FastHash32 with a seed of cells of up to 32 bytes
// (the word steps while len > 8k + 7, then the tail word masked to len % 8
// bytes: all on the words already loaded), an empty cell by Kudu's rule.
struct KuduLanes {
  using Out = uint32_t;
  uint32_t seed;

  template <typename Offset>
  void Rows(const uint8_t* data, size_t data_len, const uint8_t* offsets, size_t first, size_t end,
            Out* out) const {
    KuduHashByteArrays<Offset>(data, data_len, offsets, first, end, seed, out);
  }

  Out One(const uint8_t* p, size_t len, size_t room) const { return KuduCellHash32(p, len, room, seed); }

  template <size_t kGroups>
  HWY_INLINE void Short(const HashVec (*w)[4], const HashVecI* len, Out* out) const {
    const HashTag d;
    const HashTagI di;
    const hn::Rebind<uint32_t, HashTag> d32;
    HashVec h[kGroups], rest[kGroups];
    HWY_UNROLL(4) for (size_t g = 0; g < kGroups; ++g) {
      h[g] = hn::Xor(hn::Set(d, uint64_t{seed}), MulConstNarrow<kFastHashM>(hn::BitCast(d, len[g])));
      rest[g] = w[g][0];
    }
    HWY_UNROLL(4) for (size_t k = 0; k < 4; ++k) {
      HWY_UNROLL(4) for (size_t g = 0; g < kGroups; ++g) {
        const auto whole = hn::RebindMask(d, hn::Gt(len[g], hn::Set(di, static_cast<int64_t>(8 * k + 7))));
        h[g] = hn::IfThenElse(whole, MulConst<kFastHashM>(hn::Xor(h[g], FastHashMixLanes(w[g][k]))), h[g]);
        if (k < 3) rest[g] = hn::IfThenElse(whole, w[g][k + 1], rest[g]);
      }
    }
    const HashVec empty = hn::Set(d, FastHash64OfWord(kKuduHashValEmpty, 4, seed));
    HWY_UNROLL(4) for (size_t g = 0; g < kGroups; ++g) {
      const HashVec tail_bits = hn::ShiftLeft<3>(hn::BitCast(d, hn::And(len[g], hn::Set(di, 7))));
      const HashVec tail_mask = hn::Sub(hn::Shl(hn::Set(d, 1), tail_bits), hn::Set(d, 1));  // 0: none
      const HashVec v = hn::And(rest[g], tail_mask);
      const auto has_tail = hn::RebindMask(d, hn::Ne(tail_bits, hn::Zero(d)));
      h[g] = hn::IfThenElse(has_tail, MulConst<kFastHashM>(hn::Xor(h[g], FastHashMixLanes(v))), h[g]);
      h[g] = FastHashMixLanes(h[g]);
      h[g] = hn::IfThenElse(hn::RebindMask(d, hn::Eq(len[g], hn::Zero(di))), empty, h[g]);
      const HashVec folded = hn::Sub(h[g], hn::ShiftRight<32>(h[g]));
      hn::StoreU(hn::TruncateTo(d32, folded), d32, out + g * hn::Lanes(d));
    }
  }
};

// Hashes of rows [i, i + kGroups * lanes), whose 32 bytes from each begin
// are readable: strings of up to 32 bytes on lanes, longer ones one at a
// time (H: Xxh64Lanes or KuduLanes).
template <typename Offset, size_t kGroups, class H>
HWY_INLINE void HashRowGroups(const uint8_t* data, size_t data_len, const uint8_t* offsets, size_t i,
                              const H& hasher, typename H::Out* hashes) {
  const HashTagI di;
  const size_t lanes = hn::Lanes(di);
  HashVecI len[kGroups];
  auto long_lanes = hn::Gt(hn::Zero(di), hn::Zero(di));  // none
  auto all_long = hn::Eq(hn::Zero(di), hn::Zero(di));    // every lane
  HWY_UNROLL(4) for (size_t g = 0; g < kGroups; ++g) {
    const size_t row = i + g * lanes;
    len[g] = hn::Sub(LoadOffsets<Offset>(offsets, row + 1), LoadOffsets<Offset>(offsets, row));
    long_lanes = hn::Or(long_lanes, hn::Gt(len[g], hn::Set(di, 32)));
    all_long = hn::And(all_long, hn::Gt(len[g], hn::Set(di, 32)));
  }
  if (HWY_UNLIKELY(hn::AllTrue(di, all_long))) {  // long strings: no lane work to waste
    hasher.template Rows<Offset>(data, data_len, offsets, i, i + kGroups * lanes, hashes);
    return;
  }
  HashVec w[kGroups][4];
  HWY_UNROLL(4) for (size_t g = 0; g < kGroups; ++g) {
    LoadRowWords<Offset>(data, offsets, i + g * lanes, w[g]);
  }
  hasher.template Short<kGroups>(w, len, hashes + i);
  if (HWY_UNLIKELY(!hn::AllFalse(di, long_lanes))) {
    for (size_t j = i; j < i + kGroups * lanes; ++j) {
      const size_t begin = xxh64::OffsetAt<Offset>(offsets, j);
      const size_t end = xxh64::OffsetAt<Offset>(offsets, j + 1);
      if (end - begin > 32) hashes[j] = hasher.One(data + begin, end - begin, data_len - begin);
    }
  }
}

// hashes[i] for i < n of the byte arrays at data / offsets (kernel_table.h).
template <typename Offset, class H>
HWY_INLINE void HashByteArraysWith(const uint8_t* data, size_t data_len, const void* offsets_v,
                                   size_t n, const H& hasher, typename H::Out* hashes) {
  const uint8_t* offsets = static_cast<const uint8_t*>(offsets_v);
  size_t i = 0;
  if constexpr (kStringVectors) {
    const size_t lanes = hn::Lanes(HashTag());
    // The loads read 32 bytes from each row's begin; offsets do not
    // decrease, so once the last row's would pass the data's end, so
    // would every later row's: those go to the scalar code, which pads
    // the strings near the end.
    size_t fetched = 0;  // bytes of data prefetched
    for (; i + kStringGroups * lanes <= n; i += kStringGroups * lanes) {
      const size_t last_begin = xxh64::OffsetAt<Offset>(offsets, i + kStringGroups * lanes - 1);
      if (last_begin + 32 > data_len) break;
      const size_t ahead = data_len - last_begin < kStringPrefetchBytes ? data_len
                                                                         : last_begin + kStringPrefetchBytes;
      if (fetched < last_begin) fetched = last_begin;
      for (; fetched < ahead; fetched += 64) __builtin_prefetch(data + fetched, 0, 3);
      HashRowGroups<Offset, kStringGroups>(data, data_len, offsets, i, hasher, hashes);
    }
    for (; i + lanes <= n; i += lanes) {
      if (xxh64::OffsetAt<Offset>(offsets, i + lanes - 1) + 32 > data_len) break;
      HashRowGroups<Offset, 1>(data, data_len, offsets, i, hasher, hashes);
    }
  }
  hasher.template Rows<Offset>(data, data_len, offsets, i, n, hashes);
}

// The kernel table's parquet_hash_byte_array32/64 and kudu_hash_byte_array32/64.
HWY_INLINE void ParquetHashByteArray32(const uint8_t* data, size_t data_len, const void* offsets,
                                       size_t n, uint64_t* hashes) {
  HashByteArraysWith<int32_t>(data, data_len, offsets, n, Xxh64Lanes{}, hashes);
}

HWY_INLINE void ParquetHashByteArray64(const uint8_t* data, size_t data_len, const void* offsets,
                                       size_t n, uint64_t* hashes) {
  HashByteArraysWith<int64_t>(data, data_len, offsets, n, Xxh64Lanes{}, hashes);
}

HWY_INLINE void KuduHashByteArray32(const uint8_t* data, size_t data_len, const void* offsets,
                                    size_t n, uint32_t seed, uint32_t* hashes) {
  HashByteArraysWith<int32_t>(data, data_len, offsets, n, KuduLanes{seed}, hashes);
}

HWY_INLINE void KuduHashByteArray64(const uint8_t* data, size_t data_len, const void* offsets,
                                    size_t n, uint32_t seed, uint32_t* hashes) {
  HashByteArraysWith<int64_t>(data, data_len, offsets, n, KuduLanes{seed}, hashes);
}

// The kernel table's offsets_ordered32/64: a vector of offsets against the
// one a row later, their comparisons or-ed together (a column's offsets are
// checked before it is hashed: the one-row loop took 9.5% of a 0..32-byte
// string probe).
template <typename Offset>
HWY_INLINE int OffsetsOrdered(const void* offsets_v, size_t n) {
  const uint8_t* offsets = static_cast<const uint8_t*>(offsets_v);
  const hn::ScalableTag<Offset> d;
  const hn::Repartition<uint8_t, decltype(d)> d_bytes;
  const size_t lanes = hn::Lanes(d);
  auto decreased = hn::Zero(d);
  size_t k = 0;
  for (; k + lanes <= n; k += lanes) {  // rows k .. k + lanes: offsets up to k + lanes <= n
    const auto here = hn::BitCast(d, hn::LoadU(d_bytes, offsets + sizeof(Offset) * k));
    const auto next = hn::BitCast(d, hn::LoadU(d_bytes, offsets + sizeof(Offset) * (k + 1)));
    decreased = hn::Or(decreased, hn::VecFromMask(d, hn::Lt(next, here)));
  }
  const bool ordered = hn::AllTrue(d, hn::Eq(decreased, hn::Zero(d)));
  return ordered && xxh64::OffsetsNonDecreasing<Offset>(offsets, k, n) ? 1 : 0;
}

HWY_INLINE int OffsetsOrdered32(const void* offsets, size_t n) { return OffsetsOrdered<int32_t>(offsets, n); }

HWY_INLINE int OffsetsOrdered64(const void* offsets, size_t n) { return OffsetsOrdered<int64_t>(offsets, n); }

#endif  // toggle guard
