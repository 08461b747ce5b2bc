// SPDX-License-Identifier: Apache-2.0
// The one mapping of large buffers on 2 MiB boundaries, offered to
// transparent huge pages: with 4 KiB pages nearly every random probe of a
// large filter (or of join-demo's hash table) also misses the TLB, and the
// page walk costs as much as the cache miss. The default bitset allocator
// uses it; tools reach it through src/tools_interface.h.
#ifndef BLOCKBLOOM_FILTER_HUGE_PAGE_MAP_H_
#define BLOCKBLOOM_FILTER_HUGE_PAGE_MAP_H_

#include <cstddef>
#include <cstdint>

namespace blockbloom::internal {

// The huge page size the mapping aligns to.
constexpr std::size_t kHugePage = std::size_t{2} << 20;

// Zeroed, private, anonymous memory of num_bytes starting on a kHugePage
// boundary (the slack of the over-sized mapping is given back), with
// MADV_HUGEPAGE advised; nullptr if the mapping fails. Free it with
// UnmapHugePageAligned(p, num_bytes).
uint8_t* MapHugePageAligned(std::size_t num_bytes);
void UnmapHugePageAligned(void* data, std::size_t num_bytes);

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_FILTER_HUGE_PAGE_MAP_H_
