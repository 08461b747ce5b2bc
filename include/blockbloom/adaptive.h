/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: an adaptive runtime filter -- Kudu's rule for a join filter
 * pushed into a scan. A filter that lets almost every row through costs its
 * probes and saves nothing, so the scan watches it: after a sample of
 * sample_rows rows, if it rejected less than min_reject_fraction of them, it is
 * switched off and every further row passes without a probe.
 *
 * The rule, exactly:
 * - The decision is taken once, at the first batch boundary where at least
 *   sample_rows rows have been probed (so a batch that straddles sample_rows
 *   is probed whole, and the decision counts all of its rows). A caller that
 *   wants it at exactly sample_rows rows cuts its batch there:
 *   sample_rows - rows_probed rows remain while state is BB_ADAPTIVE_SAMPLING.
 * - Kept iff rejected >= min_reject_fraction * probed, over the rows probed
 *   by then: 0 never switches the filter off, 1 switches it off unless it
 *   rejected every sampled row. Once decided, nothing changes the decision.
 * - A scan that ends before sample_rows rows never decides: the filter stays
 *   on throughout (state stays BB_ADAPTIVE_SAMPLING).
 * - Kudu's always-false filter (nothing inserted: the build side was empty)
 *   rejects every row, and answers without reading memory, so it is always
 *   kept -- rightly: no row can match.
 *
 * One bb_adaptive per scan thread: the calls are not thread-safe on one
 * object (they update its counters without atomics); different objects may
 * be used concurrently, over the same filter too. The counters are 64-bit
 * whatever size_t is. The struct is the caller's (stack, heap, inside a scan
 * operator) and owns nothing: no release call.
 *
 * Two ways to use it:
 * - Around any probe (any layout, value type or output form): ask
 *   bb_adaptive_should_probe(a, n) before a batch of n rows; if it says 1,
 *   probe them and report bb_adaptive_record(a, n, passed); if it says 0,
 *   treat all n rows as passing (they are counted as not probed).
 * - The wrappers below do both around the main probe forms, and once the
 *   filter is off write the pass-through result (every bit set, or the
 *   identity selection) without reading the filter's bitset. They check
 *   their arguments as the call they wrap does, whether or not they probe,
 *   so a bad call fails the same way before and after the decision. On an
 *   error nothing is counted and no output is written. */
#ifndef BLOCKBLOOM_ADAPTIVE_H_
#define BLOCKBLOOM_ADAPTIVE_H_

#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bb_adaptive_state {
  BB_ADAPTIVE_SAMPLING = 0, /* not decided yet: every batch is probed */
  BB_ADAPTIVE_KEPT = 1,     /* decided: the filter rejected enough; every batch is probed */
  BB_ADAPTIVE_DISABLED = 2  /* decided: it rejected too little; batches pass unprobed */
} bb_adaptive_state;

/* Treat the fields as read-only; initialise with bb_adaptive_init. 64 bytes,
 * fixed-width fields only, the same layout on every platform. */
typedef struct bb_adaptive {
  uint64_t sample_rows;         /* rows to probe before deciding, >= 1 */
  double min_reject_fraction;   /* keep the filter iff it rejected at least this share, 0 .. 1 */
  uint64_t rows_probed;         /* rows the filter was applied to */
  uint64_t rows_passed;         /* of those, the rows it let through */
  uint64_t rows_not_probed;     /* rows let through unprobed once the filter was off */
  uint64_t decision_rows;       /* rows probed when the decision was taken (0 before) */
  uint64_t decision_rejected;   /* of those, the rows the filter had rejected */
  uint32_t state;               /* bb_adaptive_state */
  uint32_t reserved;            /* 0 */
} bb_adaptive;

/* A fresh, undecided state with all counters 0. sample_rows 0 is
 * BB_ERR_INVALID_ROW_COUNT; a fraction below 0, above 1 or NaN is
 * BB_ERR_INVALID_REJECT_FRACTION. On error *a is left untouched. */
BB_API int bb_adaptive_init(bb_adaptive* a, uint64_t sample_rows, double min_reject_fraction);

/* Whether to probe the next batch of n rows: 1 (probe it, then call
 * bb_adaptive_record) or 0 (the filter is off: all n rows pass, and are
 * added to rows_not_probed). BB_ERR_NULL_POINTER if a is NULL. */
BB_API int bb_adaptive_should_probe(bb_adaptive* a, size_t n);

/* Counts a probed batch: probed rows, of which passed were let through; takes
 * the decision when rows_probed reaches sample_rows. passed > probed is
 * BB_ERR_INVALID_ROW_COUNT (nothing counted). */
BB_API int bb_adaptive_record(bb_adaptive* a, size_t probed, size_t passed);

/* bb_find_batch_bitmap / bb_find_batch_select (Parquet layout, blockbloom.h),
 * adaptively. Off: the bitmap gets (n + 7) / 8 bytes with the n bits set (the
 * unused high bits of the last byte 0), the selection 0, 1, .., n - 1;
 * *hits (may be NULL) is n. */
BB_API int bb_adaptive_find_batch_bitmap(bb_adaptive* a, const bb_filter* f,
                                         const uint64_t* hashes, size_t n, uint8_t* bitmap,
                                         size_t* hits);
BB_API int bb_adaptive_find_batch_select(bb_adaptive* a, const bb_filter* f,
                                         const uint64_t* hashes, size_t n, uint32_t* selection,
                                         size_t* hits);

/* bb_kudu_find_batch_bitmap / _select (Kudu layout, kudu.h), adaptively. */
BB_API int bb_adaptive_kudu_find_batch_bitmap(bb_adaptive* a, const bb_filter* f,
                                              const uint32_t* hashes, size_t n, uint8_t* bitmap,
                                              size_t* hits);
BB_API int bb_adaptive_kudu_find_batch_select(bb_adaptive* a, const bb_filter* f,
                                              const uint32_t* hashes, size_t n,
                                              uint32_t* selection, size_t* hits);

/* bb_find_column_bitmap / _select (typed columns with or without nulls,
 * column.h; either layout), adaptively: the values are hashed only when the
 * batch is probed. Only the valid rows count as probed and in the
 * decision: a null row is never a hit, filter or not, so it says nothing of
 * what the filter rejects. Off: every valid row is a hit and every null row
 * not (the bitmap is the column's validity, the selection its valid rows),
 * after the same checks as the wrapped call; rows_not_probed counts every
 * row of the column. */
BB_API int bb_adaptive_find_column_bitmap(bb_adaptive* a, const bb_filter* f,
                                          const bb_column* col, uint8_t* bitmap, size_t* hits);
BB_API int bb_adaptive_find_column_select(bb_adaptive* a, const bb_filter* f,
                                          const bb_column* col, uint32_t* selection,
                                          size_t* hits);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_ADAPTIVE_H_ */
