// SPDX-License-Identifier: Apache-2.0
// Fused hash-and-insert / hash-and-probe over int32, int64, float and double
// columns: the values are hashed with the filter's layout kChunk at a time
// into an array on the stack (no heap allocation), and each chunk goes to the
// layout's batch call. The results are exactly those of hashing the whole column into an
// array first and making one batch call:
// - bitmaps: kChunk is a multiple of 8, so chunk c's bits start at byte
//   c * kChunk / 8 and every byte is written by exactly one batch call (the
//   last one writes the zero high bits of the final byte);
// - selections: the batch call writes chunk-relative indices after the hits so
//   far; the chunk's start is added to them;
// - hits are summed.
// Every argument is checked before any value is hashed or any byte written.
//
// Floats and doubles are hashed as the 4 or 8 bytes they are, exactly like
// int32 and int64 (Parquet hashes the plain encoding; Kudu the cell's bytes).
#include <cstdint>
#include <cstring>

#include "api/chunk_hashing.h"
#include "api/layout_ops.h"
#include "blockbloom/hashing.h"
#include "blockbloom/kudu.h"
#include "dispatch/dispatcher.h"


namespace {

// 1024 values (8 KiB of hashes on the stack): each batch call's last
// `distance` probes have nothing left to prefetch behind them, so on
// filters of 1 MiB and more short calls stall; with 256 the fused probe of a
// 16 MiB filter was 13-25% slower than hashing a 1024-row batch first and
// probing it in one call (docs/benchmarks.md).
constexpr size_t kChunk = 1024;
static_assert(kChunk % 8 == 0, "each chunk's bitmap must start on a byte boundary");

// The hash type and hashing of one layout for one value type.
struct ParquetLayout {
  using Hash = uint64_t;
  // The active tier's vector hash of the chunk's 4- or 8-byte values.
  template <typename T>
  static void HashChunk(const bb_filter*, const T* v, size_t n, Hash* h) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte values only");
    const bb_kernel_table& kernels = blockbloom::ActiveKernels();
    if (sizeof(T) == 4) {
      kernels.parquet_hash_4byte(v, n, h);
    } else {
      kernels.parquet_hash_8byte(v, n, h);
    }
  }
  static int Insert(bb_filter* f, const Hash* h, size_t n) { return bb_insert_batch(f, h, n); }
  static int FindBitmap(const bb_filter* f, const Hash* h, size_t n, uint8_t* bitmap,
                        size_t* hits) {
    return bb_find_batch_bitmap(f, h, n, bitmap, hits);
  }
  static int FindSelect(const bb_filter* f, const Hash* h, size_t n, uint32_t* selection,
                        size_t* hits) {
    return bb_find_batch_select(f, h, n, selection, hits);
  }
};

struct KuduLayout {
  using Hash = uint32_t;
  static void HashChunk(const bb_filter* f, const int32_t* v, size_t n, Hash* h) {
    blockbloom::KuduHashInt32Chunk(v, n, f->hash_seed, h);
  }
  static void HashChunk(const bb_filter* f, const int64_t* v, size_t n, Hash* h) {
    blockbloom::KuduHashInt64Chunk(v, n, f->hash_seed, h);
  }
  // The same bytes as an int32 / int64 cell. Copied (n <= kChunk) because a
  // float may not be read through an int pointer; v is NULL when n == 0,
  // which memcpy may not be given.
  static void HashChunk(const bb_filter* f, const float* v, size_t n, Hash* h) {
    int32_t bits[kChunk];
    if (n != 0) std::memcpy(bits, v, n * sizeof *v);
    blockbloom::KuduHashInt32Chunk(bits, n, f->hash_seed, h);
  }
  static void HashChunk(const bb_filter* f, const double* v, size_t n, Hash* h) {
    int64_t bits[kChunk];
    if (n != 0) std::memcpy(bits, v, n * sizeof *v);
    blockbloom::KuduHashInt64Chunk(bits, n, f->hash_seed, h);
  }
  static int Insert(bb_filter* f, const Hash* h, size_t n) { return bb_kudu_insert_batch(f, h, n); }
  static int FindBitmap(const bb_filter* f, const Hash* h, size_t n, uint8_t* bitmap,
                        size_t* hits) {
    return bb_kudu_find_batch_bitmap(f, h, n, bitmap, hits);
  }
  static int FindSelect(const bb_filter* f, const Hash* h, size_t n, uint32_t* selection,
                        size_t* hits) {
    return bb_kudu_find_batch_select(f, h, n, selection, hits);
  }
};

bool Readable(const bb_filter* f) { return f != nullptr && f->data != nullptr; }

bool KnownLayout(const bb_filter* f) {
  return f->layout == BB_LAYOUT_PARQUET || f->layout == BB_LAYOUT_KUDU;
}

// Hashes values kChunk at a time into a stack array and hands each chunk to
// use(hashes, start, len), stopping at the first error. It runs at least
// once, so n == 0 makes one batch call with n == 0 and returns whatever the
// batch API returns for an empty batch.
template <typename Layout, typename T, typename Use>
int ForEachHashedChunk(const bb_filter* f, const T* values, size_t n, Use&& use) {
  typename Layout::Hash hashes[kChunk];
  size_t start = 0;
  do {
    const size_t len = n - start < kChunk ? n - start : kChunk;
    Layout::HashChunk(f, values + start, len, hashes);
    const int status = use(hashes, start, len);
    if (status != BB_OK) return status;
    start += len;
  } while (start < n);
  return BB_OK;
}

template <typename Layout, typename T>
int InsertColumn(bb_filter* f, const T* values, size_t n) {
  return ForEachHashedChunk<Layout>(f, values, n, [&](const auto* hashes, size_t, size_t len) {
    return Layout::Insert(f, hashes, len);
  });
}

