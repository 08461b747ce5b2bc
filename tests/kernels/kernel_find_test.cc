// SPDX-License-Identifier: Apache-2.0
// find and both find_batch forms agree with the oracle (and so with the
// scalar tier) on every ISA, with no false negatives, across batch edge cases.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "blockbloom/tuning.h"
#include "support/isa_params.h"
#include "support/oracle.h"
#include "support/prefetch_settings_guard.h"

namespace {

using FindPerIsa = bbtest::PerIsa;

// A filter of `blocks` blocks holding `present`, and probes half present,
// half absent, interleaved.
struct Fixture {
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> present, probes;
  uint32_t blocks;
};

Fixture MakeFixture(uint32_t blocks, size_t n_present, uint64_t seed) {
  Fixture f;
  f.blocks = blocks;
  f.bytes.assign(32ull * blocks, 0);
  f.present = oracle::Hashes(seed, n_present);
  for (uint64_t h : f.present) oracle::Insert(f.bytes, h);
  const std::vector<uint64_t> absent = oracle::Hashes(seed ^ 0xabcdefull, n_present);
  for (size_t i = 0; i < n_present; ++i) {
    f.probes.push_back(f.present[i]);
    f.probes.push_back(absent[i]);
  }
  return f;
}

TEST_P(FindPerIsa, FindAgreesWithOracleOnPresentAndAbsentHashes) {
  for (uint32_t blocks : {1u, 3u, 64u, 1000u}) {
    const Fixture f = MakeFixture(blocks, 4 * blocks, 7 + blocks);
    size_t absent_answers = 0;
    for (uint64_t h : f.probes) {
      const int expected = oracle::Find(f.bytes, h) ? 1 : 0;
      ASSERT_EQ(kernels().find(f.bytes.data(), blocks, h), expected) << "blocks=" << blocks;
      absent_answers += expected == 0;
    }
    // The probes must exercise both answers, or the test proves little.
    EXPECT_GT(absent_answers, 0u) << "blocks=" << blocks;
  }
}

TEST_P(FindPerIsa, EveryInsertedHashIsFound) {
  const uint32_t blocks = 4096;
  std::vector<uint8_t> bytes(32ull * blocks, 0);
  const std::vector<uint64_t> hashes = oracle::Hashes(99, 40000);
  kernels().insert_batch(bytes.data(), blocks, hashes.data(), hashes.size());
  std::vector<uint8_t> bitmap((hashes.size() + 7) / 8);
  std::vector<uint32_t> selection(hashes.size());
  EXPECT_EQ(kernels().find_batch_bitmap(bytes.data(), blocks, hashes.data(), hashes.size(),
                                        bitmap.data()),
            hashes.size());
  for (size_t i = 0; i < bitmap.size(); ++i) EXPECT_EQ(bitmap[i], 0xff) << "byte " << i;
  EXPECT_EQ(kernels().find_batch_select(bytes.data(), blocks, hashes.data(), hashes.size(),
                                        selection.data()),
            hashes.size());
  for (size_t i = 0; i < selection.size(); ++i) ASSERT_EQ(selection[i], i);
}

// n = 0, 1, around every vector width and byte boundary; hashes, bitmap and
// selection at offsets that break vector alignment; guard bytes after the
// output must stay untouched.
TEST_P(FindPerIsa, BatchFormsMatchSingleFindForEveryLengthAndAlignment) {
  const Fixture f = MakeFixture(257, 600, 2024);
  const size_t lengths[] = {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129, 1000, 1200};
  for (size_t hash_offset : {0, 1, 3}) {
    for (size_t out_offset : {0, 1, 5}) {
      for (size_t n : lengths) {
        SCOPED_TRACE(testing::Message() << "n=" << n << " hash_offset=" << hash_offset
                                        << " out_offset=" << out_offset);
        // 64-byte-aligned storage, then shifted by whole elements: the hash
        // pointer is 8-byte aligned but not vector aligned.
        alignas(64) static uint64_t hash_storage[1200 + 8];
        const uint64_t* hashes = hash_storage + hash_offset;
        std::memcpy(hash_storage + hash_offset, f.probes.data(), n * sizeof(uint64_t));

        std::vector<uint8_t> expected_bitmap((n + 7) / 8, 0);
        std::vector<uint32_t> expected_selection;
        for (size_t i = 0; i < n; ++i) {
          if (oracle::Find(f.bytes, hashes[i])) {
            expected_bitmap[i / 8] = static_cast<uint8_t>(expected_bitmap[i / 8] | (1u << (i % 8)));
            expected_selection.push_back(static_cast<uint32_t>(i));
          }
        }

        const uint8_t kGuard = 0xa5;
        std::vector<uint8_t> bitmap_buffer(out_offset + (n + 7) / 8 + 16, kGuard);
        uint8_t* bitmap = bitmap_buffer.data() + out_offset;
        const size_t bitmap_hits =
            kernels().find_batch_bitmap(f.bytes.data(), f.blocks, hashes, n, bitmap);
        EXPECT_EQ(bitmap_hits, expected_selection.size());
        EXPECT_EQ(std::vector<uint8_t>(bitmap, bitmap + (n + 7) / 8), expected_bitmap);
        for (size_t i = out_offset + (n + 7) / 8; i < bitmap_buffer.size(); ++i) {
          ASSERT_EQ(bitmap_buffer[i], kGuard) << "bitmap overrun at " << i;
        }
        for (size_t i = 0; i < out_offset; ++i) ASSERT_EQ(bitmap_buffer[i], kGuard);

        const uint32_t kSelGuard = 0xdeadbeef;
        std::vector<uint32_t> selection_buffer(out_offset + n + 16, kSelGuard);
        uint32_t* selection = selection_buffer.data() + out_offset;
        const size_t select_hits =
            kernels().find_batch_select(f.bytes.data(), f.blocks, hashes, n, selection);
        ASSERT_EQ(select_hits, expected_selection.size());
        EXPECT_EQ(std::vector<uint32_t>(selection, selection + select_hits), expected_selection);
        for (size_t i = out_offset + n; i < selection_buffer.size(); ++i) {
          ASSERT_EQ(selection_buffer[i], kSelGuard) << "selection overrun at " << i;
        }
      }
    }
  }
}

TEST_P(FindPerIsa, SingleBlockFilterPutsEveryHashInBlockZero) {
  std::vector<uint8_t> bytes(32, 0);
  const std::vector<uint64_t> hashes = oracle::Hashes(5, 3);
  for (uint64_t h : hashes) kernels().insert(bytes.data(), 1, h);
  std::vector<uint8_t> expected(32, 0);
  for (uint64_t h : hashes) oracle::Insert(expected, h);
  EXPECT_EQ(bytes, expected);
  for (uint64_t h : hashes) EXPECT_EQ(kernels().find(bytes.data(), 1, h), 1);
}

// The largest filter the format allows (2^31 - 1 blocks, 64 GiB) must index
// without 32-bit overflow. The memory is reserved, not touched: only the
// blocks the hashes land in are ever faulted in.
TEST_P(FindPerIsa, LargestBlockCountIndexesLikeTheOracle) {
  const uint64_t blocks = 0x7fffffffull;
  const size_t size = static_cast<size_t>(blocks * 32);
  void* map = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED) GTEST_SKIP() << "cannot reserve 64 GiB of address space here";
  uint8_t* bits = static_cast<uint8_t*>(map);
  const std::vector<uint64_t> hashes = {0xffffffffffffffffull, 0xfffffffe12345678ull,
                                        0x8000000000000001ull, 0x00000000ffffffffull};
  for (uint64_t h : hashes) {
    kernels().insert(bits, static_cast<uint32_t>(blocks), h);
    for (int lane = 0; lane < 8; ++lane) {
      size_t byte;
      int bit;
      oracle::BitPosition(h, blocks, lane, &byte, &bit);
      EXPECT_NE((bits[byte] >> bit) & 1, 0) << std::hex << "hash=" << h << " lane=" << lane;
    }
    EXPECT_EQ(kernels().find(bits, static_cast<uint32_t>(blocks), h), 1);
  }
  munmap(map, size);
}

