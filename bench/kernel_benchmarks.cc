// SPDX-License-Identifier: Apache-2.0
#include "kernel_benchmarks.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "src/core/kernel_table.h"
#include "bench_grid.h"
#include "live_rows.h"
#include "probe_data.h"
#include "probe_loop.h"

namespace blockbloom_bench {
namespace {

using OpFn = void (*)(benchmark::State&, const bbi_kernel_table&, ProbeData&);

// The ops. Each gets the shared data of its filter size.

void Insert(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  // Inserts go to a second, initially empty filter of the same size, shared
  // by the insert ops of every ISA. It fills up as the run goes on, which
  // changes no timing: an insert writes its block whatever the bits were.
  ProbeLoop(state, data, false, [&](const Placement& p, const uint64_t* hashes) {
    const bb_filter& f = p.insert_target;
    for (size_t i = 0; i < kBatchSize; ++i) kernels.insert(f.data, f.num_blocks, hashes[i]);
    benchmark::ClobberMemory();
    return size_t{0};
  });
}

void Find(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  // The single-key find of the public API, bb_find(), runs the ISA picked by
  // bb_select_isa(), which switches the whole process. Rather than flipping
  // that between benchmarks this loops over the ISA table's find directly;
  // bb_find() adds an argument check and one indirect call on top of it.
  ProbeLoop(state, data, true, [&](const Placement& p, const uint64_t* hashes) {
    const bb_filter& f = p.filled;
    size_t hits = 0;
    for (size_t i = 0; i < kBatchSize; ++i) {
      hits += static_cast<size_t>(kernels.find(f.data, f.num_blocks, hashes[i]));
    }
    benchmark::DoNotOptimize(hits);
    return hits;
  });
}

void InsertBatch(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  ProbeLoop(state, data, false, [&](const Placement& p, const uint64_t* hashes) {  // see Insert()
    kernels.insert_batch(p.insert_target.data, p.insert_target.num_blocks, hashes, kBatchSize);
    benchmark::ClobberMemory();
    return size_t{0};
  });
}

void FindBatchBitmap(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  ProbeLoop(state, data, true, [&](const Placement& p, const uint64_t* hashes) {
    size_t hits = kernels.find_batch_bitmap(p.filled.data, p.filled.num_blocks, hashes,
                                            kBatchSize, p.bitmap);
    benchmark::DoNotOptimize(hits);
    benchmark::DoNotOptimize(p.bitmap);
    benchmark::ClobberMemory();
    return hits;
  });
}

void FindBatchSelect(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  ProbeLoop(state, data, true, [&](const Placement& p, const uint64_t* hashes) {
    size_t hits = kernels.find_batch_select(p.filled.data, p.filled.num_blocks, hashes,
                                            kBatchSize, p.selection);
    benchmark::DoNotOptimize(hits);
    benchmark::DoNotOptimize(p.selection);
    benchmark::ClobberMemory();
    return hits;
  });
}

// Pipeline probes: the rows earlier filters left (live_rows.h) at kPercent
// percent of each batch. ns_per_key stays per row of the batch, so a cell
// compares with find_batch_select / find_batch_bitmap over the same rows
// (divide by the density for ns per probed row).
template <int kPercent>
void FindBatchSelectFrom(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  const std::vector<uint32_t> sel = LiveSelection(kBatchSize, kPercent);
  ProbeLoop(state, data, true, [&](const Placement& p, const uint64_t* hashes) {
    size_t hits = kernels.find_batch_select_from(p.filled.data, p.filled.num_blocks, hashes,
                                                 sel.data(), sel.size(), p.selection);
    benchmark::DoNotOptimize(hits);
    benchmark::DoNotOptimize(p.selection);
    benchmark::ClobberMemory();
    return hits;
  });
}

// What bb_find_batch_select_from checks before probing: the largest row of
// the selection (the tier's max_u32), against n.
template <int kPercent>
void SelectionCheck(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  const std::vector<uint32_t> sel = LiveSelection(kBatchSize, kPercent);
  ProbeLoop(state, data, false, [&](const Placement&, const uint64_t*) {
    uint32_t max = kernels.max_u32(sel.data(), sel.size());
    benchmark::DoNotOptimize(max);
    return size_t{0};
  });
}

// The bitmap is ANDed into, so each iteration starts from a fresh copy of
// the live rows' bitmap (128 bytes: a few ns of the batch's time).
template <int kPercent, bool kWholeBytes>
void FindBatchBitmapAnd(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  const std::vector<uint8_t> live = LiveBitmap(kBatchSize, kPercent, kWholeBytes);
  ProbeLoop(state, data, true, [&](const Placement& p, const uint64_t* hashes) {
    std::memcpy(p.bitmap, live.data(), live.size());
    size_t hits = kernels.find_batch_bitmap_and(p.filled.data, p.filled.num_blocks, hashes,
                                                kBatchSize, p.bitmap);
    benchmark::DoNotOptimize(hits);
    benchmark::DoNotOptimize(p.bitmap);
    benchmark::ClobberMemory();
    return hits;
  });
}

struct Op {
  const char* name;
  OpFn fn;
};

constexpr Op kOps[] = {
    {"insert", &Insert},
    {"find", &Find},
    {"insert_batch", &InsertBatch},
    {"find_batch_bitmap", &FindBatchBitmap},
    {"find_batch_select", &FindBatchSelect},
    {"find_batch_select_from_10pct", &FindBatchSelectFrom<10>},
    {"find_batch_select_from_50pct", &FindBatchSelectFrom<50>},
    {"find_batch_select_from_100pct", &FindBatchSelectFrom<100>},
    {"selection_check_10pct", &SelectionCheck<10>},
    {"selection_check_100pct", &SelectionCheck<100>},
    {"find_batch_bitmap_and_10pct", &FindBatchBitmapAnd<10, false>},
    {"find_batch_bitmap_and_50pct", &FindBatchBitmapAnd<50, false>},
    {"find_batch_bitmap_and_100pct", &FindBatchBitmapAnd<100, false>},
    {"find_batch_bitmap_and_10pct_bytes", &FindBatchBitmapAnd<10, true>},
};

}  // namespace

void RegisterKernelBenchmarks() {
  // Size outermost: benchmarks run in registration order, so the data of a
  // size is built once, right before the first benchmark that needs it.
  for (const size_t bytes : kFilterBytes) {
    for (const Op& op : kOps) {
      for (const char* isa : IsaNames()) {
        const bbi_kernel_table* kernels = nullptr;
        if (bbi_kernels_for_isa(isa, &kernels) != BB_OK) continue;  // not built or not this CPU
        const std::string name =
            std::string(op.name) + "/" + isa + "/" + std::to_string(bytes);
        const OpFn fn = op.fn;
        benchmark::RegisterBenchmark(name.c_str(), [fn, kernels, bytes](benchmark::State& state) {
          int status = BB_OK;
          ProbeData* data = ProbeDataFor(bytes, &status);
          if (data == nullptr) {
            state.SkipWithError(bb_status_message(status));
            return;
          }
          fn(state, *kernels, *data);
        });
      }
    }
  }
}

}  // namespace blockbloom_bench
