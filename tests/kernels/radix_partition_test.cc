// SPDX-License-Identifier: Apache-2.0
// The radix partition of a build's hashes (bb_partition_hashes): on every
// ISA and both layouts its output is the oracle's stable grouping of the
// keys by part, so inserting each part on its own gives exactly the bytes of
// one batch insert; from several threads, by the parallel recipe of
// docs/concurrency.md, race-free (this program also runs under TSan).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/blockbloom.hpp"
#include "blockbloom/kudu.h"
#include "support/isa_params.h"
#include "src/core/block_op.h"
#include "support/oracle.h"
#include "support/prefetch_settings_guard.h"
#include "support/stress_scale.h"

namespace {

// Part of block b: the p whose range [p z / T, (p + 1) z / T) holds it,
// found by walking the ranges (the definition, not PartLocator's shortcut).
uint32_t OraclePart(uint64_t block, uint32_t parts, uint64_t blocks) {
  uint32_t p = 0;
  while (p + 1 < parts && (p + 1) * blocks / parts <= block) ++p;
  return p;
}

uint64_t OracleBlock(uint64_t h, uint64_t blocks) { return oracle::ParquetBlock(h, blocks); }
uint64_t OracleBlock(uint32_t h, uint64_t blocks) { return oracle::KuduBlock(h, blocks); }

// The expected output: each part's keys in input order, parts in order.
template <class Hash>
std::vector<std::vector<Hash>> OracleParts(const std::vector<Hash>& hashes, uint32_t parts,
                                           uint64_t blocks) {
  std::vector<std::vector<Hash>> out(parts);
  for (Hash h : hashes) out[OraclePart(OracleBlock(h, blocks), parts, blocks)].push_back(h);
  return out;
}

template <class Hash>
using PartitionKernel = void (*)(uint32_t, const Hash*, size_t, uint32_t, Hash*, size_t*);

PartitionKernel<uint64_t> KernelOf(const bbi_kernel_table& t, uint64_t) { return t.partition_hashes; }
PartitionKernel<uint32_t> KernelOf(const bbi_kernel_table& t, uint32_t) { return t.kudu_partition_hashes; }

using InsertKernel64 = void (*)(uint8_t*, uint32_t, const uint64_t*, size_t);
using InsertKernel32 = void (*)(uint8_t*, uint32_t, const uint32_t*, size_t);
InsertKernel64 InsertOf(const bbi_kernel_table& t, uint64_t) { return t.insert_batch; }
InsertKernel32 InsertOf(const bbi_kernel_table& t, uint32_t) { return t.kudu_insert_batch; }

constexpr uint64_t kPoison = 0x5a5a5a5a5a5a5a5aull;

// Partitions hashes with the kernel and checks the result against the
// oracle: the same keys in the same order (so a permutation of the input,
// grouped by part in part order), each key's block in its part's range,
// the counts summing to n, nothing written past out + n.
template <class Hash>
void ExpectOraclePartition(const bbi_kernel_table& t, const std::vector<Hash>& hashes,
                           uint32_t blocks, uint32_t parts) {
  const size_t n = hashes.size();
  std::vector<Hash> out(n + 16, static_cast<Hash>(kPoison));
  std::vector<size_t> counts(parts + 1, 12345);
  KernelOf(t, Hash{})(blocks, hashes.data(), n, parts, out.data(), counts.data());
  const auto expected = OracleParts(hashes, parts, blocks);
  size_t at = 0, total = 0;
  for (uint32_t p = 0; p < parts; ++p) {
    ASSERT_EQ(counts[p], expected[p].size()) << "part " << p;
    EXPECT_TRUE(std::equal(expected[p].begin(), expected[p].end(), out.begin() + at))
        << "part " << p << " of " << parts << ", blocks " << blocks << ", n " << n;
    for (size_t i = at; i < at + counts[p]; ++i) {
      const uint64_t block = OracleBlock(out[i], blocks);
      EXPECT_GE(block, uint64_t{blocks} * p / parts);
      EXPECT_LT(block, uint64_t{blocks} * (p + 1) / parts);
    }
    at += counts[p];
    total += counts[p];
  }
  EXPECT_EQ(total, n);
  EXPECT_EQ(counts[parts], 12345u) << "counts written past num_parts";
  for (size_t i = n; i < out.size(); ++i) EXPECT_EQ(out[i], static_cast<Hash>(kPoison)) << "past n at " << i;
}

using RadixPerIsa = bbtest::PerIsa;

// Odd part counts, part counts on both sides of the range-test limit (8),
// sizes around the chunk (256) and vector widths, block counts from 1.
TEST_P(RadixPerIsa, EqualsTheOracleGroupingForBothLayouts) {
  for (uint32_t blocks : {1u, 3u, 7u, 100u, 1000u, 65536u, 1000003u}) {
    for (uint32_t parts : {1u, 2u, 3u, 5u, 7u, 8u, 9u, 16u, 100u}) {
      if (parts > blocks) continue;
      for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{9}, size_t{255}, size_t{257},
                       size_t{3001}}) {
        ExpectOraclePartition(kernels(), oracle::Hashes(blocks * 31 + n, n), blocks, parts);
      }
    }
  }
  for (uint32_t blocks : {2u, 16u, 1024u, 1u << 20}) {
    for (uint32_t parts : {1u, 2u, 3u, 5u, 7u, 9u, 16u}) {
      if (parts > blocks) continue;
      for (size_t n : {size_t{0}, size_t{3}, size_t{256}, size_t{2049}}) {
        ExpectOraclePartition(kernels(), oracle::Hashes32(blocks + n, n), blocks, parts);
      }
    }
  }
}

