// SPDX-License-Identifier: Apache-2.0
#include "reference_loop.h"

#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/tuning.h"
#include "src/core/block_op.h"
#include "src/core/kernel_table.h"
#include "bench_grid.h"
#include "probe_data.h"
#include "probe_loop.h"

namespace blockbloom_bench {
namespace {

#define BLOCKBLOOM_REFERENCE_TARGET __attribute__((target("avx2,avx512f,avx512vl,bmi2")))

// __builtin_prefetch wants constants: 3 = prefetcht0 (l1), 2 = t1 (l2). A
// read prefetch for the insert too, as the library's: without PRFCHW in the
// target GCC turns a write prefetch into the same prefetcht0 / t1.
template <int kHint>
inline void Prefetch(const uint8_t* p) {
  if constexpr (kHint == BB_PREFETCH_L1) __builtin_prefetch(p, 0, 3);
  if constexpr (kHint == BB_PREFETCH_L2) __builtin_prefetch(p, 0, 2);
}

// The 8 bits of a key, one per 32-bit lane: 1 << ((key * salt) >> 27).
BLOCKBLOOM_REFERENCE_TARGET inline __m256i Mask(uint64_t hash, __m256i salts) {
  const __m256i product = _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(hash)), salts);
  return _mm256_sllv_epi32(_mm256_set1_epi32(1), _mm256_srli_epi32(product, 27));
}

// The byte offsets of the blocks of hashes[0 .. n), n a multiple of 8, 8 a
// vector: (hash >> 32) * num_blocks >> 32, times 32. (GCC 12's AVX-512 shift
// intrinsics start from an "undefined" vector it then warns about.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
BLOCKBLOOM_REFERENCE_TARGET inline void Offsets(const uint64_t* hashes, size_t n, uint32_t num_blocks,
                                                uint64_t* out) {
  const __m512i blocks = _mm512_set1_epi64(num_blocks);
  for (size_t i = 0; i < n; i += 8) {
    const __m512i high = _mm512_srli_epi64(_mm512_loadu_si512(hashes + i), 32);
    _mm512_storeu_si512(out + i, _mm512_slli_epi64(_mm512_srli_epi64(_mm512_mul_epu32(high, blocks), 32), 5));
  }
}
#pragma GCC diagnostic pop

// At most this many keys' offsets at a time, on the stack.
constexpr size_t kOffsetBatch = 1024;

// Both loops: n a multiple of 8. Per 1024 keys, every block's offset first,
// 8 keys a vector instruction, then the keys one by one, each prefetching
// the block `distance` keys ahead (within those 1024: the benchmarks' batch).
// A bitmap byte per 8 keys.
template <int kHint>
BLOCKBLOOM_REFERENCE_TARGET size_t ReferenceFind(const uint8_t* blocks, uint32_t num_blocks,
                                                 const uint64_t* hashes, size_t n, size_t distance,
                                                 uint8_t* bitmap) {
  const __m256i salts = _mm256_load_si256(reinterpret_cast<const __m256i*>(blockbloom::internal::kSalts));
  uint64_t offsets[kOffsetBatch];
  size_t hits = 0;
  for (size_t base = 0; base < n; base += kOffsetBatch) {
    const size_t len = std::min(kOffsetBatch, n - base);
    Offsets(hashes + base, len, num_blocks, offsets);
    for (size_t i = 0; i < len; i += 8) {
      unsigned byte = 0;
      for (size_t j = i; j < i + 8; ++j) {
        if (kHint != BB_PREFETCH_NONE && j + distance < len) Prefetch<kHint>(blocks + offsets[j + distance]);
        const __m256i block = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blocks + offsets[j]));
        byte |= static_cast<unsigned>(_mm256_testc_si256(block, Mask(hashes[base + j], salts))) << (j - i);
      }
      bitmap[(base + i) / 8] = static_cast<uint8_t>(byte);
      hits += static_cast<size_t>(__builtin_popcount(byte));
    }
  }
  return hits;
}

template <int kHint>
BLOCKBLOOM_REFERENCE_TARGET void ReferenceInsert(uint8_t* blocks, uint32_t num_blocks,
                                                 const uint64_t* hashes, size_t n, size_t distance) {
  const __m256i salts = _mm256_load_si256(reinterpret_cast<const __m256i*>(blockbloom::internal::kSalts));
  uint64_t offsets[kOffsetBatch];
  for (size_t base = 0; base < n; base += kOffsetBatch) {
    const size_t len = std::min(kOffsetBatch, n - base);
    Offsets(hashes + base, len, num_blocks, offsets);
    for (size_t i = 0; i < len; ++i) {
      if (kHint != BB_PREFETCH_NONE && i + distance < len) Prefetch<kHint>(blocks + offsets[i + distance]);
      auto* block = reinterpret_cast<__m256i*>(blocks + offsets[i]);
      _mm256_storeu_si256(block, _mm256_or_si256(_mm256_loadu_si256(block), Mask(hashes[base + i], salts)));
    }
  }
}

