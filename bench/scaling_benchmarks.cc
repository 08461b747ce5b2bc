// SPDX-License-Identifier: Apache-2.0
#include "scaling_benchmarks.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "kernels/kernel_table.h"
#include "bench_grid.h"
#include "placements.h"
#include "probe_data.h"
#include "splitmix64.h"

namespace blockbloom_bench {
namespace {

// The multi-threaded build hands each thread this many hashes per round, so
// that starting the threads is a small part of a round.
constexpr size_t kThreadChunk = size_t{1} << 18;

void SetNsPerKey(benchmark::State& state, double keys_per_iteration) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * keys_per_iteration));
  state.counters["ns_per_key"] = benchmark::Counter(
      keys_per_iteration * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// union/<isa>/<bytes>: ORs the filled filter into the insert target. Per key
// means per key the filter holds at 10.67 bits per key. Averaged over the
// placements of in-cache filters, as the kernel benchmarks are.
void Union(benchmark::State& state, const bb_kernel_table& kernels, ProbeData& data) {
  const std::vector<Placement>& placements = data.placements();
  PlacementSchedule schedule(placements.size(), state.max_iterations);
  for (auto _ : state) {
    const Placement& p = placements[schedule.Next()];
    kernels.union_bytes(p.insert_target.data, p.filled.data, p.filled.num_bytes);
    benchmark::ClobberMemory();
  }
  SetNsPerKey(state, static_cast<double>(data.num_keys()));
}

// insert_batch_threads<T>/<isa>/<bytes>: T threads fill one filter through
// the partitioned insert (each takes every hash, inserts its block range).
template <uint32_t kThreads>
void InsertBatchThreads(benchmark::State& state, const bb_kernel_table& kernels, ProbeData& data) {
  bb_filter& f = data.insert_target();
  const std::vector<uint64_t>& probes = data.probes();
  const size_t chunk = std::min(kThreadChunk, probes.size());
  size_t offset = 0;
  // Wall-clock time: google-benchmark's CPU time would count only this
  // thread's share of the work.
  double wall_ns = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    if (offset + chunk > probes.size()) offset = 0;
    const uint64_t* hashes = probes.data() + offset;
    const auto part = [&](uint32_t p) {
      const auto first = static_cast<uint32_t>(uint64_t{f.num_blocks} * p / kThreads);
      const auto end = static_cast<uint32_t>(uint64_t{f.num_blocks} * (p + 1) / kThreads);
      kernels.insert_batch_range(f.data, f.num_blocks, hashes, chunk, first, end);
    };
    std::vector<std::thread> others;
    for (uint32_t p = 1; p < kThreads; ++p) others.emplace_back(part, p);
    part(0);
    for (std::thread& t : others) t.join();
    offset += chunk;
    benchmark::ClobberMemory();
    wall_ns += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  }
  const double keys = static_cast<double>(state.iterations()) * static_cast<double>(chunk);
  state.SetItemsProcessed(static_cast<int64_t>(keys));
  state.counters["ns_per_key"] = keys > 0 ? wall_ns / keys : 0.0;
}

// memory/random_loads/<bytes>: independent loads of random cache lines of a
// buffer, as many in flight as the core allows: the DRAM throughput ceiling
// for one block per key.
void RandomLoads(benchmark::State& state, ProbeData& data) {
  const bb_filter& f = data.filled();
  const std::vector<uint64_t>& probes = data.probes();
  const uint64_t lines = f.num_bytes / 64;
  size_t offset = 0;
  for (auto _ : state) {
    uint64_t sum = 0;
    for (size_t i = 0; i < kBatchSize; ++i) {
      sum += f.data[((probes[offset + i] >> 32) * lines >> 32) * 64];
    }
    benchmark::DoNotOptimize(sum);
    offset = offset + 2 * kBatchSize > probes.size() ? 0 : offset + kBatchSize;
  }
  SetNsPerKey(state, static_cast<double>(kBatchSize));
}

// memory/pointer_chase/<bytes>: each load's address comes from the previous
// load: the latency of one miss, nothing overlapped. The chain, a random
// cycle through every cache line, is written into the insert target.
void PointerChase(benchmark::State& state, ProbeData& data) {
  bb_filter& f = data.insert_target();
  const auto lines = static_cast<uint32_t>(f.num_bytes / 64);
  std::vector<uint32_t> order(lines);
  for (uint32_t i = 0; i < lines; ++i) order[i] = i;
  SplitMix64 rng(7);
  for (uint32_t i = lines - 1; i > 0; --i) std::swap(order[i], order[rng.Next() % (i + 1)]);
  for (uint32_t i = 0; i < lines; ++i) {
    const uint32_t next = order[(i + 1) % lines];
    std::memcpy(f.data + size_t{order[i]} * 64, &next, sizeof next);
  }
  uint32_t at = order[0];
  for (auto _ : state) {
    for (size_t i = 0; i < kBatchSize; ++i) std::memcpy(&at, f.data + size_t{at} * 64, sizeof at);
    benchmark::DoNotOptimize(at);
  }
  SetNsPerKey(state, static_cast<double>(kBatchSize));
}

using KernelOp = void (*)(benchmark::State&, const bb_kernel_table&, ProbeData&);

}  // namespace

void RegisterScalingBenchmarks() {
  const struct {
    const char* name;
    KernelOp fn;
  } ops[] = {{"union", &Union},
             {"insert_batch_threads1", &InsertBatchThreads<1>},
             {"insert_batch_threads2", &InsertBatchThreads<2>}};
  for (const size_t bytes : kFilterBytes) {
    for (const auto& op : ops) {
      for (const char* isa : kIsaNames) {
        const bb_kernel_table* kernels = nullptr;
        if (bb_kernels_for_isa(isa, &kernels) != BB_OK) continue;
        const KernelOp fn = op.fn;
        benchmark::RegisterBenchmark(
            (std::string(op.name) + "/" + isa + "/" + std::to_string(bytes)).c_str(),
            [fn, kernels, bytes](benchmark::State& state) {
              if (ProbeData* data = ProbeDataOrSkip(state, bytes)) fn(state, *kernels, *data);
            });
      }
    }
    for (const auto& [name, fn] : {std::pair<const char*, void (*)(benchmark::State&, ProbeData&)>{
                                       "memory/random_loads/", &RandomLoads},
                                   {"memory/pointer_chase/", &PointerChase}}) {
      benchmark::RegisterBenchmark((std::string(name) + std::to_string(bytes)).c_str(),
                                   [fn = fn, bytes](benchmark::State& state) {
                                     if (ProbeData* data = ProbeDataOrSkip(state, bytes)) fn(state, *data);
                                   });
    }
  }
}

}  // namespace blockbloom_bench