// Filters of 1 MiB and more take the prefetching loops: they must answer
// exactly like the oracle whatever the hint and distance, including a
// distance longer than the batch and the largest one.
TEST_P(FindPerIsa, PrefetchingLoopsAgreeWithOracleAtEveryHintAndDistance) {
  // The reference classes pinned (prefetched from 1 MiB on), the settings restored after.
  const bbtest::PrefetchSettingsGuard guard;
  const Fixture f = MakeFixture(65536, 20000, 77);  // 2 MiB
  std::vector<uint8_t> expected((f.probes.size() + 7) / 8, 0);
  size_t expected_hits = 0;
  for (size_t i = 0; i < f.probes.size(); ++i) {
    if (oracle::Find(f.bytes, f.probes[i])) {
      expected[i / 8] = static_cast<uint8_t>(expected[i / 8] | (1u << (i % 8)));
      ++expected_hits;
    }
  }
  for (int hint : {BB_PREFETCH_NONE, BB_PREFETCH_L1, BB_PREFETCH_L2, BB_PREFETCH_L3}) {
    ASSERT_EQ(bb_set_prefetch_hint(hint), BB_OK);
    for (size_t distance : {size_t{1}, size_t{7}, size_t{16}, size_t{100}, size_t{BB_MAX_PREFETCH_DISTANCE}}) {
      bb_set_prefetch_distance(distance);
      EXPECT_EQ(bb_prefetch_distance(), distance);
      std::vector<uint8_t> bitmap(expected.size());
      EXPECT_EQ(kernels().find_batch_bitmap(f.bytes.data(), f.blocks, f.probes.data(),
                                            f.probes.size(), bitmap.data()),
                expected_hits);
      EXPECT_EQ(bitmap, expected) << "hint " << hint << " distance " << distance;
      std::vector<uint8_t> rebuilt(f.bytes.size(), 0);
      kernels().insert_batch(rebuilt.data(), f.blocks, f.present.data(), f.present.size());
      EXPECT_EQ(rebuilt, f.bytes) << "hint " << hint << " distance " << distance;
    }
  }
}

