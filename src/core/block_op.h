// SPDX-License-Identifier: Apache-2.0
// The split block Bloom filter block operation: the one definition every ISA
// tier uses. Constants and formulas are those of the Parquet spec
// (BloomFilter.md), Impala and Kudu, written out in docs/formats.md ("The
// block", "Two ways to choose the block").
#ifndef BLOCKBLOOM_CORE_BLOCK_OP_H_
#define BLOCKBLOOM_CORE_BLOCK_OP_H_

#include <cstddef>
#include <cstdint>

namespace blockbloom::internal {

inline constexpr std::size_t kBlockBytes = 32;
inline constexpr std::size_t kLanesPerBlock = 8;

// Lane i of a block gets the bit picked by the top 5 bits of key * kSalts[i].
// The order matters: it is the order that reproduces real Parquet files (one
// public library packs these pairwise swapped and is not byte-compatible).
alignas(32) inline constexpr std::uint32_t kSalts[kLanesPerBlock] = {
    0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
    0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

// Bit position (0..31) within lane `lane` for `key`.
constexpr std::uint32_t BitInLane(std::uint32_t key, std::size_t lane) {
  return static_cast<std::uint32_t>(key * kSalts[lane]) >> 27;
}

// For each byte value b: the positions of its set bits, lowest first, then
// zeros: what a find result byte turns into as a selection vector
// (first + kHitPositions[b][k] is the k-th hit of the 8 keys from first).
struct HitPositionTable {
  std::uint8_t positions[256][8];
  constexpr HitPositionTable() : positions() {
    for (unsigned b = 0; b < 256; ++b) {
      unsigned k = 0;
      for (unsigned j = 0; j < 8; ++j) {
        if ((b >> j) & 1u) positions[b][k++] = static_cast<std::uint8_t>(j);
      }
    }
  }
};
alignas(64) inline constexpr HitPositionTable kHitPositionTable{};
inline constexpr const std::uint8_t (&kHitPositions)[256][8] = kHitPositionTable.positions;

// rows[j] for each set bit j of byte, in order, to out[0 .. popcount), by
// the table: eight independent loads and stores, not a chain through the
// hit count. Writes all 8 entries (rows[0] past the hits); returns the
// popcount. The portable AppendHitRows8 of the tiers without an 8-lane
// permute.
inline std::size_t AppendHitRowsByTable(std::uint32_t* out, const std::uint32_t* rows,
                                        std::uint32_t byte) {
  const std::uint8_t* positions = kHitPositions[byte & 0xff];
  for (std::size_t k = 0; k < 8; ++k) out[k] = rows[positions[k]];
  return static_cast<std::size_t>(__builtin_popcount(byte & 0xff));
}

// A layout says which block a hash goes to and which key sets its bits.

// Parquet SBBF: the upper 32 bits of a 64-bit hash pick the block by a
// multiply-shift (fair for any block count, not only powers of two); the
// lower 32 bits are the key.
struct ParquetLayout {
  using Hash = std::uint64_t;
  static constexpr std::uint32_t Block(Hash hash, std::uint32_t num_blocks) {
    return static_cast<std::uint32_t>(((hash >> 32) * num_blocks) >> 32);
  }
  static constexpr std::uint32_t Key(Hash hash) { return static_cast<std::uint32_t>(hash); }
};

// Kudu / Impala runtime filter: a 32-bit hash is rehashed to pick one of a
// power-of-two number of blocks, and is itself the key.
struct KuduLayout {
  using Hash = std::uint32_t;
  // The rehash is the high half of hash * kRehashMul + kRehashAdd (mod 2^64).
  static constexpr std::uint64_t kRehashMul = 0x7850f11ec6d14889ull;
  static constexpr std::uint64_t kRehashAdd = 0x6773610597ca4c63ull;
  static constexpr std::uint32_t Rehash32to32(Hash hash) {
    return static_cast<std::uint32_t>((std::uint64_t{hash} * kRehashMul + kRehashAdd) >> 32);
  }
  static constexpr std::uint32_t Block(Hash hash, std::uint32_t num_blocks) {
    return Rehash32to32(hash) & (num_blocks - 1);
  }
  static constexpr std::uint32_t Key(Hash hash) { return hash; }
};


// A multi-threaded build splits the blocks into num_parts ranges of equal
// size (within one block): part p holds blocks [PartFirstBlock(p),
// PartFirstBlock(p + 1)), from 0 to num_blocks. The one definition of the
// parts, for the partitioned insert and the radix partition of hashes.
constexpr std::uint32_t PartFirstBlock(std::uint32_t part, std::uint32_t num_parts,
                                       std::uint32_t num_blocks) {
  return static_cast<std::uint32_t>(std::uint64_t{num_blocks} * part / num_parts);
}

// Whether a block's byte offset lies in a part's [first, end): one unsigned
// compare (an offset below first wraps to a large difference). The range
// test of the radix partition, on every tier.
constexpr bool InByteRange(std::uint64_t offset, std::uint64_t first, std::uint64_t end) {
  return offset - first < end - first;
}

// Which part a block lies in, for 1 <= num_parts <= num_blocks, without a
// division per block. Block b lies in the largest part p whose first block
// is <= b, i.e. with floor(p * z / T) <= b, i.e. p * z < (b + 1) * T (z
// blocks, T parts). The estimate q = (b * R) >> 32, R = (T * 2^32 - 1) / z
// (< 2^32 since T <= z), is at most p and at least p - 2 (R / 2^32 is
// T / z less under 1 / z, so q >= floor(b * T / z) - 1, and p <= floor(b *
// T / z) + 1 as T / z <= 1); two exact tests of that inequality add what it
// lacks. Every product fits 64 bits (b < 2^31, T <= z < 2^31).
class PartLocator {
 public:
  constexpr PartLocator(std::uint32_t num_parts, std::uint32_t num_blocks)
      : num_parts_(num_parts), num_blocks_(num_blocks),
        reciprocal_(((std::uint64_t{num_parts} << 32) - 1) / num_blocks) {}

  constexpr std::uint32_t Part(std::uint32_t block) const {
    std::uint64_t q = (block * reciprocal_) >> 32;
    const std::uint64_t limit = (std::uint64_t{block} + 1) * num_parts_;
    q += static_cast<std::uint64_t>((q + 1) * num_blocks_ < limit);
    q += static_cast<std::uint64_t>((q + 1) * num_blocks_ < limit);
    return static_cast<std::uint32_t>(q);
  }

  // The constants of Part, for the tiers that compute it a vector at a time.
  constexpr std::uint32_t num_parts() const { return static_cast<std::uint32_t>(num_parts_); }
  constexpr std::uint32_t num_blocks() const { return static_cast<std::uint32_t>(num_blocks_); }
  constexpr std::uint32_t reciprocal() const { return static_cast<std::uint32_t>(reciprocal_); }

 private:
  std::uint64_t num_parts_;
  std::uint64_t num_blocks_;
  std::uint64_t reciprocal_;
};

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_CORE_BLOCK_OP_H_
