// The scalar tier: plain portable C++, the reference every other tier must
// match bit for bit. Endian-neutral: lanes are assembled from little-endian
// bytes explicitly, so it is also correct on a big-endian host.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/block_op.h"
#include "kernels/kernel_registry.h"

namespace blockbloom {
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

inline uint32_t FindOne(const uint8_t* blocks, uint32_t num_blocks, uint64_t hash) {
  const uint8_t* block = blocks + kBlockBytes * ParquetBlockIndex(hash, num_blocks);
  const uint32_t key = ParquetKey(hash);
  uint32_t missing = 0;
  for (size_t lane = 0; lane < kLanesPerBlock; ++lane) {
    missing |= ~LoadLane(block + 4 * lane) & (1u << BitInLane(key, lane));
  }
  return missing == 0;
}

inline void InsertOne(uint8_t* blocks, uint32_t num_blocks, uint64_t hash) {
  uint8_t* block = blocks + kBlockBytes * ParquetBlockIndex(hash, num_blocks);
  const uint32_t key = ParquetKey(hash);
  for (size_t lane = 0; lane < kLanesPerBlock; ++lane) {
    StoreLane(block + 4 * lane, LoadLane(block + 4 * lane) | (1u << BitInLane(key, lane)));
  }
}

#include "kernels/batch_loops-inl.h"

int Find(const uint8_t* blocks, uint32_t num_blocks, uint64_t hash) {
  return static_cast<int>(FindOne(blocks, num_blocks, hash));
}

}  // namespace
}  // namespace scalar

const bb_kernel_table kScalarKernels = {
    "scalar",
    &scalar::InsertOne,
    &scalar::Find,
    &scalar::InsertBatch,
    &scalar::FindBatchBitmap,
    &scalar::FindBatchSelect,
};

}  // namespace blockbloom
