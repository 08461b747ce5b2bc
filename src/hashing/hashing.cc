// SPDX-License-Identifier: Apache-2.0
// The hashes of the two formats: Parquet's XXH64 of the plain encoding and
// Kudu's FAST_HASH (src/hashing/fasthash.h), one value at a time. (The batch hashes of
// hashing.h are typed columns: src/columns/batch_hashes.cc.)
//
// Single values and byte strings use xxHash compiled inline here
// (XXH_INLINE_ALL) rather than the shared libxxhash: a call to XXH64 with a
// constant 4 or 8 then folds into a dozen instructions instead of a call
// through the PLT. The values are those of libxxhash (tests/hashing/hashing_test.cc
// and tests/kernels/hash_kernel_test.cc check them against it).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdint>

#include "src/hashing/byte_order.h"
#include "src/hashing/fasthash.h"
#include "blockbloom/hashing.h"

namespace {

using blockbloom::internal::Bits;
using blockbloom::internal::ToLittleEndian;

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

}  // namespace

extern "C" {

uint64_t bb_parquet_hash_bytes(const void* data, size_t len) {
  // No error channel: a NULL pointer hashes as the empty input.
  if (data == nullptr) len = 0;
  return XXH64(data, len, 0);
}

uint64_t bb_parquet_hash_int32(int32_t value) { return ParquetHash4(Bits(value)); }
uint64_t bb_parquet_hash_int64(int64_t value) { return ParquetHash8(Bits(value)); }
uint64_t bb_parquet_hash_float(float value) { return ParquetHash4(Bits(value)); }
uint64_t bb_parquet_hash_double(double value) { return ParquetHash8(Bits(value)); }

uint64_t bb_kudu_fasthash64(const void* data, size_t len, uint64_t seed) {
  return blockbloom::internal::KuduFastHash64(data, len, seed);
}

uint32_t bb_kudu_fasthash32(const void* data, size_t len, uint32_t seed) {
  return blockbloom::internal::FastHashFold(blockbloom::internal::KuduFastHash64(data, len, seed));
}

}  // extern "C"
