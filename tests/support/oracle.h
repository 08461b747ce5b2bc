// SPDX-License-Identifier: Apache-2.0
// An independent oracle for the Parquet split block Bloom filter, written
// straight from the formulas (docs/formats.md, "The block") and deliberately
// unlike the kernels: it works on single bits of a byte array and shares no
// code or constants with src/kernels/. If a kernel and the oracle agree, both
// match the format.
#ifndef BLOCKBLOOM_TESTS_ORACLE_H_
#define BLOCKBLOOM_TESTS_ORACLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tools/common/splitmix64.h"

namespace oracle {

// The 8 salts as the Parquet spec lists them, lane 0 first.
inline const uint32_t kSalt[8] = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
                                  0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31};

// Byte and bit (within that byte) of lane `lane`'s bit for `key` in block
// `block`. Lanes are little-endian uint32 at 32*b + 4*i, so bit j of a lane
// is bit j%8 of byte j/8 of the lane.
inline void LaneBit(uint64_t block, uint32_t key, int lane, size_t* byte, int* bit) {
  const uint32_t product = static_cast<uint32_t>(static_cast<uint64_t>(key) * kSalt[lane]);
  const int j = static_cast<int>(product >> 27);
  *byte = static_cast<size_t>(block * 32 + static_cast<uint64_t>(lane) * 4 + static_cast<uint64_t>(j / 8));
  *bit = j % 8;
}

inline void SetBits(std::vector<uint8_t>& bytes, uint64_t block, uint32_t key) {
  for (int lane = 0; lane < 8; ++lane) {
    size_t byte;
    int bit;
    LaneBit(block, key, lane, &byte, &bit);
    bytes[byte] = static_cast<uint8_t>(bytes[byte] | (1u << bit));
  }
}

inline bool HasBits(const std::vector<uint8_t>& bytes, uint64_t block, uint32_t key) {
  for (int lane = 0; lane < 8; ++lane) {
    size_t byte;
    int bit;
    LaneBit(block, key, lane, &byte, &bit);
    if (((bytes[byte] >> bit) & 1) == 0) return false;
  }
  return true;
}

// Parquet layout: the upper half of the 64-bit hash picks the block, the
// lower half is the key.
inline uint64_t ParquetBlock(uint64_t h, uint64_t blocks) { return ((h >> 32) * blocks) >> 32; }
inline uint32_t ParquetKey(uint64_t h) { return static_cast<uint32_t>(h & 0xffffffffu); }

inline void BitPosition(uint64_t h, uint64_t blocks, int lane, size_t* byte, int* bit) {
  LaneBit(ParquetBlock(h, blocks), ParquetKey(h), lane, byte, bit);
}

inline void Insert(std::vector<uint8_t>& bytes, uint64_t h) {
  SetBits(bytes, ParquetBlock(h, bytes.size() / 32), ParquetKey(h));
}

inline bool Find(const std::vector<uint8_t>& bytes, uint64_t h) {
  return HasBits(bytes, ParquetBlock(h, bytes.size() / 32), ParquetKey(h));
}

// Kudu layout: block Rehash32to32(h) mod a power-of-two block count; the
// 32-bit hash is the key. Written from the formula in facts.md.
inline uint64_t KuduBlock(uint32_t h, uint64_t blocks) {
  const uint64_t rehashed = (static_cast<uint64_t>(h) * 0x7850f11ec6d14889ull + 0x6773610597ca4c63ull) >> 32;
  return (rehashed & 0xffffffffu) % blocks;
}

inline void KuduInsert(std::vector<uint8_t>& bytes, uint32_t h) {
  SetBits(bytes, KuduBlock(h, bytes.size() / 32), h);
}

inline bool KuduFind(const std::vector<uint8_t>& bytes, uint32_t h) {
  return HasBits(bytes, KuduBlock(h, bytes.size() / 32), h);
}

// A fixed, well-mixed stream of test hashes from a seed (SplitMix64).
inline std::vector<uint64_t> Hashes(uint64_t seed, size_t n) {
  std::vector<uint64_t> out(n);
  blockbloom_tools::SplitMix64 rng(seed);
  for (uint64_t& h : out) h = rng.Next();
  return out;
}

// 32-bit hashes for the Kudu layout, from the same stream.
inline std::vector<uint32_t> Hashes32(uint64_t seed, size_t n) {
  std::vector<uint32_t> out;
  for (uint64_t h : Hashes(seed, n)) out.push_back(static_cast<uint32_t>(h >> 16));
  return out;
}

}  // namespace oracle

#endif  // BLOCKBLOOM_TESTS_ORACLE_H_
