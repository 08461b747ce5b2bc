// SPDX-License-Identifier: Apache-2.0
// Union and intersection of two filters of the same shape: how filters built
// by many workers (one per node, one per partition) become one.
#include <cinttypes>
#include <cstdint>
#include <cstdio>

#include "src/filter/layout_ops.h"
#include "blockbloom/blockbloom.h"

namespace {

// The first of layout, size and (Kudu) hash seed in which two filters
// differ. A Kudu filter's bits are placed by FastHash32 with its seed: the
// same value sets other bits under another seed, so the bits of two seeds
// mean nothing together (a union would keep dst's seed and lose what src
// holds).
enum class Difference { kNone, kLayout, kSize, kSeed };

Difference Compare(const bb_filter* a, const bb_filter* b) {
  if (a->layout != b->layout) return Difference::kLayout;
  if (a->num_bytes != b->num_bytes) return Difference::kSize;
  if (a->layout == BB_LAYOUT_KUDU && a->hash_seed != b->hash_seed) return Difference::kSeed;
  return Difference::kNone;
}

const char* LayoutName(const bb_filter* f) {
  return f->layout == BB_LAYOUT_KUDU ? "Kudu" : "Parquet";
}

int CheckCombinable(const bb_filter* dst, const bb_filter* src) {
  if (dst == nullptr || src == nullptr || dst->data == nullptr || src->data == nullptr) {
    return BB_ERR_NULL_POINTER;
  }
  if (Compare(dst, src) != Difference::kNone) return BB_ERR_FILTER_MISMATCH;
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

int bb_filter_mismatch(const bb_filter* a, const bb_filter* b, char* reason, size_t capacity) {
  if (a == nullptr || b == nullptr) return BB_ERR_NULL_POINTER;
  const Difference d = Compare(a, b);
  if (reason != nullptr && capacity > 0) {
    switch (d) {
      case Difference::kNone:
        reason[0] = '\0';
        break;
      case Difference::kLayout:
        std::snprintf(reason, capacity, "the filters differ in layout: %s and %s", LayoutName(a),
                      LayoutName(b));
        break;
      case Difference::kSize:
        std::snprintf(reason, capacity, "the filters differ in size: %zu and %zu bytes",
                      a->num_bytes, b->num_bytes);
        break;
      case Difference::kSeed:
        std::snprintf(reason, capacity, "the Kudu filters differ in hash seed: %" PRIu32 " and %" PRIu32,
                      a->hash_seed, b->hash_seed);
        break;
    }
  }
  return d == Difference::kNone ? BB_OK : BB_ERR_FILTER_MISMATCH;
}

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
