// The split block Bloom filter block operation: the one definition every ISA
// tier uses. Constants and formulas are those of the Parquet spec
// (BloomFilter.md), Impala and Kudu; see ../shared/design/facts.md.
#ifndef BLOCKBLOOM_KERNELS_BLOCK_OP_H_
#define BLOCKBLOOM_KERNELS_BLOCK_OP_H_

#include <cstddef>
#include <cstdint>

namespace blockbloom {

inline constexpr std::size_t kBlockBytes = 32;
inline constexpr std::size_t kLanesPerBlock = 8;

// Lane i of a block gets the bit picked by the top 5 bits of key * kSalts[i].
// The order matters: it is the order that reproduces real Parquet files (one
// public library packs these pairwise swapped and is not byte-compatible).
alignas(32) inline constexpr std::uint32_t kSalts[kLanesPerBlock] = {
    0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
    0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

// Parquet layout: the upper 32 bits of the hash pick the block by a
// multiply-shift (fair for any block count, not only powers of two) ...
constexpr std::uint32_t ParquetBlockIndex(std::uint64_t hash, std::uint32_t num_blocks) {
  return static_cast<std::uint32_t>(((hash >> 32) * num_blocks) >> 32);
}

// ... and the lower 32 bits are the key from which the 8 bits are derived.
constexpr std::uint32_t ParquetKey(std::uint64_t hash) {
  return static_cast<std::uint32_t>(hash);
}

// Bit position (0..31) within lane `lane` for `key`.
constexpr std::uint32_t BitInLane(std::uint32_t key, std::size_t lane) {
  return static_cast<std::uint32_t>(key * kSalts[lane]) >> 27;
}

}  // namespace blockbloom

#endif  // BLOCKBLOOM_KERNELS_BLOCK_OP_H_