// All keys in one part: the other parts are empty, on both sides of it.
TEST_P(RadixPerIsa, KeysOfOnePartLeaveTheOthersEmpty) {
  const uint32_t blocks = 4096;
  for (uint32_t parts : {3u, 7u, 12u}) {
    const uint32_t only = parts / 2;
    std::vector<uint64_t> hashes;
    for (uint64_t h : oracle::Hashes(parts, 20000)) {
      if (OraclePart(OracleBlock(h, blocks), parts, blocks) == only) hashes.push_back(h);
    }
    ASSERT_GT(hashes.size(), 600u);
    ExpectOraclePartition(kernels(), hashes, blocks, parts);
    std::vector<uint64_t> out(hashes.size());
    std::vector<size_t> counts(parts);
    kernels().partition_hashes(blocks, hashes.data(), hashes.size(), parts, out.data(), counts.data());
    for (uint32_t p = 0; p < parts; ++p) EXPECT_EQ(counts[p], p == only ? hashes.size() : 0u);
    EXPECT_EQ(out, hashes);
  }
}

// A T-part build (each part inserted on its own) has the bytes of one batch
// insert of all the keys, on the same tier and on scalar.
template <class Hash>
void ExpectPartsBuildTheSameBytes(const bbi_kernel_table& t, const bbi_kernel_table& scalar,
                                  const std::vector<Hash>& hashes, uint32_t blocks) {
  std::vector<uint8_t> whole(32ull * blocks, 0), reference(32ull * blocks, 0);
  InsertOf(t, Hash{})(whole.data(), blocks, hashes.data(), hashes.size());
  InsertOf(scalar, Hash{})(reference.data(), blocks, hashes.data(), hashes.size());
  ASSERT_EQ(whole, reference);
  for (uint32_t parts : {1u, 2u, 3u, 5u, 7u}) {
    std::vector<Hash> out(hashes.size());
    std::vector<size_t> counts(parts);
    KernelOf(t, Hash{})(blocks, hashes.data(), hashes.size(), parts, out.data(), counts.data());
    std::vector<uint8_t> pieced(32ull * blocks, 0);
    size_t at = 0;
    for (uint32_t p = parts; p-- > 0;) {  // in reverse: the order of the parts must not matter
      size_t first = 0;
      for (uint32_t q = 0; q < p; ++q) first += counts[q];
      InsertOf(t, Hash{})(pieced.data(), blocks, out.data() + first, counts[p]);
      at += counts[p];
    }
    EXPECT_EQ(at, hashes.size());
    EXPECT_EQ(pieced, whole) << "parts " << parts << ", blocks " << blocks;
  }
}

