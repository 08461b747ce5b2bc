// SPDX-License-Identifier: Apache-2.0
// The hash kernels of every tier (parquet_hash_8byte / _4byte / _16byte)
// against libxxhash: XXH64, seed 0, of each value's little-endian bytes, for
// edge values, random values, every count that exercises the vector tails,
// and values at any byte address.
//
// The expected values come from the shared libxxhash (XXH64 of bytes built
// here by shifting, so independent of the host's byte order and of the
// library's own code); every tier the CPU can run is checked, the others are
// skipped and say so.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "blockbloom/tuning.h"
#include "support/isa_params.h"

namespace {

constexpr uint64_t kUntouched = 0xa5a5a5a5a5a5a5a5ull;

// Little-endian bytes of the low `width` bytes of bits, appended to out; a
// 16-byte value is bits and then the next pattern, hi (its high word).
void AppendLittleEndian(uint64_t bits, size_t width, std::vector<uint8_t>* out, uint64_t hi = 0) {
  for (size_t i = 0; i < width && i < 8; ++i) out->push_back(static_cast<uint8_t>(bits >> (8 * i)));
  for (size_t i = 8; i < width; ++i) out->push_back(static_cast<uint8_t>(hi >> (8 * (i - 8))));
}

template <typename T>
uint64_t BitsOf(T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte values");
  if (sizeof(T) == 4) {
    uint32_t b;
    std::memcpy(&b, &value, 4);
    return b;
  }
  uint64_t b;
  std::memcpy(&b, &value, 8);
  return b;
}

// Edge values of the 8-byte types, as bit patterns.
std::vector<uint64_t> EdgeBits8() {
  std::vector<uint64_t> bits = {
      BitsOf<int64_t>(0), BitsOf<int64_t>(1), BitsOf<int64_t>(-1),
      BitsOf(std::numeric_limits<int64_t>::min()), BitsOf(std::numeric_limits<int64_t>::max()),
      BitsOf<int64_t>(std::numeric_limits<int32_t>::min()),
      BitsOf<int64_t>(std::numeric_limits<int32_t>::max()),
      BitsOf<int64_t>(int64_t{1} << 32), BitsOf<int64_t>(0xFFFFFFFFll),
      BitsOf(0.0), BitsOf(-0.0), BitsOf(1.0), BitsOf(-1.0),
      BitsOf(std::numeric_limits<double>::quiet_NaN()),
      BitsOf(-std::numeric_limits<double>::quiet_NaN()),
      0x7FF0000000000001ull,  // a signalling NaN (quiet bit clear, payload 1)
      0x7FF4000000000000ull,  // a signalling NaN with a high payload bit
      BitsOf(std::numeric_limits<double>::infinity()),
      BitsOf(-std::numeric_limits<double>::infinity()),
      BitsOf(std::numeric_limits<double>::denorm_min()),
      0x000FFFFFFFFFFFFFull,  // the largest denormal
      BitsOf(-std::numeric_limits<double>::denorm_min()),
      BitsOf(std::numeric_limits<double>::min()), BitsOf(std::numeric_limits<double>::max()),
      BitsOf(std::numeric_limits<double>::lowest()),
  };
  return bits;
}

// Edge values of the 4-byte types, as bit patterns.
std::vector<uint32_t> EdgeBits4() {
  std::vector<uint32_t> bits;
  for (uint64_t b : {BitsOf<int32_t>(0), BitsOf<int32_t>(1), BitsOf<int32_t>(-1),
                     BitsOf(std::numeric_limits<int32_t>::min()),
                     BitsOf(std::numeric_limits<int32_t>::max()), BitsOf<int32_t>(0xFFFF),
                     BitsOf(0.0f), BitsOf(-0.0f), BitsOf(1.0f), BitsOf(-1.0f),
                     BitsOf(std::numeric_limits<float>::quiet_NaN()),
                     BitsOf(-std::numeric_limits<float>::quiet_NaN()),
                     uint64_t{0x7F800001u},  // a signalling NaN (quiet bit clear, payload 1)
                     uint64_t{0x7FA00000u},  // a signalling NaN with a high payload bit
                     BitsOf(std::numeric_limits<float>::infinity()),
                     BitsOf(-std::numeric_limits<float>::infinity()),
                     BitsOf(std::numeric_limits<float>::denorm_min()),
                     uint64_t{0x007FFFFFu},  // the largest denormal
                     BitsOf(-std::numeric_limits<float>::denorm_min()),
                     BitsOf(std::numeric_limits<float>::min()),
                     BitsOf(std::numeric_limits<float>::max()),
                     BitsOf(std::numeric_limits<float>::lowest())}) {
    bits.push_back(static_cast<uint32_t>(b));
  }
  return bits;
}

// Random bit patterns, and some with few set bits or small magnitudes
// (counters, ids), which stress the multiplies' carries differently.
std::vector<uint64_t> RandomBits(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> bits(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = rng();
    switch (i % 4) {
      case 0: bits[i] = r; break;
      case 1: bits[i] = r >> (r % 64); break;
      case 2: bits[i] = uint64_t{1} << (r % 64); break;
      default: bits[i] = ~(r >> (r % 64)); break;
    }
  }
  return bits;
}

// One of a table's two hash kernels and the width of its values.
struct HashKernel {
  size_t width;  // bytes per value
  void (*fn)(const void* values, size_t n, uint64_t* hashes);
};

// Expected hashes of the values in bytes (width bytes each, little-endian).
std::vector<uint64_t> ReferenceHashes(const uint8_t* bytes, size_t n, size_t width) {
  std::vector<uint64_t> hashes(n);
  for (size_t i = 0; i < n; ++i) hashes[i] = XXH64(bytes + width * i, width, 0);
  return hashes;
}

class HashKernels : public bbtest::PerIsa {
 protected:
  HashKernel Eight() const { return {8, kernels().parquet_hash_8byte}; }
  HashKernel Four() const { return {4, kernels().parquet_hash_4byte}; }
  HashKernel Sixteen() const { return {16, kernels().parquet_hash_16byte}; }
  std::vector<HashKernel> All() const { return {Eight(), Four(), Sixteen()}; }

