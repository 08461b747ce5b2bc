// SPDX-License-Identifier: Apache-2.0
// The C entry points of the filter operations, each Parquet one beside its
// Kudu twin: one line each into the operation written once for both layouts
// (layout_ops.h, build_ops.h), which checks the arguments before the kernel
// runs. A new operation adds its pair here.
#include <cstddef>
#include <cstdint>

#include "src/filter/build_ops.h"
#include "src/filter/layout_ops.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/kudu.h"

extern "C" {

int bb_insert(bb_filter* f, uint64_t hash) {
  return blockbloom::internal::InsertOp<BB_LAYOUT_PARQUET>(f, hash);
}

int bb_kudu_insert(bb_filter* f, uint32_t hash) {
  return blockbloom::internal::InsertOp<BB_LAYOUT_KUDU>(f, hash);
}

int bb_find(const bb_filter* f, uint64_t hash) {
  return blockbloom::internal::FindOp<BB_LAYOUT_PARQUET>(f, hash);
}

int bb_kudu_find(const bb_filter* f, uint32_t hash) {
  return blockbloom::internal::FindOp<BB_LAYOUT_KUDU>(f, hash);
}

int bb_insert_batch(bb_filter* f, const uint64_t* hashes, size_t n) {
  return blockbloom::internal::InsertBatchOp<BB_LAYOUT_PARQUET>(f, hashes, n);
}

int bb_kudu_insert_batch(bb_filter* f, const uint32_t* hashes, size_t n) {
  return blockbloom::internal::InsertBatchOp<BB_LAYOUT_KUDU>(f, hashes, n);
}

int bb_insert_batch_partition(bb_filter* f, const uint64_t* hashes, size_t n, uint32_t part,
                              uint32_t num_parts) {
  return blockbloom::internal::InsertBatchPartitionOp<BB_LAYOUT_PARQUET>(f, hashes, n, part, num_parts);
}

int bb_kudu_insert_batch_partition(bb_filter* f, const uint32_t* hashes, size_t n,
                                   uint32_t part, uint32_t num_parts) {
  return blockbloom::internal::InsertBatchPartitionOp<BB_LAYOUT_KUDU>(f, hashes, n, part, num_parts);
}

int bb_partition_hashes(const bb_filter* f, const uint64_t* hashes, size_t n, uint32_t num_parts,
                        uint64_t* out, size_t* counts) {
  return blockbloom::internal::PartitionHashesOp<BB_LAYOUT_PARQUET>(f, hashes, n, num_parts, out, counts);
}

int bb_kudu_partition_hashes(const bb_filter* f, const uint32_t* hashes, size_t n,
                             uint32_t num_parts, uint32_t* out, size_t* counts) {
  return blockbloom::internal::PartitionHashesOp<BB_LAYOUT_KUDU>(f, hashes, n, num_parts, out, counts);
}

int bb_build_from_hashes(bb_filter* f, const uint64_t* hashes, size_t n, uint64_t* scratch) {
  return blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_PARQUET>(f, hashes, n, scratch);
}

int bb_kudu_build_from_hashes(bb_filter* f, const uint32_t* hashes, size_t n, uint32_t* scratch) {
  return blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_KUDU>(f, hashes, n, scratch);
}

int bb_build_from_hashes_partition(bb_filter* f, const uint64_t* hashes, size_t n, uint64_t* scratch,
                                   uint32_t part, uint32_t num_parts) {
  return blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_PARQUET>(f, hashes, n, scratch, part,
                                                                    num_parts);
}

int bb_kudu_build_from_hashes_partition(bb_filter* f, const uint32_t* hashes, size_t n,
                                        uint32_t* scratch, uint32_t part, uint32_t num_parts) {
  return blockbloom::internal::BuildFromHashesOp<BB_LAYOUT_KUDU>(f, hashes, n, scratch, part,
                                                                 num_parts);
}

int bb_find_batch_bitmap(const bb_filter* f, const uint64_t* hashes, size_t n, uint8_t* bitmap,
                         size_t* hits) {
  return blockbloom::internal::FindBatchBitmapOp<BB_LAYOUT_PARQUET>(f, hashes, n, bitmap, hits);
}

int bb_kudu_find_batch_bitmap(const bb_filter* f, const uint32_t* hashes, size_t n,
                              uint8_t* bitmap, size_t* hits) {
  return blockbloom::internal::FindBatchBitmapOp<BB_LAYOUT_KUDU>(f, hashes, n, bitmap, hits);
}

int bb_find_batch_select(const bb_filter* f, const uint64_t* hashes, size_t n,
                         uint32_t* selection, size_t* hits) {
  return blockbloom::internal::FindBatchSelectOp<BB_LAYOUT_PARQUET>(f, hashes, n, selection, hits);
}

int bb_kudu_find_batch_select(const bb_filter* f, const uint32_t* hashes, size_t n,
                              uint32_t* selection, size_t* hits) {
  return blockbloom::internal::FindBatchSelectOp<BB_LAYOUT_KUDU>(f, hashes, n, selection, hits);
}

int bb_find_batch_select_from(const bb_filter* f, const uint64_t* hashes, size_t n,
                              const uint32_t* sel_in, size_t m, uint32_t* sel_out, size_t* hits) {
  return blockbloom::internal::FindBatchSelectFromOp<BB_LAYOUT_PARQUET>(f, hashes, n, sel_in, m, sel_out,
                                                              hits);
}

int bb_kudu_find_batch_select_from(const bb_filter* f, const uint32_t* hashes, size_t n,
                                   const uint32_t* sel_in, size_t m, uint32_t* sel_out,
                                   size_t* hits) {
  return blockbloom::internal::FindBatchSelectFromOp<BB_LAYOUT_KUDU>(f, hashes, n, sel_in, m, sel_out, hits);
}

int bb_find_batch_bitmap_and(const bb_filter* f, const uint64_t* hashes, size_t n, uint8_t* bitmap,
                             size_t* hits) {
  return blockbloom::internal::FindBatchBitmapOp<BB_LAYOUT_PARQUET, true>(f, hashes, n, bitmap, hits);
}

int bb_kudu_find_batch_bitmap_and(const bb_filter* f, const uint32_t* hashes, size_t n,
                                  uint8_t* bitmap, size_t* hits) {
  return blockbloom::internal::FindBatchBitmapOp<BB_LAYOUT_KUDU, true>(f, hashes, n, bitmap, hits);
}

}  // extern "C"