// One filter large enough (2 MiB) for the prefetching insert path (the
// reference classes pinned: prefetched from 1 MiB on).
TEST_P(RadixPerIsa, PartsInsertedOneByOneEqualOneBatchInsertForBothLayouts) {
  const bbtest::PrefetchSettingsGuard reference_classes;
  for (uint32_t blocks : {7u, 1000u, 65536u}) {
    ExpectPartsBuildTheSameBytes(kernels(), scalar(), oracle::Hashes(blocks, 4 * blocks + 11), blocks);
  }
  for (uint32_t blocks : {8u, 1024u, 65536u}) {
    ExpectPartsBuildTheSameBytes(kernels(), scalar(), oracle::Hashes32(blocks, 4 * blocks + 3), blocks);
  }
}

BB_INSTANTIATE_PER_ISA(RadixPerIsa);

// PartLocator (block_op.h) against the definition: every block of every
// filter of up to 300 blocks for every part count, then large filters.
TEST(PartLocator, FindsThePartOfEveryBlock) {
  for (uint32_t blocks = 1; blocks <= 200; ++blocks) {
    for (uint32_t parts = 1; parts <= blocks; ++parts) {
      const blockbloom::internal::PartLocator locate(parts, blocks);
      for (uint32_t b = 0; b < blocks; ++b) {
        ASSERT_EQ(locate.Part(b), OraclePart(b, parts, blocks)) << b << " of " << blocks << ", " << parts;
      }
    }
  }
  for (uint32_t blocks : {BB_MAX_BLOCKS, BB_MAX_BLOCKS - 1, 1u << 30, 999999937u}) {
    for (uint32_t parts : {2u, 3u, 7u, 64u, 1000u, 65535u, blocks / 3, blocks - 1, blocks}) {
      const blockbloom::internal::PartLocator locate(parts, blocks);
      for (uint32_t p = 0; p < parts; p += 1 + parts / 97) {  // both sides of each boundary
        const uint32_t first = blockbloom::internal::PartFirstBlock(p, parts, blocks);
        ASSERT_EQ(locate.Part(first), p) << blocks << ", " << parts;
        if (first > 0) ASSERT_EQ(locate.Part(first - 1), p - 1) << blocks << ", " << parts;
      }
      ASSERT_EQ(locate.Part(blocks - 1), parts - 1);
    }
  }
}

