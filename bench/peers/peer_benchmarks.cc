// SPDX-License-Identifier: Apache-2.0
#include "peer_benchmarks.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "bench/bench_grid.h"
#include "bench/ns_per_key.h"
#include "peer_keys.h"

namespace blockbloom_peers {
namespace {

using blockbloom_bench::kKiB16;
using blockbloom_bench::kKiB512;
using blockbloom_bench::kMiB16;
using blockbloom_bench::kMiB512;

constexpr size_t kFindBytes[] = {kKiB16, kKiB512, kMiB16, kMiB512};
constexpr size_t kInsertBytes[] = {kKiB16, kMiB16};
// Inserted keys are generated and inserted in chunks of this many.
constexpr size_t kFillChunk = size_t{1} << 16;
// Filling filters this large takes seconds: say so on stderr, with the time.
constexpr size_t kNoisyFillBytes = size_t{64} << 20;

// One implementation's filters at one size: the filled one the finds probe
// and the empty one the inserts write to (it fills up as the runs go on,
// which changes no timing: an insert writes its block whatever the bits).
struct Filters {
  std::unique_ptr<PeerFilter> filled;
  std::unique_ptr<PeerFilter> insert_target;
  size_t cursor = 0;  // where the next run reads the probe pool
};

// Filters of one size at a time: moving on to the next size frees the last
// one's, so the 512 MiB cells need 512 MiB per implementation, not more.
class FilterCache {
 public:
  // nullptr after marking the run skipped with the reason.
  Filters* Get(benchmark::State& state, const PeerImpl& impl, size_t bytes, bool filled) {
    if (bytes != bytes_) {
      cache_.clear();
      bytes_ = bytes;
    }
    Filters& f = cache_[impl.name];
    std::unique_ptr<PeerFilter>& slot = filled ? f.filled : f.insert_target;
    if (slot == nullptr) {
      std::string error;
      slot = impl.make(bytes, &error);
      if (slot == nullptr || (filled && !Fill(*slot, bytes, &error))) {
        slot.reset();
        state.SkipWithError(error.c_str());
        return nullptr;
      }
    }
    return &f;
  }

 private:
  // Inserts the size's keys, then checks that the first chunk of them is
  // found: a peer wired up wrongly (a hash that is not the identity, a size
  // it rounded) shows as a false negative here, not as a fast cell.
  static bool Fill(PeerFilter& filter, size_t bytes, std::string* error) {
    const auto start = std::chrono::steady_clock::now();
    const size_t n = KeysFor(bytes).num_inserted;
    std::vector<uint64_t> chunk(kFillChunk);
    for (size_t done = 0; done < n; done += chunk.size()) {
      const size_t m = std::min(chunk.size(), n - done);
      for (size_t i = 0; i < m; ++i) chunk[i] = InsertedKey(done + i);
      filter.Insert(chunk.data(), m);
    }
    const size_t check = std::min(n, kFillChunk) / kBatchSize * kBatchSize;
    std::vector<uint8_t> bitmap(kBatchSize / 8);
    for (size_t done = 0; done < check; done += kBatchSize) {
      for (size_t i = 0; i < kBatchSize; ++i) chunk[i] = InsertedKey(done + i);
      if (filter.Find(chunk.data(), kBatchSize, bitmap.data()) != kBatchSize) {
        *error = "a false negative among the first inserted keys: the harness is wrong";
        return false;
      }
    }
    if (bytes >= kNoisyFillBytes) {
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      std::fprintf(stderr, "blockbloom_peers_bench: filled %zu MiB filter with %zu keys in %.1f s\n",
                   bytes >> 20, n, took.count());
    }
    return true;
  }

  size_t bytes_ = 0;
  std::map<std::string, Filters> cache_;
};

FilterCache& Cache() {
  static FilterCache cache;
  return cache;
}

// ns_per_key as blockbloom_bench reports it.
void ReportPerKey(benchmark::State& state) {
  blockbloom_bench::SetNsPerKey(state, static_cast<double>(kBatchSize));
}

void FindCell(benchmark::State& state, const PeerImpl& impl, size_t bytes) {
  Filters* f = Cache().Get(state, impl, bytes, true);
  if (f == nullptr) return;
  const std::vector<uint64_t>& probes = KeysFor(bytes).probes;
  std::vector<uint8_t> bitmap(kBatchSize / 8);
  size_t offset = f->cursor;
  size_t hits = 0;
  for (auto _ : state) {
    hits += f->filled->Find(probes.data() + offset, kBatchSize, bitmap.data());
    benchmark::DoNotOptimize(bitmap.data());
    benchmark::ClobberMemory();
    offset += kBatchSize;
    if (offset == probes.size()) offset = 0;
  }
  f->cursor = offset;
  ReportPerKey(state);
  const double keys = static_cast<double>(state.iterations()) * static_cast<double>(kBatchSize);
  if (keys > 0) state.counters["hit_rate"] = static_cast<double>(hits) / keys;
}

void InsertCell(benchmark::State& state, const PeerImpl& impl, size_t bytes) {
  Filters* f = Cache().Get(state, impl, bytes, false);
  if (f == nullptr) return;
  const std::vector<uint64_t>& probes = KeysFor(bytes).probes;
  size_t offset = f->cursor;
  for (auto _ : state) {
    f->insert_target->Insert(probes.data() + offset, kBatchSize);
    benchmark::ClobberMemory();
    offset += kBatchSize;
    if (offset == probes.size()) offset = 0;
  }
  f->cursor = offset;
  ReportPerKey(state);
}

using CellFn = void (*)(benchmark::State&, const PeerImpl&, size_t);

void Register(const char* op, CellFn fn, const PeerImpl& impl, size_t bytes) {
  const std::string name = std::string("peers/") + op + "/" + impl.name + "/" + std::to_string(bytes);
  benchmark::RegisterBenchmark(name.c_str(), [fn, impl, bytes](benchmark::State& state) {
    fn(state, impl, bytes);
  });
}

}  // namespace

void RegisterPeerBenchmarks(const std::vector<PeerImpl>& impls) {
  // Size outermost (benchmarks run in registration order): each size's
  // filters are built once, right before its first cell.
  for (const size_t bytes : kFindBytes) {
    for (const PeerImpl& impl : impls) {
      if (impl.find) Register("find", &FindCell, impl, bytes);
    }
    for (const size_t insert_bytes : kInsertBytes) {
      if (insert_bytes != bytes) continue;
      for (const PeerImpl& impl : impls) {
        if (impl.insert) Register("insert", &InsertCell, impl, bytes);
      }
    }
  }
}

}  // namespace blockbloom_peers
