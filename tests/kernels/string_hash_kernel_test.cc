// SPDX-License-Identifier: Apache-2.0
// The byte-array hash kernels of every tier (parquet_hash_byte_array32 /
// _64) against libxxhash: XXH64, seed 0, of each string's bytes, for every
// length 0..4096, random mixes of short and long strings (so that vector
// lanes hold strings of different lengths), every start misalignment 0..63,
// offsets at any alignment, data ending just before an inaccessible page,
// empty strings with no data at all, and columns across kColumnChunk; the
// same for Kudu's kernels (kudu_hash_byte_array32 / _64) against
// bb_kudu_fasthash32; and Kudu's FastHash of short BINARY cells next to a
// guard page through the column call.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "blockbloom/hashing.h"
#include "blockbloom/tuning.h"
#include "support/isa_params.h"

namespace {

constexpr uint64_t kUntouched = 0xa5a5a5a5a5a5a5a5ull;

// A column's offsets, as the kernel reads them: width 4 or 8, host order,
// starting `shift` bytes into their buffer (any alignment).
struct Offsets {
  std::vector<uint8_t> bytes;
  size_t shift = 0;
  const void* data() const { return bytes.data() + shift; }
};

Offsets MakeOffsets(const std::vector<size_t>& offs, size_t width, size_t shift) {
  Offsets o;
  o.shift = shift;
  o.bytes.assign(shift + width * offs.size(), 0xCC);
  for (size_t i = 0; i < offs.size(); ++i) {
    if (width == 4) {
      const auto v = static_cast<int32_t>(offs[i]);
      std::memcpy(o.bytes.data() + shift + 4 * i, &v, 4);
    } else {
      const auto v = static_cast<int64_t>(offs[i]);
      std::memcpy(o.bytes.data() + shift + 8 * i, &v, 8);
    }
  }
  return o;
}

class StringHashKernels : public bbtest::PerIsa {
 protected:
  using Kernel = void (*)(const uint8_t*, size_t, const void*, size_t, uint64_t*);
  Kernel ForWidth(size_t width) const {
    return width == 4 ? kernels().parquet_hash_byte_array32 : kernels().parquet_hash_byte_array64;
  }
  using KuduKernel = void (*)(const uint8_t*, size_t, const void*, size_t, uint32_t, uint32_t*);
  KuduKernel KuduForWidth(size_t width) const {
    return width == 4 ? kernels().kudu_hash_byte_array32 : kernels().kudu_hash_byte_array64;
  }

  // Kudu's kernels on the same strings: each hash equals bb_kudu_fasthash32
  // of the string (an empty one by Kudu's empty rule), for two seeds, and
  // nothing is written past n.
  void CheckKudu(const uint8_t* data, size_t data_len, const std::vector<size_t>& offs, size_t width,
                 const void* offsets) const {
    const size_t n = offs.size() - 1;
    for (uint32_t seed : {0u, 0x9747b28cu}) {
      std::vector<uint32_t> hashes(n + 2, 0xa5a5a5a5u);
      KuduForWidth(width)(data, data_len, offsets, n, seed, hashes.data());
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(hashes[i], bb_kudu_fasthash32(data + offs[i], offs[i + 1] - offs[i], seed))
            << "Kudu, row " << i << " of " << n << ", length " << offs[i + 1] - offs[i]
            << ", offset width " << width << ", seed " << seed;
      }
      EXPECT_EQ(hashes[n], 0xa5a5a5a5u) << "Kudu wrote past n=" << n;
      EXPECT_EQ(hashes[n + 1], 0xa5a5a5a5u) << "Kudu wrote past n=" << n;
    }
  }