  // Hashes the values in bytes at byte offset `offset` of a fresh buffer and
  // checks every hash, and that nothing past hashes[n) is written.
  static void ExpectMatchesLibxxhash(const HashKernel& k, const std::vector<uint8_t>& bytes,
                                     size_t offset) {
    const size_t n = bytes.size() / k.width;
    std::vector<uint8_t> buffer(offset + bytes.size() + 8, 0xEE);
    if (!bytes.empty()) std::memcpy(buffer.data() + offset, bytes.data(), bytes.size());
    std::vector<uint64_t> hashes(n + 2, kUntouched);
    k.fn(buffer.data() + offset, n, hashes.data());
    const std::vector<uint64_t> expected = ReferenceHashes(bytes.data(), n, k.width);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(hashes[i], expected[i]) << "value " << i << " of " << n << ", offset " << offset;
    }
    EXPECT_EQ(hashes[n], kUntouched) << "wrote past n=" << n;
    EXPECT_EQ(hashes[n + 1], kUntouched) << "wrote past n=" << n;
  }
};

TEST_P(HashKernels, TheTableHasTheThreeHashKernels) {
  ASSERT_NE(kernels().parquet_hash_8byte, nullptr);
  ASSERT_NE(kernels().parquet_hash_4byte, nullptr);
  ASSERT_NE(kernels().parquet_hash_16byte, nullptr);
}

TEST_P(HashKernels, KnownValues) {
  // XXH64 (seed 0) of 8 and 4 zero bytes, printed by libxxhash.
  const uint64_t zero8 = 0;
  const uint32_t zero4 = 0;
  uint64_t h = kUntouched;
  kernels().parquet_hash_8byte(&zero8, 1, &h);
  EXPECT_EQ(h, 0x34C96ACDCADB1BBBull);
  kernels().parquet_hash_4byte(&zero4, 1, &h);
  EXPECT_EQ(h, 0x3AEFA6FD5CF2DEB4ull);
  const uint64_t zero16[2] = {0, 0};
  kernels().parquet_hash_16byte(zero16, 1, &h);
  EXPECT_EQ(h, 0xAF09F71516247C32ull);
}

TEST_P(HashKernels, EdgeValues8Byte) {
  std::vector<uint8_t> bytes;
  for (uint64_t b : EdgeBits8()) AppendLittleEndian(b, 8, &bytes);
  ExpectMatchesLibxxhash(Eight(), bytes, 0);
  ExpectMatchesLibxxhash(Eight(), bytes, 1);
}

TEST_P(HashKernels, EdgeValues4Byte) {
  std::vector<uint8_t> bytes;
  for (uint32_t b : EdgeBits4()) AppendLittleEndian(b, 4, &bytes);
  ExpectMatchesLibxxhash(Four(), bytes, 0);
  ExpectMatchesLibxxhash(Four(), bytes, 1);
}

TEST_P(HashKernels, EdgeValues16Byte) {
  // Each 8-byte edge pattern as the low word, the high word, both, and next
  // to the following pattern (UUIDs and decimals are 16 bytes).
  const std::vector<uint64_t> edges = EdgeBits8();
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < edges.size(); ++i) {
    AppendLittleEndian(edges[i], 16, &bytes, 0);
    AppendLittleEndian(0, 16, &bytes, edges[i]);
    AppendLittleEndian(edges[i], 16, &bytes, edges[i]);
    AppendLittleEndian(edges[i], 16, &bytes, edges[(i + 1) % edges.size()]);
  }
  ExpectMatchesLibxxhash(Sixteen(), bytes, 0);
  ExpectMatchesLibxxhash(Sixteen(), bytes, 5);
}

