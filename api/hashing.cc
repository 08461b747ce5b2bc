// SPDX-License-Identifier: Apache-2.0
// The hashes of the two formats: Parquet's XXH64 of the plain encoding and
// Kudu's FAST_HASH. The fused column calls (api/fused_columns.cc) use the
// chunk helpers at the end of this file.
//
// Batches of 4- and 8-byte values go to the active tier's hash kernels
// (parquet_hash_4byte / parquet_hash_8byte), which hash a vector of values at
// a time. Single values and byte strings use xxHash compiled inline here
// (XXH_INLINE_ALL) rather than the shared libxxhash: a call to XXH64 with a
// constant 4 or 8 then folds into a dozen instructions instead of a call
// through the PLT. The values are those of libxxhash (tests/hashing_test.cc
// and tests/hash_kernel_test.cc check them against it).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdint>
#include <cstring>

#include "api/chunk_hashing.h"
#include "blockbloom/hashing.h"
#include "dispatch/dispatcher.h"


namespace {

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
constexpr bool kBigEndian = true;
#else
constexpr bool kBigEndian = false;
#endif

// The value as it sits in memory in little-endian byte order (a no-op here on
// little-endian hosts; a byte swap on big-endian ones).
inline uint32_t ToLittleEndian(uint32_t v) { return kBigEndian ? __builtin_bswap32(v) : v; }
inline uint64_t ToLittleEndian(uint64_t v) { return kBigEndian ? __builtin_bswap64(v) : v; }

// Little-endian loads from any address.
inline uint64_t LoadLE64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return ToLittleEndian(v);
}

// ---------------------------------------------------------------- Parquet

// XXH64, seed 0, of the 4 little-endian bytes of bits.
inline uint64_t ParquetHash4(uint32_t bits) {
  const uint32_t le = ToLittleEndian(bits);
  return XXH64(&le, sizeof le, 0);
}

// XXH64, seed 0, of the 8 little-endian bytes of bits.
inline uint64_t ParquetHash8(uint64_t bits) {
  const uint64_t le = ToLittleEndian(bits);
  return XXH64(&le, sizeof le, 0);
}