  // Strings of the given lengths laid end to end from byte `first` of the
  // data (bytes before `first` and after the last string are filler the
  // kernel may read but must not hash), hashed with both offset widths and
  // offsets shifted by offset_shift bytes; every hash is checked against
  // libxxhash, and nothing past hashes[n) may be written.
  void Check(const std::vector<size_t>& lengths, size_t first, size_t misalign, size_t tail_bytes,
             size_t offset_shift, uint32_t seed) const {
    std::mt19937_64 rng(seed);
    std::vector<size_t> offs = {first};
    for (size_t len : lengths) offs.push_back(offs.back() + len);
    const size_t data_len = offs.back() + tail_bytes;
    std::vector<uint8_t> buffer(misalign + data_len + 1);
    for (auto& b : buffer) b = static_cast<uint8_t>(rng());
    const uint8_t* data = buffer.data() + misalign;
    const size_t n = lengths.size();
    for (size_t width : {size_t{4}, size_t{8}}) {
      const Offsets o = MakeOffsets(offs, width, offset_shift);
      std::vector<uint64_t> hashes(n + 2, kUntouched);
      ForWidth(width)(data, data_len, o.data(), n, hashes.data());
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(hashes[i], XXH64(data + offs[i], lengths[i], 0))
            << "row " << i << " of " << n << ", length " << lengths[i] << ", offset width " << width
            << ", misalignment " << misalign;
      }
      EXPECT_EQ(hashes[n], kUntouched) << "wrote past n=" << n;
      EXPECT_EQ(hashes[n + 1], kUntouched) << "wrote past n=" << n;
      CheckKudu(data, data_len, offs, width, o.data());
    }
  }
};

std::vector<size_t> RandomLengths(size_t n, size_t max_short, size_t long_every, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<size_t> lengths(n);
  for (auto& len : lengths) {
    len = (long_every != 0 && rng() % long_every == 0) ? 32 + rng() % 4065 : rng() % (max_short + 1);
  }
  return lengths;
}

TEST_P(StringHashKernels, TheTableHasBothByteArrayKernels) {
  ASSERT_NE(kernels().parquet_hash_byte_array32, nullptr);
  ASSERT_NE(kernels().parquet_hash_byte_array64, nullptr);
  ASSERT_NE(kernels().kudu_hash_byte_array32, nullptr);
  ASSERT_NE(kernels().kudu_hash_byte_array64, nullptr);
}

TEST_P(StringHashKernels, KnownValues) {
  // XXH64 (seed 0) of "" and of "abc", printed by libxxhash's xxhsum.
  const uint8_t abc[] = {'a', 'b', 'c'};
  const int32_t offsets[] = {0, 0, 3};
  uint64_t hashes[2] = {0, 0};
  kernels().parquet_hash_byte_array32(abc, 3, offsets, 2, hashes);
  EXPECT_EQ(hashes[0], 0xEF46DB3751D8E999ull);
  EXPECT_EQ(hashes[1], 0x44BC2CF5AD770999ull);
}

TEST_P(StringHashKernels, EveryLengthFrom0To4096) {
  std::vector<size_t> lengths;
  for (size_t len = 0; len <= 4096; ++len) lengths.push_back(len);
  Check(lengths, 0, 0, 0, 0, 1);
  // The same lengths, longest first: each vector of rows a different mix.
  std::vector<size_t> reversed(lengths.rbegin(), lengths.rend());
  Check(reversed, 5, 3, 0, 1, 2);
}

TEST_P(StringHashKernels, EachLengthAloneInEveryLane) {
  // Length L in row k of 16 rows of length (k * 7) % 33: every lane
  // position, next to lanes of other lengths.
  for (size_t len = 0; len <= 100; ++len) {
    for (size_t k = 0; k < 16; ++k) {
      std::vector<size_t> lengths(16);
      for (size_t j = 0; j < 16; ++j) lengths[j] = (j * 7) % 33;
      lengths[k] = len;
      Check(lengths, 0, 0, 40, 0, static_cast<uint32_t>(len * 16 + k));
    }
  }
}

TEST_P(StringHashKernels, EachLengthInEveryRowOfSideBySideGroups) {
  // The vector tiers hash several groups of lanes side by side, then single
  // groups, then the rows left one at a time: 37 rows reach all three with
  // 8 lanes (3 groups of 8, a group of 8, 5 rows) and with 4. Length L in
  // row k, next to rows of (j * 7) % 33 bytes (row 14 is a 32-byte one).
  for (size_t len = 0; len <= 70; ++len) {
    for (size_t k = 0; k < 37; ++k) {
      std::vector<size_t> lengths(37);
      for (size_t j = 0; j < lengths.size(); ++j) lengths[j] = (j * 7) % 33;
      lengths[k] = len;
      Check(lengths, 3, 1, 32, 2, static_cast<uint32_t>(len * 37 + k));
    }
  }
}

