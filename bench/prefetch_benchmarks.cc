// SPDX-License-Identifier: Apache-2.0
#include "prefetch_benchmarks.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "src/core/kernel_table.h"
#include "src/kernels/prefetch.h"
#include "bench_grid.h"
#include "ns_per_key.h"
#include "tools/common/random_lines.h"
#include "tools/common/scoped_prefetch.h"
#include "probe_data.h"
#include "probe_loop.h"

namespace blockbloom_bench {
namespace {

using blockbloom_tools::kSweepDistances;
using blockbloom_tools::ScopedPrefetch;
using blockbloom_tools::kSweepHints;

// The sizes the sweeps run at, both prefetched by the kernels (1 MiB and up):
// L3-sized -- on the reference VM the shared L3 keeps a 16 MiB buffer on some
// days and not on others, which moves the best setting -- and DRAM-sized.
constexpr size_t kSweepBytes[] = {kMiB16, kMiB512};

// The best hint and distance of memory/prefetch_sweep on the reference
// machine, which memory/prefetched_random_lines runs with: the ceiling the
// DRAM-sized find_batch_bitmap and insert_batch targets are stated against.
// At 512 MiB the distance matters, not the hint; at 16 MiB the buffer mostly
// sits in the L3 and only an L1 fill keeps up. The sweeps that chose them are
// in docs/benchmarks.md ("Memory limits"); re-measure (scripts/bench --full,
// or blockbloom tune) when the machine changes.
struct BestPrefetch {
  size_t bytes;
  int hint;
  size_t distance;
};
constexpr BestPrefetch kBestPrefetch[] = {
    {kMiB16, BB_PREFETCH_L1, 192},
    {kMiB512, BB_PREFETCH_L1, 128},
};

// Random lines an iteration of the memory benchmarks reads. More than a
// kernel batch: the last `distance` keys of a call have nothing left to
// prefetch, and at 256 ahead in a 1024-key call that would be a quarter of
// the keys -- the edge of the call, not the memory system, would be timed.
constexpr size_t kLinesPerIteration = 8 * kBatchSize;

std::string HintName(int hint) {
  const char* name = bb_prefetch_hint_name(hint);
  return name != nullptr ? name : "?";
}

// The probe pool read kLinesPerIteration at a time from the shared cursor.
void RandomLinesLoop(benchmark::State& state, ProbeData& data, int hint, size_t distance) {
  const bb_filter& f = data.filled();
  const std::vector<uint64_t>& probes = data.probes();
  size_t offset = data.cursor();
  for (auto _ : state) {
    if (offset + kLinesPerIteration > probes.size()) offset = 0;
    benchmark::DoNotOptimize(blockbloom_tools::RandomLines(
        f.data, f.num_blocks, probes.data() + offset, kLinesPerIteration, hint, distance));
    offset += kLinesPerIteration;
  }
  // Stay on batch boundaries: the kernel benchmarks step the cursor by kBatchSize.
  data.cursor() = offset % probes.size();
  SetNsPerKey(state, static_cast<double>(kLinesPerIteration));
}

// Random read-modify-writes of one 8-byte word of each block: what an insert
// does to memory (a dirty line costs a write-back as well as a read), with
// the best prefetch. Blocks of hashes[0 .. n) within [first_block,
// first_block + num_blocks) of the buffer.
template <int kLocality>
uint64_t UpdateRandomBlocks(uint8_t* buffer, uint32_t first_block, uint32_t num_blocks,
                            const uint64_t* hashes, size_t n, size_t distance) {
  const auto block = [&](uint64_t h) {
    return buffer +
           (size_t{first_block} + blockbloom::internal::ParquetLayout::Block(h, num_blocks)) * 32;
  };
  uint64_t touched = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i + distance < n) __builtin_prefetch(block(hashes[i + distance]), 1, kLocality);
    uint8_t* p = block(hashes[i]);
    uint64_t word;
    std::memcpy(&word, p, sizeof word);
    word |= uint64_t{1} << (hashes[i] & 63);
    std::memcpy(p, &word, sizeof word);
    touched += word & 1;
  }
  return touched;
}

uint64_t UpdateRandom(uint8_t* buffer, uint32_t first_block, uint32_t num_blocks,
                      const uint64_t* hashes, size_t n, int hint, size_t distance) {
  switch (hint) {
    case BB_PREFETCH_L1: return UpdateRandomBlocks<3>(buffer, first_block, num_blocks, hashes, n, distance);
    case BB_PREFETCH_L3: return UpdateRandomBlocks<1>(buffer, first_block, num_blocks, hashes, n, distance);
    default: return UpdateRandomBlocks<2>(buffer, first_block, num_blocks, hashes, n, distance);
  }
}

