// SPDX-License-Identifier: Apache-2.0
// Typed columns with nulls (column.h): hash, insert and probe kColumnChunk
// rows at a time. Each chunk is hashed into an array on the stack (no heap
// allocation) by the column type's hasher (src/columns/column_hashers.cc) and goes to
// the layout's batch operation (src/filter/layout_ops.h); the results are exactly
// those of hashing the valid rows into an array first and making one batch
// call:
// - inserts: the hashes of null rows are dropped from the chunk before the
//   insert (CompactByBits), so they never reach the filter;
// - bitmaps: each chunk's bits start at byte start / 8 (kColumnChunk is a
//   multiple of 8) and every byte is written by exactly one chunk; the
//   chunk's validity bits are ANDed in afterwards, so null rows are 0;
// - selections: the batch call writes chunk-relative indices after the hits
//   so far; those of null rows are dropped and the chunk's start is added;
// - a chunk of only nulls is neither hashed nor probed.
// Null rows are hashed (and probed) along with the rest and their results
// dropped: the vector kernels take whole chunks, and for probes this measured
// faster than compacting the valid rows first and scattering the hits
// (docs/benchmarks.md, "Typed columns").
// Every argument is checked, and the offsets of a byte array read once,
// before any hash is computed or any byte written.
#include "src/columns/column_ops.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "src/columns/column_hashers.h"
#include "src/columns/column_view.h"
#include "src/filter/layout_ops.h"
#include "src/columns/validity.h"

