// SPDX-License-Identifier: Apache-2.0
// What each column type hashes to in each layout. The 4-, 8- and 16-byte
// values of a Parquet filter go to the active tier's vector XXH64
// (parquet_hash_4byte / _8byte / _16byte); narrower ones, and DATE64's days,
// are widened into a stack chunk first, which is what a Parquet writer
// stores. Byte arrays go to the tier's parquet_hash_byte_array32 / _64
// (Kudu's: kudu_hash_byte_array32 / _64).
// Other widths are hashed one at a time with xxHash
// compiled inline here (XXH_INLINE_ALL: a constant width unrolls), Kudu's
// with FastHash (src/hashing/fasthash.h); both equal the libraries' values
// (tests/columns/column_*_test.cc).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "src/columns/column_hashers.h"

#include "src/hashing/byte_order.h"
#include "src/hashing/fasthash.h"
#include "src/dispatch/dispatcher.h"

namespace blockbloom::internal {
namespace {

// Arrow's Parquet writer stores a date64 (milliseconds) as the INT32 DATE
// static_cast<int32_t>(ms / 86400000): truncated toward zero, so
// non-conforming values (not whole days) before 1970 land on the day after;
// days beyond the int32 range wrap modulo 2^32 as that cast does on every
// compiler we build with. Kudu's DATE is the same int32 of days.
inline uint32_t Date64Days(int64_t ms) {
  return static_cast<uint32_t>(static_cast<uint64_t>(ms / 86400000));
}

// ---------------------------------------------------------------- Parquet

void ParquetDirect4(const ColumnView& c, size_t start, size_t len, uint32_t, uint64_t* out) {
  ActiveKernels().parquet_hash_4byte(c.values + 4 * start, len, out);
}

void ParquetDirect8(const ColumnView& c, size_t start, size_t len, uint32_t, uint64_t* out) {
  ActiveKernels().parquet_hash_8byte(c.values + 8 * start, len, out);
}

void ParquetDirect16(const ColumnView& c, size_t start, size_t len, uint32_t, uint64_t* out) {
  ActiveKernels().parquet_hash_16byte(c.values + 16 * start, len, out);
}

// INT8/UINT8/INT16/UINT16 as the INT32 a writer stores: the conversion
// sign-extends a signed T and zero-extends an unsigned one.
template <typename T>
void ParquetWidened(const ColumnView& c, size_t start, size_t len, uint32_t, uint64_t* out) {
  int32_t wide[kColumnChunk];
  const uint8_t* p = c.values + sizeof(T) * start;
  for (size_t i = 0; i < len; ++i) wide[i] = static_cast<int32_t>(LoadAt<T>(p + sizeof(T) * i));
  ActiveKernels().parquet_hash_4byte(wide, len, out);
}

void ParquetDate64(const ColumnView& c, size_t start, size_t len, uint32_t, uint64_t* out) {
  uint32_t days[kColumnChunk];
  const uint8_t* p = c.values + 8 * start;
  for (size_t i = 0; i < len; ++i) days[i] = Date64Days(LoadAt<int64_t>(p + 8 * i));
  ActiveKernels().parquet_hash_4byte(days, len, out);
}

// XXH64 of each value's kWidth bytes (kWidth == 0: the column's width).
template <size_t kWidth>
void ParquetEachValue(const ColumnView& c, size_t start, size_t len, uint32_t, uint64_t* out) {
  const size_t w = kWidth != 0 ? kWidth : c.width;
  const uint8_t* p = c.values + w * start;
  for (size_t i = 0; i < len; ++i) out[i] = XXH64(p + w * i, w, 0);
}

// XXH64 of each value's payload bytes (no length prefix): the active
// tier's byte-array kernel, which reads nothing past data_len (data may be
// NULL when every value is empty).
void ParquetByteArray32(const ColumnView& c, size_t start, size_t len, uint32_t, uint64_t* out) {
  ActiveKernels().parquet_hash_byte_array32(c.data, c.data_len, c.offsets + 4 * start, len, out);
}

void ParquetByteArray64(const ColumnView& c, size_t start, size_t len, uint32_t, uint64_t* out) {
  ActiveKernels().parquet_hash_byte_array64(c.data, c.data_len, c.offsets + 8 * start, len, out);
}

// ------------------------------------------------------------------- Kudu

// A cell of sizeof(U) bytes: its unsigned value is the word its
// little-endian bytes pack into (1 byte for INT8: no sign extension).
template <typename U>
void KuduFixed(const ColumnView& c, size_t start, size_t len, uint32_t seed, uint32_t* out) {
  const uint8_t* p = c.values + sizeof(U) * start;
  for (size_t i = 0; i < len; ++i) {
    out[i] = FastHashFold(FastHash64OfWord(LoadAt<U>(p + sizeof(U) * i), sizeof(U), seed));
  }
}

void KuduDate64(const ColumnView& c, size_t start, size_t len, uint32_t seed, uint32_t* out) {
  const uint8_t* p = c.values + 8 * start;
  for (size_t i = 0; i < len; ++i) {
    out[i] = FastHashFold(FastHash64OfWord(Date64Days(LoadAt<int64_t>(p + 8 * i)), 4, seed));
  }
}

void KuduEachValue(const ColumnView& c, size_t start, size_t len, uint32_t seed, uint32_t* out) {
  const size_t w = c.width;  // >= 1: no empty rule
  const uint8_t* p = c.values + w * start;
  for (size_t i = 0; i < len; ++i) out[i] = FastHashFold(FastHash64Raw(p + w * i, w, seed));
}

// BINARY/STRING cells, an empty one by Kudu's empty rule
// (bb_kudu_fasthash32): the active tier's kudu_hash_byte_array32 / _64.
void KuduByteArray32(const ColumnView& c, size_t start, size_t len, uint32_t seed, uint32_t* out) {
  ActiveKernels().kudu_hash_byte_array32(c.data, c.data_len, c.offsets + 4 * start, len, seed, out);
}

void KuduByteArray64(const ColumnView& c, size_t start, size_t len, uint32_t seed, uint32_t* out) {
  ActiveKernels().kudu_hash_byte_array64(c.data, c.data_len, c.offsets + 8 * start, len, seed, out);
}

}  // namespace

ChunkHasher<uint64_t> ParquetChunkHasher(const ColumnView& c) {
  switch (c.type) {
    case BB_TYPE_INT8: return &ParquetWidened<int8_t>;
    case BB_TYPE_UINT8: return &ParquetWidened<uint8_t>;
    case BB_TYPE_INT16: return &ParquetWidened<int16_t>;
    case BB_TYPE_UINT16: return &ParquetWidened<uint16_t>;
    case BB_TYPE_INT32:
    case BB_TYPE_UINT32:
    case BB_TYPE_FLOAT:
    case BB_TYPE_DATE32:
    case BB_TYPE_TIME32: return &ParquetDirect4;
    case BB_TYPE_INT64:
    case BB_TYPE_UINT64:
    case BB_TYPE_DOUBLE:
    case BB_TYPE_TIME64:
    case BB_TYPE_TIMESTAMP: return &ParquetDirect8;
    case BB_TYPE_DATE64: return &ParquetDate64;
    case BB_TYPE_INT96: return &ParquetEachValue<12>;
    case BB_TYPE_FIXED_LEN_BYTE_ARRAY:
      // The vector kernels hash the little-endian bytes of the host's
      // integers: the bytes in memory only on a little-endian host.
      if (!kBigEndian && c.width == 4) return &ParquetDirect4;
      if (!kBigEndian && c.width == 8) return &ParquetDirect8;
      if (!kBigEndian && c.width == 16) return &ParquetDirect16;
      if (c.width == 12) return &ParquetEachValue<12>;
      return &ParquetEachValue<0>;
    case BB_TYPE_BYTE_ARRAY: return &ParquetByteArray32;
    case BB_TYPE_LARGE_BYTE_ARRAY: return &ParquetByteArray64;
    default: return nullptr;  // not reached: CheckColumn knows every type
  }
}

ChunkHasher<uint32_t> KuduChunkHasher(const ColumnView& c) {
  switch (c.type) {
    case BB_TYPE_INT8: return &KuduFixed<uint8_t>;
    case BB_TYPE_INT16: return &KuduFixed<uint16_t>;
    case BB_TYPE_INT32:
    case BB_TYPE_FLOAT:
    case BB_TYPE_DATE32: return &KuduFixed<uint32_t>;
    case BB_TYPE_INT64:
    case BB_TYPE_DOUBLE:
    case BB_TYPE_TIMESTAMP: return &KuduFixed<uint64_t>;
    case BB_TYPE_DATE64: return &KuduDate64;
    case BB_TYPE_FIXED_LEN_BYTE_ARRAY: return &KuduEachValue;
    case BB_TYPE_BYTE_ARRAY: return &KuduByteArray32;
    case BB_TYPE_LARGE_BYTE_ARRAY: return &KuduByteArray64;
    // Kudu has no unsigned types, no INT96 and no time of day: a value of
    // these is compared with a Kudu column of some other type, whose bytes
    // the caller must produce (widen to INT64, say).
    default: return nullptr;
  }
}

}  // namespace blockbloom::internal
