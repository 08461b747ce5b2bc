// SPDX-License-Identifier: Apache-2.0
// XXH64 of each string with xxHash compiled inline (XXH_INLINE_ALL), one at
// a time: how src/columns/column_hashers.cc hashed byte arrays before the
// byte-array kernels, kept as the string_hash/<lengths>/xxh64_inline row.
// A translation unit of its own so that the libxxhash row still calls the
// shared library.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "xxh64_inline_loop.h"

namespace blockbloom_bench {

void InlineXxh64Strings(const uint8_t* data, const int32_t* offsets, size_t n, uint64_t* out) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = XXH64(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]), 0);
  }
}

}  // namespace blockbloom_bench
