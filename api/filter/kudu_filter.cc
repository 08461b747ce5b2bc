// SPDX-License-Identifier: Apache-2.0
// Kudu / Impala runtime-filter layout: power-of-two sizes from 64 bytes, a
// seed for the values' hashes, and an always-false state until the first
// insert (find then answers 0 without touching memory, as Kudu's does).
#include <cstdint>

#include "api/filter/bitset_memory.h"
#include "api/filter/build_ops.h"
#include "api/filter/layout_ops.h"
#include "blockbloom/kudu.h"

namespace {

// Turns a Parquet-shaped view or filter of a valid Kudu size into a Kudu one.
int MakeKudu(bb_filter* f, int status, size_t num_bytes, bool always_false, uint32_t hash_seed) {
  if (status == BB_OK) status = bb_kudu_filter_check_size(num_bytes);
  if (status != BB_OK) {
    bb_filter_release(f);
    return status;
  }
  f->layout = BB_LAYOUT_KUDU;
  f->hash_seed = hash_seed;
  if (always_false) f->flags |= BB_FILTER_ALWAYS_FALSE;
  return BB_OK;
}

}  // namespace

extern "C" {

int bb_kudu_filter_check_size(size_t num_bytes) {
  if (num_bytes == 0) return BB_ERR_SIZE_ZERO;
  if ((num_bytes & (num_bytes - 1)) != 0) return BB_ERR_NOT_POWER_OF_TWO;
  if (num_bytes < (size_t{1} << BB_KUDU_MIN_LOG_SPACE_BYTES) ||
      num_bytes > (size_t{1} << BB_KUDU_MAX_LOG_SPACE_BYTES)) {
    return BB_ERR_LOG_SPACE_OUT_OF_RANGE;
  }
  return BB_OK;
}

int bb_kudu_filter_init(bb_filter* f, int32_t log_space_bytes, uint32_t hash_seed) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  if (log_space_bytes < BB_KUDU_MIN_LOG_SPACE_BYTES || log_space_bytes > BB_KUDU_MAX_LOG_SPACE_BYTES) {
    return BB_ERR_LOG_SPACE_OUT_OF_RANGE;
  }
  const size_t num_bytes = size_t{1} << log_space_bytes;
  return MakeKudu(f, bb_filter_init(f, num_bytes), num_bytes, true, hash_seed);
}

int bb_kudu_filter_init_with_allocator(bb_filter* f, int32_t log_space_bytes, uint32_t hash_seed,
                                       const bb_allocator* allocator) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  const int status = blockbloom::internal::CheckAllocator(allocator);
  if (status != BB_OK) return status;
  if (log_space_bytes < BB_KUDU_MIN_LOG_SPACE_BYTES || log_space_bytes > BB_KUDU_MAX_LOG_SPACE_BYTES) {
    return BB_ERR_LOG_SPACE_OUT_OF_RANGE;
  }
  const size_t num_bytes = size_t{1} << log_space_bytes;
  return MakeKudu(f, bb_filter_init_with_allocator(f, num_bytes, allocator), num_bytes, true,
                  hash_seed);
}

int bb_kudu_filter_init_view(bb_filter* f, void* data, size_t num_bytes, int always_false,
                             uint32_t hash_seed) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  return MakeKudu(f, bb_filter_init_view(f, data, num_bytes), num_bytes, always_false != 0,
                  hash_seed);
}

int bb_kudu_filter_init_view_readonly(bb_filter* f, const void* data, size_t num_bytes,
                                      int always_false, uint32_t hash_seed) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  return MakeKudu(f, bb_filter_init_view_readonly(f, data, num_bytes), num_bytes,
                  always_false != 0, hash_seed);
}

int bb_kudu_insert(bb_filter* f, uint32_t hash) {
  return blockbloom::internal::InsertOp<BB_LAYOUT_KUDU>(f, hash);
}

int bb_kudu_find(const bb_filter* f, uint32_t hash) {
  return blockbloom::internal::FindOp<BB_LAYOUT_KUDU>(f, hash);
}

int bb_kudu_insert_batch(bb_filter* f, const uint32_t* hashes, size_t n) {
  return blockbloom::internal::InsertBatchOp<BB_LAYOUT_KUDU>(f, hashes, n);
}

int bb_kudu_insert_batch_partition(bb_filter* f, const uint32_t* hashes, size_t n,
                                   uint32_t part, uint32_t num_parts) {
  return blockbloom::internal::InsertBatchPartitionOp<BB_LAYOUT_KUDU>(f, hashes, n, part, num_parts);
}

int bb_kudu_partition_hashes(const bb_filter* f, const uint32_t* hashes, size_t n,
                             uint32_t num_parts, uint32_t* out, size_t* counts) {
  return blockbloom::internal::PartitionHashesOp<BB_LAYOUT_KUDU>(f, hashes, n, num_parts, out, counts);
}

int bb_kudu_build_from_hashes(bb_filter* f, const uint32_t* hashes, size_t n, uint32_t* scratch) {
  return blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_KUDU>(f, hashes, n, scratch);
}

int bb_kudu_build_from_hashes_partition(bb_filter* f, const uint32_t* hashes, size_t n,
                                        uint32_t* scratch, uint32_t part, uint32_t num_parts) {
  return blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_KUDU>(f, hashes, n, scratch, part,
                                                                 num_parts);
}

int bb_kudu_find_batch_bitmap(const bb_filter* f, const uint32_t* hashes, size_t n,
                              uint8_t* bitmap, size_t* hits) {
  return blockbloom::internal::FindBatchBitmapOp<BB_LAYOUT_KUDU>(f, hashes, n, bitmap, hits);
}

int bb_kudu_find_batch_select(const bb_filter* f, const uint32_t* hashes, size_t n,
                              uint32_t* selection, size_t* hits) {
  return blockbloom::internal::FindBatchSelectOp<BB_LAYOUT_KUDU>(f, hashes, n, selection, hits);
}

int bb_kudu_find_batch_select_from(const bb_filter* f, const uint32_t* hashes, size_t n,
                                   const uint32_t* sel_in, size_t m, uint32_t* sel_out,
                                   size_t* hits) {
  return blockbloom::internal::FindBatchSelectFromOp<BB_LAYOUT_KUDU>(f, hashes, n, sel_in, m, sel_out, hits);
}

int bb_kudu_find_batch_bitmap_and(const bb_filter* f, const uint32_t* hashes, size_t n,
                                  uint8_t* bitmap, size_t* hits) {
  return blockbloom::internal::FindBatchBitmapOp<BB_LAYOUT_KUDU, true>(f, hashes, n, bitmap, hits);
}

}  // extern "C"
