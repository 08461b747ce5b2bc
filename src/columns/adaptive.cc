// SPDX-License-Identifier: Apache-2.0
// The adaptive runtime filter (blockbloom/adaptive.h): Kudu's self-disabling
// rule as a caller-owned counter struct, and wrappers that apply it around
// the batch probes. Built on the public API, and on the typed-column calls'
// pass-through forms (src/columns/column_ops.h) for the column wrappers.
#include "blockbloom/adaptive.h"

#include <cstdint>
#include <type_traits>

#include "src/columns/column_ops.h"
#include "src/columns/validity.h"
#include "blockbloom/column.h"
#include "blockbloom/kudu.h"

namespace {

bool ValidFraction(double f) { return f >= 0.0 && f <= 1.0; }  // false for NaN

// Counts a probed batch (passed <= probed was checked) and decides once
// rows_probed reaches sample_rows. The comparison is in long double, exact
// for 64-bit counts where long double has a 64-bit (x86) or wider (aarch64)
// mantissa, so that a fraction of 1 disables the filter whenever one sampled
// row passed, even at 2^60 rows.
void Count(bb_adaptive* a, size_t probed, size_t passed) {
  a->rows_probed += probed;
  a->rows_passed += passed;
  if (a->state != BB_ADAPTIVE_SAMPLING || a->rows_probed < a->sample_rows) return;
  a->decision_rows = a->rows_probed;
  a->decision_rejected = a->rows_probed - a->rows_passed;
  const bool keep = static_cast<long double>(a->decision_rejected) >=
                    static_cast<long double>(a->min_reject_fraction) *
                        static_cast<long double>(a->decision_rows);
  a->state = keep ? BB_ADAPTIVE_KEPT : BB_ADAPTIVE_DISABLED;
}

// What a filter that lets every row through writes.
void WritePassThrough(uint8_t* bitmap, size_t n) { blockbloom::internal::SetLowBits(bitmap, n); }

void WritePassThrough(uint32_t* selection, size_t n) {
  for (size_t i = 0; i < n; ++i) selection[i] = static_cast<uint32_t>(i);
}

template <typename Value, typename Out>
using ProbeFn = int (*)(const bb_filter*, const Value*, size_t, Out*, size_t*);

// The probe while the filter is on; the pass-through once it is off, after
// the probe's own checks: a call with no rows checks the filter (NULL,
// layout) without reading its bitset, then come the checks that depend on n.
template <typename Value, typename Out>
int Adaptive(ProbeFn<Value, Out> probe, bb_adaptive* a, const bb_filter* f, const Value* values,
             size_t n, Out* out, size_t* hits) {
  if (a == nullptr) return BB_ERR_NULL_POINTER;
  if (a->state != BB_ADAPTIVE_DISABLED) {
    size_t passed = 0;
    const int status = probe(f, values, n, out, &passed);
    if (status != BB_OK) return status;
    Count(a, n, passed);
    if (hits != nullptr) *hits = passed;
    return BB_OK;
  }
  const int status = probe(f, values, 0, out, nullptr);
  if (status != BB_OK) return status;
  if (n > 0 && (values == nullptr || out == nullptr)) return BB_ERR_NULL_POINTER;
  if (std::is_same<Out, uint32_t>::value && n > UINT32_MAX) return BB_ERR_BATCH_TOO_LARGE;
  if (n > 0) WritePassThrough(out, n);
  a->rows_not_probed += n;
  if (hits != nullptr) *hits = n;
  return BB_OK;
}

template <typename Out>
using ColumnProbeFn = int (*)(const bb_filter*, const bb_column*, Out*, size_t*);

// A typed column, adaptively. Only the valid rows count as probed (a null row
// is never a hit, with the filter or without it, so it says nothing about
// what the filter rejects); off, the column's own pass-through form answers,
// after the same checks as the probe.
template <typename Out>
int AdaptiveColumn(ColumnProbeFn<Out> probe, ColumnProbeFn<Out> pass, bb_adaptive* a,
                   const bb_filter* f, const bb_column* col, Out* out, size_t* hits) {
  if (a == nullptr) return BB_ERR_NULL_POINTER;
  const bool off = a->state == BB_ADAPTIVE_DISABLED;
  size_t passed = 0;
  const int status = (off ? pass : probe)(f, col, out, &passed);
  if (status != BB_OK) return status;
  if (off) {
    a->rows_not_probed += col->length;
  } else {
    Count(a, blockbloom::internal::ValidRows(col), passed);
  }
  if (hits != nullptr) *hits = passed;
  return BB_OK;
}

}  // namespace

extern "C" {

int bb_adaptive_init(bb_adaptive* a, uint64_t sample_rows, double min_reject_fraction) {
  if (a == nullptr) return BB_ERR_NULL_POINTER;
  if (sample_rows == 0) return BB_ERR_INVALID_ROW_COUNT;
  if (!ValidFraction(min_reject_fraction)) return BB_ERR_INVALID_REJECT_FRACTION;
  *a = bb_adaptive{};
  a->sample_rows = sample_rows;
  a->min_reject_fraction = min_reject_fraction;
  a->state = BB_ADAPTIVE_SAMPLING;
  return BB_OK;
}

int bb_adaptive_should_probe(bb_adaptive* a, size_t n) {
  if (a == nullptr) return BB_ERR_NULL_POINTER;
  if (a->state != BB_ADAPTIVE_DISABLED) return 1;
  a->rows_not_probed += n;
  return 0;
}

int bb_adaptive_record(bb_adaptive* a, size_t probed, size_t passed) {
  if (a == nullptr) return BB_ERR_NULL_POINTER;
  if (passed > probed) return BB_ERR_INVALID_ROW_COUNT;
  Count(a, probed, passed);
  return BB_OK;
}

int bb_adaptive_find_batch_bitmap(bb_adaptive* a, const bb_filter* f, const uint64_t* hashes,
                                  size_t n, uint8_t* bitmap, size_t* hits) {
  return Adaptive(bb_find_batch_bitmap, a, f, hashes, n, bitmap, hits);
}

int bb_adaptive_find_batch_select(bb_adaptive* a, const bb_filter* f, const uint64_t* hashes,
                                  size_t n, uint32_t* selection, size_t* hits) {
  return Adaptive(bb_find_batch_select, a, f, hashes, n, selection, hits);
}

int bb_adaptive_kudu_find_batch_bitmap(bb_adaptive* a, const bb_filter* f, const uint32_t* hashes,
                                       size_t n, uint8_t* bitmap, size_t* hits) {
  return Adaptive(bb_kudu_find_batch_bitmap, a, f, hashes, n, bitmap, hits);
}

int bb_adaptive_kudu_find_batch_select(bb_adaptive* a, const bb_filter* f, const uint32_t* hashes,
                                       size_t n, uint32_t* selection, size_t* hits) {
  return Adaptive(bb_kudu_find_batch_select, a, f, hashes, n, selection, hits);
}

int bb_adaptive_find_column_bitmap(bb_adaptive* a, const bb_filter* f, const bb_column* col,
                                   uint8_t* bitmap, size_t* hits) {
  return AdaptiveColumn(bb_find_column_bitmap, blockbloom::internal::PassColumnBitmap, a, f, col, bitmap,
                        hits);
}

int bb_adaptive_find_column_select(bb_adaptive* a, const bb_filter* f, const bb_column* col,
                                   uint32_t* selection, size_t* hits) {
  return AdaptiveColumn(bb_find_column_select, blockbloom::internal::PassColumnSelect, a, f, col, selection,
                        hits);
}

}  // extern "C"