TEST(PartitionHashesApi, RejectsBadArgumentsWithDistinctCodes) {
  bb_filter f, kudu;
  ASSERT_EQ(bb_filter_init(&f, 1024), BB_OK);  // 32 blocks
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 10, 0), BB_OK);
  uint64_t h[4] = {1, 2, 3, 4}, out[4];
  uint32_t h32[4] = {1, 2, 3, 4}, out32[4];
  size_t counts[64];
  EXPECT_EQ(bb_partition_hashes(&f, h, 4, 0, out, counts), BB_ERR_INVALID_PARTITION);
  EXPECT_EQ(bb_partition_hashes(&f, h, 4, 33, out, counts), BB_ERR_INVALID_PARTITION);
  EXPECT_EQ(bb_partition_hashes(&f, h, 4, 32, out, counts), BB_OK);
  EXPECT_EQ(bb_kudu_partition_hashes(&kudu, h32, 4, 33, out32, counts), BB_ERR_INVALID_PARTITION);
  EXPECT_EQ(bb_partition_hashes(nullptr, h, 4, 2, out, counts), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_partition_hashes(&f, nullptr, 4, 2, out, counts), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_partition_hashes(&f, h, 4, 2, nullptr, counts), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_partition_hashes(&f, h, 4, 2, out, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_partition_hashes(&f, h, 4, 2, h, counts), BB_ERR_PARTITION_OVERLAP);
  EXPECT_EQ(bb_partition_hashes(&f, h, 3, 2, h + 1, counts), BB_ERR_PARTITION_OVERLAP);
  EXPECT_EQ(bb_partition_hashes(&f, h + 1, 3, 2, h, counts), BB_ERR_PARTITION_OVERLAP);
  EXPECT_EQ(bb_partition_hashes(&f, h, 2, 2, h + 2, counts), BB_OK);  // adjacent, not overlapping
  EXPECT_EQ(bb_kudu_partition_hashes(&kudu, h32, 4, 2, h32, counts), BB_ERR_PARTITION_OVERLAP);
  // counts apart from both arrays: with more than 8 parts its entries are
  // the scatter's write cursors, which an overlapping out would move.
  {
    size_t cells[64];
    for (size_t i = 0; i < 64; ++i) cells[i] = 1000 + i;  // no count could be these
    auto* as_hashes = reinterpret_cast<uint64_t*>(cells);
    const size_t before[4] = {cells[0], cells[1], cells[2], cells[3]};
    EXPECT_EQ(bb_partition_hashes(&f, h, 4, 9, as_hashes, cells + 2), BB_ERR_PARTITION_OVERLAP);
    EXPECT_EQ(bb_partition_hashes(&f, h, 4, 9, as_hashes + 8, cells), BB_ERR_PARTITION_OVERLAP);
    EXPECT_EQ(bb_partition_hashes(&f, as_hashes, 4, 2, out, cells + 3), BB_ERR_PARTITION_OVERLAP);
    EXPECT_EQ(bb_kudu_partition_hashes(&kudu, h32, 4, 9, reinterpret_cast<uint32_t*>(cells + 5),
                                       cells), BB_ERR_PARTITION_OVERLAP);
    EXPECT_EQ(std::vector<size_t>(cells, cells + 4), std::vector<size_t>(before, before + 4));
    for (size_t i = 4; i < 64; ++i) EXPECT_EQ(cells[i], 1000 + i) << i;
    EXPECT_EQ(bb_partition_hashes(&f, h, 4, 9, as_hashes, cells + 4), BB_OK);  // adjacent: fine
  }
  EXPECT_EQ(bb_partition_hashes(&kudu, h, 4, 2, out, counts), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_kudu_partition_hashes(&f, h32, 4, 2, out32, counts), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_NE(std::string(bb_status_message(BB_ERR_INVALID_PARTITION)).find("block count"), std::string::npos);
  // n == 0: the arrays may be NULL, and every count is written (0).
  counts[0] = counts[1] = counts[2] = 7;
  EXPECT_EQ(bb_partition_hashes(&f, nullptr, 0, 3, nullptr, counts), BB_OK);
  EXPECT_EQ(counts[0] + counts[1] + counts[2], 0u);
  // Only reads the filter: a read-only view partitions too, and nothing is inserted.
  bb_filter ro;
  ASSERT_EQ(bb_filter_init_view_readonly(&ro, f.data, f.num_bytes), BB_OK);
  EXPECT_EQ(bb_partition_hashes(&ro, h, 4, 3, out, counts), BB_OK);
  EXPECT_EQ(counts[0] + counts[1] + counts[2], 4u);
  EXPECT_EQ(bb_find(&f, 1) + bb_find(&f, 2) + bb_find(&f, 3) + bb_find(&f, 4), 0);
  EXPECT_NE(kudu.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_EQ(bb_kudu_partition_hashes(&kudu, h32, 4, 2, out32, counts), BB_OK);
  EXPECT_NE(kudu.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  // The C++ wrapper throws the code.
  const blockbloom::ConstView view(f.data, f.num_bytes);
  try {
    view.partition_hashes(h, 4, 0, out, counts);
    ADD_FAILURE() << "no throw";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_INVALID_PARTITION);
  }
  view.partition_hashes(h, 4, 1, out, counts);
  EXPECT_EQ(counts[0], 4u);
  EXPECT_TRUE(std::equal(h, h + 4, out));
  bb_filter_release(&f);
  bb_filter_release(&kudu);
}

// The recipe of docs/concurrency.md with T threads on one filter: thread s
// partitions slice s of the hashes into T parts, then (after all have, here
// by joining) thread t inserts part t of every slice with the plain batch
// insert. Bytes and flags equal a single-threaded bb_insert_batch; no key is
// lost. Under ThreadSanitizer (no suppressions) it must report nothing: the
// inserting threads write disjoint blocks.
template <class Hash, class Partition, class Insert, class Find>
void BuildByRecipe(bb_filter* f, const std::vector<Hash>& hashes, uint32_t threads,
                   Partition partition, Insert insert, Find find_bitmap) {
  const size_t n = hashes.size();
  std::vector<Hash> out(n);
  std::vector<size_t> counts(size_t{threads} * threads);
  std::vector<int> status(2 * threads, -1);
  const auto slice = [&](uint32_t s) { return n * s / threads; };
  std::vector<std::thread> pool;
  for (uint32_t s = 0; s < threads; ++s) {
    pool.emplace_back([&, s] {
      status[s] = partition(f, hashes.data() + slice(s), slice(s + 1) - slice(s), threads,
                            out.data() + slice(s), counts.data() + size_t{s} * threads);
    });
  }
  for (std::thread& t : pool) t.join();
  pool.clear();
  for (uint32_t t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      int result = BB_OK;
      for (uint32_t s = 0; s < threads && result == BB_OK; ++s) {
        const size_t* c = counts.data() + size_t{s} * threads;
        size_t first = slice(s);
        for (uint32_t q = 0; q < t; ++q) first += c[q];
        result = insert(f, out.data() + first, c[t]);
      }
      status[threads + t] = result;
    });
  }
  for (std::thread& t : pool) t.join();
  for (int s : status) EXPECT_EQ(s, BB_OK);
  std::vector<uint8_t> bitmap((n + 7) / 8);
  size_t hits = 0;
  ASSERT_EQ(find_bitmap(f, hashes.data(), n, bitmap.data(), &hits), BB_OK);
  EXPECT_EQ(hits, n) << "false negatives: " << n - hits;
}

