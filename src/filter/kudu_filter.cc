// SPDX-License-Identifier: Apache-2.0
// Kudu / Impala runtime-filter layout: power-of-two sizes from 64 bytes, a
// seed for the values' hashes, and an always-false state until the first
// insert (find then answers 0 without touching memory, as Kudu's does).
#include <cstdint>

#include "src/filter/bitset_memory.h"
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

}  // extern "C"