namespace blockbloom::internal {
namespace {

static_assert(kColumnChunk % 8 == 0, "each chunk's bitmap must start on a byte boundary");

template <bb_layout kLayout>
struct ColumnLayout;

template <>
struct ColumnLayout<BB_LAYOUT_PARQUET> {
  using Hash = uint64_t;
  static ChunkHasher<Hash> HasherFor(const ColumnView& c) { return ParquetChunkHasher(c); }
};

template <>
struct ColumnLayout<BB_LAYOUT_KUDU> {
  using Hash = uint32_t;
  static ChunkHasher<Hash> HasherFor(const ColumnView& c) { return KuduChunkHasher(c); }
};

// The validity bits of one chunk. `partial` is false when every row of the
// chunk is valid (no validity bitmap, or all its bits 1): nothing to drop.
struct ChunkMask {
  uint8_t bits[kColumnChunk / 8];
  bool partial;
};

// Reads the validity of rows [start, start + len) into *mask and returns how
// many are valid.
size_t ReadMask(const ColumnView& c, size_t start, size_t len, ChunkMask* mask) {
  mask->partial = false;
  if (c.validity == nullptr) return len;
  ExtractBits(c.validity, c.validity_offset + start, len, mask->bits);
  const size_t valid = CountBits(mask->bits, len);
  mask->partial = valid != len;
  return valid;
}

size_t ChunkLength(size_t n, size_t start) { return std::min(kColumnChunk, n - start); }

// The checks of column.h that need neither a filter nor the data: col, its
// descriptor and buffers, and the output (any non-NULL pointer when there is
// none).
int CheckInputs(const bb_column* col, const void* output, ColumnView* view) {
  if (col == nullptr) return BB_ERR_NULL_POINTER;
  const int status = CheckColumn(col, view);
  if (status != BB_OK) return status;
  if (view->length > 0 && output == nullptr) return BB_ERR_NULL_POINTER;
  return BB_OK;
}

// --------------------------------------------------------------- hashing

template <typename Hash>
void HashRows(const ColumnView& c, ChunkHasher<Hash> hash, uint32_t seed, Hash* out,
              size_t* num_hashes) {
  Hash chunk[kColumnChunk];
  ChunkMask mask;
  size_t total = 0;
  for (size_t start = 0; start < c.length; start += kColumnChunk) {
    const size_t len = ChunkLength(c.length, start);
    if (c.validity == nullptr) {  // straight into out: in place when out == values
      hash(c, start, len, seed, out + start);
      total += len;
      continue;
    }
    if (ReadMask(c, start, len, &mask) == 0) continue;
    hash(c, start, len, seed, chunk);
    const size_t count = mask.partial ? CompactByBits(chunk, len, mask.bits) : len;
    // total <= start: only the values of rows already hashed are overwritten.
    std::memcpy(out + total, chunk, count * sizeof(Hash));
    total += count;
  }
  if (num_hashes != nullptr) *num_hashes = total;
}

template <typename Hash>
int HashColumn(const bb_column* col, ChunkHasher<Hash> (*hasher_for)(const ColumnView&),
               uint32_t seed, Hash* hashes, size_t* num_hashes) {
  ColumnView c;
  int status = CheckInputs(col, hashes, &c);
  if (status != BB_OK) return status;
  const ChunkHasher<Hash> hash = hasher_for(c);
  if (hash == nullptr) return BB_ERR_TYPE_NOT_IN_LAYOUT;
  status = CheckOffsets(c);
  if (status != BB_OK) return status;
  HashRows(c, hash, seed, hashes, num_hashes);
  return BB_OK;
}

// ------------------------------------------------------- insert and probe

// For each chunk of rows, in order: all null, none(start, len); else the
// chunk hashed into a stack array and use(hashes, start, len, mask), stopping
// at the first error. Both are called before anything of the chunk is
// written, after its validity was read.
template <typename Hash, typename Use, typename None>
int ForEachChunk(const ColumnView& c, ChunkHasher<Hash> hash, uint32_t seed, Use&& use,
                 None&& none) {
  Hash hashes[kColumnChunk];
  ChunkMask mask;
  for (size_t start = 0; start < c.length; start += kColumnChunk) {
    const size_t len = ChunkLength(c.length, start);
    if (ReadMask(c, start, len, &mask) == 0) {
      none(start, len);
      continue;
    }
    hash(c, start, len, seed, hashes);
    const int status = use(hashes, start, len, mask);
    if (status != BB_OK) return status;
  }
  return BB_OK;
}

void Skip(size_t, size_t) {}

template <bb_layout kLayout, typename Hash>
int InsertRows(bb_filter* f, const ColumnView& c, ChunkHasher<Hash> hash) {
  return ForEachChunk(
      c, hash, f->hash_seed,
      [&](Hash* hashes, size_t, size_t len, const ChunkMask& mask) {
        const size_t count = mask.partial ? CompactByBits(hashes, len, mask.bits) : len;
        return InsertBatchOp<kLayout>(f, hashes, count);
      },
      Skip);
}

template <bb_layout kLayout, typename Hash>
int FindRowsBitmap(const bb_filter* f, const ColumnView& c, ChunkHasher<Hash> hash,
                   uint8_t* bitmap, size_t* hits) {
  size_t total = 0;
  // A chunk's validity is read before its bitmap bytes are written: they may
  // be the very same bytes.
  const int status = ForEachChunk(
      c, hash, f->hash_seed,
      [&](const Hash* hashes, size_t start, size_t len, const ChunkMask& mask) {
        uint8_t* out = bitmap + start / 8;
        size_t chunk_hits = 0;
        const int s = FindBatchBitmapOp<kLayout>(f, hashes, len, out, &chunk_hits);
        if (mask.partial) {
          AndBits(out, mask.bits, len);
          chunk_hits = CountBits(out, len);
        }
        total += chunk_hits;
        return s;
      },
      [&](size_t start, size_t len) { std::memset(bitmap + start / 8, 0, BitmapBytes(len)); });
  if (status == BB_OK && hits != nullptr) *hits = total;
  return status;
}

template <bb_layout kLayout, typename Hash>
int FindRowsSelect(const bb_filter* f, const ColumnView& c, ChunkHasher<Hash> hash,
                   uint32_t* selection, size_t* hits) {
  size_t total = 0;
  const int status = ForEachChunk(
      c, hash, f->hash_seed,
      [&](const Hash* hashes, size_t start, size_t len, const ChunkMask& mask) {
        // total <= start, so the chunk's len entries fit in selection[0 .. length).
        uint32_t* out = selection + total;
        size_t chunk_hits = 0;
        const int s = FindBatchSelectOp<kLayout>(f, hashes, len, out, &chunk_hits);
        if (mask.partial) chunk_hits = FilterSelection(out, chunk_hits, mask.bits);
        const auto base = static_cast<uint32_t>(start);  // length < 2^32 was checked
        for (size_t i = 0; i < chunk_hits; ++i) out[i] += base;
        total += chunk_hits;
        return s;
      },
      Skip);
  if (status == BB_OK && hits != nullptr) *hits = total;
  return status;
}

// The checks of column.h after the column's own, for filter f; then
// op.template Run<layout>(view, hasher).
template <typename Op>
int WithFilter(const bb_filter* f, const bb_column* col, const void* output, bool writes,
               bool selects, Op&& op) {
  if (f == nullptr || f->data == nullptr) return BB_ERR_NULL_POINTER;
  ColumnView c;
  int status = CheckInputs(col, output, &c);
  if (status != BB_OK) return status;
  if (writes && (LoadFlags(f) & BB_FILTER_READ_ONLY) != 0) return BB_ERR_READ_ONLY;
  if (selects && c.length > UINT32_MAX) return BB_ERR_BATCH_TOO_LARGE;
  if (f->layout == BB_LAYOUT_PARQUET) {
    const auto hash = ColumnLayout<BB_LAYOUT_PARQUET>::HasherFor(c);
    status = CheckOffsets(c);
    return status != BB_OK ? status : op(std::integral_constant<bb_layout, BB_LAYOUT_PARQUET>(), c, hash);
  }
  if (f->layout == BB_LAYOUT_KUDU) {
    const auto hash = ColumnLayout<BB_LAYOUT_KUDU>::HasherFor(c);
    if (hash == nullptr) return BB_ERR_TYPE_NOT_IN_LAYOUT;
    status = CheckOffsets(c);
    return status != BB_OK ? status : op(std::integral_constant<bb_layout, BB_LAYOUT_KUDU>(), c, hash);
  }
  return BB_ERR_LAYOUT_MISMATCH;
}

}  // namespace

int ParquetHashColumn(const bb_column* col, uint64_t* hashes, size_t* num_hashes) {
  return HashColumn<uint64_t>(col, &ParquetChunkHasher, 0, hashes, num_hashes);
}

int InsertColumn(bb_filter* f, const bb_column* col) {
  return WithFilter(f, col, f, true, false, [&](auto layout, const ColumnView& c, auto hash) {
    return InsertRows<decltype(layout)::value>(f, c, hash);
  });
}

int FindColumnBitmap(const bb_filter* f, const bb_column* col, uint8_t* bitmap, size_t* hits) {
  return WithFilter(f, col, bitmap, false, false, [&](auto layout, const ColumnView& c, auto hash) {
    return FindRowsBitmap<decltype(layout)::value>(f, c, hash, bitmap, hits);
  });
}

int FindColumnSelect(const bb_filter* f, const bb_column* col, uint32_t* selection, size_t* hits) {
  return WithFilter(f, col, selection, false, true, [&](auto layout, const ColumnView& c, auto hash) {
    return FindRowsSelect<decltype(layout)::value>(f, c, hash, selection, hits);
  });
}

// The pass-through forms: every valid row a hit, chunk by chunk. A chunk's
// validity bits go through a stack copy, so a bitmap written over the
// validity bytes themselves (validity_offset % 8 == 0) reads each chunk
// before it writes it, as the probes do.
int PassColumnBitmap(const bb_filter* f, const bb_column* col, uint8_t* bitmap, size_t* hits) {
  return WithFilter(f, col, bitmap, false, false, [&](auto, const ColumnView& c, auto) {
    size_t total = 0;
    for (size_t start = 0; start < c.length; start += kColumnChunk) {
      const size_t len = std::min(kColumnChunk, c.length - start);
      uint8_t bits[kColumnChunk / 8];
      if (c.validity == nullptr) {
        SetLowBits(bits, len);
      } else {
        ExtractBits(c.validity, c.validity_offset + start, len, bits);
      }
      std::memcpy(bitmap + start / 8, bits, BitmapBytes(len));
      total += c.validity == nullptr ? len : CountBits(bits, len);
    }
    if (hits != nullptr) *hits = total;
    return BB_OK;
  });
}

int PassColumnSelect(const bb_filter* f, const bb_column* col, uint32_t* selection, size_t* hits) {
  return WithFilter(f, col, selection, false, true, [&](auto, const ColumnView& c, auto) {
    size_t total = 0;
    for (size_t row = 0; row < c.length; ++row) {
      const size_t bit = c.validity_offset + row;
      if (c.validity == nullptr || ((c.validity[bit / 8] >> (bit % 8)) & 1u) != 0) {
        selection[total++] = static_cast<uint32_t>(row);  // length < 2^32 was checked
      }
    }
    if (hits != nullptr) *hits = total;
    return BB_OK;
  });
}

size_t ValidRows(const bb_column* col) {
  if (col->validity == nullptr) return col->length;
  size_t valid = 0;
  for (size_t start = 0; start < col->length; start += kColumnChunk) {
    const size_t len = std::min(kColumnChunk, col->length - start);
    uint8_t bits[kColumnChunk / 8];
    ExtractBits(col->validity, col->validity_offset + start, len, bits);
    valid += CountBits(bits, len);
  }
  return valid;
}

}  // namespace blockbloom::internal

extern "C" {

int bb_parquet_hash_column(const bb_column* col, uint64_t* hashes, size_t* num_hashes) {
  return blockbloom::internal::ParquetHashColumn(col, hashes, num_hashes);
}

int bb_kudu_hash_column(const bb_column* col, uint32_t seed, uint32_t* hashes,
                        size_t* num_hashes) {
  return blockbloom::internal::HashColumn<uint32_t>(col, &blockbloom::internal::KuduChunkHasher, seed, hashes,
                                          num_hashes);
}

int bb_insert_column(bb_filter* f, const bb_column* col) { return blockbloom::internal::InsertColumn(f, col); }

int bb_find_column_bitmap(const bb_filter* f, const bb_column* col, uint8_t* bitmap,
                          size_t* hits) {
  return blockbloom::internal::FindColumnBitmap(f, col, bitmap, hits);
}

int bb_find_column_select(const bb_filter* f, const bb_column* col, uint32_t* selection,
                          size_t* hits) {
  return blockbloom::internal::FindColumnSelect(f, col, selection, hits);
}

}  // extern "C"
