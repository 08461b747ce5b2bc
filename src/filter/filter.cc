// SPDX-License-Identifier: Apache-2.0
// Parquet-layout filters: creation, views and release (their operations'
// entry points, both layouts', are in filter_ops.cc).
#include <cstdint>

#include "src/filter/bitset_memory.h"
#include "blockbloom/blockbloom.h"

namespace {

int InitView(bb_filter* f, const void* data, size_t num_bytes, uint32_t flags) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  if (data == nullptr) return BB_ERR_NULL_POINTER;
  const int status = bb_filter_check_size(num_bytes);
  if (status != BB_OK) return status;
  // Read-only views drop const here but every write path checks the flag.
  f->data = static_cast<uint8_t*>(const_cast<void*>(data));
  f->num_bytes = num_bytes;
  f->num_blocks = static_cast<uint32_t>(num_bytes / BB_BLOCK_BYTES);
  f->flags = flags;
  return BB_OK;
}

}  // namespace

extern "C" {

int bb_filter_check_size(size_t num_bytes) {
  if (num_bytes == 0) return BB_ERR_SIZE_ZERO;
  if (num_bytes % BB_BLOCK_BYTES != 0) return BB_ERR_SIZE_NOT_MULTIPLE_OF_32;
  if (num_bytes / BB_BLOCK_BYTES > BB_MAX_BLOCKS) return BB_ERR_TOO_MANY_BLOCKS;
  return BB_OK;
}

int bb_filter_init(bb_filter* f, size_t num_bytes) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  return blockbloom::internal::InitOwnedFilter(f, num_bytes, nullptr, true);
}

int bb_filter_init_with_allocator(bb_filter* f, size_t num_bytes, const bb_allocator* allocator) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  const int status = blockbloom::internal::CheckAllocator(allocator);
  if (status != BB_OK) return status;
  return blockbloom::internal::InitOwnedFilter(f, num_bytes, allocator, true);
}

int bb_filter_init_view(bb_filter* f, void* data, size_t num_bytes) {
  return InitView(f, data, num_bytes, 0);
}

int bb_filter_init_view_readonly(bb_filter* f, const void* data, size_t num_bytes) {
  return InitView(f, data, num_bytes, BB_FILTER_READ_ONLY);
}

void bb_filter_release(bb_filter* f) {
  if (f == nullptr) return;
  if ((f->flags & BB_FILTER_OWNED) != 0) blockbloom::internal::FreeBitset(f->allocator, f->data, f->num_bytes);
  *f = bb_filter{};
}

}  // extern "C"
