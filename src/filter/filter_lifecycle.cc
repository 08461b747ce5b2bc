// SPDX-License-Identifier: Apache-2.0
// Clear, copy and compare whole filters of either layout.
#include <cstdint>
#include <cstring>

#include "src/filter/bitset_memory.h"
#include "src/filter/layout_ops.h"
#include "blockbloom/blockbloom.h"

extern "C" {

int bb_filter_clear(bb_filter* f) {
  if (f == nullptr || f->data == nullptr) return BB_ERR_NULL_POINTER;
  if ((blockbloom::internal::LoadFlags(f) & BB_FILTER_READ_ONLY) != 0) return BB_ERR_READ_ONLY;
  std::memset(f->data, 0, f->num_bytes);
  // Kudu: empty again, so finds answer 0 without reading, as in a new filter.
  if (f->layout == BB_LAYOUT_KUDU) {
    __atomic_fetch_or(&f->flags, static_cast<uint32_t>(BB_FILTER_ALWAYS_FALSE), __ATOMIC_RELAXED);
  }
  return BB_OK;
}

int bb_filter_copy(bb_filter* dst, const bb_filter* src) {
  if (dst == nullptr || src == nullptr || src->data == nullptr) return BB_ERR_NULL_POINTER;
  // Built aside and stored whole, so *dst is untouched on error (and dst
  // may be src).
  bb_filter copy{};
  const int status = blockbloom::internal::InitOwnedFilter(&copy, src->num_bytes, src->allocator, false);
  if (status != BB_OK) return status;
  std::memcpy(copy.data, src->data, src->num_bytes);
  copy.layout = src->layout;
  copy.hash_seed = src->hash_seed;
  copy.flags |= blockbloom::internal::LoadFlags(src) & BB_FILTER_ALWAYS_FALSE;
  *dst = copy;
  return BB_OK;
}

int bb_filter_equal(const bb_filter* a, const bb_filter* b) {
  if (a == nullptr || b == nullptr || a->data == nullptr || b->data == nullptr) {
    return BB_ERR_NULL_POINTER;
  }
  if (a->layout != b->layout || a->num_bytes != b->num_bytes || a->hash_seed != b->hash_seed) {
    return 0;
  }
  const bool a_empty = blockbloom::internal::AlwaysFalse(a);
  if (a_empty != blockbloom::internal::AlwaysFalse(b)) return 0;
  // Two always-false filters answer 0 to everything whatever their bytes
  // (an imported directory keeps the bytes it came with).
  if (a_empty || a->data == b->data) return 1;
  return std::memcmp(a->data, b->data, a->num_bytes) == 0 ? 1 : 0;
}

}  // extern "C"
