// SPDX-License-Identifier: Apache-2.0
#include "build_benchmarks.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "src/filter/build_ops.h"
#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "src/core/kernel_table.h"
#include "bench_grid.h"
#include "tools/common/splitmix64.h"

namespace blockbloom_bench {
namespace {

using blockbloom_tools::SplitMixAt;

// Whole builds: every key of a filter at this many keys per 32-byte block
// (about 10.7 bits per key: the sizing of a 1% filter).
constexpr size_t kKeysPerBlock = 24;

// The partition's input: 2^25 hashes (256 MiB, as much again written), more
// than the L3 of the machines measured, into parts of a 128 MiB filter.
constexpr size_t kPartitionKeys = size_t{1} << 25;
constexpr uint32_t kPartitionBlocks = uint32_t{128} << 15;  // 128 MiB of 32-byte blocks

// n pre-hashed keys (SplitMix64, seed by size), built once per count and
// kept: the largest builds hold gigabytes, so they are made only when run.
const std::vector<uint64_t>& KeysOf(size_t n) {
  static std::map<size_t, std::unique_ptr<std::vector<uint64_t>>> cache;
  std::unique_ptr<std::vector<uint64_t>>& keys = cache[n];
  if (!keys) {
    keys = std::make_unique<std::vector<uint64_t>>(n);
    for (size_t i = 0; i < n; ++i) (*keys)[i] = SplitMixAt(n, i);
  }
  return *keys;
}

void SetNsPerKey(benchmark::State& state, double keys, double wall_ns) {
  state.SetItemsProcessed(static_cast<int64_t>(keys));
  state.counters["ns_per_key"] = keys > 0 ? wall_ns / keys : 0.0;
}

// Times body() per iteration on the wall clock; keys per iteration given.
template <class Body>
void WallLoop(benchmark::State& state, size_t keys, Body&& body) {
  double wall_ns = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    body();
    benchmark::ClobberMemory();
    wall_ns += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  }
  SetNsPerKey(state, static_cast<double>(state.iterations()) * static_cast<double>(keys), wall_ns);
}

// partition_hashes/<isa>/parts:<P>: kPartitionKeys hashes into P parts of
// a 128 MiB filter (bb_partition_hashes's kernel), ns per key.
void PartitionHashes(benchmark::State& state, const bbi_kernel_table& kernels, uint32_t parts) {
  const std::vector<uint64_t>& keys = KeysOf(kPartitionKeys);
  std::vector<uint64_t> out(keys.size());
  std::vector<size_t> counts(parts);
  WallLoop(state, keys.size(), [&] {
    kernels.partition_hashes(kPartitionBlocks, keys.data(), keys.size(), parts, out.data(),
                             counts.data());
  });
}

// The filter of a build benchmark: owned, its pages touched once before
// timing (a build into fresh memory would also time the page faults).
struct BuildFilter {
  bb_filter f{};
  explicit BuildFilter(size_t bytes) {
    if (bb_filter_init(&f, bytes) == BB_OK) bb_filter_clear(&f);
  }
  ~BuildFilter() { bb_filter_release(&f); }
};

// build/insert_batch/<isa>/<bytes>: every key of the filter (kKeysPerBlock
// a block) in one insert_batch: the DRAM-bound loop the build replaces.
void BuildInsertBatch(benchmark::State& state, const bbi_kernel_table& kernels, size_t bytes) {
  BuildFilter filter(bytes);
  if (filter.f.data == nullptr) return state.SkipWithError("out of memory");
  const std::vector<uint64_t>& keys = KeysOf(size_t{filter.f.num_blocks} * kKeysPerBlock);
  WallLoop(state, keys.size(),
           [&] { kernels.insert_batch(filter.f.data, filter.f.num_blocks, keys.data(), keys.size()); });
}

// build/partition_then_insert/<isa>/<bytes>/parts:<P>: the public calls as
// a caller had them: partition_hashes into P parts, then insert_batch of
// each part (both timed).
void BuildPartitionThenInsert(benchmark::State& state, const bbi_kernel_table& kernels,
                              size_t bytes, uint32_t parts) {
  BuildFilter filter(bytes);
  if (filter.f.data == nullptr) return state.SkipWithError("out of memory");
  const std::vector<uint64_t>& keys = KeysOf(size_t{filter.f.num_blocks} * kKeysPerBlock);
  std::vector<uint64_t> out(keys.size());
  std::vector<size_t> counts(parts);
  WallLoop(state, keys.size(), [&] {
    kernels.partition_hashes(filter.f.num_blocks, keys.data(), keys.size(), parts, out.data(),
                             counts.data());
    size_t at = 0;
    for (uint32_t p = 0; p < parts; ++p) {
      kernels.insert_batch(filter.f.data, filter.f.num_blocks, out.data() + at, counts[p]);
      at += counts[p];
    }
  });
}

// The ranges a build cell runs in: range_bytes 0 = as bb_build_from_hashes
// chooses (BuildParts: one batch insert below BuildPartitionMinBytes(): 1
// GiB, or twice a larger L3), else ranges of range_bytes (the sweep).
uint32_t BuildRanges(size_t bytes, size_t range_bytes) {
  if (range_bytes == 0) {
    return blockbloom::internal::BuildParts(bytes, blockbloom::internal::BuildPartitionMinBytes());
  }
  return static_cast<uint32_t>(std::min<size_t>(bytes / range_bytes, BBI_BUILD_MAX_PARTS));
}

// build/from_hashes/<isa>/<bytes>[/range:<KiB>]: the build kernel
// (bb_build_from_hashes's) in the ranges of BuildRanges, with a caller's
// scratch kept across iterations (its pages touched before timing); without
// a range size it is the call as made, so the Targets row reads the call.
void BuildFromHashes(benchmark::State& state, const bbi_kernel_table& kernels, size_t bytes,
                     size_t range_bytes) {
  BuildFilter filter(bytes);
  if (filter.f.data == nullptr) return state.SkipWithError("out of memory");
  const std::vector<uint64_t>& keys = KeysOf(size_t{filter.f.num_blocks} * kKeysPerBlock);
  const uint32_t parts = BuildRanges(bytes, range_bytes);
  std::vector<uint64_t> scratch(parts > 1 ? keys.size() : 0);
  WallLoop(state, keys.size(), [&] {
    kernels.build_from_hashes(filter.f.data, filter.f.num_blocks, keys.data(), keys.size(),
                              scratch.data(), parts, 0, parts);
  });
}

// build/from_hashes_threads2/<isa>/<bytes>[/range:<KiB>]: the build of
// bb_build_from_hashes_partition on two threads, each over every key with
// its part (one scratch shared): as the call runs it (below the partition's
// threshold the two halves of insert_batch_range), or partitioned into
// ranges of the given size, each thread bucketing and inserting its half of
// them. Wall time per key.
void BuildFromHashesThreads2(benchmark::State& state, const bbi_kernel_table& kernels, size_t bytes,
                             size_t range_bytes) {
  BuildFilter filter(bytes);
  if (filter.f.data == nullptr) return state.SkipWithError("out of memory");
  const std::vector<uint64_t>& keys = KeysOf(size_t{filter.f.num_blocks} * kKeysPerBlock);
  const uint32_t z = filter.f.num_blocks;
  const uint32_t parts = BuildRanges(bytes, range_bytes);
  std::vector<uint64_t> scratch(parts > 1 ? keys.size() : 0);
  const auto build = [&](uint32_t t) {
    if (parts == 1) {
      kernels.insert_batch_range(filter.f.data, z, keys.data(), keys.size(),
                                 blockbloom::internal::PartFirstBlock(t, 2, z),
                                 blockbloom::internal::PartFirstBlock(t + 1, 2, z));
    } else {
      kernels.build_from_hashes(filter.f.data, z, keys.data(), keys.size(), scratch.data(), parts,
                                t * parts / 2, (t + 1) * parts / 2);
    }
  };
  WallLoop(state, keys.size(), [&] {
    std::thread other([&] { build(1); });
    build(0);
    other.join();
  });
}

// build/api_own_scratch/<bytes>: bb_build_from_hashes with scratch NULL, as
// a caller without scratch makes it. At the sizes registered (below the
// partition threshold) that is one bb_insert_batch and nothing allocated; a
// partitioned call would map (and fault in) its scratch every time.
void BuildApiOwnScratch(benchmark::State& state, size_t bytes) {
  BuildFilter filter(bytes);
  if (filter.f.data == nullptr) return state.SkipWithError("out of memory");
  const std::vector<uint64_t>& keys = KeysOf(size_t{filter.f.num_blocks} * kKeysPerBlock);
  WallLoop(state, keys.size(), [&] {
    if (bb_build_from_hashes(&filter.f, keys.data(), keys.size(), nullptr) != BB_OK) {
      state.SkipWithError("bb_build_from_hashes failed");
    }
  });
}

}  // namespace

