// SPDX-License-Identifier: Apache-2.0
// XXH64, seed 0, of byte strings of any length: the hash Parquet takes of a
// BYTE_ARRAY value's payload. The scalar reference of the byte-array kernels
// (parquet_hash_byte_array32/64) and the scalar tier's version of them.
//
// Why not just libxxhash: on random lengths, XXH64's tail (while >= 8 bytes,
// if >= 4, each remaining byte) is a chain of data-dependent branches that
// mispredict about once a string (13.5 ns a string of 8..24 random bytes
// against 2.8 at a fixed length). For fewer than 32 bytes there are at most
// three word steps, one 4-byte step and three byte steps, so TailNoBranch
// computes every one of them and keeps each result with a mask: no branch
// depends on the length. It reads 32 bytes from the tail's start, past the
// string, so the caller makes sure those are readable (the rows near the end
// of the data go through a zero-padded copy instead).
#ifndef BLOCKBLOOM_CORE_XXH64_BYTES_H_
#define BLOCKBLOOM_CORE_XXH64_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "src/core/branch_free.h"
#include "src/core/xxh64_op.h"

namespace blockbloom::internal {
namespace xxh64 {

inline uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);  // XXH64 reads little-endian words
#endif
  return v;
}

inline uint32_t Load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}

inline uint64_t Step4(uint64_t acc, uint64_t v32) {
  return RotateLeft(acc ^ (v32 * kPrime1), 23) * kPrime2 + kPrime3;
}

inline uint64_t Step1(uint64_t acc, uint64_t byte) {
  return RotateLeft(acc ^ (byte * kPrime5), 11) * kPrime1;
}

// XXH64's tail of rem < 32 bytes at p mixed into acc, branch-free; reads
// the 32 bytes p[0..32).
inline uint64_t TailNoBranch(uint64_t acc, const uint8_t* p, size_t rem) {
  const size_t words = rem >> 3;
  acc = KeepIf(words > 0, MergeWord(acc, Load64(p)), acc);
  acc = KeepIf(words > 1, MergeWord(acc, Load64(p + 8)), acc);
  acc = KeepIf(words > 2, MergeWord(acc, Load64(p + 16)), acc);
  // The bytes after the whole words: a 4-byte step, then up to 3 bytes.
  uint64_t rest = Load64(p + 8 * words);
  const bool has4 = (rem & 4) != 0;
  acc = KeepIf(has4, Step4(acc, rest & 0xFFFFFFFFu), acc);
  rest >>= 32 * static_cast<unsigned>(has4);
  const size_t bytes = rem & 3;
  acc = KeepIf(bytes > 0, Step1(acc, rest & 0xFF), acc);
  acc = KeepIf(bytes > 1, Step1(acc, (rest >> 8) & 0xFF), acc);
  acc = KeepIf(bytes > 2, Step1(acc, (rest >> 16) & 0xFF), acc);
  return acc;
}

// The same tail as libxxhash computes it, reading only p[0..rem).
inline uint64_t TailLoop(uint64_t acc, const uint8_t* p, size_t rem) {
  for (; rem >= 8; rem -= 8, p += 8) acc = MergeWord(acc, Load64(p));
  if (rem >= 4) {
    acc = Step4(acc, Load32(p));
    rem -= 4;
    p += 4;
  }
  for (; rem > 0; --rem, ++p) acc = Step1(acc, *p);
  return acc;
}

inline uint64_t Round(uint64_t acc, uint64_t input) {
  return RotateLeft(acc + input * kPrime2, 31) * kPrime1;
}

inline uint64_t MergeRound(uint64_t acc, uint64_t v) {
  return (acc ^ Round(0, v)) * kPrime1 + kPrime4;
}

