// SPDX-License-Identifier: Apache-2.0
// Parquet's hash of BYTE_ARRAY values (XXH64, seed 0, of each payload), a
// vector of strings at a time: each string of fewer than 32 bytes is one
// 64-bit lane, and kernels/xxh64_bytes.h's branch-free tail runs on all
// lanes at once, each step kept per lane by a mask of the lane's length.
// Strings of 32 bytes or more are hashed one at a time by the scalar code
// (its 32-byte stripes are no work for lanes of different lengths).
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

// XXH64 of each lane's string data[begin .. begin + len), len < 32 (other
// lanes get garbage), reading the 32 bytes from each begin: xxh64::
// TailNoBranch on lanes.
HWY_INLINE HashVec ShortStringLanes(const uint8_t* data, HashVecI begins, HashVecI len) {
  const HashTag d;
  const HashTagI di;
  // Gathers with byte offsets (scale 1): any alignment.
  const uint64_t* base = reinterpret_cast<const uint64_t*>(data);
  const HashVec w0 = hn::GatherOffset(d, base, begins);
  const HashVec w1 = hn::GatherOffset(d, base, hn::Add(begins, hn::Set(di, 8)));
  const HashVec w2 = hn::GatherOffset(d, base, hn::Add(begins, hn::Set(di, 16)));
  const HashVec w3 = hn::GatherOffset(d, base, hn::Add(begins, hn::Set(di, 24)));
  const auto words1 = hn::RebindMask(d, hn::Gt(len, hn::Set(di, 7)));
  const auto words2 = hn::RebindMask(d, hn::Gt(len, hn::Set(di, 15)));
  const auto words3 = hn::RebindMask(d, hn::Gt(len, hn::Set(di, 23)));
  const HashVec len_u = hn::BitCast(d, len);
  HashVec acc = hn::Add(hn::Set(d, xxh64::kPrime5), len_u);
  acc = hn::IfThenElse(words1, MergeWordLanes(acc, w0), acc);
  acc = hn::IfThenElse(words2, MergeWordLanes(acc, w1), acc);
  acc = hn::IfThenElse(words3, MergeWordLanes(acc, w2), acc);
  // The word after the whole ones holds the last len % 8 bytes.
  HashVec rest = hn::IfThenElse(words1, w1, w0);
  rest = hn::IfThenElse(words2, w2, rest);
  rest = hn::IfThenElse(words3, w3, rest);
  const auto has4 = hn::TestBit(len_u, hn::Set(d, 4));
  const HashVec low = MulConstNarrow<xxh64::kPrime1>(hn::And(rest, hn::Set(d, 0xFFFFFFFFull)));
  const HashVec step4 = hn::Add(MulConst<xxh64::kPrime2>(RotateLeft<23>(hn::Xor(acc, low))),
                                hn::Set(d, xxh64::kPrime3));
  acc = hn::IfThenElse(has4, step4, acc);
  rest = hn::IfThenElse(has4, hn::ShiftRight<32>(rest), rest);
  const HashVecI bytes = hn::And(len, hn::Set(di, 3));
  const HashVec byte_mask = hn::Set(d, 0xFF);
  acc = hn::IfThenElse(hn::RebindMask(d, hn::Gt(bytes, hn::Zero(di))),
                       Step1Lanes(acc, hn::And(rest, byte_mask)), acc);
  acc = hn::IfThenElse(hn::RebindMask(d, hn::Gt(bytes, hn::Set(di, 1))),
                       Step1Lanes(acc, hn::And(hn::ShiftRight<8>(rest), byte_mask)), acc);
  acc = hn::IfThenElse(hn::RebindMask(d, hn::Gt(bytes, hn::Set(di, 2))),
                       Step1Lanes(acc, hn::And(hn::ShiftRight<16>(rest), byte_mask)), acc);
  return Avalanche(acc);
}

// The kernel table's parquet_hash_byte_array32/64 (kernel_table.h).
template <typename Offset>
HWY_INLINE void ParquetHashByteArrays(const uint8_t* data, size_t data_len, const void* offsets_v,
                                      size_t n, uint64_t* hashes) {
  const uint8_t* offsets = static_cast<const uint8_t*>(offsets_v);
  size_t i = 0;
  if (kStringVectors) {
    const HashTag d;
    const HashTagI di;
    const size_t lanes = hn::Lanes(d);
    for (; i + lanes <= n; i += lanes) {
      // The gathers read 32 bytes from each lane's begin; offsets do not
      // decrease, so once the last lane's would pass the data's end, so
      // would every later row's: those go to the scalar code.
      if (xxh64::OffsetAt<Offset>(offsets, i + lanes - 1) + 32 > data_len) break;
      const HashVecI begins = LoadOffsets<Offset>(offsets, i);
      const HashVecI len = hn::Sub(LoadOffsets<Offset>(offsets, i + 1), begins);
      const auto long_lanes = hn::Gt(len, hn::Set(di, 31));
      if (hn::AllTrue(di, long_lanes)) {  // long strings: no lane work to waste
        xxh64::HashByteArrays<Offset>(data, data_len, offsets, i, i + lanes, hashes);
        continue;
      }
      hn::StoreU(ShortStringLanes(data, begins, len), d, hashes + i);
      if (!hn::AllFalse(di, long_lanes)) {
        for (size_t j = i; j < i + lanes; ++j) {
          const size_t begin = xxh64::OffsetAt<Offset>(offsets, j);
          const size_t end = xxh64::OffsetAt<Offset>(offsets, j + 1);
          if (end - begin >= 32) hashes[j] = xxh64::HashBytes(data + begin, end - begin, data_len - begin);
        }
      }
    }
  }
  xxh64::HashByteArrays<Offset>(data, data_len, offsets, i, n, hashes);
}

HWY_INLINE void ParquetHashByteArray32(const uint8_t* data, size_t data_len, const void* offsets,
                                       size_t n, uint64_t* hashes) {
  ParquetHashByteArrays<int32_t>(data, data_len, offsets, n, hashes);
}

HWY_INLINE void ParquetHashByteArray64(const uint8_t* data, size_t data_len, const void* offsets,
                                       size_t n, uint64_t* hashes) {
  ParquetHashByteArrays<int64_t>(data, data_len, offsets, n, hashes);
}

#endif  // toggle guard
