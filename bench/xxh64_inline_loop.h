// SPDX-License-Identifier: Apache-2.0
// out[i] = XXH64 (seed 0, xxHash inline) of data[offsets[i] .. offsets[i + 1]).
#ifndef BLOCKBLOOM_BENCH_XXH64_INLINE_LOOP_H_
#define BLOCKBLOOM_BENCH_XXH64_INLINE_LOOP_H_

#include <cstddef>
#include <cstdint>

namespace blockbloom_bench {

void InlineXxh64Strings(const uint8_t* data, const int32_t* offsets, size_t n, uint64_t* out);

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_XXH64_INLINE_LOOP_H_
