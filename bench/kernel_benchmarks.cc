#include "kernel_benchmarks.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/kernels.h"
#include "huge_pages.h"
#include "probe_data.h"

namespace blockbloom_bench {
namespace {

constexpr const char* kIsaNames[] = {"scalar", "sse42", "avx2", "avx512", "neon"};

// L1-, L2-, L3- and DRAM-sized (this suite's reference machine: 32 KiB L1d,
// 1 MiB L2 per core, 32 MiB L3).
constexpr size_t kFilterBytes[] = {size_t{16} << 10, size_t{512} << 10, size_t{16} << 20,
                                   size_t{512} << 20};

// Every iteration handles kBatchSize hashes, read from the probe pool in
// order from the shared cursor and wrapping around at its end. `batch`
// returns the hits it found (0 for inserts). Reports ns_per_key,
// items_per_second and, for finds, hit_rate (about 0.5 plus half the false
// positive rate).
template <typename BatchFn>
void ProbeLoop(benchmark::State& state, ProbeData& data, bool report_hits, BatchFn&& batch) {
  const uint64_t* const probes = data.probes().data();
  const size_t num_probes = data.probes().size();
  size_t offset = data.cursor();
  size_t hits = 0;
  for (auto _ : state) {
    hits += batch(probes + offset);
    offset += kBatchSize;
    if (offset == num_probes) offset = 0;
  }
  data.cursor() = offset;
  const auto keys = static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kBatchSize);
  state.SetItemsProcessed(keys);
  // (kBatchSize * 1e-9 * iterations / seconds) inverted: nanoseconds per key.
  // The JSON holds that number; the console prints it with an "s" suffix,
  // which google-benchmark appends to every inverted rate.
  state.counters["ns_per_key"] =
      benchmark::Counter(static_cast<double>(kBatchSize) * 1e-9,
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  // Share of the filter on transparent huge pages (1 = all, -1 = unknown).
  state.counters["huge_pages"] = HugePageFraction(data.filled().data);
  if (report_hits && keys > 0) {
    state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(keys);
  }
}

using OpFn = void (*)(benchmark::State&, const bb_kernel_table&, ProbeData&);

// The ops. Each gets the shared data of its filter size.

void Insert(benchmark::State& state, const bb_kernel_table& kernels, ProbeData& data) {
  // Inserts go to a second, initially empty filter of the same size, shared
  // by the insert ops of every ISA. It fills up as the run goes on, which
  // changes no timing: an insert writes its block whatever the bits were.
  bb_filter& f = data.insert_target();
  ProbeLoop(state, data, false, [&](const uint64_t* hashes) {
    for (size_t i = 0; i < kBatchSize; ++i) kernels.insert(f.data, f.num_blocks, hashes[i]);
    benchmark::ClobberMemory();
    return size_t{0};
  });
}

void Find(benchmark::State& state, const bb_kernel_table& kernels, ProbeData& data) {
  // The single-key find of the public API, bb_find(), runs the ISA picked by
  // bb_select_isa(), which switches the whole process. Rather than flipping
  // that between benchmarks this loops over the ISA table's find directly;
  // bb_find() adds an argument check and one indirect call on top of it.
  const bb_filter& f = data.filled();
  ProbeLoop(state, data, true, [&](const uint64_t* hashes) {
    size_t hits = 0;
    for (size_t i = 0; i < kBatchSize; ++i) {
      hits += static_cast<size_t>(kernels.find(f.data, f.num_blocks, hashes[i]));
    }
    benchmark::DoNotOptimize(hits);
    return hits;
  });
}

void InsertBatch(benchmark::State& state, const bb_kernel_table& kernels, ProbeData& data) {
  bb_filter& f = data.insert_target();  // see Insert()
  ProbeLoop(state, data, false, [&](const uint64_t* hashes) {
    kernels.insert_batch(f.data, f.num_blocks, hashes, kBatchSize);
    benchmark::ClobberMemory();
    return size_t{0};
  });
}

void FindBatchBitmap(benchmark::State& state, const bb_kernel_table& kernels, ProbeData& data) {
  const bb_filter& f = data.filled();
  std::vector<uint8_t> bitmap((kBatchSize + 7) / 8);
  ProbeLoop(state, data, true, [&](const uint64_t* hashes) {
    size_t hits = kernels.find_batch_bitmap(f.data, f.num_blocks, hashes, kBatchSize, bitmap.data());
    benchmark::DoNotOptimize(hits);
    benchmark::DoNotOptimize(bitmap.data());
    benchmark::ClobberMemory();
    return hits;
  });
}

void FindBatchSelect(benchmark::State& state, const bb_kernel_table& kernels, ProbeData& data) {
  const bb_filter& f = data.filled();
  std::vector<uint32_t> selection(kBatchSize);
  ProbeLoop(state, data, true, [&](const uint64_t* hashes) {
    size_t hits =
        kernels.find_batch_select(f.data, f.num_blocks, hashes, kBatchSize, selection.data());
    benchmark::DoNotOptimize(hits);
    benchmark::DoNotOptimize(selection.data());
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
};

}  // namespace

void RegisterKernelBenchmarks() {
  // Size outermost: benchmarks run in registration order, so the data of a
  // size is built once, right before the first benchmark that needs it.
  for (const size_t bytes : kFilterBytes) {
    for (const Op& op : kOps) {
      for (const char* isa : kIsaNames) {
        const bb_kernel_table* kernels = nullptr;
        if (bb_kernels_for_isa(isa, &kernels) != BB_OK) continue;  // not built or not this CPU
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