// memory/prefetched_random_rmw[_threads2]/<bytes>: the same number of random
// block updates of the insert target by one thread over the whole buffer,
// or by two threads, each over its own half (as the partitioned build splits
// a filter), timed on the wall clock: what the memory system allows any 1-
// or 2-thread build. As many updates an iteration as that build's hashes
// (2^18), so that starting a thread is a small part of it.
constexpr size_t kUpdatesPerIteration = size_t{1} << 18;

void RandomUpdatesLoop(benchmark::State& state, ProbeData& data, int hint, size_t distance,
                       unsigned threads) {
  bb_filter& f = data.insert_target();
  const std::vector<uint64_t>& probes = data.probes();
  const size_t per_iteration = std::min(kUpdatesPerIteration, probes.size());
  size_t offset = 0;
  double wall_ns = 0;
  for (auto _ : state) {
    if (offset + per_iteration > probes.size()) offset = 0;
    const uint64_t* hashes = probes.data() + offset;
    const size_t share = per_iteration / threads;
    const uint32_t blocks_each = f.num_blocks / threads;
    const auto start = std::chrono::steady_clock::now();
    uint64_t other = 0;
    std::thread helper;
    if (threads == 2) {
      helper = std::thread([&] {
        other = UpdateRandom(f.data, blocks_each, blocks_each, hashes + share, share, hint, distance);
      });
    }
    benchmark::DoNotOptimize(UpdateRandom(f.data, 0, blocks_each, hashes, share, hint, distance));
    if (helper.joinable()) helper.join();
    benchmark::DoNotOptimize(other);
    benchmark::ClobberMemory();
    wall_ns += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                   .count();
    offset += per_iteration;
  }
  const double updates = static_cast<double>(state.iterations()) * static_cast<double>(per_iteration);
  state.SetItemsProcessed(static_cast<int64_t>(updates));
  state.counters["ns_per_key"] = updates > 0 ? wall_ns / updates : 0.0;
}

// A set hint and distance apply to every size from the first prefetch class
// up; below it (a filter in the L2) the library never prefetches. The
// sweeps also ask whether a prefetch would pay there, so while a cell with
// a set hint runs, one class starting at the first byte is in force (the
// default cells keep the detected classes).
constexpr blockbloom::internal::PrefetchClasses kEverySize = {1, {{1, BB_PREFETCH_L1, 32}}};

class ScopedSweepSetting {
 public:
  ScopedSweepSetting(int hint, size_t distance)
      : prefetch_(hint, distance), classes_(blockbloom::internal::g_prefetch_classes.load()) {
    if (hint != BB_PREFETCH_DEFAULT) blockbloom::internal::g_prefetch_classes.store(&kEverySize);
  }
  ~ScopedSweepSetting() { blockbloom::internal::g_prefetch_classes.store(classes_); }
  ScopedSweepSetting(const ScopedSweepSetting&) = delete;
  ScopedSweepSetting& operator=(const ScopedSweepSetting&) = delete;

 private:
  ScopedPrefetch prefetch_;
  const blockbloom::internal::PrefetchClasses* classes_;
};

void FindSweep(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data,
               int hint, size_t distance) {
  const ScopedSweepSetting setting(hint, distance);
  ProbeLoop(state, data, true, [&](const Placement& p, const uint64_t* hashes) {
    const size_t hits = kernels.find_batch_bitmap(p.filled.data, p.filled.num_blocks, hashes,
                                                  kBatchSize, p.bitmap);
    benchmark::DoNotOptimize(p.bitmap);
    benchmark::ClobberMemory();
    return hits;
  });
}

void InsertSweep(benchmark::State& state, const bbi_kernel_table& kernels, ProbeData& data,
                 int hint, size_t distance) {
  const ScopedSweepSetting setting(hint, distance);
  ProbeLoop(state, data, false, [&](const Placement& p, const uint64_t* hashes) {
    kernels.insert_batch(p.insert_target.data, p.insert_target.num_blocks, hashes, kBatchSize);
    benchmark::ClobberMemory();
    return size_t{0};
  });
}

// Every (hint, distance) of the grid; BB_PREFETCH_NONE once, at distance 0.
template <typename Fn>
void ForEachCell(Fn&& fn) {
  for (const int hint : kSweepHints) {
    if (hint == BB_PREFETCH_NONE) {
      fn(hint, size_t{0});
      continue;
    }
    for (const size_t distance : kSweepDistances) fn(hint, distance);
  }
}

std::string CellName(int hint, size_t distance, size_t bytes) {
  return HintName(hint) + "/" + std::to_string(distance) + "/" + std::to_string(bytes);
}