TEST_P(StringHashKernels, ThirtyTwoByteStringsInSomeGroupsOnly) {
  // A 32-byte string's stripe is computed only for the groups of lanes that
  // hold one: 37 rows of 0..31 bytes with 32-byte strings in rows k and m
  // (k alone when m == k), so that each of the side-by-side groups holds
  // none, one or two while its neighbours hold others.
  for (size_t k = 0; k < 37; ++k) {
    for (size_t m = k; m < 37; m += 5) {
      std::vector<size_t> lengths(37);
      for (size_t j = 0; j < lengths.size(); ++j) lengths[j] = (j * 5 + 3) % 32;
      lengths[k] = 32;
      lengths[m] = 32;
      Check(lengths, 1, 2, 32, 0, static_cast<uint32_t>(k * 37 + m));
    }
  }
}

TEST_P(StringHashKernels, EveryMisalignmentOfShortAndMixedStrings) {
  for (size_t misalign = 0; misalign < 64; ++misalign) {
    Check(RandomLengths(300, 32, 0, 10 + misalign), 0, misalign, 0, misalign % 8, 3);
    Check(RandomLengths(300, 40, 9, 20 + misalign), misalign, misalign, 64, (misalign * 3) % 8, 4);
  }
}

TEST_P(StringHashKernels, LongStringsAtEveryMisalignment) {
  for (size_t misalign = 0; misalign < 64; ++misalign) {
    std::vector<size_t> lengths;
    for (size_t len = 32 + misalign; len <= 4096; len += 61) lengths.push_back(len);
    Check(lengths, 0, misalign, 0, 0, 5);
  }
}

TEST_P(StringHashKernels, RandomMixesOfLengths) {
  for (uint32_t seed = 0; seed < 20; ++seed) {
    Check(RandomLengths(2000 + seed, seed % 2 == 0 ? 32 : 64, seed % 3 == 0 ? 0 : 17, seed), seed,
          seed % 64, seed % 40, seed % 8, seed);
  }
}

TEST_P(StringHashKernels, EqualToTheScalarTier) {
  const std::vector<size_t> lengths = RandomLengths(5000, 40, 50, 99);
  std::vector<size_t> offs = {0};
  for (size_t len : lengths) offs.push_back(offs.back() + len);
  std::vector<uint8_t> data(offs.back());
  std::mt19937_64 rng(7);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  const Offsets o = MakeOffsets(offs, 8, 0);
  std::vector<uint64_t> got(lengths.size()), want(lengths.size());
  kernels().parquet_hash_byte_array64(data.data(), data.size(), o.data(), lengths.size(), got.data());
  scalar().parquet_hash_byte_array64(data.data(), data.size(), o.data(), lengths.size(), want.data());
  EXPECT_EQ(got, want);
}

TEST_P(StringHashKernels, ReadsNoByteAfterTheData) {
  // The data ends exactly where an inaccessible page begins: a string near
  // the end loaded as 32 bytes, or a gather lane reaching past the data,
  // would fault.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t pages = 2;
  void* mapping = mmap(nullptr, (pages + 1) * page, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapping, MAP_FAILED);
  uint8_t* guard = static_cast<uint8_t*>(mapping) + pages * page;
  ASSERT_EQ(mprotect(guard, page, PROT_NONE), 0);
  for (uint32_t seed = 0; seed < 200; ++seed) {
    std::mt19937_64 rng(seed);
    const size_t n = seed % 41;
    std::vector<size_t> lengths = RandomLengths(n, 40, seed % 2 == 0 ? 0 : 11, seed);
    std::vector<size_t> offs = {0};
    for (size_t len : lengths) offs.push_back(offs.back() + len);
    if (offs.back() > pages * page) continue;
    const size_t data_len = offs.back();
    uint8_t* data = guard - data_len;
    for (size_t i = 0; i < data_len; ++i) data[i] = static_cast<uint8_t>(rng());
    for (size_t width : {size_t{4}, size_t{8}}) {
      const Offsets o = MakeOffsets(offs, width, 0);
      std::vector<uint64_t> hashes(n + 1, kUntouched);
      ForWidth(width)(data, data_len, o.data(), n, hashes.data());
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(hashes[i], XXH64(data + offs[i], lengths[i], 0)) << "seed " << seed << " row " << i;
      }
      EXPECT_EQ(hashes[n], kUntouched);
      CheckKudu(data, data_len, offs, width, o.data());
    }
  }
  munmap(mapping, (pages + 1) * page);
}

