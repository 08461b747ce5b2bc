// SPDX-License-Identifier: Apache-2.0
// The typed-column calls of column.h, for the library's own wrappers (the
// int32/int64/float/double/string batch hashes of hashing.h in
// src/columns/batch_hashes.cc, the adaptive filter's column forms): each behaves
// exactly as the public function of the same name.
#ifndef BLOCKBLOOM_COLUMNS_COLUMN_OPS_H_
#define BLOCKBLOOM_COLUMNS_COLUMN_OPS_H_

#include <cstddef>
#include <cstdint>

#include "blockbloom/column.h"

namespace blockbloom::internal {

int ParquetHashColumn(const bb_column* col, uint64_t* hashes, size_t* num_hashes);
int InsertColumn(bb_filter* f, const bb_column* col);
int FindColumnBitmap(const bb_filter* f, const bb_column* col, uint8_t* bitmap, size_t* hits);
int FindColumnSelect(const bb_filter* f, const bb_column* col, uint32_t* selection, size_t* hits);

// As FindColumnBitmap / FindColumnSelect, with every check, for a filter that
// holds every value: each valid row is a hit, each null row not; nothing is
// hashed and the bitset is not read (the adaptive filter once it is off).
int PassColumnBitmap(const bb_filter* f, const bb_column* col, uint8_t* bitmap, size_t* hits);
int PassColumnSelect(const bb_filter* f, const bb_column* col, uint32_t* selection, size_t* hits);

// The rows of a checked column that are not null.
size_t ValidRows(const bb_column* col);

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_COLUMNS_COLUMN_OPS_H_
