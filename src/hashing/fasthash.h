// SPDX-License-Identifier: Apache-2.0
// Kudu's FAST_HASH (kudu/util/hash_util.h): the hash of bb_kudu_fasthash64/32
// (src/hashing/hashing.cc) and of Kudu-layout columns (src/columns/column_hashers.cc).
// Internal, header-only so that both inline it.
#ifndef BLOCKBLOOM_HASHING_FASTHASH_H_
#define BLOCKBLOOM_HASHING_FASTHASH_H_

#include <cstddef>
#include <cstdint>

#include "src/core/fasthash_bytes.h"

namespace blockbloom::internal {

// FastHash64 / FastHash32 themselves are src/core/fasthash_bytes.h (the byte-
// array kernels use them too).
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

// With Kudu's null and empty rules.
inline uint64_t KuduFastHash64(const void* data, size_t len, uint64_t seed) {
  if (data == nullptr) return FastHash64OfWord(kKuduHashValNull, 4, seed);
  if (len == 0) return FastHash64OfWord(kKuduHashValEmpty, 4, seed);
  return FastHash64Raw(static_cast<const uint8_t*>(data), len, seed);
}

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_HASHING_FASTHASH_H_