// Every value a bitmap byte can take (no hit, all hits, every mix), then a
// partial last group, as probes whose answers are known: a hash inserted
// where the byte has a 1, a hash the oracle finds absent where it has a 0.
// The selection must list exactly the 1s' rows, in order, and the bitmap
// must be those bytes; at a cache-sized filter and at one of each prefetch
// size class of the reference table (src/kernels/prefetch.h: 1 MiB and 4 MiB,
// with the defaults).
TEST_P(FindPerIsa, EveryBitmapByteValueSelectsExactlyItsRows) {
  const bbtest::PrefetchSettingsGuard reference_classes;
  for (const uint32_t blocks : {64u, 32768u, 131072u}) {
    std::vector<uint8_t> bytes(32ull * blocks, 0);
    const std::vector<uint64_t> present = oracle::Hashes(blocks + 5, 256);
    for (uint64_t h : present) oracle::Insert(bytes, h);
    std::vector<uint64_t> absent;
    for (uint64_t h : oracle::Hashes(blocks + 6, 8 * 256 + 64)) {
      if (!oracle::Find(bytes, h)) absent.push_back(h);
    }
    constexpr uint32_t kTailBits = 0x16;  // 5 keys: 0, 1, 1, 0, 1
    const size_t n = 8 * 256 + 5;
    ASSERT_GE(absent.size(), n / 2 + 8) << "too few absent hashes, blocks=" << blocks;
    std::vector<uint64_t> probes;
    std::vector<uint32_t> expected;
    size_t next_present = 0, next_absent = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t byte = i < 8 * 256 ? static_cast<uint32_t>(i / 8) : kTailBits;
      const bool hit = (byte >> (i % 8)) & 1u;
      probes.push_back(hit ? present[next_present++ % present.size()] : absent[next_absent++]);
      if (hit) expected.push_back(static_cast<uint32_t>(i));
    }
    std::vector<uint8_t> bitmap((n + 7) / 8, 0);
    EXPECT_EQ(kernels().find_batch_bitmap(bytes.data(), blocks, probes.data(), n, bitmap.data()),
              expected.size()) << "blocks=" << blocks;
    for (size_t b = 0; b < 256; ++b) ASSERT_EQ(bitmap[b], b) << "blocks=" << blocks;
    EXPECT_EQ(bitmap[256] & 0x1f, kTailBits) << "blocks=" << blocks;
    constexpr uint32_t kGuard = 0xfeedface;
    std::vector<uint32_t> selection(n + 16, kGuard);
    ASSERT_EQ(kernels().find_batch_select(bytes.data(), blocks, probes.data(), n, selection.data()),
              expected.size()) << "blocks=" << blocks;
    EXPECT_EQ(std::vector<uint32_t>(selection.begin(), selection.begin() + expected.size()),
              expected) << "blocks=" << blocks;
    for (size_t i = n; i < selection.size(); ++i) ASSERT_EQ(selection[i], kGuard) << i;
  }
}

BB_INSTANTIATE_PER_ISA(FindPerIsa);

}  // namespace
