// SPDX-License-Identifier: Apache-2.0
// Byte-for-byte compatibility with a Parquet writer: the bitset parquet-mr
// wrote into apache/parquet-testing's bloom_filter.xxhash.bin, rebuilt from
// the four strings it holds, on every ISA; and probing it in place.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "blockbloom/tuning.h"
#include "support/isa_params.h"
#include "support/oracle.h"

namespace {

const char* const kWords[] = {"hello", "parquet", "bloom", "filter"};
constexpr size_t kHeaderBytes = 16;
constexpr size_t kBitsetBytes = 1024;

uint64_t ParquetHash(const std::string& s) { return XXH64(s.data(), s.size(), 0); }

// The file from ../shared/testdata, or a skip reason. Never skips silently.
bool LoadTestFile(std::vector<uint8_t>* bytes, std::string* why_not) {
  const char* dir = std::getenv("BLOCKBLOOM_TESTDATA");
  if (dir == nullptr || dir[0] == '\0') {
    *why_not = "BLOCKBLOOM_TESTDATA is not set (meson test sets it to ../shared/testdata)";
    return false;
  }
  const std::string path = std::string(dir) + "/bloom_filter.xxhash.bin";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why_not = "shared test data is absent (" + path +
               " not found): a clone without ../shared cannot run this interop test";
    return false;
  }
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// Facts that need no file: the hash and the block layout of "hello".
TEST(ParquetVectors, Xxh64MatchesPublishedTestVectors) {
  const int64_t expected[] = {-1205034819632174695LL, -1642502924627794072LL, 5216751715308240086LL,
                              -1889335612763511331LL};
  const uint8_t bytes[] = {0, 1, 2};
  for (size_t n = 0; n < 4; ++n) {
    EXPECT_EQ(static_cast<int64_t>(XXH64(bytes, n, 0)), expected[n]) << "n=" << n;
  }
  EXPECT_EQ(ParquetHash("hello"), 0x26c7827d889f6da3ull);
  EXPECT_EQ(ParquetHash("parquet"), 0x3c9d29275c52e429ull);
  EXPECT_EQ(ParquetHash("bloom"), 0x50c8fb9e62dbc53cull);
  EXPECT_EQ(ParquetHash("filter"), 0x2a5736cdfcd7a9a1ull);
}

using InteropPerIsa = bbtest::PerIsa;

TEST_P(InteropPerIsa, HelloSetsThePublishedMaskInBlockFour) {
  std::vector<uint8_t> bytes(kBitsetBytes, 0);
  kernels().insert(bytes.data(), kBitsetBytes / 32, ParquetHash("hello"));
  const uint32_t mask[8] = {0x100000, 0x200, 0x400, 0x80, 0x200, 0x80000000, 0x10000000, 0x8000000};
  for (size_t block = 0; block < 32; ++block) {
    for (size_t lane = 0; lane < 8; ++lane) {
      const uint8_t* p = bytes.data() + 32 * block + 4 * lane;
      const uint32_t value = p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24;
      EXPECT_EQ(value, block == 4 ? mask[lane] : 0u) << "block " << block << " lane " << lane;
    }
  }
}

TEST_P(InteropPerIsa, RebuildsTheParquetMrBitsetByteForByte) {
  std::vector<uint8_t> file;
  std::string why_not;
  if (!LoadTestFile(&file, &why_not)) GTEST_SKIP() << why_not;
  ASSERT_EQ(file.size(), kHeaderBytes + kBitsetBytes);
  const uint8_t header[kHeaderBytes] = {0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x00, 0x1c,
                                        0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
  ASSERT_EQ(std::memcmp(file.data(), header, kHeaderBytes), 0) << "unexpected BloomFilterHeader";

  std::vector<uint8_t> single(kBitsetBytes, 0), batch(kBitsetBytes, 0);
  std::vector<uint64_t> hashes;
  for (const char* w : kWords) hashes.push_back(ParquetHash(w));
  for (uint64_t h : hashes) kernels().insert(single.data(), kBitsetBytes / 32, h);
  kernels().insert_batch(batch.data(), kBitsetBytes / 32, hashes.data(), hashes.size());
  const std::vector<uint8_t> expected(file.begin() + kHeaderBytes, file.end());
  EXPECT_EQ(single, expected);
  EXPECT_EQ(batch, expected);
}

// Probing where the bitset lies: after the 16-byte header, and shifted to
// every alignment a file might put it at.
TEST_P(InteropPerIsa, ProbesTheParquetMrBitsetInPlaceAtAnyOffset) {
  std::vector<uint8_t> file;
  std::string why_not;
  if (!LoadTestFile(&file, &why_not)) GTEST_SKIP() << why_not;
  ASSERT_EQ(file.size(), kHeaderBytes + kBitsetBytes);
  const std::vector<uint8_t> bitset(file.begin() + kHeaderBytes, file.end());

  std::vector<uint64_t> probes;
  for (const char* w : kWords) probes.push_back(ParquetHash(w));
  for (int i = 0; i < 200; ++i) probes.push_back(ParquetHash("absent-" + std::to_string(i)));

  for (size_t shift : {0, 1, 7, 13, 48}) {
    std::vector<uint8_t> image(shift + file.size());
    std::memcpy(image.data() + shift, file.data(), file.size());
    const uint8_t* bits = image.data() + shift + kHeaderBytes;
    for (size_t i = 0; i < probes.size(); ++i) {
      const int expected = i < 4 ? 1 : (oracle::Find(bitset, probes[i]) ? 1 : 0);
      ASSERT_EQ(kernels().find(bits, kBitsetBytes / 32, probes[i]), expected)
          << "shift " << shift << " probe " << i;
    }
    std::vector<uint8_t> bitmap((probes.size() + 7) / 8);
    const size_t hits = kernels().find_batch_bitmap(bits, kBitsetBytes / 32, probes.data(),
                                                    probes.size(), bitmap.data());
    EXPECT_EQ(bitmap[0] & 0x0f, 0x0f);
    EXPECT_GE(hits, 4u);
    EXPECT_LT(hits, 4u + 10u) << "32 bits set of 8192: almost every absent probe must miss";
  }
}

BB_INSTANTIATE_PER_ISA(InteropPerIsa);

}  // namespace
