// SPDX-License-Identifier: Apache-2.0
// bb_kudu_directory, the field-by-field image of Kudu's BlockBloomFilterPB:
// export / import round trips, the always_false flag and the seed, every
// rejected input, and the directory bytes Kudu itself would hold.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/kudu.h"

namespace {

using Bytes = std::vector<uint8_t>;

bb_kudu_directory Directory(const Bytes& bytes, int32_t log_space_bytes, int always_false = 0,
                            uint32_t seed = 0) {
  bb_kudu_directory d{};
  d.log_space_bytes = log_space_bytes;
  d.bloom_data = bytes.data();
  d.bloom_data_size = bytes.size();
  d.always_false = always_false;
  d.hash_algorithm = BB_KUDU_HASH_FAST_HASH;
  d.hash_seed = seed;
  return d;
}

Bytes RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

// A filter struct full of garbage, to see that a failed import zeroes it.
bb_filter Garbage() {
  bb_filter f;
  std::memset(&f, 0x5a, sizeof(f));
  return f;
}

bool IsZeroed(const bb_filter& f) {
  return f.data == nullptr && f.num_bytes == 0 && f.num_blocks == 0 && f.flags == 0 && f.layout == 0 &&
         f.hash_seed == 0 && f.allocator == nullptr;
}

// Kudu's BlockBloomFilter::Insert written out from the published constants
// (docs/formats.md), independent of the library's kernels.
void ReferenceKuduInsert(Bytes* directory, uint32_t hash) {
  static const uint32_t kSalt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                    0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};
  const uint32_t blocks = static_cast<uint32_t>(directory->size() / 32);
  const uint32_t rehash =
      static_cast<uint32_t>((uint64_t{hash} * 0x7850f11ec6d14889ull + 0x6773610597ca4c63ull) >> 32);
  const size_t block = rehash & (blocks - 1);
  for (int i = 0; i < 8; ++i) {
    const uint32_t bit = 1u << ((hash * kSalt[i]) >> 27);
    uint8_t* lane = directory->data() + 32 * block + 4 * i;  // little-endian uint32
    for (int byte = 0; byte < 4; ++byte) lane[byte] |= static_cast<uint8_t>(bit >> (8 * byte));
  }
}

// ------------------------------------------------------------ round trips

TEST(KuduDirectory, ImportThenExportGivesIdenticalBytesAndFields) {
  for (int32_t log : {6, 7, 10, 16, 20}) {
    const Bytes bytes = RandomBytes(size_t{1} << log, static_cast<uint32_t>(log));
    const bb_kudu_directory in = Directory(bytes, log, 0, 0x1234u + static_cast<uint32_t>(log));
    bb_filter f;
    ASSERT_EQ(bb_kudu_import(&f, &in), BB_OK) << log;
    EXPECT_EQ(f.layout, static_cast<uint32_t>(BB_LAYOUT_KUDU));
    EXPECT_EQ(f.num_bytes, bytes.size());
    EXPECT_EQ(f.num_blocks, bytes.size() / 32);
    EXPECT_NE(f.flags & BB_FILTER_OWNED, 0u);
    EXPECT_EQ(f.flags & BB_FILTER_READ_ONLY, 0u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(f.data) % BB_ALLOC_ALIGNMENT, 0u);

    bb_kudu_directory out;
    ASSERT_EQ(bb_kudu_export(&f, &out), BB_OK);
    EXPECT_EQ(out.log_space_bytes, log);
    EXPECT_EQ(out.bloom_data_size, bytes.size());
    EXPECT_EQ(out.always_false, 0);
    EXPECT_EQ(out.hash_algorithm, BB_KUDU_HASH_FAST_HASH);
    EXPECT_EQ(out.hash_seed, in.hash_seed);
    EXPECT_EQ(std::memcmp(out.bloom_data, bytes.data(), bytes.size()), 0) << log;

    // And once more through import: still the same.
    bb_filter g;
    ASSERT_EQ(bb_kudu_import(&g, &out), BB_OK);
    EXPECT_EQ(std::memcmp(g.data, bytes.data(), bytes.size()), 0);
    EXPECT_EQ(g.hash_seed, in.hash_seed);
    bb_filter_release(&f);
    bb_filter_release(&g);
  }
}

