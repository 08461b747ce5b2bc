// The scalar tier: plain portable C++, the reference every other tier must
// match bit for bit. Endian-neutral: lanes are assembled from little-endian
// bytes explicitly, so it is also correct on a big-endian host.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/block_op.h"
#include "kernels/kernel_registry.h"
#include "kernels/prefetch.h"

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

#include "kernels/kernel_table-inl.h"

}  // namespace
}  // namespace scalar

const bb_kernel_table kScalarKernels = scalar::MakeKernelTable("scalar");

}  // namespace blockbloom