template <typename Layout, typename T>
int FindColumnBitmap(const bb_filter* f, const T* values, size_t n, uint8_t* bitmap,
                     size_t* hits) {
  size_t total = 0;
  const int status =
      ForEachHashedChunk<Layout>(f, values, n, [&](const auto* hashes, size_t start, size_t len) {
        size_t chunk_hits = 0;
        const int s = Layout::FindBitmap(f, hashes, len, bitmap + start / 8, &chunk_hits);
        total += chunk_hits;
        return s;
      });
  if (status == BB_OK && hits != nullptr) *hits = total;
  return status;
}

template <typename Layout, typename T>
int FindColumnSelect(const bb_filter* f, const T* values, size_t n, uint32_t* selection,
                     size_t* hits) {
  size_t total = 0;
  const int status =
      ForEachHashedChunk<Layout>(f, values, n, [&](const auto* hashes, size_t start, size_t len) {
        size_t chunk_hits = 0;
        // total <= start, so the chunk's len entries fit in selection[0 .. n).
        uint32_t* out = selection == nullptr ? nullptr : selection + total;
        const int s = Layout::FindSelect(f, hashes, len, out, &chunk_hits);
        const uint32_t base = static_cast<uint32_t>(start);  // n < 2^32 was checked
        for (size_t i = 0; i < chunk_hits; ++i) out[i] += base;
        total += chunk_hits;
        return s;
      });
  if (status == BB_OK && hits != nullptr) *hits = total;
  return status;
}

template <typename T>
int Insert(bb_filter* f, const T* values, size_t n) {
  if (!Readable(f) || (values == nullptr && n > 0)) return BB_ERR_NULL_POINTER;
  if ((blockbloom::LoadFlags(f) & BB_FILTER_READ_ONLY) != 0) return BB_ERR_READ_ONLY;
  if (!KnownLayout(f)) return BB_ERR_LAYOUT_MISMATCH;
  return f->layout == BB_LAYOUT_KUDU ? InsertColumn<KuduLayout>(f, values, n)
                                     : InsertColumn<ParquetLayout>(f, values, n);
}

template <typename T>
int FindBitmap(const bb_filter* f, const T* values, size_t n, uint8_t* bitmap, size_t* hits) {
  if (!Readable(f) || (n > 0 && (values == nullptr || bitmap == nullptr))) {
    return BB_ERR_NULL_POINTER;
  }
  if (!KnownLayout(f)) return BB_ERR_LAYOUT_MISMATCH;
  return f->layout == BB_LAYOUT_KUDU ? FindColumnBitmap<KuduLayout>(f, values, n, bitmap, hits)
                                     : FindColumnBitmap<ParquetLayout>(f, values, n, bitmap, hits);
}

template <typename T>
int FindSelect(const bb_filter* f, const T* values, size_t n, uint32_t* selection, size_t* hits) {
  if (!Readable(f) || (n > 0 && (values == nullptr || selection == nullptr))) {
    return BB_ERR_NULL_POINTER;
  }
  if (n > UINT32_MAX) return BB_ERR_BATCH_TOO_LARGE;
  if (!KnownLayout(f)) return BB_ERR_LAYOUT_MISMATCH;
  return f->layout == BB_LAYOUT_KUDU
             ? FindColumnSelect<KuduLayout>(f, values, n, selection, hits)
             : FindColumnSelect<ParquetLayout>(f, values, n, selection, hits);
}

}  // namespace

extern "C" {

int bb_insert_int32_column(bb_filter* f, const int32_t* values, size_t n) {
  return Insert(f, values, n);
}

int bb_insert_int64_column(bb_filter* f, const int64_t* values, size_t n) {
  return Insert(f, values, n);
}

int bb_insert_float_column(bb_filter* f, const float* values, size_t n) {
  return Insert(f, values, n);
}

int bb_insert_double_column(bb_filter* f, const double* values, size_t n) {
  return Insert(f, values, n);
}

int bb_find_int32_column_bitmap(const bb_filter* f, const int32_t* values, size_t n,
                                uint8_t* bitmap, size_t* hits) {
  return FindBitmap(f, values, n, bitmap, hits);
}

int bb_find_int64_column_bitmap(const bb_filter* f, const int64_t* values, size_t n,
                                uint8_t* bitmap, size_t* hits) {
  return FindBitmap(f, values, n, bitmap, hits);
}

int bb_find_float_column_bitmap(const bb_filter* f, const float* values, size_t n,
                                uint8_t* bitmap, size_t* hits) {
  return FindBitmap(f, values, n, bitmap, hits);
}

int bb_find_double_column_bitmap(const bb_filter* f, const double* values, size_t n,
                                 uint8_t* bitmap, size_t* hits) {
  return FindBitmap(f, values, n, bitmap, hits);
}

int bb_find_int32_column_select(const bb_filter* f, const int32_t* values, size_t n,
                                uint32_t* selection, size_t* hits) {
  return FindSelect(f, values, n, selection, hits);
}

int bb_find_int64_column_select(const bb_filter* f, const int64_t* values, size_t n,
                                uint32_t* selection, size_t* hits) {
  return FindSelect(f, values, n, selection, hits);
}

int bb_find_float_column_select(const bb_filter* f, const float* values, size_t n,
                                uint32_t* selection, size_t* hits) {
  return FindSelect(f, values, n, selection, hits);
}

int bb_find_double_column_select(const bb_filter* f, const double* values, size_t n,
                                 uint32_t* selection, size_t* hits) {
  return FindSelect(f, values, n, selection, hits);
}

}  // extern "C"