TEST(KuduDirectory, ImportCopiesTheDirectory) {
  Bytes bytes = RandomBytes(256, 1);
  const Bytes original = bytes;
  const bb_kudu_directory in = Directory(bytes, 8);
  bb_filter f;
  ASSERT_EQ(bb_kudu_import(&f, &in), BB_OK);
  EXPECT_NE(f.data, bytes.data());
  std::memset(bytes.data(), 0, bytes.size());
  EXPECT_EQ(std::memcmp(f.data, original.data(), original.size()), 0);
  bb_filter_release(&f);
}

TEST(KuduDirectory, ExportPointsIntoTheFilterWithoutCopying) {
  const Bytes bytes = RandomBytes(64, 2);
  const bb_kudu_directory in = Directory(bytes, 6);
  bb_filter f;
  ASSERT_EQ(bb_kudu_import(&f, &in), BB_OK);
  bb_kudu_directory out;
  ASSERT_EQ(bb_kudu_export(&f, &out), BB_OK);
  EXPECT_EQ(out.bloom_data, f.data);
  bb_filter_release(&f);
}

TEST(KuduDirectory, AlwaysFalseAndSeedRoundTrip) {
  const Bytes zeros(128, 0);
  for (int always_false : {0, 1, 7}) {
    for (uint32_t seed : {0u, 1u, 0xdeadbeefu, UINT32_MAX}) {
      const bb_kudu_directory in = Directory(zeros, 7, always_false, seed);
      bb_filter f;
      ASSERT_EQ(bb_kudu_import(&f, &in), BB_OK);
      EXPECT_EQ((f.flags & BB_FILTER_ALWAYS_FALSE) != 0, always_false != 0);
      EXPECT_EQ(f.hash_seed, seed);
      bb_kudu_directory out;
      ASSERT_EQ(bb_kudu_export(&f, &out), BB_OK);
      EXPECT_EQ(out.always_false, always_false != 0 ? 1 : 0) << always_false;
      EXPECT_EQ(out.hash_seed, seed);
      bb_filter_release(&f);
    }
  }
}

