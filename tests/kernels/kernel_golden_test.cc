// SPDX-License-Identifier: Apache-2.0
// Bit-exactness: every ISA builds byte-identical filters, equal to golden
// digests committed here and to an independent oracle.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <cstdint>
#include <vector>

#include "blockbloom/tuning.h"
#include "support/isa_params.h"
#include "support/oracle.h"

namespace {

struct GoldenCase {
  uint32_t blocks;
  uint64_t digest;  // XXH64 (seed 0) of the filter bytes after inserting CaseHashes(blocks)
};

// Computed once from the oracle; a change to any of these is a format break.
constexpr GoldenCase kGolden[] = {
    {1, 0xa008a4b6287d6c61ull},
    {3, 0x2b50be1f1c6e175aull},
    {32, 0x49b87d05128f7a84ull},
    {4096, 0xc32f6c675a4e09f9ull},
    {32768, 0xcdec8421b075bb12ull},  // 1 MiB
};

// 8 hashes per block: far from saturating even the 1-block filter.
std::vector<uint64_t> CaseHashes(uint32_t blocks) {
  return oracle::Hashes(0xb10c0000ull + blocks, 8ull * blocks);
}

uint64_t Digest(const uint8_t* bytes, size_t n) { return XXH64(bytes, n, 0); }

std::vector<uint8_t> OracleFilter(uint32_t blocks) {
  std::vector<uint8_t> bytes(32ull * blocks, 0);
  for (uint64_t h : CaseHashes(blocks)) oracle::Insert(bytes, h);
  return bytes;
}

TEST(GoldenDigest, OracleReproducesCommittedDigests) {
  for (const GoldenCase& c : kGolden) {
    const std::vector<uint8_t> bytes = OracleFilter(c.blocks);
    EXPECT_EQ(Digest(bytes.data(), bytes.size()), c.digest)
        << "blocks=" << c.blocks << " oracle digest 0x" << std::hex
        << Digest(bytes.data(), bytes.size());
  }
}

using GoldenPerIsa = bbtest::PerIsa;

TEST_P(GoldenPerIsa, SingleInsertsReproduceGoldenDigestsAndOracleBytes) {
  for (const GoldenCase& c : kGolden) {
    std::vector<uint8_t> bytes(32ull * c.blocks, 0);
    for (uint64_t h : CaseHashes(c.blocks)) kernels().insert(bytes.data(), c.blocks, h);
    EXPECT_EQ(Digest(bytes.data(), bytes.size()), c.digest) << "blocks=" << c.blocks;
    EXPECT_EQ(bytes, OracleFilter(c.blocks)) << "blocks=" << c.blocks;
  }
}

TEST_P(GoldenPerIsa, BatchInsertReproducesGoldenDigests) {
  for (const GoldenCase& c : kGolden) {
    std::vector<uint8_t> bytes(32ull * c.blocks, 0);
    const std::vector<uint64_t> hashes = CaseHashes(c.blocks);
    kernels().insert_batch(bytes.data(), c.blocks, hashes.data(), hashes.size());
    EXPECT_EQ(Digest(bytes.data(), bytes.size()), c.digest) << "blocks=" << c.blocks;
  }
}

// Real files put the bitset at odd offsets: the same bytes must come out at
// every alignment.
TEST_P(GoldenPerIsa, BitsetAtAnyByteOffsetGivesIdenticalBytes) {
  const GoldenCase& c = kGolden[3];  // 4096 blocks
  const std::vector<uint64_t> hashes = CaseHashes(c.blocks);
  for (size_t offset : {1, 3, 8, 16, 17, 31, 33, 63}) {
    std::vector<uint8_t> buffer(32ull * c.blocks + 64 + offset, 0);
    uint8_t* bits = buffer.data() + offset;
    kernels().insert_batch(bits, c.blocks, hashes.data(), hashes.size() / 2);
    for (size_t i = hashes.size() / 2; i < hashes.size(); ++i) kernels().insert(bits, c.blocks, hashes[i]);
    EXPECT_EQ(Digest(bits, 32ull * c.blocks), c.digest) << "offset=" << offset;
    for (size_t i = 0; i < hashes.size(); ++i) {
      ASSERT_EQ(kernels().find(bits, c.blocks, hashes[i]), 1) << "offset=" << offset << " i=" << i;
    }
  }
}

BB_INSTANTIATE_PER_ISA(GoldenPerIsa);

}  // namespace
