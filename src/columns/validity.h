// SPDX-License-Identifier: Apache-2.0
// Arrow validity bits for the column loops (src/columns/column_ops.cc): a chunk's
// bits copied out of a bitmap at any bit offset, counted, and used to drop
// the null rows' hashes or selection entries. Bit i of a bitmap is
// (bytes[i / 8] >> (i % 8)) & 1. Internal; n <= kColumnChunk throughout.
#ifndef BLOCKBLOOM_COLUMNS_VALIDITY_H_
#define BLOCKBLOOM_COLUMNS_VALIDITY_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "src/hashing/byte_order.h"

namespace blockbloom::internal {

inline size_t BitmapBytes(size_t n) { return n / 8 + (n % 8 != 0); }

// Bits [bit, bit + n) of bitmap as bits 0 .. n - 1 of out (BitmapBytes(n)
// bytes, the high bits of the last one 0). Reads only the bytes that hold
// those bits; out must not overlap bitmap.
inline void ExtractBits(const uint8_t* bitmap, size_t bit, size_t n, uint8_t* out) {
  const uint8_t* src = bitmap + bit / 8;
  const unsigned shift = bit % 8;
  const size_t out_bytes = BitmapBytes(n);
  if (shift == 0) {
    std::memcpy(out, src, out_bytes);
  } else {
    const size_t src_bytes = BitmapBytes(shift + n);
    for (size_t k = 0; k < out_bytes; ++k) {
      unsigned v = src[k] >> shift;
      if (k + 1 < src_bytes) v |= static_cast<unsigned>(src[k + 1]) << (8 - shift);
      out[k] = static_cast<uint8_t>(v);
    }
  }
  if (n % 8 != 0) out[out_bytes - 1] &= static_cast<uint8_t>((1u << (n % 8)) - 1);
}

// Bits 64 * w .. 64 * w + 63 of bits, which holds BitmapBytes(n) bytes
// (those past it read as 0).
inline uint64_t BitsWord(const uint8_t* bits, size_t n, size_t w) {
  const size_t bytes = BitmapBytes(n);
  if (8 * w + 8 <= bytes) return LoadLE64(bits + 8 * w);
  uint64_t word = 0;
  for (size_t k = 8 * w; k < bytes && k < 8 * w + 8; ++k) {
    word |= static_cast<uint64_t>(bits[k]) << (8 * (k - 8 * w));
  }
  return word;
}

// Bits 0 .. n - 1 of out set, over BitmapBytes(n) bytes (the high bits of the
// last byte 0): the answer of a filter that lets every row through.
inline void SetLowBits(uint8_t* out, size_t n) {
  std::memset(out, 0xff, n / 8);
  if (n % 8 != 0) out[n / 8] = static_cast<uint8_t>((1u << (n % 8)) - 1u);
}

// The number of 1 bits among bits 0 .. n - 1 (the high bits of the last byte are 0).
inline size_t CountBits(const uint8_t* bits, size_t n) {
  size_t count = 0;
  for (size_t w = 0; 64 * w < n; ++w) count += static_cast<size_t>(__builtin_popcountll(BitsWord(bits, n, w)));
  return count;
}

// dst &= bits over BitmapBytes(n) bytes.
inline void AndBits(uint8_t* dst, const uint8_t* bits, size_t n) {
  for (size_t k = 0; k < BitmapBytes(n); ++k) dst[k] &= bits[k];
}

// Moves items[i] of the rows whose bit is 1 to the front, in order, and
// returns their number. Branch-free per row (a store and an add), with whole
// words of valid rows moved at once.
template <typename T>
size_t CompactByBits(T* items, size_t n, const uint8_t* bits) {
  size_t kept = 0;
  for (size_t w = 0; 64 * w < n; ++w) {
    const size_t base = 64 * w;
    const size_t m = n - base < 64 ? n - base : 64;
    const uint64_t word = BitsWord(bits, n, w);
    const uint64_t all = m == 64 ? ~uint64_t{0} : (uint64_t{1} << m) - 1;
    if (word == all) {
      if (kept != base) std::memmove(items + kept, items + base, m * sizeof(T));
      kept += m;
      continue;
    }
    for (size_t i = 0; i < m; ++i) {
      items[kept] = items[base + i];
      kept += (word >> i) & 1;
    }
  }
  return kept;
}

// Keeps the entries of selection[0 .. k) (row indices below n) whose row's
// bit is 1, in order; returns how many.
inline size_t FilterSelection(uint32_t* selection, size_t k, const uint8_t* bits) {
  size_t kept = 0;
  for (size_t i = 0; i < k; ++i) {
    const uint32_t row = selection[i];
    selection[kept] = row;
    kept += (bits[row / 8] >> (row % 8)) & 1;
  }
  return kept;
}

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_COLUMNS_VALIDITY_H_
