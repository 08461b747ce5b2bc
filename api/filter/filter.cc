// SPDX-License-Identifier: Apache-2.0
// Parquet-layout filters: creation, views, release, and the operations
// (written once for both layouts in layout_ops.h). Kernels never see invalid
// input.
#include <cstdint>

#include "api/filter/bitset_memory.h"
#include "api/filter/build_ops.h"
#include "api/filter/layout_ops.h"
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

int bb_insert(bb_filter* f, uint64_t hash) {
  return blockbloom::internal::InsertOp<BB_LAYOUT_PARQUET>(f, hash);
}

int bb_find(const bb_filter* f, uint64_t hash) {
  return blockbloom::internal::FindOp<BB_LAYOUT_PARQUET>(f, hash);
}

int bb_insert_batch(bb_filter* f, const uint64_t* hashes, size_t n) {
  return blockbloom::internal::InsertBatchOp<BB_LAYOUT_PARQUET>(f, hashes, n);
}

int bb_insert_batch_partition(bb_filter* f, const uint64_t* hashes, size_t n, uint32_t part,
                              uint32_t num_parts) {
  return blockbloom::internal::InsertBatchPartitionOp<BB_LAYOUT_PARQUET>(f, hashes, n, part, num_parts);
}

int bb_partition_hashes(const bb_filter* f, const uint64_t* hashes, size_t n, uint32_t num_parts,
                        uint64_t* out, size_t* counts) {
  return blockbloom::internal::PartitionHashesOp<BB_LAYOUT_PARQUET>(f, hashes, n, num_parts, out, counts);
}

int bb_build_from_hashes(bb_filter* f, const uint64_t* hashes, size_t n, uint64_t* scratch) {
  return blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_PARQUET>(f, hashes, n, scratch);
}

int bb_build_from_hashes_partition(bb_filter* f, const uint64_t* hashes, size_t n, uint64_t* scratch,
                                   uint32_t part, uint32_t num_parts) {
  return blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_PARQUET>(f, hashes, n, scratch, part,
                                                                    num_parts);
}

int bb_find_batch_bitmap(const bb_filter* f, const uint64_t* hashes, size_t n, uint8_t* bitmap,
                         size_t* hits) {
  return blockbloom::internal::FindBatchBitmapOp<BB_LAYOUT_PARQUET>(f, hashes, n, bitmap, hits);
}

int bb_find_batch_select(const bb_filter* f, const uint64_t* hashes, size_t n,
                         uint32_t* selection, size_t* hits) {
  return blockbloom::internal::FindBatchSelectOp<BB_LAYOUT_PARQUET>(f, hashes, n, selection, hits);
}

int bb_find_batch_select_from(const bb_filter* f, const uint64_t* hashes, size_t n,
                              const uint32_t* sel_in, size_t m, uint32_t* sel_out, size_t* hits) {
  return blockbloom::internal::FindBatchSelectFromOp<BB_LAYOUT_PARQUET>(f, hashes, n, sel_in, m, sel_out,
                                                              hits);
}

int bb_find_batch_bitmap_and(const bb_filter* f, const uint64_t* hashes, size_t n, uint8_t* bitmap,
                             size_t* hits) {
  return blockbloom::internal::FindBatchBitmapOp<BB_LAYOUT_PARQUET, true>(f, hashes, n, bitmap, hits);
}

}  // extern "C"