TEST_P(StringHashKernels, EmptyStringsWithNoData) {
  const uint64_t empty = XXH64(nullptr, 0, 0);
  for (size_t n = 0; n <= 40; ++n) {
    for (size_t width : {size_t{4}, size_t{8}}) {
      const Offsets o = MakeOffsets(std::vector<size_t>(n + 1, 0), width, 0);
      std::vector<uint64_t> hashes(n + 1, kUntouched);
      ForWidth(width)(nullptr, 0, o.data(), n, hashes.data());
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(hashes[i], empty) << "n " << n << " row " << i;
      EXPECT_EQ(hashes[n], kUntouched);
      const uint32_t kudu_empty = bb_kudu_fasthash32("", 0, 7);
      std::vector<uint32_t> kudu(n + 1, 0xa5a5a5a5u);
      KuduForWidth(width)(nullptr, 0, o.data(), n, 7, kudu.data());
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(kudu[i], kudu_empty) << "Kudu, n " << n << " row " << i;
      EXPECT_EQ(kudu[n], 0xa5a5a5a5u);
    }
  }
}

// Through the column API with this tier selected: chunks of kColumnChunk
// (1024) rows, each handed to the kernel with its own slice of offsets.
TEST_P(StringHashKernels, ColumnsAcrossChunkBoundaries) {
  const std::string saved = bb_selected_isa();
  ASSERT_EQ(bb_select_isa(GetParam()), BB_OK);
  for (size_t n : {size_t{1023}, size_t{1024}, size_t{1025}, size_t{3079}}) {
    const std::vector<size_t> lengths = RandomLengths(n, 32, 40, static_cast<uint32_t>(n));
    std::vector<int32_t> offs = {0};
    for (size_t len : lengths) offs.push_back(offs.back() + static_cast<int32_t>(len));
    std::vector<uint8_t> data(static_cast<size_t>(offs.back()));
    std::mt19937_64 rng(n);
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    bb_column col = BB_COLUMN_INIT;
    col.type = BB_TYPE_BYTE_ARRAY;
    col.length = n;
    col.offsets = offs.data();
    col.data = data.data();
    col.data_len = data.size();
    std::vector<uint64_t> hashes(n);
    size_t num = 0;
    ASSERT_EQ(bb_parquet_hash_column(&col, hashes.data(), &num), BB_OK);
    ASSERT_EQ(num, n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(hashes[i], XXH64(data.data() + offs[i], lengths[i], 0)) << "n " << n << " row " << i;
    }
  }
  ASSERT_EQ(bb_select_isa(saved.c_str()), BB_OK);
}