using FindFn = size_t (*)(const uint8_t*, uint32_t, const uint64_t*, size_t, size_t, uint8_t*);
using InsertFn = void (*)(uint8_t*, uint32_t, const uint64_t*, size_t, size_t);

FindFn FindFor(int hint) {
  switch (hint) {
    case BB_PREFETCH_L1: return &ReferenceFind<BB_PREFETCH_L1>;
    case BB_PREFETCH_L2: return &ReferenceFind<BB_PREFETCH_L2>;
    default: return &ReferenceFind<BB_PREFETCH_NONE>;
  }
}

InsertFn InsertFor(int hint) {
  switch (hint) {
    case BB_PREFETCH_L1: return &ReferenceInsert<BB_PREFETCH_L1>;
    case BB_PREFETCH_L2: return &ReferenceInsert<BB_PREFETCH_L2>;
    default: return &ReferenceInsert<BB_PREFETCH_NONE>;
  }
}

// The reference is only a yardstick if it computes what the library does:
// checked once per cell on the cell's data, against the avx512 tier.
bool SameAsLibrary(const bbi_kernel_table& kernels, ProbeData& data, FindFn find, InsertFn insert,
                   size_t distance) {
  const Placement& p = data.placements()[0];
  const uint64_t* hashes = p.probes;
  std::vector<uint8_t> ours(kBatchSize / 8), theirs(kBatchSize / 8);
  const size_t hits = find(p.filled.data, p.filled.num_blocks, hashes, kBatchSize, distance, ours.data());
  if (hits != kernels.find_batch_bitmap(p.filled.data, p.filled.num_blocks, hashes, kBatchSize,
                                        theirs.data()) ||
      ours != theirs) {
    return false;
  }
  // Eight blocks' worth of a fresh filter, built both ways.
  constexpr uint32_t kBlocks = 8;
  std::vector<uint8_t> a(32 * kBlocks, 0), b(32 * kBlocks, 0);
  insert(a.data(), kBlocks, hashes, kBatchSize, distance);
  kernels.insert_batch(b.data(), kBlocks, hashes, kBatchSize);
  return a == b;
}

void RunFind(benchmark::State& state, FindFn find, size_t distance, ProbeData& data) {
  ProbeLoop(state, data, true, [&](const Placement& p, const uint64_t* hashes) {
    const size_t hits = find(p.filled.data, p.filled.num_blocks, hashes, kBatchSize, distance, p.bitmap);
    benchmark::DoNotOptimize(p.bitmap);
    benchmark::ClobberMemory();
    return hits;
  });
}

void RunInsert(benchmark::State& state, InsertFn insert, size_t distance, ProbeData& data) {
  ProbeLoop(state, data, false, [&](const Placement& p, const uint64_t* hashes) {
    insert(p.insert_target.data, p.insert_target.num_blocks, hashes, kBatchSize, distance);
    benchmark::ClobberMemory();
    return size_t{0};
  });
}

// The grid the reference runs at each size: its best cell is the reference.
// No prefetch (what an L1/L2-resident filter wants), l1 at short distances
// (L2/L3-resident), l2 at the distances DRAM wants.
struct Setting {
  int hint;
  size_t distance;
};
constexpr Setting kReferenceSettings[] = {
    {BB_PREFETCH_NONE, 0}, {BB_PREFETCH_L1, 16},  {BB_PREFETCH_L1, 32},  {BB_PREFETCH_L1, 64},
    {BB_PREFETCH_L2, 64},  {BB_PREFETCH_L2, 128}, {BB_PREFETCH_L2, 192},
};

}  // namespace

void RegisterReferenceBenchmarks() {
  const bbi_kernel_table* kernels = nullptr;
  if (bbi_kernels_for_isa("avx512", &kernels) != BB_OK) return;
  for (const size_t bytes : kFilterBytes) {
    for (const Setting s : kReferenceSettings) {
      const std::string cell = std::string(bb_prefetch_hint_name(s.hint)) + "/" +
                               std::to_string(s.distance) + "/" + std::to_string(bytes);
      for (const bool is_find : {true, false}) {
        benchmark::RegisterBenchmark(
            (std::string("reference/") + (is_find ? "find_batch_bitmap/" : "insert_batch/") + cell).c_str(),
            [=](benchmark::State& state) {
              ProbeData* data = ProbeDataOrSkip(state, bytes);
              if (data == nullptr) return;
              if (!SameAsLibrary(*kernels, *data, FindFor(s.hint), InsertFor(s.hint), s.distance)) {
                state.SkipWithError("the reference loop disagrees with the avx512 tier");
                return;
              }
              if (is_find) {
                RunFind(state, FindFor(s.hint), s.distance, *data);
              } else {
                RunInsert(state, InsertFor(s.hint), s.distance, *data);
              }
            });
      }
    }
  }
}

}  // namespace blockbloom_bench