TEST(KuduDirectory, AlwaysFalseDirectoryWithSetBitsIsCopiedVerbatim) {
  // As Kudu's InitFromDirectory does: the flag is not second-guessed.
  const Bytes bytes = RandomBytes(64, 3);
  const bb_kudu_directory in = Directory(bytes, 6, 1);
  bb_filter f;
  ASSERT_EQ(bb_kudu_import(&f, &in), BB_OK);
  EXPECT_NE(f.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_EQ(std::memcmp(f.data, bytes.data(), bytes.size()), 0);
  bb_filter_release(&f);
}

// ----------------------------------------------------------- invalid input

TEST(KuduDirectory, LogSpaceOutOfRangeIsRefused) {
  const Bytes bytes(64, 0);
  for (int32_t log : {INT32_MIN, -1, 0, 5, 36, 64, INT32_MAX}) {
    const bb_kudu_directory in = Directory(bytes, log);
    bb_filter f = Garbage();
    EXPECT_EQ(bb_kudu_import(&f, &in), BB_ERR_LOG_SPACE_OUT_OF_RANGE) << log;
    EXPECT_TRUE(IsZeroed(f)) << log;
  }
  // The ends of the range pass the range check (and fail only on size here).
  for (int32_t log : {BB_KUDU_MIN_LOG_SPACE_BYTES + 1, BB_KUDU_MAX_LOG_SPACE_BYTES}) {
    const bb_kudu_directory in = Directory(bytes, log);
    bb_filter f;
    EXPECT_EQ(bb_kudu_import(&f, &in), BB_ERR_DIRECTORY_SIZE_MISMATCH) << log;
  }
}

TEST(KuduDirectory, SizeThatIsNotAPowerOfTwoIsRefused) {
  for (size_t size : {size_t{0}, size_t{32 * 3}, size_t{65}, size_t{100}, size_t{63}}) {
    const Bytes bytes(size + 1, 0);  // never read
    bb_kudu_directory in = Directory(bytes, 6);
    in.bloom_data_size = size;
    bb_filter f = Garbage();
    EXPECT_EQ(bb_kudu_import(&f, &in), BB_ERR_NOT_POWER_OF_TWO) << size;
    EXPECT_TRUE(IsZeroed(f));
  }
}

TEST(KuduDirectory, PowerOfTwoThatDisagreesWithLogSpaceIsDirectorySizeMismatch) {
  const Bytes bytes(256, 0);
  for (int32_t log : {6, 7, 9, 20}) {
    const bb_kudu_directory in = Directory(bytes, log);  // 2^8 bytes
    bb_filter f = Garbage();
    EXPECT_EQ(bb_kudu_import(&f, &in), BB_ERR_DIRECTORY_SIZE_MISMATCH) << log;
    EXPECT_TRUE(IsZeroed(f));
  }
  bb_kudu_directory small = Directory(bytes, 6);
  small.bloom_data_size = 32;  // one block: a power of two, but not 2^6
  bb_filter f;
  EXPECT_EQ(bb_kudu_import(&f, &small), BB_ERR_DIRECTORY_SIZE_MISMATCH);
  // The message names the directory's fields, not union shapes.
  const std::string message = bb_status_message(BB_ERR_DIRECTORY_SIZE_MISMATCH);
  EXPECT_NE(message.find("bloom_data_size"), std::string::npos) << message;
  EXPECT_NE(message.find("2^log_space_bytes"), std::string::npos) << message;
}

TEST(KuduDirectory, HashOtherThanFastHashIsUnsupported) {
  const Bytes bytes(64, 0);
  // UNKNOWN_HASH, MURMUR_HASH_2, CITY_HASH, and values Kudu does not define.
  for (int32_t hash : {0, 1, 2, 4, -1, INT32_MAX}) {
    bb_kudu_directory in = Directory(bytes, 6);
    in.hash_algorithm = hash;
    bb_filter f = Garbage();
    EXPECT_EQ(bb_kudu_import(&f, &in), BB_ERR_UNSUPPORTED_HASH) << hash;
    EXPECT_TRUE(IsZeroed(f));
  }
  EXPECT_EQ(BB_KUDU_HASH_FAST_HASH, 3);  // kudu/util/hash.proto: FAST_HASH = 3
}

TEST(KuduDirectory, NullPointersAreRefused) {
  const Bytes bytes(64, 0);
  const bb_kudu_directory in = Directory(bytes, 6);
  EXPECT_EQ(bb_kudu_import(nullptr, &in), BB_ERR_NULL_POINTER);
  bb_filter f = Garbage();
  EXPECT_EQ(bb_kudu_import(&f, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_TRUE(IsZeroed(f));
  bb_kudu_directory no_data = in;
  no_data.bloom_data = nullptr;
  f = Garbage();
  EXPECT_EQ(bb_kudu_import(&f, &no_data), BB_ERR_NULL_POINTER);
  EXPECT_TRUE(IsZeroed(f));

  bb_filter g;
  ASSERT_EQ(bb_kudu_import(&g, &in), BB_OK);
  bb_kudu_directory out;
  EXPECT_EQ(bb_kudu_export(nullptr, &out), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_kudu_export(&g, nullptr), BB_ERR_NULL_POINTER);
  bb_filter_release(&g);
  EXPECT_EQ(bb_kudu_export(&g, &out), BB_ERR_NULL_POINTER);  // released: no data
}

TEST(KuduDirectory, ExportOfAParquetFilterIsLayoutMismatch) {
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 1024), BB_OK);
  bb_kudu_directory out;
  std::memset(&out, 0x5a, sizeof(out));
  bb_kudu_directory before;
  std::memcpy(&before, &out, sizeof(out));
  EXPECT_EQ(bb_kudu_export(&f, &out), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(std::memcmp(&out, &before, sizeof(out)), 0);  // untouched on error
  bb_filter_release(&f);
}

// docs/reliability.md: on error the out-parameter keeps its contents. Every
// way bb_kudu_export can fail leaves a pre-filled directory byte for byte
// as it was (it used to be zeroed).
TEST(KuduDirectory, ExportErrorsLeaveTheOutputDirectoryUntouched) {
  bb_filter parquet, kudu, odd, small;
  ASSERT_EQ(bb_filter_init(&parquet, 1024), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 10, 7), BB_OK);
  odd = kudu;
  odd.num_bytes = 96;  // edited by hand: not a power of two
  small = kudu;
  small.num_bytes = 32;  // a power of two below Kudu's 64 bytes
  bb_filter released;
  ASSERT_EQ(bb_kudu_filter_init(&released, 6, 0), BB_OK);
  bb_filter_release(&released);
  const struct {
    const bb_filter* f;
    int status;
  } cases[] = {{nullptr, BB_ERR_NULL_POINTER},       {&released, BB_ERR_NULL_POINTER},
               {&parquet, BB_ERR_LAYOUT_MISMATCH},   {&odd, BB_ERR_NOT_POWER_OF_TWO},
               {&small, BB_ERR_LOG_SPACE_OUT_OF_RANGE}};
  for (const auto& c : cases) {
    bb_kudu_directory out;
    std::memset(&out, 0x5a, sizeof(out));
    bb_kudu_directory before;
    std::memcpy(&before, &out, sizeof(out));
    EXPECT_EQ(bb_kudu_export(c.f, &out), c.status);
    EXPECT_EQ(std::memcmp(&out, &before, sizeof(out)), 0) << "status " << c.status;
  }
  bb_kudu_directory out;
  std::memset(&out, 0x5a, sizeof(out));
  ASSERT_EQ(bb_kudu_export(&kudu, &out), BB_OK);  // success still fills every field
  EXPECT_EQ(out.log_space_bytes, 10);
  EXPECT_EQ(out.bloom_data, kudu.data);
  EXPECT_EQ(out.bloom_data_size, 1024u);
  EXPECT_EQ(out.always_false, 1);
  EXPECT_EQ(out.hash_seed, 7u);
  bb_filter_release(&parquet);
  bb_filter_release(&kudu);
}

// ------------------------------------- with the Kudu filter functions

TEST(KuduDirectory, NewKuduFilterExportsAsAnEmptyAlwaysFalseDirectory) {
  bb_filter f;
  ASSERT_EQ(bb_kudu_filter_init(&f, 10, 0xabcdef01u), BB_OK);
  bb_kudu_directory out;
  ASSERT_EQ(bb_kudu_export(&f, &out), BB_OK);
  EXPECT_EQ(out.log_space_bytes, 10);
  EXPECT_EQ(out.bloom_data_size, 1024u);
  EXPECT_EQ(out.always_false, 1);
  EXPECT_EQ(out.hash_algorithm, BB_KUDU_HASH_FAST_HASH);
  EXPECT_EQ(out.hash_seed, 0xabcdef01u);
  EXPECT_EQ(Bytes(out.bloom_data, out.bloom_data + out.bloom_data_size), Bytes(1024, 0));
  ASSERT_EQ(bb_kudu_insert(&f, 42), BB_OK);
  ASSERT_EQ(bb_kudu_export(&f, &out), BB_OK);
  EXPECT_EQ(out.always_false, 0);
  bb_filter_release(&f);
}

TEST(KuduDirectory, ExportedBytesAreWhatKudusInsertWouldHold) {
  std::mt19937 rng(5);
  std::vector<uint32_t> hashes(300);
  for (auto& h : hashes) h = rng();
  bb_filter f;
  ASSERT_EQ(bb_kudu_filter_init(&f, 11, 0), BB_OK);
  Bytes reference(2048, 0);
  for (uint32_t h : hashes) {
    ASSERT_EQ(bb_kudu_insert(&f, h), BB_OK);
    ReferenceKuduInsert(&reference, h);
  }
  bb_kudu_directory out;
  ASSERT_EQ(bb_kudu_export(&f, &out), BB_OK);
  EXPECT_EQ(Bytes(out.bloom_data, out.bloom_data + out.bloom_data_size), reference);
  bb_filter_release(&f);
}

TEST(KuduDirectory, ImportedDirectoryIsProbedTheKuduWay) {
  std::mt19937 rng(6);
  std::vector<uint32_t> hashes(100);
  for (auto& h : hashes) h = rng();
  Bytes reference(512, 0);
  for (uint32_t h : hashes) ReferenceKuduInsert(&reference, h);

  bb_kudu_directory in = Directory(reference, 9);
  bb_filter f;
  ASSERT_EQ(bb_kudu_import(&f, &in), BB_OK);
  for (uint32_t h : hashes) EXPECT_EQ(bb_kudu_find(&f, h), 1) << h;
  bb_filter_release(&f);

  // Marked always-false, the same bytes answer no to everything.
  in.always_false = 1;
  ASSERT_EQ(bb_kudu_import(&f, &in), BB_OK);
  for (uint32_t h : hashes) EXPECT_EQ(bb_kudu_find(&f, h), 0) << h;
  bb_filter_release(&f);
}

}  // namespace
