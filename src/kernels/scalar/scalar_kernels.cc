// SPDX-License-Identifier: Apache-2.0
// The scalar tier: plain portable C++, the reference every other tier must
// match bit for bit. Endian-neutral: lanes are assembled from little-endian
// bytes explicitly, so it is also correct on a big-endian host.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "src/core/block_op.h"
#include "src/kernels/kernel_registry.h"
#include "src/kernels/prefetch.h"
#include "src/core/fasthash_bytes.h"
#include "src/core/xxh64_bytes.h"
#include "src/core/xxh64_op.h"

namespace blockbloom::internal {
namespace scalar {
namespace {

inline uint32_t LoadLane(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}

inline void StoreLane(uint8_t* p, uint32_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  std::memcpy(p, &v, sizeof v);
}

inline uint32_t FindInBlock(const uint8_t* block, uint32_t key) {
  uint32_t missing = 0;
  for (size_t lane = 0; lane < kLanesPerBlock; ++lane) {
    missing |= ~LoadLane(block + 4 * lane) & (1u << BitInLane(key, lane));
  }
  return missing == 0;
}

inline void InsertIntoBlock(uint8_t* block, uint32_t key) {
  for (size_t lane = 0; lane < kLanesPerBlock; ++lane) {
    StoreLane(block + 4 * lane, LoadLane(block + 4 * lane) | (1u << BitInLane(key, lane)));
  }
}

// What the batch loops build on (the tier contract: src/kernels/kernel_table-inl.h).
inline constexpr bool kFindSetsCarry = false;
// Without prefetching, the block index is computed in the per-key loop
// (measured no slower than an offset array first: docs/benchmarks.md).
inline constexpr bool kOffsetsInline = true;
#define BLOCKBLOOM_INSERT_UNROLL_COUNT 4

// The table of bit positions (block_op.h): eight independent stores, not a
// chain through the hit count.
inline size_t AppendHitIndices8(uint32_t* out, uint32_t first, uint32_t byte) {
  const uint8_t* positions = kHitPositions[byte & 0xff];
  for (size_t k = 0; k < 8; ++k) out[k] = first + positions[k];
  return static_cast<size_t>(__builtin_popcount(byte & 0xff));
}

inline size_t AppendHitRows8(uint32_t* out, const uint32_t* rows, uint32_t byte) {
  return AppendHitRowsByTable(out, rows, byte);
}

template <class Layout>
inline void LayoutBlockOffsets(const typename Layout::Hash* hashes, size_t n, uint32_t num_blocks,
                               uint64_t* offsets) {
  for (size_t i = 0; i < n; ++i) offsets[i] = uint64_t{kBlockBytes} * Layout::Block(hashes[i], num_blocks);
}

inline void BlockOffsets(const uint64_t* hashes, size_t n, uint32_t num_blocks, uint64_t* offsets) {
  LayoutBlockOffsets<ParquetLayout>(hashes, n, num_blocks, offsets);
}

inline void BlockOffsets(const uint32_t* hashes, size_t n, uint32_t num_blocks, uint64_t* offsets) {
  LayoutBlockOffsets<KuduLayout>(hashes, n, num_blocks, offsets);
}

// The radix partition's range tests (partition_loops-inl.h), a key at a time.
inline size_t CountInRange(const uint64_t* offsets, size_t n, uint64_t first, uint64_t end) {
  size_t count = 0;
  for (size_t i = 0; i < n; ++i) count += static_cast<size_t>(InByteRange(offsets[i], first, end));
  return count;
}

// The part of each key from its block offset (the scatter of many parts).
inline void PartsOfOffsets(const PartLocator& locate, const uint64_t* offsets, size_t n,
                           uint32_t* parts) {
  for (size_t i = 0; i < n; ++i) parts[i] = locate.Part(static_cast<uint32_t>(offsets[i] / kBlockBytes));
}

// The scatter's full output lines (plain stores: no portable streaming store).
inline void StreamLine(void* dst, const void* src) { std::memcpy(dst, src, 64); }
inline void EndStreams() {}

// Branch-free: every key is written to the next free place and the cursor
// advances only for the part's own (a branch would mispredict as often as
// keys are foreign); once the part is full the rest go to a spare slot.
template <class Hash>
inline size_t CompressInRange(const Hash* hashes, const uint64_t* offsets, size_t n, uint64_t first,
                              uint64_t end, Hash* out, Hash* out_end) {
  const auto room = static_cast<size_t>(out_end - out);
  Hash spare;
  size_t count = 0;
  for (size_t i = 0; i < n; ++i) {
    *(count < room ? out + count : &spare) = hashes[i];
    count += static_cast<size_t>(InByteRange(offsets[i], first, end));
  }
  return count;
}

// Byte order does not matter to OR and AND: whole words, copied in and out.
inline void UnionBytes(uint8_t* dst, const uint8_t* src, size_t num_bytes) {
  for (size_t i = 0; i < num_bytes; i += sizeof(uint64_t)) {
    uint64_t a, b;
    std::memcpy(&a, dst + i, sizeof a);
    std::memcpy(&b, src + i, sizeof b);
    a |= b;
    std::memcpy(dst + i, &a, sizeof a);
  }
}

inline void IntersectBytes(uint8_t* dst, const uint8_t* src, size_t num_bytes) {
  for (size_t i = 0; i < num_bytes; i += sizeof(uint64_t)) {
    uint64_t a, b;
    std::memcpy(&a, dst + i, sizeof a);
    std::memcpy(&b, src + i, sizeof b);
    a &= b;
    std::memcpy(dst + i, &a, sizeof a);
  }
}

inline uint32_t MaxU32(const uint32_t* values, size_t n) {
  uint32_t max = 0;
  for (size_t i = 0; i < n; ++i) max = values[i] > max ? values[i] : max;
  return max;
}

// Parquet's hash of 8- and 4-byte values, one at a time. Each value is
// loaded in the host's byte order: its little-endian bytes, which are what
// is hashed, encode that same number (xxh64_op.h), so no swap on any host.
inline void ParquetHash8Byte(const void* values, size_t n, uint64_t* hashes) {
  const uint8_t* bytes = static_cast<const uint8_t*>(values);
  for (size_t i = 0; i < n; ++i) {
    uint64_t v;
    std::memcpy(&v, bytes + 8 * i, sizeof v);
    hashes[i] = xxh64::Hash8(v);
  }
}

inline void ParquetHash4Byte(const void* values, size_t n, uint64_t* hashes) {
  const uint8_t* bytes = static_cast<const uint8_t*>(values);
  for (size_t i = 0; i < n; ++i) {
    uint32_t v;
    std::memcpy(&v, bytes + 4 * i, sizeof v);
    hashes[i] = xxh64::Hash4(v);
  }
}

// Two native words per value: its 16 bytes read little-endian on the
// little-endian hosts the 16-byte kernel is used on (src/columns/column_hashers.cc).
inline void ParquetHash16Byte(const void* values, size_t n, uint64_t* hashes) {
  const uint8_t* bytes = static_cast<const uint8_t*>(values);
  for (size_t i = 0; i < n; ++i) {
    uint64_t words[2];
    std::memcpy(words, bytes + 16 * i, sizeof words);
    hashes[i] = xxh64::Hash16(words[0], words[1]);
  }
}

// Byte arrays: the branch-free short-string path of xxh64_bytes.h.
inline void ParquetHashByteArray32(const uint8_t* data, size_t data_len, const void* offsets,
                                   size_t n, uint64_t* hashes) {
  xxh64::HashByteArrays<int32_t>(data, data_len, static_cast<const uint8_t*>(offsets), 0, n, hashes);
}

inline void ParquetHashByteArray64(const uint8_t* data, size_t data_len, const void* offsets,
                                   size_t n, uint64_t* hashes) {
  xxh64::HashByteArrays<int64_t>(data, data_len, static_cast<const uint8_t*>(offsets), 0, n, hashes);
}

// Kudu's FastHash32 of byte arrays: the branch-free short-cell path of
// fasthash_bytes.h.
inline void KuduHashByteArray32(const uint8_t* data, size_t data_len, const void* offsets, size_t n,
                                uint32_t seed, uint32_t* hashes) {
  KuduHashByteArrays<int32_t>(data, data_len, static_cast<const uint8_t*>(offsets), 0, n, seed, hashes);
}

inline void KuduHashByteArray64(const uint8_t* data, size_t data_len, const void* offsets, size_t n,
                                uint32_t seed, uint32_t* hashes) {
  KuduHashByteArrays<int64_t>(data, data_len, static_cast<const uint8_t*>(offsets), 0, n, seed, hashes);
}

inline int OffsetsOrdered32(const void* offsets, size_t n) {
  return xxh64::OffsetsNonDecreasing<int32_t>(static_cast<const uint8_t*>(offsets), 0, n) ? 1 : 0;
}

inline int OffsetsOrdered64(const void* offsets, size_t n) {
  return xxh64::OffsetsNonDecreasing<int64_t>(static_cast<const uint8_t*>(offsets), 0, n) ? 1 : 0;
}

#include "src/kernels/kernel_table-inl.h"

}  // namespace
}  // namespace scalar

const bbi_kernel_table kScalarKernels = scalar::MakeKernelTable(IsaName(Isa::kScalar));

}  // namespace blockbloom::internal
