// SPDX-License-Identifier: Apache-2.0
// Union and intersection of two filters of the same shape: how filters built
// by many workers (one per node, one per partition) become one.
#include <cstdint>

#include "api/filter/layout_ops.h"
#include "blockbloom/blockbloom.h"

namespace {

int CheckCombinable(const bb_filter* dst, const bb_filter* src) {
  if (dst == nullptr || src == nullptr || dst->data == nullptr || src->data == nullptr) {
    return BB_ERR_NULL_POINTER;
  }
  if (dst->layout != src->layout || dst->num_bytes != src->num_bytes) return BB_ERR_FILTER_MISMATCH;
  // Same bytes: allowed (a no-op on the bits). Partly overlapping: refused,
  // since every tier would combine them in its own chunk order.
  const auto d = reinterpret_cast<uintptr_t>(dst->data);
  const auto s = reinterpret_cast<uintptr_t>(src->data);
  if ((d > s && d - s < src->num_bytes) || (s > d && s - d < dst->num_bytes)) {
    return BB_ERR_FILTERS_OVERLAP;
  }
  return (blockbloom::internal::LoadFlags(dst) & BB_FILTER_READ_ONLY) != 0 ? BB_ERR_READ_ONLY : BB_OK;
}

}  // namespace

extern "C" {

int bb_filter_union(bb_filter* dst, const bb_filter* src) {
  const int status = CheckCombinable(dst, src);
  if (status != BB_OK) return status;
  // Kudu: an always-false filter holds nothing, so adding it changes nothing.
  if (blockbloom::internal::AlwaysFalse(src)) return BB_OK;
  if (dst->data != src->data) {
    blockbloom::internal::ActiveKernels().union_bytes(dst->data, src->data, dst->num_bytes);
  }
  blockbloom::internal::ClearAlwaysFalse(dst);
  return BB_OK;
}

int bb_filter_intersect(bb_filter* dst, const bb_filter* src) {
  const int status = CheckCombinable(dst, src);
  if (status != BB_OK) return status;
  if (dst->data != src->data) {
    blockbloom::internal::ActiveKernels().intersect_bytes(dst->data, src->data, dst->num_bytes);
  }
  // Kudu: nothing is in both when either side holds nothing.
  if (blockbloom::internal::AlwaysFalse(src)) {
    __atomic_fetch_or(&dst->flags, static_cast<uint32_t>(BB_FILTER_ALWAYS_FALSE), __ATOMIC_RELAXED);
  }
  return BB_OK;
}

}  // extern "C"