template <typename T>
inline uint32_t Bits32(T value) {
  static_assert(sizeof(T) == 4, "4-byte values only");
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

template <typename T>
inline uint64_t Bits64(T value) {
  static_assert(sizeof(T) == 8, "8-byte values only");
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// ------------------------------------------------------------------- Kudu
//
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

// FastHash64 of the 4 little-endian bytes of v: one tail word of 4 bytes.
inline uint64_t FastHash64Of4(uint32_t v, uint64_t seed) {
  uint64_t h = seed ^ (4 * kFastHashM);
  h ^= FastHashMix(v);
  h *= kFastHashM;
  return FastHashMix(h);
}

// FastHash64 of the 8 little-endian bytes of v: one whole word.
inline uint64_t FastHash64Of8(uint64_t v, uint64_t seed) {
  uint64_t h = seed ^ (8 * kFastHashM);
  h ^= FastHashMix(v);
  h *= kFastHashM;
  return FastHashMix(h);
}

inline uint64_t KuduFastHash64(const void* data, size_t len, uint64_t seed) {
  if (data == nullptr) return FastHash64Of4(kKuduHashValNull, seed);
  if (len == 0) return FastHash64Of4(kKuduHashValEmpty, seed);
  return FastHash64Raw(static_cast<const uint8_t*>(data), len, seed);
}

}  // namespace

extern "C" {

uint64_t bb_parquet_hash_bytes(const void* data, size_t len) {
  // No error channel: a NULL pointer hashes as the empty input.
  if (data == nullptr) len = 0;
  return XXH64(data, len, 0);
}

uint64_t bb_parquet_hash_int32(int32_t value) { return ParquetHash4(Bits32(value)); }
uint64_t bb_parquet_hash_int64(int64_t value) { return ParquetHash8(Bits64(value)); }
uint64_t bb_parquet_hash_float(float value) { return ParquetHash4(Bits32(value)); }
uint64_t bb_parquet_hash_double(double value) { return ParquetHash8(Bits64(value)); }

int bb_parquet_hash_int32_batch(const int32_t* values, size_t n, uint64_t* hashes) {
  if (n > 0 && (values == nullptr || hashes == nullptr)) return BB_ERR_NULL_POINTER;
  blockbloom::ParquetHashInt32Chunk(values, n, hashes);
  return BB_OK;
}

int bb_parquet_hash_int64_batch(const int64_t* values, size_t n, uint64_t* hashes) {
  if (n > 0 && (values == nullptr || hashes == nullptr)) return BB_ERR_NULL_POINTER;
  blockbloom::ParquetHashInt64Chunk(values, n, hashes);
  return BB_OK;
}

int bb_parquet_hash_float_batch(const float* values, size_t n, uint64_t* hashes) {
  if (n > 0 && (values == nullptr || hashes == nullptr)) return BB_ERR_NULL_POINTER;
  blockbloom::ActiveKernels().parquet_hash_4byte(values, n, hashes);
  return BB_OK;
}

int bb_parquet_hash_double_batch(const double* values, size_t n, uint64_t* hashes) {
  if (n > 0 && (values == nullptr || hashes == nullptr)) return BB_ERR_NULL_POINTER;
  blockbloom::ActiveKernels().parquet_hash_8byte(values, n, hashes);
  return BB_OK;
}

int bb_parquet_hash_string_batch(const uint8_t* data, size_t data_len, const int32_t* offsets,
                                 size_t n, uint64_t* hashes) {
  if (n == 0) {
    // offsets still has one entry when given; check it like any other.
    if (offsets != nullptr && (offsets[0] < 0 || static_cast<uint64_t>(offsets[0]) > data_len)) {
      return BB_ERR_INVALID_OFFSETS;
    }
    return BB_OK;
  }
  // data may be NULL only when there are no bytes (every value empty).
  if (offsets == nullptr || hashes == nullptr || (data == nullptr && data_len > 0)) {
    return BB_ERR_NULL_POINTER;
  }
  // Validate every offset before writing any hash.
  if (offsets[0] < 0) return BB_ERR_INVALID_OFFSETS;
  for (size_t i = 0; i < n; ++i) {
    if (offsets[i + 1] < offsets[i]) return BB_ERR_INVALID_OFFSETS;
  }
  if (static_cast<uint64_t>(offsets[n]) > data_len) return BB_ERR_INVALID_OFFSETS;

  for (size_t i = 0; i < n; ++i) {
    const size_t begin = static_cast<size_t>(offsets[i]);
    const size_t len = static_cast<size_t>(offsets[i + 1]) - begin;
    // XXH64 reads nothing for len == 0, so data + 0 (or NULL) is fine.
    hashes[i] = len == 0 ? XXH64(nullptr, 0, 0) : XXH64(data + begin, len, 0);
  }
  return BB_OK;
}

uint64_t bb_kudu_fasthash64(const void* data, size_t len, uint64_t seed) {
  return KuduFastHash64(data, len, seed);
}

uint32_t bb_kudu_fasthash32(const void* data, size_t len, uint32_t seed) {
  return FastHashFold(KuduFastHash64(data, len, seed));
}

}  // extern "C"

namespace blockbloom {

void ParquetHashInt32Chunk(const int32_t* values, size_t n, uint64_t* hashes) {
  ActiveKernels().parquet_hash_4byte(values, n, hashes);
}

void ParquetHashInt64Chunk(const int64_t* values, size_t n, uint64_t* hashes) {
  ActiveKernels().parquet_hash_8byte(values, n, hashes);
}

// Kudu hashes a cell's in-memory (little-endian) bytes: FastHash32 of 4 or 8.
void KuduHashInt32Chunk(const int32_t* values, size_t n, uint32_t seed, uint32_t* hashes) {
  for (size_t i = 0; i < n; ++i) hashes[i] = FastHashFold(FastHash64Of4(Bits32(values[i]), seed));
}

void KuduHashInt64Chunk(const int64_t* values, size_t n, uint32_t seed, uint32_t* hashes) {
  for (size_t i = 0; i < n; ++i) hashes[i] = FastHashFold(FastHash64Of8(Bits64(values[i]), seed));
}

}  // namespace blockbloom