void RegisterBuildBenchmarks() {
  for (const size_t bytes : {kMiB16, size_t{128} << 20, kMiB512}) {
    benchmark::RegisterBenchmark(("build/api_own_scratch/" + std::to_string(bytes)).c_str(),
                                 [bytes](benchmark::State& state) { BuildApiOwnScratch(state, bytes); })
        ->Unit(benchmark::kMillisecond);
  }
  for (const char* isa : IsaNames()) {
    const bbi_kernel_table* kernels = nullptr;
    if (bbi_kernels_for_isa(isa, &kernels) != BB_OK) continue;
    for (const uint32_t parts : {2u, 8u, 16u, 32u, 64u, 128u, 256u, 512u}) {
      benchmark::RegisterBenchmark(
          (std::string("partition_hashes/") + isa + "/parts:" + std::to_string(parts)).c_str(),
          [kernels, parts](benchmark::State& state) { PartitionHashes(state, *kernels, parts); })
          ->Unit(benchmark::kMillisecond);
    }
    for (const size_t bytes : {kMiB16, size_t{128} << 20, kMiB512}) {
      const std::string size = std::to_string(bytes);
      benchmark::RegisterBenchmark(
          (std::string("build/insert_batch/") + isa + "/" + size).c_str(),
          [kernels, bytes](benchmark::State& state) { BuildInsertBatch(state, *kernels, bytes); })
          ->Unit(benchmark::kMillisecond);
      const uint32_t range_parts = static_cast<uint32_t>(bytes >> 20);  // 1 MiB ranges
      benchmark::RegisterBenchmark(
          (std::string("build/partition_then_insert/") + isa + "/" + size + "/parts:" +
           std::to_string(range_parts)).c_str(),
          [kernels, bytes, range_parts](benchmark::State& state) {
            BuildPartitionThenInsert(state, *kernels, bytes, range_parts);
          })
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(
          (std::string("build/from_hashes/") + isa + "/" + size).c_str(),
          [kernels, bytes](benchmark::State& state) { BuildFromHashes(state, *kernels, bytes, 0); })
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(
          (std::string("build/from_hashes_threads2/") + isa + "/" + size).c_str(),
          [kernels, bytes](benchmark::State& state) { BuildFromHashesThreads2(state, *kernels, bytes, 0); })
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(
          (std::string("build/from_hashes_threads2/") + isa + "/" + size + "/range:1024").c_str(),
          [kernels, bytes](benchmark::State& state) {
            BuildFromHashesThreads2(state, *kernels, bytes, size_t{1} << 20);
          })
          ->Unit(benchmark::kMillisecond);
      for (const size_t range_kib : {256u, 512u, 1024u, 2048u, 4096u}) {
        benchmark::RegisterBenchmark(
            (std::string("build/from_hashes/") + isa + "/" + size + "/range:" +
             std::to_string(range_kib)).c_str(),
            [kernels, bytes, range_kib](benchmark::State& state) {
              BuildFromHashes(state, *kernels, bytes, size_t{range_kib} << 10);
            })
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
}

}  // namespace blockbloom_bench
