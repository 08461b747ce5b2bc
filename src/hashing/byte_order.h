// SPDX-License-Identifier: Apache-2.0
// Little-endian loads and conversions for the hashes (src/hashing/hashing.cc,
// src/columns/column_hashers.cc): both formats hash little-endian bytes.
#ifndef BLOCKBLOOM_HASHING_BYTE_ORDER_H_
#define BLOCKBLOOM_HASHING_BYTE_ORDER_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace blockbloom::internal {

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
inline constexpr bool kBigEndian = true;
#else
inline constexpr bool kBigEndian = false;
#endif

// The value as it sits in memory in little-endian byte order (a no-op on
// little-endian hosts; a byte swap on big-endian ones).
inline uint32_t ToLittleEndian(uint32_t v) { return kBigEndian ? __builtin_bswap32(v) : v; }
inline uint64_t ToLittleEndian(uint64_t v) { return kBigEndian ? __builtin_bswap64(v) : v; }

// The little-endian 64-bit word at p (any address).
inline uint64_t LoadLE64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return ToLittleEndian(v);
}

// A T from p (any address), in the host's byte order.
template <typename T>
inline T LoadAt(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The bits of a 4- or 8-byte value (a float's, say) as the unsigned integer
// of its size.
template <typename T>
inline auto Bits(T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte values only");
  std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t> bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_HASHING_BYTE_ORDER_H_
