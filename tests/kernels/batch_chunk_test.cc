// SPDX-License-Identifier: Apache-2.0
// The chunked batch loops (src/kernels/batch_loops-inl.h) on every ISA, for both
// layouts: every batch op gives exactly the oracle's bytes and answers at the
// chunk's edges (n = 255, 256, 257, ..., n not a multiple of 8), with and
// without prefetching (filters below and from 1 MiB), for every hint and for
// distances shorter than, equal to and longer than the batch.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "support/chunk_edges.h"
#include "src/core/kernel_table.h"
#include "support/isa_params.h"
#include "support/prefetch_settings_guard.h"
#include "support/oracle.h"

namespace {

using BatchChunkPerIsa = bbtest::PerIsa;

using bbtest::kChunkEdgeLengths;
constexpr size_t kMaxLength = bbtest::kMaxChunkEdgeLength;
using bbtest::PrefetchSettingsGuard;

// The hashes every case draws from: Parquet's 64-bit ones, and 32-bit ones
// for the Kudu layout.
struct Case {
  std::vector<uint64_t> hashes64;
  std::vector<uint32_t> hashes32;
};

Case MakeCase(uint64_t seed) {
  Case c;
  c.hashes64 = oracle::Hashes(seed, 2 * kMaxLength);
  for (uint64_t h : c.hashes64) c.hashes32.push_back(static_cast<uint32_t>(h >> 17));
  return c;
}

// One layout's kernel table entries and oracle functions.
struct Parquet {
  using Hash = uint64_t;
  static const char* Name() { return "parquet"; }
  static const std::vector<Hash>& Hashes(const Case& c) { return c.hashes64; }
  static void OracleInsert(std::vector<uint8_t>& bytes, Hash h) { oracle::Insert(bytes, h); }
  static bool OracleFind(const std::vector<uint8_t>& bytes, Hash h) { return oracle::Find(bytes, h); }
  static auto InsertBatch(const bbi_kernel_table& k) { return k.insert_batch; }
  static auto InsertRange(const bbi_kernel_table& k) { return k.insert_batch_range; }
  static auto FindBitmap(const bbi_kernel_table& k) { return k.find_batch_bitmap; }
  static auto FindSelect(const bbi_kernel_table& k) { return k.find_batch_select; }
};

struct Kudu {
  using Hash = uint32_t;
  static const char* Name() { return "kudu"; }
  static const std::vector<Hash>& Hashes(const Case& c) { return c.hashes32; }
  static void OracleInsert(std::vector<uint8_t>& bytes, Hash h) { oracle::KuduInsert(bytes, h); }
  static bool OracleFind(const std::vector<uint8_t>& bytes, Hash h) { return oracle::KuduFind(bytes, h); }
  static auto InsertBatch(const bbi_kernel_table& k) { return k.kudu_insert_batch; }
  static auto InsertRange(const bbi_kernel_table& k) { return k.kudu_insert_batch_range; }
  static auto FindBitmap(const bbi_kernel_table& k) { return k.kudu_find_batch_bitmap; }
  static auto FindSelect(const bbi_kernel_table& k) { return k.kudu_find_batch_select; }
};

// Checks one ISA's batch ops of one layout on a filter of `blocks` blocks
// (a power of two, or any count for Parquet) at every length of kChunkEdgeLengths.
template <class L>
void CheckLayout(const bbi_kernel_table& k, uint32_t blocks, const Case& c, const std::string& where) {
  const std::vector<typename L::Hash>& hashes = L::Hashes(c);
  for (size_t n : kChunkEdgeLengths) {
    SCOPED_TRACE(where + " " + L::Name() + " n=" + std::to_string(n));
    // Insert: a batch of n into an empty filter equals the oracle's.
    std::vector<uint8_t> expected_bytes(32ull * blocks, 0), bytes(32ull * blocks, 0);
    for (size_t i = 0; i < n; ++i) L::OracleInsert(expected_bytes, hashes[i]);
    L::InsertBatch(k)(bytes.data(), blocks, hashes.data(), n);
    ASSERT_EQ(bytes, expected_bytes);
    // Partitioned insert: three disjoint ranges together give the same bytes.
    std::vector<uint8_t> parts(32ull * blocks, 0);
    for (uint64_t p = 0; p < 3; ++p) {
      L::InsertRange(k)(parts.data(), blocks, hashes.data(), n,
                        static_cast<uint32_t>(blocks * p / 3),
                        static_cast<uint32_t>(blocks * (p + 1) / 3));
    }
    ASSERT_EQ(parts, expected_bytes);
    // Finds: probes alternate between inserted and other hashes.
    std::vector<typename L::Hash> probes(n);
    for (size_t i = 0; i < n; ++i) probes[i] = hashes[i % 2 == 0 ? i / 2 : kMaxLength + i];
    std::vector<uint8_t> want_bitmap((n + 7) / 8, 0);
    std::vector<uint32_t> want_selection;
    for (size_t i = 0; i < n; ++i) {
      if (L::OracleFind(bytes, probes[i])) {
        want_bitmap[i / 8] = static_cast<uint8_t>(want_bitmap[i / 8] | (1u << (i % 8)));
        want_selection.push_back(static_cast<uint32_t>(i));
      }
    }
    if (n >= 2) EXPECT_FALSE(want_selection.empty());  // inserted keys are among the probes
    std::vector<uint8_t> bitmap(want_bitmap.size() + 1, 0xa5);  // a guard byte past the end
    ASSERT_EQ(L::FindBitmap(k)(bytes.data(), blocks, probes.data(), n, bitmap.data()),
              want_selection.size());
    EXPECT_EQ(bitmap.back(), 0xa5) << "wrote past the bitmap";
    bitmap.pop_back();
    EXPECT_EQ(bitmap, want_bitmap);
    std::vector<uint32_t> selection(n + 1, 0xdeadbeef);  // a guard entry past the end
    const size_t hits = L::FindSelect(k)(bytes.data(), blocks, probes.data(), n, selection.data());
    EXPECT_EQ(selection.back(), 0xdeadbeefu) << "wrote past the selection";
    selection.resize(hits);
    EXPECT_EQ(selection, want_selection);
  }
}

TEST_P(BatchChunkPerIsa, EveryBatchOpMatchesTheOracleAtChunkEdgesForEveryPrefetchSetting) {
  PrefetchSettingsGuard guard;
  const Case c = MakeCase(4242);
  for (uint32_t blocks : bbtest::kChunkEdgeBlockCounts) {
    bbtest::ForEachPrefetchSetting(blocks, [&](const std::string& where) {
      CheckLayout<Parquet>(kernels(), blocks, c, where);
      CheckLayout<Kudu>(kernels(), blocks, c, where);
    });
  }
}

// Odd block counts (Parquet allows any) exercise the vector offset code's
// multiply-shift with every high half of the hash.
TEST_P(BatchChunkPerIsa, VectorBlockOffsetsMatchTheOracleForOddBlockCounts) {
  const Case c = MakeCase(99);
  for (uint32_t blocks : {1u, 3u, 1000u, 40961u}) {
    CheckLayout<Parquet>(kernels(), blocks, c, "blocks=" + std::to_string(blocks));
  }
}

BB_INSTANTIATE_PER_ISA(BatchChunkPerIsa);

}  // namespace
