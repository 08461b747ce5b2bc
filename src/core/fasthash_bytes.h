// SPDX-License-Identifier: Apache-2.0
// Kudu's FAST_HASH (kudu/util/hash_util.h) of byte strings: the scalar
// reference of the kudu_hash_byte_array32/64 kernels and the scalar tier's
// version of them; src/hashing/fasthash.h builds Kudu's null and empty rules
// and the one-value calls on it.
//
// FastHash64 (after Zilong Tan's fast-hash): h = seed ^ (len * m); each whole
// 8-byte little-endian word v: h ^= mix(v), h *= m; the 1..7 tail bytes
// packed little-endian into one more word the same way; the result is
// mix(h). FastHash32 folds it: (uint32)(h - (h >> 32)).
#ifndef BLOCKBLOOM_CORE_FASTHASH_BYTES_H_
#define BLOCKBLOOM_CORE_FASTHASH_BYTES_H_

#include <cstddef>
#include <cstdint>

#include "src/core/branch_free.h"
#include "src/core/xxh64_bytes.h"  // Load64 (little-endian), OffsetAt

namespace blockbloom::internal {

constexpr uint64_t kFastHashM = 0x880355f21e6d1965ULL;
constexpr uint64_t kFastHashMixFactor = 0x2127599bf4325c37ULL;
// What Kudu hashes instead of a NULL cell and of an empty one (the 4 bytes
// of each; src/hashing/fasthash.h says where the rule comes from).
constexpr uint32_t kKuduHashValNull = 0x58081667u;
constexpr uint32_t kKuduHashValEmpty = 0x7dca7eeeu;

constexpr uint64_t FastHashMix(uint64_t h) {
  h ^= h >> 23;
  h *= kFastHashMixFactor;
  h ^= h >> 47;
  return h;
}

constexpr uint32_t FastHashFold(uint64_t h) { return static_cast<uint32_t>(h - (h >> 32)); }

// FastHash64 of an input of 1 .. 8 bytes, given as the one word they pack
// into little-endian (a whole word for 8, the tail word for 1 .. 7: the same
// step either way).
constexpr uint64_t FastHash64OfWord(uint64_t v, size_t len, uint64_t seed) {
  uint64_t h = seed ^ (static_cast<uint64_t>(len) * kFastHashM);
  h ^= FastHashMix(v);
  h *= kFastHashM;
  return FastHashMix(h);
}

// FastHash64 of len > 0 bytes (no null/empty rule).
inline uint64_t FastHash64Raw(const uint8_t* p, size_t len, uint64_t seed) {
  uint64_t h = seed ^ (static_cast<uint64_t>(len) * kFastHashM);
  const size_t words = len / 8;
  for (size_t i = 0; i < words; ++i) {
    h ^= FastHashMix(xxh64::Load64(p + 8 * i));
    h *= kFastHashM;
  }
  const size_t tail = len & 7;
  if (tail != 0) {
    const uint8_t* t = p + 8 * words;
    uint64_t v = 0;
    for (size_t i = 0; i < tail; ++i) v |= static_cast<uint64_t>(t[i]) << (8 * i);
    h ^= FastHashMix(v);
    h *= kFastHashM;
  }
  return FastHashMix(h);
}

// FastHash64Raw of 0 < len < 32 bytes at p, reading p[0..32): every word
// step computed and kept by a mask, the tail word loaded whole and masked to
// its len % 8 bytes, so no branch depends on the length (the loops above
// mispredict on random lengths). For cells with 32 readable bytes.
inline uint64_t FastHash64Short(const uint8_t* p, size_t len, uint64_t seed) {
  uint64_t h = seed ^ (static_cast<uint64_t>(len) * kFastHashM);
  const size_t words = len >> 3;
  h = KeepIf(words > 0, (h ^ FastHashMix(xxh64::Load64(p))) * kFastHashM, h);
  h = KeepIf(words > 1, (h ^ FastHashMix(xxh64::Load64(p + 8))) * kFastHashM, h);
  h = KeepIf(words > 2, (h ^ FastHashMix(xxh64::Load64(p + 16))) * kFastHashM, h);
  const size_t tail = len & 7;
  const uint64_t v = xxh64::Load64(p + 8 * words) & ((uint64_t{1} << (8 * tail)) - 1);  // tail 0: 0
  h = KeepIf(tail != 0, (h ^ FastHashMix(v)) * kFastHashM, h);
  return FastHashMix(h);
}

// Kudu's FastHash32 of a BINARY / STRING cell of len bytes at p, p[0..room)
// readable (room >= len); an empty cell by Kudu's empty rule.
inline uint32_t KuduCellHash32(const uint8_t* p, size_t len, size_t room, uint64_t seed) {
  uint64_t h;
  if (len == 0) {
    h = FastHash64OfWord(kKuduHashValEmpty, 4, seed);
  } else if (len < 32 && room >= 32) {  // 32 bytes readable: no length branch
    h = FastHash64Short(p, len, seed);
  } else {
    h = FastHash64Raw(p, len, seed);
  }
  return FastHashFold(h);
}

// hashes[i] = KuduCellHash32 of data[offsets[i] .. offsets[i + 1]) for
// first <= i < end_row; offsets as in xxh64::HashByteArrays.
template <typename Offset>
inline void KuduHashByteArrays(const uint8_t* data, size_t data_len, const uint8_t* offsets,
                               size_t first, size_t end_row, uint32_t seed, uint32_t* hashes) {
  if (first >= end_row) return;  // offsets may hold no entry at all then
  size_t begin = xxh64::OffsetAt<Offset>(offsets, first);
  for (size_t i = first; i < end_row; ++i) {
    const size_t end = xxh64::OffsetAt<Offset>(offsets, i + 1);
    hashes[i] = KuduCellHash32(data + begin, end - begin, data_len - begin, seed);
    begin = end;
  }
}

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_CORE_FASTHASH_BYTES_H_
