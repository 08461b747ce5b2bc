// SPDX-License-Identifier: Apache-2.0
#include "src/filter/bitset_memory.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "src/filter/huge_page_map.h"
#include "blockbloom/blockbloom.h"

namespace blockbloom::internal {
namespace {

// Below this the heap is cheaper than a system call per filter.
constexpr std::size_t kMmapThreshold = std::size_t{1} << 20;

// The default allocator.
uint8_t* AllocateDefault(std::size_t num_bytes, bool zeroed) {
  if (num_bytes >= kHugePage) return MapHugePageAligned(num_bytes);
  if (num_bytes >= kMmapThreshold) {
    // Page-aligned, so 64-byte aligned too.
    void* p = mmap(nullptr, num_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
  }
  // aligned_alloc wants a multiple of the alignment.
  const std::size_t padded = (num_bytes + BB_ALLOC_ALIGNMENT - 1) / BB_ALLOC_ALIGNMENT * BB_ALLOC_ALIGNMENT;
  void* p = std::aligned_alloc(BB_ALLOC_ALIGNMENT, padded);
  if (p != nullptr && zeroed) std::memset(p, 0, num_bytes);
  return static_cast<uint8_t*>(p);
}

void FreeDefault(uint8_t* data, std::size_t num_bytes) {
  if (num_bytes >= kMmapThreshold) {
    munmap(data, num_bytes);
  } else {
    std::free(data);
  }
}

}  // namespace

int CheckAllocator(const bb_allocator* allocator) {
  if (allocator == nullptr) return BB_ERR_NULL_POINTER;
  if (allocator->allocate == nullptr || allocator->deallocate == nullptr) {
    return BB_ERR_INVALID_ALLOCATOR;
  }
  return BB_OK;
}

int AllocateBitset(const bb_allocator* allocator, std::size_t num_bytes, bool zeroed,
                   uint8_t** data) {
  if (allocator == nullptr) {
    uint8_t* p = AllocateDefault(num_bytes, zeroed);
    if (p == nullptr) return BB_ERR_OUT_OF_MEMORY;
    *data = p;
    return BB_OK;
  }
  void* p = allocator->allocate(allocator->ctx, num_bytes, BB_ALLOC_ALIGNMENT);
  if (p == nullptr) return BB_ERR_OUT_OF_MEMORY;
  // The kernels would work at any address, but the cache-line alignment is
  // what bb_filter_init promises (and what makes no block straddle a line).
  if (reinterpret_cast<std::uintptr_t>(p) % BB_ALLOC_ALIGNMENT != 0) {
    allocator->deallocate(allocator->ctx, p, num_bytes);
    return BB_ERR_ALLOCATOR_MISALIGNED;
  }
  if (zeroed) std::memset(p, 0, num_bytes);
  *data = static_cast<uint8_t*>(p);
  return BB_OK;
}

void FreeBitset(const bb_allocator* allocator, uint8_t* data, std::size_t num_bytes) {
  if (data == nullptr) return;
  if (allocator == nullptr) {
    FreeDefault(data, num_bytes);
  } else {
    allocator->deallocate(allocator->ctx, data, num_bytes);
  }
}

int InitOwnedFilter(bb_filter* f, std::size_t num_bytes, const bb_allocator* allocator,
                    bool zeroed) {
  int status = bb_filter_check_size(num_bytes);
  if (status != BB_OK) return status;
  uint8_t* data = nullptr;
  status = AllocateBitset(allocator, num_bytes, zeroed, &data);
  if (status != BB_OK) return status;
  *f = bb_filter{};
  f->data = data;
  f->num_bytes = num_bytes;
  f->num_blocks = static_cast<uint32_t>(num_bytes / BB_BLOCK_BYTES);
  f->flags = BB_FILTER_OWNED;
  f->allocator = allocator;
  return BB_OK;
}

}  // namespace blockbloom::internal
