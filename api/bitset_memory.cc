#include "api/bitset_memory.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>

#include "blockbloom/blockbloom.h"

namespace blockbloom {
namespace {

// Below this the heap is cheaper than a system call per filter.
constexpr std::size_t kMmapThreshold = std::size_t{1} << 20;

}  // namespace

uint8_t* AllocateZeroedBitset(std::size_t num_bytes) {
  if (num_bytes >= kMmapThreshold) {
    // Page-aligned, so 64-byte aligned too.
    void* p = mmap(nullptr, num_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
  }
  // aligned_alloc wants a multiple of the alignment.
  const std::size_t padded = (num_bytes + BB_ALLOC_ALIGNMENT - 1) / BB_ALLOC_ALIGNMENT * BB_ALLOC_ALIGNMENT;
  void* p = std::aligned_alloc(BB_ALLOC_ALIGNMENT, padded);
  if (p != nullptr) std::memset(p, 0, num_bytes);
  return static_cast<uint8_t*>(p);
}

void FreeBitset(uint8_t* data, std::size_t num_bytes) {
  if (data == nullptr) return;
  if (num_bytes >= kMmapThreshold) {
    munmap(data, num_bytes);
  } else {
    std::free(data);
  }
}

}  // namespace blockbloom
