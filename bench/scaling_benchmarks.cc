// SPDX-License-Identifier: Apache-2.0
#include "scaling_benchmarks.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "src/core/block_op.h"
#include "src/core/kernel_table.h"
#include "bench_grid.h"
#include "ns_per_key.h"
#include "placements.h"
#include "probe_data.h"
#include "tools/common/splitmix64.h"

namespace blockbloom_bench {
namespace {

using blockbloom_tools::SplitMix64;

// The multi-threaded build hands each thread this many hashes per round, so
// that starting the threads is a small part of a round.
constexpr size_t kThreadChunk = size_t{1} << 18;

// union/<isa>/<bytes>: ORs the filled filter into the insert target. Per key
// means per key the filter holds at 10.67 bits per key. Averaged over the
// placements of in-cache filters, as the kernel benchmarks are.
void Union(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  const std::vector<Placement>& placements = data.placements();
  PlacementSchedule schedule(placements.size(), state.max_iterations);
  for (auto _ : state) {
    const Placement& p = placements[schedule.Next()];
    kernels.union_bytes(p.insert_target.data, p.filled.data, p.filled.num_bytes);
    benchmark::ClobberMemory();
  }
  SetNsPerKey(state, static_cast<double>(data.num_keys()));
}

// The threads benchmarks: each iteration runs work(t, hashes, n) on threads
// t = 0 .. kThreads-1 (thread 0 is the benchmark's own; the others are
// started for the iteration, as a build would hand out a task) over the next
// kThreadChunk probe hashes, timed on the wall clock: google-benchmark's CPU
// time would count only this thread's share of the work.
template <uint32_t kThreads, class Work>
void ThreadsLoop(benchmark::State& state, ProbeData& data, Work&& work) {
  const std::vector<uint64_t>& probes = data.probes();
  const size_t chunk = std::min(kThreadChunk, probes.size());
  size_t offset = 0;
  double wall_ns = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    if (offset + chunk > probes.size()) offset = 0;
    const uint64_t* hashes = probes.data() + offset;
    std::vector<std::thread> others;
    for (uint32_t t = 1; t < kThreads; ++t) others.emplace_back([&, t] { work(t, hashes, chunk); });
    work(0, hashes, chunk);
    for (std::thread& t : others) t.join();
    offset += chunk;
    benchmark::ClobberMemory();
    wall_ns += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  }
  const double keys = static_cast<double>(state.iterations()) * static_cast<double>(chunk);
  state.SetItemsProcessed(static_cast<int64_t>(keys));
  state.counters["ns_per_key"] = keys > 0 ? wall_ns / keys : 0.0;
}

// The first of n keys that thread t of kThreads takes: a multiple of 8, so
// that no two threads write one byte of a bitmap.
template <uint32_t kThreads>
size_t SliceStart(size_t n, uint32_t t) {
  return t == kThreads ? n : n * t / kThreads / 8 * 8;
}

// insert_batch_threads<T>/<isa>/<bytes>: T threads fill one filter through
// the partitioned insert (each takes every hash, inserts its block range).
template <uint32_t kThreads>
void InsertBatchThreads(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  bb_filter& f = data.insert_target();
  ThreadsLoop<kThreads>(state, data, [&](uint32_t t, const uint64_t* hashes, size_t n) {
    kernels.insert_batch_range(f.data, f.num_blocks, hashes, n,
                               blockbloom::internal::PartFirstBlock(t, kThreads, f.num_blocks),
                               blockbloom::internal::PartFirstBlock(t + 1, kThreads, f.num_blocks));
  });
}

// Waits until all `threads` threads have arrived, reusable (spinning: the
// build's threads each have a core; a sleep would cost more than the wait).
// The last to arrive resets the count, then opens the next generation.
class SpinBarrier {
 public:
  explicit SpinBarrier(uint32_t threads) : threads_(threads) {}
  void ArriveAndWait() {
    const uint32_t generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
      return;
    }
    while (generation_.load(std::memory_order_acquire) == generation) std::this_thread::yield();
  }

 private:
  const uint32_t threads_;
  std::atomic<uint32_t> arrived_{0};
  std::atomic<uint32_t> generation_{0};
};

