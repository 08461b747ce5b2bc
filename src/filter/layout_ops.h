// SPDX-License-Identifier: Apache-2.0
// The filter operations, written once for both layouts: argument checks,
// Kudu's always-false state, then one call into the selected kernel table.
// Parquet filters never carry the always-false flag, so for them the flag
// test is one predictable branch.
#ifndef BLOCKBLOOM_FILTER_LAYOUT_OPS_H_
#define BLOCKBLOOM_FILTER_LAYOUT_OPS_H_

#include <cstdint>
#include <cstring>

#include "blockbloom/blockbloom.h"
#include "src/dispatch/dispatcher.h"
#include "src/core/block_op.h"
#include "src/core/kernel_table.h"

namespace blockbloom::internal {

// Which kernel table entries serve a layout, keyed by its hash type: one
// accessor per layout row of src/core/kernel_table.h, named as the row's kernel
// (LayoutKernels<BB_LAYOUT_KUDU>::FindBatchBitmap(t) is t.kudu_find_batch_bitmap).
template <bb_layout kLayout>
struct LayoutKernels;

#define BBI_LAYOUT_KERNEL_ACCESSOR(P, name, Kernel, L, Ret, Params) \
  static auto Kernel(const bbi_kernel_table& t) { return t.P##name; }

template <>
struct LayoutKernels<BB_LAYOUT_PARQUET> {
  using Hash = ParquetLayout::Hash;
  BBI_PARQUET_KERNEL_ROWS(BBI_LAYOUT_KERNEL_ACCESSOR)
};

template <>
struct LayoutKernels<BB_LAYOUT_KUDU> {
  using Hash = KuduLayout::Hash;
  BBI_KUDU_KERNEL_ROWS(BBI_LAYOUT_KERNEL_ACCESSOR)
};

#undef BBI_LAYOUT_KERNEL_ACCESSOR

inline int CheckReadable(const bb_filter* f, bb_layout layout) {
  if (f == nullptr || f->data == nullptr) return BB_ERR_NULL_POINTER;
  if (f->layout != static_cast<uint32_t>(layout)) return BB_ERR_LAYOUT_MISMATCH;
  return BB_OK;
}

// The flag word of a filter that threads may insert into concurrently
// (partitioned inserts): one thread's ClearAlwaysFalse writes it while
// another checks BB_FILTER_READ_ONLY, so every read on an insert or find path
// is this relaxed atomic load (a plain load on every ISA we build for) and
// every write there an atomic read-modify-write. No ordering is needed: the
// bits the threads test never change while they run, only the always-false
// bit does, and each inserting thread clears it itself.
inline uint32_t LoadFlags(const bb_filter* f) { return __atomic_load_n(&f->flags, __ATOMIC_RELAXED); }

inline int CheckWritable(const bb_filter* f, bb_layout layout) {
  const int status = CheckReadable(f, layout);
  if (status != BB_OK) return status;
  return (LoadFlags(f) & BB_FILTER_READ_ONLY) != 0 ? BB_ERR_READ_ONLY : BB_OK;
}

inline bool AlwaysFalse(const bb_filter* f) { return (LoadFlags(f) & BB_FILTER_ALWAYS_FALSE) != 0; }

// After an insert the filter holds something. Written only when the flag is
// set (Kudu, before its first insert), and then atomically, so that threads
// inserting into disjoint partitions of one filter never race on flags.
inline void ClearAlwaysFalse(bb_filter* f) {
  if ((LoadFlags(f) & BB_FILTER_ALWAYS_FALSE) != 0) {
    __atomic_fetch_and(&f->flags, ~static_cast<uint32_t>(BB_FILTER_ALWAYS_FALSE), __ATOMIC_RELAXED);
  }
}

// The bytes of n elements of T (saturating: n near SIZE_MAX spans everything).
template <class T>
size_t SpanBytes(size_t n) {
  return n < SIZE_MAX / sizeof(T) ? n * sizeof(T) : SIZE_MAX;
}

// Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte (empty ranges
// share none).
inline bool BytesOverlap(const void* a, size_t a_bytes, const void* b, size_t b_bytes) {
  const auto at_a = reinterpret_cast<uintptr_t>(a);
  const auto at_b = reinterpret_cast<uintptr_t>(b);
  if (a_bytes == 0 || b_bytes == 0) return false;
  return at_a <= at_b ? at_b - at_a < a_bytes : at_a - at_b < b_bytes;
}

// Whether arrays a and b of n elements each overlap without being the same.
template <class T>
bool PartlyOverlap(const T* a, const T* b, size_t n) {
  return a != b && BytesOverlap(a, SpanBytes<T>(n), b, SpanBytes<T>(n));
}

template <bb_layout kLayout>
int InsertOp(bb_filter* f, typename LayoutKernels<kLayout>::Hash hash) {
  const int status = CheckWritable(f, kLayout);
  if (status != BB_OK) return status;
  LayoutKernels<kLayout>::Insert(ActiveKernels())(f->data, f->num_blocks, hash);
  ClearAlwaysFalse(f);
  return BB_OK;
}

template <bb_layout kLayout>
int FindOp(const bb_filter* f, typename LayoutKernels<kLayout>::Hash hash) {
  const int status = CheckReadable(f, kLayout);
  if (status != BB_OK) return status;
  if (AlwaysFalse(f)) return 0;
  return LayoutKernels<kLayout>::Find(ActiveKernels())(f->data, f->num_blocks, hash);
}

template <bb_layout kLayout>
int InsertBatchOp(bb_filter* f, const typename LayoutKernels<kLayout>::Hash* hashes, size_t n) {
  const int status = CheckWritable(f, kLayout);
  if (status != BB_OK) return status;
  if (hashes == nullptr && n > 0) return BB_ERR_NULL_POINTER;
  if (n == 0) return BB_OK;
  LayoutKernels<kLayout>::InsertBatch(ActiveKernels())(f->data, f->num_blocks, hashes, n);
  ClearAlwaysFalse(f);
  return BB_OK;
}

// Partition `part` of `num_parts` holds blocks [part * z / num_parts,
// (part + 1) * z / num_parts): equal ranges that together cover the filter
// (PartFirstBlock, src/core/block_op.h).
template <bb_layout kLayout>
int InsertBatchPartitionOp(bb_filter* f, const typename LayoutKernels<kLayout>::Hash* hashes,
                           size_t n, uint32_t part, uint32_t num_parts) {
  const int status = CheckWritable(f, kLayout);
  if (status != BB_OK) return status;
  if (hashes == nullptr && n > 0) return BB_ERR_NULL_POINTER;
  if (num_parts == 0 || part >= num_parts) return BB_ERR_INVALID_PARTITION;
  if (n == 0) return BB_OK;
  const uint32_t z = f->num_blocks;
  LayoutKernels<kLayout>::InsertBatchRange(ActiveKernels())(
      f->data, z, hashes, n, PartFirstBlock(part, num_parts, z), PartFirstBlock(part + 1, num_parts, z));
  ClearAlwaysFalse(f);
  return BB_OK;
}

// The radix partition of a build's hashes into the parts above. A part is
// at least one block (num_parts <= num_blocks), and out must not overlap
// hashes: its keys are written while hashes is still read; nor counts
// either: the scatter of more than 8 parts keeps its write cursors there,
// so an out overlapping counts would move them past out's end.
template <bb_layout kLayout>
int PartitionHashesOp(const bb_filter* f, const typename LayoutKernels<kLayout>::Hash* hashes,
                      size_t n, uint32_t num_parts, typename LayoutKernels<kLayout>::Hash* out,
                      size_t* counts) {
  const int status = CheckReadable(f, kLayout);
  if (status != BB_OK) return status;
  if (counts == nullptr || (n > 0 && (hashes == nullptr || out == nullptr))) return BB_ERR_NULL_POINTER;
  if (num_parts == 0 || num_parts > f->num_blocks) return BB_ERR_INVALID_PARTITION;
  using Hash = typename LayoutKernels<kLayout>::Hash;
  if (n > 0 && (out == hashes || PartlyOverlap(hashes, out, n))) return BB_ERR_PARTITION_OVERLAP;
  const size_t counts_bytes = SpanBytes<size_t>(num_parts);
  if (n > 0 && (BytesOverlap(counts, counts_bytes, hashes, SpanBytes<Hash>(n)) ||
                BytesOverlap(counts, counts_bytes, out, SpanBytes<Hash>(n)))) {
    return BB_ERR_PARTITION_OVERLAP;
  }
  LayoutKernels<kLayout>::PartitionHashes(ActiveKernels())(f->num_blocks, hashes, n, num_parts, out,
                                                            counts);
  return BB_OK;
}

// Writes the bitmap of n probes (every byte of (n + 7) / 8, the unused high
// bits 0) or, kAnd, ANDs it into the caller's (rows below n only, the bits
// past n kept).
template <bb_layout kLayout, bool kAnd = false>
int FindBatchBitmapOp(const bb_filter* f, const typename LayoutKernels<kLayout>::Hash* hashes,
                      size_t n, uint8_t* bitmap, size_t* hits) {
  const int status = CheckReadable(f, kLayout);
  if (status != BB_OK) return status;
  if (n > 0 && (hashes == nullptr || bitmap == nullptr)) return BB_ERR_NULL_POINTER;
  size_t count = 0;
  if (n > 0 && AlwaysFalse(f)) {  // every probe answers 0
    std::memset(bitmap, 0, n / 8);
    if (n % 8 != 0) bitmap[n / 8] = kAnd ? static_cast<uint8_t>(bitmap[n / 8] & (0xffu << (n % 8))) : 0;
  } else if (n > 0) {
    const bbi_kernel_table& kernels = ActiveKernels();
    const auto kernel = kAnd ? LayoutKernels<kLayout>::FindBatchBitmapAnd(kernels)
                             : LayoutKernels<kLayout>::FindBatchBitmap(kernels);
    count = kernel(f->data, f->num_blocks, hashes, n, bitmap);
  }
  if (hits != nullptr) *hits = count;
  return BB_OK;
}

template <bb_layout kLayout>
int FindBatchSelectOp(const bb_filter* f, const typename LayoutKernels<kLayout>::Hash* hashes,
                      size_t n, uint32_t* selection, size_t* hits) {
  const int status = CheckReadable(f, kLayout);
  if (status != BB_OK) return status;
  if (n > 0 && (hashes == nullptr || selection == nullptr)) return BB_ERR_NULL_POINTER;
  if (n > UINT32_MAX) return BB_ERR_BATCH_TOO_LARGE;
  size_t count = 0;
  if (n > 0 && !AlwaysFalse(f)) {
    count = LayoutKernels<kLayout>::FindBatchSelect(ActiveKernels())(f->data, f->num_blocks,
                                                                      hashes, n, selection);
  }
  if (hits != nullptr) *hits = count;
  return BB_OK;
}

// Pipeline probes. Every check comes before the first write: a bad index
// anywhere in sel_in is found by one pass over it (the tier's MaxU32)
// before any probe, so nothing is written on error.
template <bb_layout kLayout>
int FindBatchSelectFromOp(const bb_filter* f, const typename LayoutKernels<kLayout>::Hash* hashes,
                          size_t n, const uint32_t* sel_in, size_t m, uint32_t* sel_out,
                          size_t* hits) {
  const int status = CheckReadable(f, kLayout);
  if (status != BB_OK) return status;
  if (n > 0 && hashes == nullptr) return BB_ERR_NULL_POINTER;
  if (m > 0 && (sel_in == nullptr || sel_out == nullptr)) return BB_ERR_NULL_POINTER;
  size_t count = 0;
  if (m > 0) {
    // In place (sel_out == sel_in) compacts; any other overlap would let a
    // chunk's outputs overwrite rows not yet read.
    if (PartlyOverlap(sel_in, sel_out, m)) return BB_ERR_SELECTION_OVERLAP;
    const bbi_kernel_table& kernels = ActiveKernels();
    if (n == 0 || kernels.max_u32(sel_in, m) >= n) return BB_ERR_SELECTION_OUT_OF_RANGE;
    if (!AlwaysFalse(f)) {
      count = LayoutKernels<kLayout>::FindBatchSelectFrom(kernels)(f->data, f->num_blocks, hashes,
                                                                   sel_in, m, sel_out);
    }
  }
  if (hits != nullptr) *hits = count;
  return BB_OK;
}

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_FILTER_LAYOUT_OPS_H_
