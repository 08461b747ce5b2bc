// SPDX-License-Identifier: Apache-2.0
// Hashing of value chunks for the fused column calls (api/fused_columns.cc),
// defined with the public hashes in api/hashing.cc. Internal: no argument
// checks, and not exported from the shared library.
#ifndef BLOCKBLOOM_API_CHUNK_HASHING_H_
#define BLOCKBLOOM_API_CHUNK_HASHING_H_

#include <cstddef>
#include <cstdint>

#define BLOCKBLOOM_INTERNAL __attribute__((visibility("hidden")))

namespace blockbloom {

BLOCKBLOOM_INTERNAL void ParquetHashInt32Chunk(const int32_t* values, size_t n, uint64_t* hashes);
BLOCKBLOOM_INTERNAL void ParquetHashInt64Chunk(const int64_t* values, size_t n, uint64_t* hashes);
BLOCKBLOOM_INTERNAL void KuduHashInt32Chunk(const int32_t* values, size_t n, uint32_t seed,
                                            uint32_t* hashes);
BLOCKBLOOM_INTERNAL void KuduHashInt64Chunk(const int64_t* values, size_t n, uint32_t seed,
                                            uint32_t* hashes);

}  // namespace blockbloom

#endif  // BLOCKBLOOM_API_CHUNK_HASHING_H_
