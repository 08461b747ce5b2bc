// SPDX-License-Identifier: Apache-2.0
// The hash of each column type in each layout, a chunk of rows at a time
// (docs/formats.md, "Typed columns", is the table of what is hashed).
// Internal: the column is checked (src/columns/column_view.h), offsets included.
#ifndef BLOCKBLOOM_COLUMNS_COLUMN_HASHERS_H_
#define BLOCKBLOOM_COLUMNS_COLUMN_HASHERS_H_

#include <cstddef>
#include <cstdint>

#include "src/columns/column_view.h"

namespace blockbloom::internal {

// Rows per chunk: the hashers widen narrow values into a stack array of this
// many, and the column loops hash this many at a time (src/columns/column_ops.cc).
inline constexpr size_t kColumnChunk = 1024;

// Hashes rows [start, start + len) of col, len <= kColumnChunk, into
// out[0 .. len). seed: Kudu's FastHash seed (unused by Parquet). Every row is
// hashed, nulls included (their bytes are readable: Arrow's buffers cover
// every slot). out may be col's values at row start when a hash is no wider
// than a value: each hash is written after its value is read.
template <typename Hash>
using ChunkHasher = void (*)(const ColumnView& col, size_t start, size_t len, uint32_t seed,
                             Hash* out);

// Parquet: XXH64 (seed 0) of the plain encoding. Every type has one.
ChunkHasher<uint64_t> ParquetChunkHasher(const ColumnView& col);

// Kudu: FastHash32 of the cell's bytes; nullptr for the types Kudu has no
// meaning for (unsigned, INT96, TIME32, TIME64).
ChunkHasher<uint32_t> KuduChunkHasher(const ColumnView& col);

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_COLUMNS_COLUMN_HASHERS_H_
