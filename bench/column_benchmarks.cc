// SPDX-License-Identifier: Apache-2.0
#include "column_benchmarks.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <xxhash.h>

#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "src/core/kernel_table.h"
#include "bench_grid.h"
#include "column_data.h"
#include "ns_per_key.h"
#include "placements.h"
#include "probe_data.h"
#include "probe_loop.h"
#include "scoped_isa.h"

namespace blockbloom_bench {
namespace {

// In L1, where the one call's saving (no hash array round trip) shows, and
// far out of cache, where the memory system hides it.
constexpr size_t kColumnBytes[] = {kKiB16, kMiB16};

// kBatchSize rows an iteration from the column's probe values, at the
// iteration's placement; batch(placement, values) returns the hits.
template <typename BatchFn>
void ColumnLoop(benchmark::State& state, ColumnData& data, BatchFn&& batch) {
  const std::vector<ColumnPlacement>& placements = data.placements();
  const size_t hits = PlacedBatchLoop(state, placements, &ColumnPlacement::values,
                                      data.num_values(), data.cursor(), batch);
  SetNsPerKey(state, static_cast<double>(kBatchSize));
  // The same number under a name that says what a key is here: a row.
  state.counters["ns_per_row"] = state.counters["ns_per_key"];
  const auto rows = static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kBatchSize);
  state.counters["placements"] = static_cast<double>(placements.size());
  if (rows > 0) state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(rows);
}

// column.h's one call: each chunk of rows hashed on the library's stack and
// probed (bb_find_column_bitmap of an int64 column without validity).
void ColumnFind(benchmark::State& state, const char* isa, const bbi_kernel_table&,
                ColumnData& data) {
  const ScopedIsa scoped(isa);
  if (scoped.status() != BB_OK) {
    state.SkipWithError(bb_status_message(scoped.status()));
    return;
  }
  ColumnLoop(state, data, [&](const ColumnPlacement& p, const int64_t* values) {
    bb_column col = BB_COLUMN_INIT;
    col.type = BB_TYPE_INT64;
    col.length = kBatchSize;
    col.values = values;
    size_t hits = 0;
    bb_find_column_bitmap(&p.filter, &col, p.bitmap, &hits);
    benchmark::DoNotOptimize(p.bitmap);
    benchmark::ClobberMemory();
    return hits;
  });
}

// What an engine does without the one call: libxxhash's XXH64 of each
// value's 8 bytes into a hash array, then the batch probe.
void Xxh64ThenFind(benchmark::State& state, const char*, const bbi_kernel_table& kernels,
                   ColumnData& data) {
  ColumnLoop(state, data, [&](const ColumnPlacement& p, const int64_t* values) {
    for (size_t i = 0; i < kBatchSize; ++i) p.hashes[i] = XXH64(values + i, sizeof values[i], 0);
    const size_t hits = kernels.find_batch_bitmap(p.filter.data, p.filter.num_blocks, p.hashes,
                                                  kBatchSize, p.bitmap);
    benchmark::DoNotOptimize(p.bitmap);
    benchmark::ClobberMemory();
    return hits;
  });
}

// The one call's two halves as separate calls: the tier's vector hash
// into a hash array, then the batch probe (what the one call saves is the
// array's round trip).
void HashThenFind(benchmark::State& state, const char*, const bbi_kernel_table& kernels,
                  ColumnData& data) {
  if (kernels.parquet_hash_8byte == nullptr) {
    state.SkipWithError("this kernel table has no parquet_hash_8byte");
    return;
  }
  ColumnLoop(state, data, [&](const ColumnPlacement& p, const int64_t* values) {
    kernels.parquet_hash_8byte(values, kBatchSize, p.hashes);
    const size_t hits = kernels.find_batch_bitmap(p.filter.data, p.filter.num_blocks, p.hashes,
                                                  kBatchSize, p.bitmap);
    benchmark::DoNotOptimize(p.bitmap);
    benchmark::ClobberMemory();
    return hits;
  });
}

using ColumnOp = void (*)(benchmark::State&, const char*, const bbi_kernel_table&, ColumnData&);

}  // namespace

void RegisterColumnBenchmarks() {
  const struct {
    const char* name;
    ColumnOp fn;
  } ops[] = {{"int64_column_find_bitmap", &ColumnFind},
             {"xxh64_then_find_batch_bitmap", &Xxh64ThenFind},
             {"hash_batch_then_find_batch_bitmap", &HashThenFind}};
  for (const size_t bytes : kColumnBytes) {
    for (const auto& op : ops) {
      for (const char* isa : IsaNames()) {
        const bbi_kernel_table* kernels = nullptr;
        if (bbi_kernels_for_isa(isa, &kernels) != BB_OK) continue;
        const ColumnOp fn = op.fn;
        benchmark::RegisterBenchmark(
            (std::string(op.name) + "/" + isa + "/" + std::to_string(bytes)).c_str(),
            [fn, isa, kernels, bytes](benchmark::State& state) {
              if (ColumnData* data = ColumnDataOrSkip(state, bytes)) fn(state, isa, *kernels, *data);
            });
      }
    }
  }
}

}  // namespace blockbloom_bench