// The accumulator after the 32-byte stripes of len >= 32 bytes, with len
// added (what the tail starts from).
inline uint64_t Stripes(const uint8_t* p, size_t len) {
  uint64_t v1 = kPrime1 + kPrime2, v2 = kPrime2, v3 = 0, v4 = uint64_t{0} - kPrime1;
  const uint8_t* const last = p + (len & ~size_t{31});
  for (; p < last; p += 32) {
    v1 = Round(v1, Load64(p));
    v2 = Round(v2, Load64(p + 8));
    v3 = Round(v3, Load64(p + 16));
    v4 = Round(v4, Load64(p + 24));
  }
  uint64_t acc = RotateLeft(v1, 1) + RotateLeft(v2, 7) + RotateLeft(v3, 12) + RotateLeft(v4, 18);
  acc = MergeRound(acc, v1);
  acc = MergeRound(acc, v2);
  acc = MergeRound(acc, v3);
  acc = MergeRound(acc, v4);
  return acc + len;
}

// XXH64 of p[0..len) where p[0..room) is readable (room >= len). Short
// strings: the branch-free tail (on a zero-padded copy when fewer than 32
// bytes are readable). Long ones: the stripes, then libxxhash's tail loop,
// whose branches cost less there than the branch-free tail's every step for
// every length: 100..4096-byte strings 1.04x libxxhash's time with the
// branch-free tail, 1.00-1.03x with the loop (ratios within one process,
// medians of 12 interleaved runs, twice; Sapphire Rapids).
inline uint64_t HashBytes(const uint8_t* p, size_t len, size_t room) {
  if (len < 32) {
    if (room >= 32) return Avalanche(TailNoBranch(kPrime5 + len, p, len));
    uint8_t padded[32] = {};
    if (len != 0) std::memcpy(padded, p, len);  // p may be NULL when len == 0
    return Avalanche(TailNoBranch(kPrime5 + len, padded, len));
  }
  const uint64_t acc = Stripes(p, len);
  const size_t whole = len & ~size_t{31};
  const size_t rem = len - whole;
  return Avalanche(TailLoop(acc, p + whole, rem));
}

// An Offset (int32_t or int64_t) at any alignment, in the host's order: a
// buffer of offsets is an array of the host's integers.
template <typename Offset>
inline size_t OffsetAt(const uint8_t* offsets, size_t i) {
  Offset v;
  std::memcpy(&v, offsets + sizeof(Offset) * i, sizeof(Offset));
  return static_cast<size_t>(v);
}

// Whether offsets[k + 1] >= offsets[k] for every first <= k < n (as signed
// Offsets): no branch on the data, one comparison a row.
template <typename Offset>
inline bool OffsetsNonDecreasing(const uint8_t* offsets, size_t first, size_t n) {
  bool ordered = true;
  for (size_t k = first; k < n; ++k) {
    Offset a, b;
    std::memcpy(&a, offsets + sizeof(Offset) * k, sizeof(Offset));
    std::memcpy(&b, offsets + sizeof(Offset) * (k + 1), sizeof(Offset));
    ordered &= b >= a;
  }
  return ordered;
}

// hashes[i] = XXH64 of data[offsets[i] .. offsets[i + 1]) for first <= i < end;
// offsets holds end_row + 1 non-decreasing Offsets (any alignment), each <=
// data_len, and data_len bytes at data are readable.
template <typename Offset>
inline void HashByteArrays(const uint8_t* data, size_t data_len, const uint8_t* offsets,
                           size_t first, size_t end_row, uint64_t* hashes) {
  if (first >= end_row) return;  // offsets may hold no entry at all then
  size_t begin = OffsetAt<Offset>(offsets, first);
  for (size_t i = first; i < end_row; ++i) {
    const size_t end = OffsetAt<Offset>(offsets, i + 1);
    hashes[i] = HashBytes(data + begin, end - begin, data_len - begin);
    begin = end;
  }
}

// Known values (from libxxhash): the empty string.
static_assert(Avalanche(kPrime5) == 0xEF46DB3751D8E999ull, "XXH64 of no bytes");

}  // namespace xxh64
}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_CORE_XXH64_BYTES_H_
