// SPDX-License-Identifier: Apache-2.0
#include "src/filter/huge_page_map.h"

#include <sys/mman.h>

namespace blockbloom::internal {
namespace {

constexpr std::size_t kPage = 4096;

std::size_t PageRounded(std::size_t num_bytes) { return (num_bytes + kPage - 1) & ~(kPage - 1); }

}  // namespace

uint8_t* MapHugePageAligned(std::size_t num_bytes) {
  if (num_bytes == 0 || num_bytes > SIZE_MAX - 2 * kHugePage) return nullptr;
  const std::size_t span = num_bytes + kHugePage;
  void* p = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t aligned = (start + kHugePage - 1) & ~std::uintptr_t{kHugePage - 1};
  // Give back the slack on both sides, keeping [aligned, aligned + num_bytes).
  if (aligned > start) munmap(p, aligned - start);
  const std::uintptr_t end = start + span;
  const std::uintptr_t used_end = aligned + PageRounded(num_bytes);
  if (end > used_end) munmap(reinterpret_cast<void*>(used_end), end - used_end);
  // Advice only: where the OS has no THP the memory simply uses 4 KiB pages.
  madvise(reinterpret_cast<void*>(aligned), num_bytes, MADV_HUGEPAGE);
  return reinterpret_cast<uint8_t*>(aligned);
}

void UnmapHugePageAligned(void* data, std::size_t num_bytes) {
  if (data != nullptr) munmap(data, PageRounded(num_bytes));
}

}  // namespace blockbloom::internal