// The offsets check the column calls make before hashing
// (offsets_ordered32 / _64): a single decrease at every position of 0..70
// rows is found, equal neighbours are not one, at every alignment; values
// compared as signed integers of their width (INT32_MAX then INT32_MIN is a
// decrease; 2^32 then 2^32 - 1 too, which a 32-bit comparison would miss).
TEST_P(StringHashKernels, OffsetsOrderedFindsEveryDecrease) {
  for (size_t width : {size_t{4}, size_t{8}}) {
    const auto ordered = width == 4 ? kernels().offsets_ordered32 : kernels().offsets_ordered64;
    for (size_t n = 0; n <= 70; ++n) {
      std::vector<size_t> offs(n + 1);
      for (size_t k = 0; k <= n; ++k) offs[k] = 3 * k - (k % 2);  // steps of 2 and 4
      for (size_t shift : {size_t{0}, size_t{3}}) {
        ASSERT_EQ(ordered(MakeOffsets(offs, width, shift).data(), n), 1) << "n " << n;
        std::vector<size_t> flat(n + 1, 7);  // every offset equal: ordered
        ASSERT_EQ(ordered(MakeOffsets(flat, width, shift).data(), n), 1) << "n " << n;
        for (size_t p = 1; p <= n; ++p) {
          std::vector<size_t> bad = offs;
          bad[p] = bad[p - 1] - 1;  // p == 1: 0 then -1
          ASSERT_EQ(ordered(MakeOffsets(bad, width, shift).data(), n), 0)
              << "decrease at " << p << " of n " << n << ", width " << width << ", shift " << shift;
        }
      }
    }
  }
  const int32_t wrap32[] = {0, INT32_MAX, INT32_MIN, INT32_MIN};
  EXPECT_EQ(kernels().offsets_ordered32(wrap32, 3), 0);
  EXPECT_EQ(kernels().offsets_ordered32(wrap32, 1), 1);
  std::vector<int64_t> wide(40, int64_t{1} << 32);
  EXPECT_EQ(kernels().offsets_ordered64(wide.data(), wide.size() - 1), 1);
  wide[17] = (int64_t{1} << 32) - 1;
  EXPECT_EQ(kernels().offsets_ordered64(wide.data(), wide.size() - 1), 0);
}

TEST_P(StringHashKernels, NoStringsNeedNoPointers) {
  const int64_t offsets[1] = {0};
  kernels().parquet_hash_byte_array32(nullptr, 0, offsets, 0, nullptr);
  kernels().parquet_hash_byte_array64(nullptr, 0, offsets, 0, nullptr);
  kernels().kudu_hash_byte_array32(nullptr, 0, offsets, 0, 0, nullptr);
  kernels().kudu_hash_byte_array64(nullptr, 0, offsets, 0, 0, nullptr);
}

BB_INSTANTIATE_PER_ISA(StringHashKernels);

}  // namespace

namespace {

// Kudu's FastHash of BINARY cells (bb_kudu_hash_column): short cells take a
// branch-free path that reads 32 bytes from the cell's start when the data
// has them. Random lengths 0..40 with the data ending at an inaccessible
// page, against bb_kudu_fasthash32 of each cell (its empty-cell rule too).
TEST(KuduStringHash, ShortCellsUpToAGuardPage) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* mapping = mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapping, MAP_FAILED);
  uint8_t* guard = static_cast<uint8_t*>(mapping) + 2 * page;
  ASSERT_EQ(mprotect(guard, page, PROT_NONE), 0);
  for (uint32_t seed = 0; seed < 100; ++seed) {
    const std::vector<size_t> lengths = RandomLengths(50 + seed, 40, 0, seed);
    std::vector<int64_t> offs = {0};
    for (size_t len : lengths) offs.push_back(offs.back() + static_cast<int64_t>(len));
    const auto data_len = static_cast<size_t>(offs.back());
    ASSERT_LE(data_len, 2 * page);
    uint8_t* data = guard - data_len;
    std::mt19937_64 rng(seed);
    for (size_t i = 0; i < data_len; ++i) data[i] = static_cast<uint8_t>(rng());
    bb_column col = BB_COLUMN_INIT;
    col.type = BB_TYPE_LARGE_BYTE_ARRAY;
    col.length = lengths.size();
    col.offsets = offs.data();
    col.data = data;
    col.data_len = data_len;
    std::vector<uint32_t> hashes(lengths.size());
    size_t num = 0;
    ASSERT_EQ(bb_kudu_hash_column(&col, seed, hashes.data(), &num), BB_OK);
    ASSERT_EQ(num, lengths.size());
    for (size_t i = 0; i < lengths.size(); ++i) {
      ASSERT_EQ(hashes[i], bb_kudu_fasthash32(data + offs[i], lengths[i], seed))
          << "seed " << seed << " row " << i << " length " << lengths[i];
    }
  }
  munmap(mapping, 3 * page);
}

}  // namespace
