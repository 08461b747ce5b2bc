// SPDX-License-Identifier: Apache-2.0
// XXH64 with seed 0 of exactly 8, 4 or 16 bytes: the hash Parquet takes of a
// plain-encoded INT64/DOUBLE or INT32/FLOAT value, or of a 16-byte
// FIXED_LEN_BYTE_ARRAY. Only these lengths, so XXH64's 32-byte stripes and
// its byte-at-a-time tail never come up: each is a handful of multiplies and
// rotates on one 64-bit accumulator. This is the
// scalar reference of the per-tier hash kernels (src/kernels/simd/
// hash_kernels-inl.h computes the same steps on vectors of values and uses
// these for its tail); tests check it against libxxhash's XXH64.
//
// The input is the value whose little-endian bytes are hashed: XXH64 reads
// its input as little-endian words, so hashing the 8 LE bytes of v is a
// function of the integer v alone, whatever the host's byte order.
#ifndef BLOCKBLOOM_CORE_XXH64_OP_H_
#define BLOCKBLOOM_CORE_XXH64_OP_H_

#include <cstdint>

namespace blockbloom::internal {
namespace xxh64 {

// XXH64's five primes.
inline constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
inline constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
inline constexpr uint64_t kPrime3 = 0x165667B19E3779F9ull;
inline constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ull;
inline constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ull;

// With seed 0 and fewer than 32 bytes, the accumulator starts at
// seed + P5 + length.
inline constexpr uint64_t kStart8 = kPrime5 + 8;
inline constexpr uint64_t kStart4 = kPrime5 + 4;
inline constexpr uint64_t kStart16 = kPrime5 + 16;

constexpr uint64_t RotateLeft(uint64_t x, int bits) {
  return (x << bits) | (x >> (64 - bits));
}

// The final mix every XXH64 ends with.
constexpr uint64_t Avalanche(uint64_t acc) {
  acc ^= acc >> 33;
  acc *= kPrime2;
  acc ^= acc >> 29;
  acc *= kPrime3;
  acc ^= acc >> 32;
  return acc;
}

// One 8-byte step of XXH64's tail: the word v mixed into acc.
constexpr uint64_t MergeWord(uint64_t acc, uint64_t v) {
  const uint64_t lane = RotateLeft(v * kPrime2, 31) * kPrime1;
  return RotateLeft(acc ^ lane, 27) * kPrime1 + kPrime4;
}

// XXH64(seed 0) of the 8 little-endian bytes of v: one 8-byte lane step.
constexpr uint64_t Hash8(uint64_t v) { return Avalanche(MergeWord(kStart8, v)); }

// XXH64(seed 0) of 16 bytes, the little-endian words lo (bytes 0..7) and hi
// (bytes 8..15): two 8-byte steps (a FIXED_LEN_BYTE_ARRAY(16): UUIDs, decimals).
constexpr uint64_t Hash16(uint64_t lo, uint64_t hi) {
  return Avalanche(MergeWord(MergeWord(kStart16, lo), hi));
}

// XXH64(seed 0) of the 4 little-endian bytes of v: one 4-byte lane step.
constexpr uint64_t Hash4(uint32_t v) {
  const uint64_t acc = RotateLeft(kStart4 ^ (uint64_t{v} * kPrime1), 23) * kPrime2 + kPrime3;
  return Avalanche(acc);
}

// Known values (from libxxhash): a wrong prime or rotate fails the build.
static_assert(Hash8(0) == 0x34C96ACDCADB1BBBull, "XXH64 of 8 zero bytes");
static_assert(Hash4(0) == 0x3AEFA6FD5CF2DEB4ull, "XXH64 of 4 zero bytes");
static_assert(Hash16(0, 0) == 0xAF09F71516247C32ull, "XXH64 of 16 zero bytes");

}  // namespace xxh64
}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_CORE_XXH64_OP_H_