void RegisterMemory(size_t bytes) {
  ForEachCell([&](int hint, size_t distance) {
    benchmark::RegisterBenchmark(("memory/prefetch_sweep/" + CellName(hint, distance, bytes)).c_str(),
                                 [=](benchmark::State& state) {
                                   if (ProbeData* data = ProbeDataOrSkip(state, bytes)) {
                                     RandomLinesLoop(state, *data, hint, distance);
                                   }
                                 });
  });
  for (const BestPrefetch& best : kBestPrefetch) {
    if (best.bytes != bytes) continue;
    benchmark::RegisterBenchmark(
        ("memory/prefetched_random_lines/" + std::to_string(bytes)).c_str(),
        [best](benchmark::State& state) {
          if (ProbeData* data = ProbeDataOrSkip(state, best.bytes)) {
            RandomLinesLoop(state, *data, best.hint, best.distance);
            state.SetLabel(HintName(best.hint) + " at " + std::to_string(best.distance));
          }
        });
    if (bytes != kMiB512) continue;
    for (const unsigned threads : {1u, 2u}) {
      benchmark::RegisterBenchmark(
          ("memory/prefetched_random_rmw" + std::string(threads == 2 ? "_threads2/" : "/") +
           std::to_string(bytes)).c_str(),
          [best, threads](benchmark::State& state) {
            if (ProbeData* data = ProbeDataOrSkip(state, best.bytes)) {
              RandomUpdatesLoop(state, *data, best.hint, best.distance, threads);
              state.SetLabel(HintName(best.hint) + " at " + std::to_string(best.distance));
            }
          });
    }
  }
}

using SweepOp = void (*)(benchmark::State&, const bbi_kernel_table&, ProbeData&, int, size_t);

void RegisterKernelSweep(const char* op, SweepOp fn, const bbi_kernel_table* kernels,
                         const char* isa, int hint, size_t distance, size_t bytes) {
  benchmark::RegisterBenchmark(
      (std::string("prefetch_sweep/") + op + "/" + isa + "/" + CellName(hint, distance, bytes))
          .c_str(),
      [=](benchmark::State& state) {
        if (ProbeData* data = ProbeDataOrSkip(state, bytes)) fn(state, *kernels, *data, hint, distance);
      });
}

// The kernel sweeps' grid (issue 21): the size classes the default is chosen
// per -- L2-resident (512 KiB: does an L1 prefetch pay between the L1 and
// the L2? issue 35), L3-resident on the reference VM (2, 8, 16, 32 MiB; its
// L3 is 32 MiB) and DRAM-sized (512 MiB) -- and distances from the L2's
// short latency to past the memory sweep's 256, as L3 latency is lower and
// more keys fit in flight.
constexpr size_t kKernelSweepBytes[] = {kKiB512,          size_t{2} << 20,  size_t{8} << 20,
                                        kMiB16,           size_t{32} << 20, kMiB512};
constexpr size_t kKernelSweepDistances[] = {8, 16, 32, 64, 96, 128, 192, 256, 384};

// The grid, then the library's defaults by size class (hint "default",
// distance 0: src/kernels/prefetch.h), measured in the same interleaved run so
// that scripts/bench_table.py can hold the default against the best cell.
template <typename Fn>
void ForEachKernelCell(Fn&& fn) {
  fn(BB_PREFETCH_DEFAULT, size_t{0});
  for (const int hint : kSweepHints) {
    if (hint == BB_PREFETCH_NONE) {
      fn(hint, size_t{0});
      continue;
    }
    for (const size_t distance : kKernelSweepDistances) fn(hint, distance);
  }
}

// The tiers swept: the selected one and, below it, avx2 (the widest tier of
// most machines without AVX-512), each only if compiled and supported.
std::vector<std::pair<std::string, const bbi_kernel_table*>> SweptTiers() {
  std::vector<std::pair<std::string, const bbi_kernel_table*>> tiers;
  const std::string selected = bb_selected_isa();
  for (const std::string& isa : {selected, std::string("avx2")}) {
    const bbi_kernel_table* kernels = nullptr;
    const bool seen = !tiers.empty() && tiers.front().first == isa;
    if (!seen && bbi_kernels_for_isa(isa.c_str(), &kernels) == BB_OK) tiers.emplace_back(isa, kernels);
  }
  return tiers;
}

}  // namespace

void RegisterPrefetchBenchmarks() {
  const auto tiers = SweptTiers();
  // Size outermost, as everywhere: a size's data is built once, when first used.
  for (const size_t bytes : kKernelSweepBytes) {
    if (bytes == kMiB16 || bytes == kMiB512) RegisterMemory(bytes);
    for (const auto& [isa, kernels] : tiers) {
      ForEachKernelCell([&, isa = isa.c_str(), kernels = kernels](int hint, size_t distance) {
        RegisterKernelSweep("find_batch_bitmap", &FindSweep, kernels, isa, hint, distance, bytes);
        RegisterKernelSweep("insert_batch", &InsertSweep, kernels, isa, hint, distance, bytes);
      });
    }
  }
}

}  // namespace blockbloom_bench
