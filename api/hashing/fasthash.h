// SPDX-License-Identifier: Apache-2.0
// Kudu's FAST_HASH (kudu/util/hash_util.h): the hash of bb_kudu_fasthash64/32
// (api/hashing/hashing.cc) and of Kudu-layout columns (api/columns/column_hashers.cc).
// Internal, header-only so that both inline it.
#ifndef BLOCKBLOOM_API_HASHING_FASTHASH_H_
#define BLOCKBLOOM_API_HASHING_FASTHASH_H_

#include <cstddef>
#include <cstdint>

#include "api/hashing/byte_order.h"
#include "kernels/branch_free.h"

namespace blockbloom::internal {

// FastHash64 as in kudu/util/hash_util.h (after Zilong Tan's fast-hash):
// h = seed ^ (len * m); each whole 8-byte little-endian word v: h ^= mix(v),
// h *= m; the 1..7 tail bytes packed little-endian into one more word the
// same way; the result is mix(h). FastHash32 folds it: (uint32)(h - (h >> 32)).
//
// Null and empty inputs. Kudu's BlockBloomFilter hashes a key through
// HashUtil::ComputeHash32(Slice, FAST_HASH, seed). The copy of
// kudu/util/hash_util.h we could read (apache/kudu, 2020) has no special case
// in FastHash64/FastHash32 and a TODO in ComputeHash32 ("Consider adding
// special handling for zero-length/NULL objects"); the rule with these two
// constants comes from Impala (runtime/raw-value.cc, RawValue::GetHashValueFastHash,
// which Impala uses for the runtime filters it builds for Kudu scans): a NULL
// value hashes the 4 bytes of HASH_VAL_NULL = 0x58081667, an empty STRING the
// 4 bytes of HASH_VAL_EMPTY = 0x7dca7eee, both with FastHash64 and the same
// seed. Later Kudu is reported to apply the same rule: the Kudu .NET client
// added it inside its FastHash in 2023 "to match Kudu's fasthash
// implementation" (xqrzd/kudu-client-net PR #251; its author notes Kudu also
// special-cases null), and that client's test vectors for "" (seeds 0 and
// 1234) are exactly the rule's values. We could not read that newer Kudu
// source, so whether Kudu applies it in FastHash64 itself or in ComputeHash32
// is not confirmed. We apply it inside both bb_kudu_fasthash64 and
// bb_kudu_fasthash32, as hashing.h documents: data == NULL is a null cell
// (len is ignored), len == 0 with data != NULL an empty one. The plain
// fast-hash value of a zero-length input (mix(seed)) is therefore never
// produced; non-empty inputs are unaffected.
constexpr uint64_t kFastHashM = 0x880355f21e6d1965ULL;
constexpr uint32_t kKuduHashValNull = 0x58081667u;
constexpr uint32_t kKuduHashValEmpty = 0x7dca7eeeu;

inline uint64_t FastHashMix(uint64_t h) {
  h ^= h >> 23;
  h *= 0x2127599bf4325c37ULL;
  h ^= h >> 47;
  return h;
}

inline uint32_t FastHashFold(uint64_t h) { return static_cast<uint32_t>(h - (h >> 32)); }

// FastHash64 of an input of 1 .. 8 bytes, given as the one word they pack
// into little-endian (a whole word for 8, the tail word for 1 .. 7: the same
// step either way).
inline uint64_t FastHash64OfWord(uint64_t v, size_t len, uint64_t seed) {
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
    h ^= FastHashMix(LoadLE64(p + 8 * i));
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
  h = KeepIf(words > 0, (h ^ FastHashMix(LoadLE64(p))) * kFastHashM, h);
  h = KeepIf(words > 1, (h ^ FastHashMix(LoadLE64(p + 8))) * kFastHashM, h);
  h = KeepIf(words > 2, (h ^ FastHashMix(LoadLE64(p + 16))) * kFastHashM, h);
  const size_t tail = len & 7;
  const uint64_t v = LoadLE64(p + 8 * words) & ((uint64_t{1} << (8 * tail)) - 1);  // tail 0: 0
  h = KeepIf(tail != 0, (h ^ FastHashMix(v)) * kFastHashM, h);
  return FastHashMix(h);
}

// With Kudu's null and empty rules.
inline uint64_t KuduFastHash64(const void* data, size_t len, uint64_t seed) {
  if (data == nullptr) return FastHash64OfWord(kKuduHashValNull, 4, seed);
  if (len == 0) return FastHash64OfWord(kKuduHashValEmpty, 4, seed);
  return FastHash64Raw(static_cast<const uint8_t*>(data), len, seed);
}

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_API_HASHING_FASTHASH_H_
