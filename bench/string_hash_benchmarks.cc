// SPDX-License-Identifier: Apache-2.0
// See string_hash_benchmarks.h. libxxhash here is the shared library's
// XXH64 (no XXH_INLINE_ALL): what an engine linking libxxhash calls.
#include "string_hash_benchmarks.h"

#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_grid.h"
#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "ns_per_key.h"
#include "src/core/kernel_table.h"
#include "tools/common/splitmix64.h"
#include "xxh64_inline_loop.h"

namespace blockbloom_bench {
namespace {

using blockbloom_tools::SplitMix64;

struct StringPool {
  std::vector<uint8_t> data;
  std::vector<int32_t> offsets;  // rows + 1
  size_t rows = 0;
  size_t batch = 0;  // strings an iteration
};

// rows == 0: the default pool of its lengths (64 Ki short strings, about
// 1 MiB, or one batch of long ones); else that many rows (a DRAM-sized pool
// when large: each batch's strings come from memory).
const StringPool& Pool(size_t min_len, size_t max_len, size_t rows = 0) {
  static StringPool short_pool, long_pool, large_pool;
  StringPool& pool = rows != 0 ? large_pool : max_len <= 32 ? short_pool : long_pool;
  if (pool.rows != 0) return pool;
  pool.batch = max_len <= 32 ? 1024 : 256;
  pool.rows = rows != 0 ? rows : max_len <= 32 ? size_t{1} << 16 : pool.batch;
  SplitMix64 rng(0x737472 + max_len);
  pool.offsets.push_back(0);
  for (size_t i = 0; i < pool.rows; ++i) {
    const size_t len = min_len + rng.Next() % (max_len - min_len + 1);
    for (size_t k = 0; k < len; ++k) pool.data.push_back(static_cast<uint8_t>(rng.Next()));
    pool.offsets.push_back(static_cast<int32_t>(pool.data.size()));
  }
  return pool;
}

// hash(pool, first row, hashes) hashes pool.batch strings from row first.
template <typename Hash>
void StringLoop(benchmark::State& state, const StringPool& pool, Hash&& hash) {
  std::vector<uint64_t> hashes(pool.batch);
  size_t row = 0;
  for (auto _ : state) {
    hash(row, hashes.data());
    benchmark::DoNotOptimize(hashes.data());
    benchmark::ClobberMemory();
    row += pool.batch;
    if (row == pool.rows) row = 0;
  }
  SetNsPerKey(state, static_cast<double>(pool.batch));
}

}  // namespace

void RegisterStringHashBenchmarks() {
  // 0..32 bytes from a 1 MiB pool (in cache) and from a 4 Mi-string one
  // (64 MiB of data and 16 MiB of offsets: DRAM); long strings.
  const struct {
    const char* name;
    size_t min_len, max_len, rows;
  } kLengths[] = {{"0_32", 0, 32, 0}, {"0_32_dram", 0, 32, size_t{1} << 22}, {"100_4096", 100, 4096, 0}};
  for (const auto& l : kLengths) {
    const size_t min_len = l.min_len, max_len = l.max_len, rows = l.rows;
    const size_t batch = max_len <= 32 ? 1024 : 256;
    const std::string prefix = std::string("string_hash/") + l.name + "/";
    benchmark::RegisterBenchmark((prefix + "libxxhash/" + std::to_string(batch)).c_str(),
                                 [min_len, max_len, rows](benchmark::State& state) {
      const StringPool& pool = Pool(min_len, max_len, rows);
      StringLoop(state, pool, [&](size_t first, uint64_t* out) {
        const int32_t* offs = pool.offsets.data() + first;
        for (size_t i = 0; i < pool.batch; ++i) {
          out[i] = XXH64(pool.data.data() + offs[i], static_cast<size_t>(offs[i + 1] - offs[i]), 0);
        }
      });
    });
    benchmark::RegisterBenchmark((prefix + "xxh64_inline/" + std::to_string(batch)).c_str(),
                                 [min_len, max_len, rows](benchmark::State& state) {
      const StringPool& pool = Pool(min_len, max_len, rows);
      StringLoop(state, pool, [&](size_t first, uint64_t* out) {
        InlineXxh64Strings(pool.data.data(), pool.offsets.data() + first, pool.batch, out);
      });
    });
    // Through the public column calls, the active tier: Parquet's XXH64
    // beside Kudu's FastHash32 (seed 0) of the same BYTE_ARRAY rows.
    for (const bool kudu : {false, true}) {
      const std::string op = kudu ? "kudu_hash_column/" : "parquet_hash_column/";
      benchmark::RegisterBenchmark((prefix + op + std::to_string(batch)).c_str(),
                                   [min_len, max_len, rows, kudu](benchmark::State& state) {
        const StringPool& pool = Pool(min_len, max_len, rows);
        std::vector<uint32_t> hashes32(pool.batch);
        StringLoop(state, pool, [&](size_t first, uint64_t* out) {
          bb_column col = BB_COLUMN_INIT;
          col.type = BB_TYPE_BYTE_ARRAY;
          col.length = pool.batch;
          col.offsets = pool.offsets.data() + first;
          col.data = pool.data.data();
          col.data_len = pool.data.size();
          const int status = kudu ? bb_kudu_hash_column(&col, 0, hashes32.data(), nullptr)
                                  : bb_parquet_hash_column(&col, out, nullptr);
          if (status != BB_OK) state.SkipWithError(bb_status_message(status));
          if (kudu) out[0] = hashes32[0];
        });
      });
    }
    for (const char* isa : IsaNames()) {
      const bbi_kernel_table* kernels = nullptr;
      if (bbi_kernels_for_isa(isa, &kernels) != BB_OK) continue;
      benchmark::RegisterBenchmark((prefix + isa + "/" + std::to_string(batch)).c_str(),
                                   [min_len, max_len, rows, kernels](benchmark::State& state) {
        const StringPool& pool = Pool(min_len, max_len, rows);
        StringLoop(state, pool, [&](size_t first, uint64_t* out) {
          kernels->parquet_hash_byte_array32(pool.data.data(), pool.data.size(),
                                             pool.offsets.data() + first, pool.batch, out);
        });
      });
      // Kudu's FastHash32 (seed 0) of the same strings.
      benchmark::RegisterBenchmark(("kudu_" + prefix + isa + "/" + std::to_string(batch)).c_str(),
                                   [min_len, max_len, rows, kernels](benchmark::State& state) {
        const StringPool& pool = Pool(min_len, max_len, rows);
        std::vector<uint32_t> hashes32(pool.batch);
        StringLoop(state, pool, [&](size_t first, uint64_t* out) {
          kernels->kudu_hash_byte_array32(pool.data.data(), pool.data.size(),
                                          pool.offsets.data() + first, pool.batch, 0, hashes32.data());
          out[0] = hashes32[0];
        });
      });
    }
  }
}

}  // namespace blockbloom_bench