TEST(RadixThreads, RecipeBuildsTheBytesOfOneThreadParquetAndKudu) {
  if (const char* why = bbtest::ThreadedTestSkipReason()) GTEST_SKIP() << why;
  const std::vector<uint64_t> hashes = oracle::Hashes(2027, 300001);
  const std::vector<uint32_t> hashes32 = oracle::Hashes32(2028, 200003);
  bb_filter serial, serial_kudu;
  ASSERT_EQ(bb_filter_init(&serial, size_t{2} << 20), BB_OK);
  ASSERT_EQ(bb_insert_batch(&serial, hashes.data(), hashes.size()), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&serial_kudu, 20, 0), BB_OK);
  ASSERT_EQ(bb_kudu_insert_batch(&serial_kudu, hashes32.data(), hashes32.size()), BB_OK);
  for (uint32_t threads : {1u, 2u, 3u, 5u, 7u}) {
    bb_filter f, k;
    ASSERT_EQ(bb_filter_init(&f, size_t{2} << 20), BB_OK);
    BuildByRecipe(&f, hashes, threads, &bb_partition_hashes, &bb_insert_batch, &bb_find_batch_bitmap);
    EXPECT_EQ(bb_filter_equal(&f, &serial), 1) << threads << " threads";
    ASSERT_EQ(bb_kudu_filter_init(&k, 20, 0), BB_OK);  // fresh: always-false until the inserts
    BuildByRecipe(&k, hashes32, threads, &bb_kudu_partition_hashes, &bb_kudu_insert_batch,
                  &bb_kudu_find_batch_bitmap);
    EXPECT_EQ(k.flags & BB_FILTER_ALWAYS_FALSE, 0u);
    EXPECT_EQ(bb_filter_equal(&k, &serial_kudu), 1) << threads << " threads, kudu";
    bb_filter_release(&f);
    bb_filter_release(&k);
  }
  bb_filter_release(&serial);
  bb_filter_release(&serial_kudu);
}

}  // namespace