TEST_P(HashKernels, EachEdgeValueInEveryLane) {
  // An edge value alone in lane j of a vector of zeros (for every j up to the
  // widest vector, 8 lanes): a lane mix-up or a wrong lane's constant shows.
  // A 16-byte value has it as its low word, then as its high word.
  for (const HashKernel& k : All()) {
    std::vector<uint64_t> edges = EdgeBits8();
    if (k.width == 4) {
      edges.clear();
      for (uint32_t b : EdgeBits4()) edges.push_back(b);
    }
    for (uint64_t edge : edges) {
      for (size_t lane = 0; lane < 16; ++lane) {
        for (bool high : {false, true}) {
          if (high && k.width != 16) continue;
          std::vector<uint8_t> bytes;
          for (size_t i = 0; i < 16; ++i) {
            const uint64_t bits = i == lane ? edge : 0;
            AppendLittleEndian(high ? 0 : bits, k.width, &bytes, high ? bits : 0);
          }
          ExpectMatchesLibxxhash(k, bytes, 0);
        }
      }
    }
  }
}

TEST_P(HashKernels, HundredThousandRandomValues) {
  const size_t n = 100000;
  for (const HashKernel& k : All()) {
    std::vector<uint8_t> bytes;
    const std::vector<uint64_t> bits = RandomBits(n + 1, 0x5eed + k.width);
    for (size_t i = 0; i < n; ++i) AppendLittleEndian(bits[i], k.width, &bytes, bits[i + 1]);
    ExpectMatchesLibxxhash(k, bytes, 0);
    ExpectMatchesLibxxhash(k, bytes, 1);
  }
}

TEST_P(HashKernels, EveryCountFromZeroTo67AtEveryByteOffset) {
  // 67 covers several whole vectors of every tier (2, 4 or 8 lanes) plus
  // every tail length; the offsets put the values at every misalignment.
  const std::vector<uint64_t> bits = RandomBits(68, 42);
  for (const HashKernel& k : All()) {
    for (size_t n = 0; n <= 67; ++n) {
      std::vector<uint8_t> bytes;
      for (size_t i = 0; i < n; ++i) AppendLittleEndian(bits[i], k.width, &bytes, bits[i + 1]);
      for (size_t offset = 0; offset < k.width; ++offset) {
        SCOPED_TRACE("width " + std::to_string(k.width) + " n " + std::to_string(n) + " offset " +
                     std::to_string(offset));
        ExpectMatchesLibxxhash(k, bytes, offset);
      }
    }
  }
}

TEST_P(HashKernels, EqualToTheScalarTier) {
  // Every tier is bit-identical to the scalar reference tier.
  const size_t n = 1000;
  std::vector<uint8_t> bytes;
  for (uint64_t b : RandomBits(n, 7)) AppendLittleEndian(b, 8, &bytes);
  std::vector<uint64_t> got(n), want(n);
  kernels().parquet_hash_8byte(bytes.data() + 3, n - 1, got.data());
  scalar().parquet_hash_8byte(bytes.data() + 3, n - 1, want.data());
  EXPECT_EQ(got, want);
  kernels().parquet_hash_4byte(bytes.data() + 1, n, got.data());
  scalar().parquet_hash_4byte(bytes.data() + 1, n, want.data());
  EXPECT_EQ(got, want);
  kernels().parquet_hash_16byte(bytes.data() + 7, n / 2 - 1, got.data());
  scalar().parquet_hash_16byte(bytes.data() + 7, n / 2 - 1, want.data());
  EXPECT_EQ(got, want);
}

TEST_P(HashKernels, ReadsNoByteAfterTheLastValue) {
  // The values end exactly where an inaccessible page begins: a tail loaded
  // as a whole vector would fault.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* mapping = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapping, MAP_FAILED);
  uint8_t* guard = static_cast<uint8_t*>(mapping) + page;
  ASSERT_EQ(mprotect(guard, page, PROT_NONE), 0);
  for (const HashKernel& k : All()) {
    for (size_t n = 0; n <= 19; ++n) {
      uint8_t* values = guard - k.width * n;
      for (size_t i = 0; i < k.width * n; ++i) values[i] = static_cast<uint8_t>(i * 37 + n);
      std::vector<uint64_t> hashes(n + 1, kUntouched);
      k.fn(values, n, hashes.data());
      const std::vector<uint64_t> expected = ReferenceHashes(values, n, k.width);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(hashes[i], expected[i]) << "width " << k.width << " n " << n;
    }
  }
  munmap(mapping, 2 * page);
}

TEST_P(HashKernels, NoValuesNeedNoPointers) {
  kernels().parquet_hash_8byte(nullptr, 0, nullptr);
  kernels().parquet_hash_4byte(nullptr, 0, nullptr);
  kernels().parquet_hash_16byte(nullptr, 0, nullptr);
}

BB_INSTANTIATE_PER_ISA(HashKernels);

}  // namespace
