// SPDX-License-Identifier: Apache-2.0
// Issue 24 item 3: the A/B of the public surface's two spellings of one int64
// column call, on the same data (column_data.h) and the same tier:
//   ab/<op>/fused/<bytes>   hashing.h's bb_insert_int64_column,
//                           bb_find_int64_column_{bitmap,select} and adaptive.h's
//                           bb_adaptive_find_int64_column_{bitmap,select}
//   ab/<op>/column/<bytes>  column.h's bb_insert_column / bb_find_column_* and
//                           bb_adaptive_find_column_* with a bb_column of the
//                           same values (no validity)
// Registered A then B for each op and size, so one run interleaves them;
// BB_AB_COLUMN_FIRST=1 registers B first (to run both orders alternately).
#include <cstddef>
#include <cstdlib>
#include <cstdint>
#include <string>

#include "benchmark/benchmark.h"
#include "bench_grid.h"
#include "blockbloom/adaptive.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "blockbloom/hashing.h"
#include "column_data.h"
#include "probe_data.h"

namespace blockbloom_bench {
namespace {

constexpr size_t kAbBytes[] = {kKiB16, size_t{64} << 20};

bb_column Int64Column(const int64_t* values) {
  bb_column col = BB_COLUMN_INIT;
  col.type = BB_TYPE_INT64;
  col.length = kBatchSize;
  col.values = values;
  return col;
}

enum class Op { kInsert, kBitmap, kSelect, kAdaptiveBitmap, kAdaptiveSelect };

int RunOne(Op op, bool fused, bb_filter* f, const int64_t* v, uint8_t* bitmap, uint32_t* sel,
           bb_adaptive* a, size_t* hits) {
  const bb_column col = Int64Column(v);
  switch (op) {
    case Op::kInsert:
      return fused ? bb_insert_int64_column(f, v, kBatchSize) : bb_insert_column(f, &col);
    case Op::kBitmap:
      return fused ? bb_find_int64_column_bitmap(f, v, kBatchSize, bitmap, hits)
                   : bb_find_column_bitmap(f, &col, bitmap, hits);
    case Op::kSelect:
      return fused ? bb_find_int64_column_select(f, v, kBatchSize, sel, hits)
                   : bb_find_column_select(f, &col, sel, hits);
    case Op::kAdaptiveBitmap:
      return fused ? bb_adaptive_find_int64_column_bitmap(a, f, v, kBatchSize, bitmap, hits)
                   : bb_adaptive_find_column_bitmap(a, f, &col, bitmap, hits);
    case Op::kAdaptiveSelect:
      return fused ? bb_adaptive_find_int64_column_select(a, f, v, kBatchSize, sel, hits)
                   : bb_adaptive_find_column_select(a, f, &col, sel, hits);
  }
  return BB_ERR_NULL_POINTER;  // not reached
}

void AbLoop(benchmark::State& state, Op op, bool fused, ColumnData& data, size_t bytes) {
  // Inserts go into a copy of the filled filter (every page touched by the
  // copy, so neither side pays first-touch faults), never into the probes' one.
  bb_filter copy{};
  if (op == Op::kInsert) {
    const int status = bb_filter_copy(&copy, &data.placements()[0].filter);
    if (status != BB_OK) {
      state.SkipWithError(bb_status_message(status));
      return;
    }
  }
  // The filter is never switched off (fraction 0): every batch is probed.
  bb_adaptive a{};
  bb_adaptive_init(&a, UINT64_MAX, 0.0);
  const std::vector<ColumnPlacement>& placements = data.placements();
  size_t offset = data.cursor();
  size_t k = 0;
  size_t total = 0;
  for (auto _ : state) {
    const ColumnPlacement& p = placements[k];
    k = k + 1 == placements.size() ? 0 : k + 1;
    bb_filter* f = op == Op::kInsert ? &copy : const_cast<bb_filter*>(&p.filter);
    size_t hits = 0;
    const int status = RunOne(op, fused, f, p.values + offset, p.bitmap,
                              reinterpret_cast<uint32_t*>(p.hashes), &a, &hits);
    if (status != BB_OK) {
      state.SkipWithError(bb_status_message(status));
      break;
    }
    total += hits;
    benchmark::ClobberMemory();
    offset += kBatchSize;
    if (offset == data.num_values()) offset = 0;
  }
  data.cursor() = offset;
  bb_filter_release(&copy);
  benchmark::DoNotOptimize(total);
  state.counters["ns_per_row"] = benchmark::Counter(
      static_cast<double>(kBatchSize) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["bytes"] = static_cast<double>(bytes);
}

}  // namespace

void RegisterSurfaceAbBenchmarks() {
  const struct {
    Op op;
    const char* name;
  } ops[] = {{Op::kInsert, "insert"},
             {Op::kBitmap, "find_bitmap"},
             {Op::kSelect, "find_select"},
             {Op::kAdaptiveBitmap, "adaptive_find_bitmap"},
             {Op::kAdaptiveSelect, "adaptive_find_select"}};
  const char* order = std::getenv("BB_AB_COLUMN_FIRST");
  const bool column_first = order != nullptr && order[0] == '1';
  for (const size_t bytes : kAbBytes) {
    for (const auto& o : ops) {
      for (const bool first : {true, false}) {
        const bool fused = first != column_first;
        const Op op = o.op;
        const std::string name = std::string("ab/") + o.name + (fused ? "/fused/" : "/column/") +
                                 std::to_string(bytes);
        benchmark::RegisterBenchmark(name.c_str(), [op, fused, bytes](benchmark::State& state) {
          if (ColumnData* data = ColumnDataOrSkip(state, bytes)) AbLoop(state, op, fused, *data, bytes);
        });
      }
    }
  }
}

}  // namespace blockbloom_bench
