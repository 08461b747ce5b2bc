// SPDX-License-Identifier: Apache-2.0
// The Kudu layout on every ISA: golden digests and the oracle's bytes, finds
// and both batch forms against the oracle; and the union / intersect kernels.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "blockbloom/tuning.h"
#include "support/isa_params.h"
#include "support/oracle.h"

namespace {

struct GoldenCase {
  uint32_t blocks;
  uint64_t digest;  // XXH64 of the filter bytes after inserting KuduCaseHashes(blocks)
};

// Computed once from the oracle; a change to any of these is a format break.
constexpr GoldenCase kKuduGolden[] = {
    {2, 0x22dff9645b245f5eull},
    {4, 0xe9d47681bc1a8518ull},
    {32, 0x1bad4bc497fc2e7cull},
    {4096, 0xc6f3c33913e87f0full},
    {32768, 0x8b274779fbcb963eull},  // 1 MiB
};

std::vector<uint32_t> KuduCaseHashes(uint32_t blocks) {
  return oracle::Hashes32(0x6b756475ull + blocks, 8ull * blocks);
}

std::vector<uint8_t> OracleKuduFilter(uint32_t blocks) {
  std::vector<uint8_t> bytes(32ull * blocks, 0);
  for (uint32_t h : KuduCaseHashes(blocks)) oracle::KuduInsert(bytes, h);
  return bytes;
}

uint64_t Digest(const std::vector<uint8_t>& bytes) { return XXH64(bytes.data(), bytes.size(), 0); }

TEST(KuduGolden, OracleReproducesCommittedDigests) {
  for (const GoldenCase& c : kKuduGolden) {
    EXPECT_EQ(Digest(OracleKuduFilter(c.blocks)), c.digest)
        << "blocks=" << c.blocks << " oracle digest 0x" << std::hex << Digest(OracleKuduFilter(c.blocks));
  }
}

using KuduPerIsa = bbtest::PerIsa;

TEST_P(KuduPerIsa, SingleAndBatchInsertsReproduceGoldenDigests) {
  for (const GoldenCase& c : kKuduGolden) {
    const std::vector<uint32_t> hashes = KuduCaseHashes(c.blocks);
    std::vector<uint8_t> single(32ull * c.blocks, 0), batch(32ull * c.blocks, 0);
    for (uint32_t h : hashes) kernels().kudu_insert(single.data(), c.blocks, h);
    kernels().kudu_insert_batch(batch.data(), c.blocks, hashes.data(), hashes.size());
    EXPECT_EQ(Digest(single), c.digest) << "blocks=" << c.blocks;
    EXPECT_EQ(Digest(batch), c.digest) << "blocks=" << c.blocks;
    EXPECT_EQ(single, OracleKuduFilter(c.blocks)) << "blocks=" << c.blocks;
  }
}

TEST_P(KuduPerIsa, FindAndBatchFormsAgreeWithOracleAtAnyAlignment) {
  const uint32_t blocks = 256;
  std::vector<uint8_t> expected(32ull * blocks, 0);
  const std::vector<uint32_t> present = oracle::Hashes32(17, 1500);
  for (uint32_t h : present) oracle::KuduInsert(expected, h);
  std::vector<uint32_t> probes = oracle::Hashes32(18, 1500);
  probes.insert(probes.end(), present.begin(), present.end());

  for (size_t offset : {0, 5, 32}) {
    std::vector<uint8_t> buffer(offset + expected.size());
    std::memcpy(buffer.data() + offset, expected.data(), expected.size());
    const uint8_t* bits = buffer.data() + offset;
    for (size_t n : {size_t{0}, size_t{1}, size_t{9}, size_t{63}, probes.size()}) {
      SCOPED_TRACE(testing::Message() << "offset=" << offset << " n=" << n);
      std::vector<uint8_t> want_bitmap((n + 7) / 8, 0);
      std::vector<uint32_t> want_selection;
      for (size_t i = 0; i < n; ++i) {
        const bool hit = oracle::KuduFind(expected, probes[i]);
        ASSERT_EQ(kernels().kudu_find(bits, blocks, probes[i]), hit ? 1 : 0) << i;
        if (hit) {
          want_bitmap[i / 8] = static_cast<uint8_t>(want_bitmap[i / 8] | (1u << (i % 8)));
          want_selection.push_back(static_cast<uint32_t>(i));
        }
      }
      std::vector<uint8_t> bitmap((n + 7) / 8 + 1, 0xee);
      EXPECT_EQ(kernels().kudu_find_batch_bitmap(bits, blocks, probes.data(), n, bitmap.data()),
                want_selection.size());
      EXPECT_EQ(std::vector<uint8_t>(bitmap.begin(), bitmap.end() - 1), want_bitmap);
      EXPECT_EQ(bitmap.back(), 0xee) << "bitmap overrun";
      std::vector<uint32_t> selection(n + 1, 0xdeadbeef);
      const size_t hits = kernels().kudu_find_batch_select(bits, blocks, probes.data(), n, selection.data());
      ASSERT_EQ(hits, want_selection.size());
      EXPECT_EQ(std::vector<uint32_t>(selection.begin(), selection.begin() + hits), want_selection);
      EXPECT_EQ(selection.back(), 0xdeadbeefu) << "selection overrun";
    }
  }
  for (uint32_t h : present) ASSERT_EQ(kernels().kudu_find(expected.data(), blocks, h), 1);
}

// Union and intersection equal byte-wise OR and AND, for sizes that leave
// every kind of tail after whole vectors, at unaligned addresses.
TEST_P(KuduPerIsa, UnionAndIntersectAreBytewiseOrAndAnd) {
  for (size_t num_bytes : {size_t{32}, size_t{64}, size_t{96}, size_t{160}, size_t{4096 + 32}}) {
    for (size_t offset : {0, 3}) {
      SCOPED_TRACE(testing::Message() << "bytes=" << num_bytes << " offset=" << offset);
      std::vector<uint8_t> a(offset + num_bytes + 8, 0x5a), b(offset + num_bytes + 8, 0xa5);
      const std::vector<uint64_t> fill = oracle::Hashes(num_bytes + offset, 2 * num_bytes);
      for (size_t i = 0; i < num_bytes; ++i) {
        a[offset + i] = static_cast<uint8_t>(fill[i]);
        b[offset + i] = static_cast<uint8_t>(fill[num_bytes + i]);
      }
      std::vector<uint8_t> want_or = a, want_and = a;
      for (size_t i = 0; i < num_bytes; ++i) {
        want_or[offset + i] = static_cast<uint8_t>(a[offset + i] | b[offset + i]);
        want_and[offset + i] = static_cast<uint8_t>(a[offset + i] & b[offset + i]);
      }
      std::vector<uint8_t> got_or = a, got_and = a;
      kernels().union_bytes(got_or.data() + offset, b.data() + offset, num_bytes);
      kernels().intersect_bytes(got_and.data() + offset, b.data() + offset, num_bytes);
      EXPECT_EQ(got_or, want_or);  // including the guard bytes around the range
      EXPECT_EQ(got_and, want_and);
    }
  }
}

BB_INSTANTIATE_PER_ISA(KuduPerIsa);

}  // namespace