// insert_batch_radix_threads<T>/<isa>/<bytes>: T threads fill one filter by
// the recipe of docs/concurrency.md, partition and insert both timed: thread
// s partitions its 1/T slice of the hashes into T parts (partition_hashes),
// all wait, then thread t inserts part t of every slice (insert_batch).
template <uint32_t kThreads>
void InsertBatchRadixThreads(benchmark::State& state, const bbi_kernel_table& kernels,
                             ProbeData& data) {
  bb_filter& f = data.insert_target();
  std::vector<uint64_t> out(kThreadChunk);
  size_t counts[kThreads][kThreads];
  SpinBarrier barrier(kThreads);
  ThreadsLoop<kThreads>(state, data, [&](uint32_t t, const uint64_t* hashes, size_t n) {
    const size_t first = SliceStart<kThreads>(n, t);
    kernels.partition_hashes(f.num_blocks, hashes + first, SliceStart<kThreads>(n, t + 1) - first,
                             kThreads, out.data() + first, counts[t]);
    barrier.ArriveAndWait();
    for (uint32_t s = 0; s < kThreads; ++s) {
      size_t at = SliceStart<kThreads>(n, s);
      for (uint32_t p = 0; p < t; ++p) at += counts[s][p];
      kernels.insert_batch(f.data, f.num_blocks, out.data() + at, counts[s][t]);
    }
  });
}

// partition_hashes_parts2/<isa>/<bytes>: one thread's share of the radix
// build's partition: half the hashes of an iteration of the 2-thread build
// into 2 parts, CPU time per key (not in scripts/bench: insert_batch_radix_
// threads2 includes it; this says how much of it the partition is).
void PartitionHashesParts2(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  const bb_filter& f = data.filled();
  const std::vector<uint64_t>& probes = data.probes();
  const size_t n = std::min(kThreadChunk / 2, probes.size());
  std::vector<uint64_t> out(n);
  size_t counts[2];
  size_t offset = 0;
  for (auto _ : state) {
    if (offset + n > probes.size()) offset = 0;
    kernels.partition_hashes(f.num_blocks, probes.data() + offset, n, 2, out.data(), counts);
    benchmark::DoNotOptimize(counts);
    benchmark::ClobberMemory();
    offset += n;
  }
  SetNsPerKey(state, static_cast<double>(n));
}

// find_batch_threads<T>/<isa>/<bytes>: T threads probe one shared filter,
// each find_batch_bitmap over its 1/T of the hashes (split at a multiple of
// 8 keys, so each writes its own bytes of the one bitmap).
template <uint32_t kThreads>
void FindBatchThreads(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data) {
  const bb_filter& f = data.filled();
  std::vector<uint8_t> bitmap(kThreadChunk / 8 + 1);
  ThreadsLoop<kThreads>(state, data, [&](uint32_t t, const uint64_t* hashes, size_t n) {
    const size_t first = SliceStart<kThreads>(n, t);
    benchmark::DoNotOptimize(kernels.find_batch_bitmap(f.data, f.num_blocks, hashes + first,
                                                       SliceStart<kThreads>(n, t + 1) - first,
                                                       bitmap.data() + first / 8));
  });
}

// memory/random_loads/<bytes>: independent loads of random cache lines of a
// buffer, as many in flight as the core allows: the DRAM throughput ceiling
// for one block per key.
void RandomLoads(benchmark::State& state, ProbeData& data) {
  const bb_filter& f = data.filled();
  const std::vector<uint64_t>& probes = data.probes();
  // Each hash picks one of the buffer's lines as a Parquet filter picks a block.
  const uint32_t lines = static_cast<uint32_t>(f.num_bytes / 64);
  const auto line_of = [lines](uint64_t h) -> size_t {
    return blockbloom::internal::ParquetLayout::Block(h, lines);
  };
  size_t offset = 0;
  for (auto _ : state) {
    uint64_t sum = 0;
    for (size_t i = 0; i < kBatchSize; ++i) {
      sum += f.data[line_of(probes[offset + i]) * 64];
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

using KernelOp = void (*)(benchmark::State&, const bbi_kernel_table&, ProbeData&);

}  // namespace

void RegisterScalingBenchmarks() {
  const struct {
    const char* name;
    KernelOp fn;
  } ops[] = {{"union", &Union},
             {"insert_batch_threads1", &InsertBatchThreads<1>},
             {"insert_batch_threads2", &InsertBatchThreads<2>},
             {"insert_batch_radix_threads2", &InsertBatchRadixThreads<2>},
             {"find_batch_threads1", &FindBatchThreads<1>},
             {"find_batch_threads2", &FindBatchThreads<2>},
             {"partition_hashes_parts2", &PartitionHashesParts2}};
  for (const size_t bytes : kFilterBytes) {
    for (const auto& op : ops) {
      for (const char* isa : IsaNames()) {
        const bbi_kernel_table* kernels = nullptr;
        if (bbi_kernels_for_isa(isa, &kernels) != BB_OK) continue;
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
