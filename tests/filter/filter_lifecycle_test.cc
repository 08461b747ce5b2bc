// SPDX-License-Identifier: Apache-2.0
// Filter lifecycle through the public API: clear, copy, equal on both
// layouts, views, read-only views and Kudu's always-false state; and the
// per-filter allocator: a counting allocator sees every byte allocated and
// freed (init, copy, release, Kudu init and import), its memory is zeroed by
// the library, and misaligned, failing, incomplete or missing allocators are
// refused with nothing leaked.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <type_traits>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/blockbloom.hpp"
#include "blockbloom/kudu.h"
#include "support/oracle.h"

namespace {

// Counts what goes through it; hands out 64-byte-aligned heap memory filled
// with 0xee (so zeroing is the library's job), or memory `misalign` bytes
// past that, or nothing when `fail` is set.
struct CountingAllocator {
  bb_allocator allocator{&Allocate, &Deallocate, this};
  size_t allocations = 0;
  size_t deallocations = 0;
  size_t bytes_allocated = 0;
  size_t bytes_freed = 0;
  size_t last_alignment = 0;
  size_t misalign = 0;
  bool fail = false;
  std::map<void*, size_t> live;  // pointer handed out -> bytes
  std::map<void*, void*> bases;  // pointer handed out -> what to free

  size_t LiveBytes() const { return bytes_allocated - bytes_freed; }

  static void* Allocate(void* ctx, size_t bytes, size_t alignment) {
    auto* self = static_cast<CountingAllocator*>(ctx);
    self->last_alignment = alignment;
    if (self->fail) return nullptr;
    const size_t padded = (bytes + self->misalign + 63) / 64 * 64;
    auto* base = static_cast<uint8_t*>(std::aligned_alloc(64, padded));
    if (base == nullptr) return nullptr;
    std::memset(base, 0xee, padded);
    uint8_t* p = base + self->misalign;
    ++self->allocations;
    self->bytes_allocated += bytes;
    self->live[p] = bytes;
    self->bases[p] = base;
    return p;
  }

  static void Deallocate(void* ctx, void* p, size_t bytes) {
    auto* self = static_cast<CountingAllocator*>(ctx);
    const auto it = self->live.find(p);
    ASSERT_NE(it, self->live.end()) << "freed a pointer this allocator did not hand out";
    EXPECT_EQ(it->second, bytes) << "freed with another size than allocated";
    ++self->deallocations;
    self->bytes_freed += bytes;
    self->live.erase(it);
    std::free(self->bases[p]);
    self->bases.erase(p);
  }
};

bool AllZero(const bb_filter& f) {
  for (size_t i = 0; i < f.num_bytes; ++i) {
    if (f.data[i] != 0) return false;
  }
  return true;
}

TEST(Allocator, SeesEveryByteOfInitCopyAndRelease) {
  CountingAllocator counting;
  bb_filter f;
  ASSERT_EQ(bb_filter_init_with_allocator(&f, 4096, &counting.allocator), BB_OK);
  EXPECT_EQ(counting.allocations, 1u);
  EXPECT_EQ(counting.bytes_allocated, 4096u);
  EXPECT_EQ(counting.last_alignment, BB_ALLOC_ALIGNMENT);
  EXPECT_EQ(f.allocator, &counting.allocator);
  EXPECT_EQ(f.flags, static_cast<uint32_t>(BB_FILTER_OWNED));
  EXPECT_TRUE(AllZero(f)) << "the library zeroes the allocator's memory";
  const std::vector<uint64_t> hashes = oracle::Hashes(1, 100);
  ASSERT_EQ(bb_insert_batch(&f, hashes.data(), hashes.size()), BB_OK);

  bb_filter copy;
  ASSERT_EQ(bb_filter_copy(&copy, &f), BB_OK);  // from src's allocator
  EXPECT_EQ(counting.allocations, 2u);
  EXPECT_EQ(counting.LiveBytes(), 8192u);
  EXPECT_EQ(copy.allocator, &counting.allocator);
  EXPECT_EQ(bb_filter_equal(&copy, &f), 1);

  bb_filter_release(&f);
  EXPECT_EQ(counting.deallocations, 1u);
  EXPECT_EQ(bb_find(&copy, hashes[7]), 1);  // the copy lives on
  bb_filter_release(&copy);
  EXPECT_EQ(counting.deallocations, 2u);
  EXPECT_EQ(counting.LiveBytes(), 0u);
  EXPECT_TRUE(counting.live.empty());
}

TEST(Allocator, SeesKuduInitAndImport) {
  CountingAllocator counting;
  bb_filter f;
  ASSERT_EQ(bb_kudu_filter_init_with_allocator(&f, 10, 42, &counting.allocator), BB_OK);
  EXPECT_EQ(counting.bytes_allocated, 1024u);
  EXPECT_EQ(f.layout, static_cast<uint32_t>(BB_LAYOUT_KUDU));
  EXPECT_EQ(f.hash_seed, 42u);
  EXPECT_NE(f.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_TRUE(AllZero(f));
  ASSERT_EQ(bb_kudu_insert(&f, 12345), BB_OK);
  bb_kudu_directory dir;
  ASSERT_EQ(bb_kudu_export(&f, &dir), BB_OK);
  bb_filter imported;
  ASSERT_EQ(bb_kudu_import_with_allocator(&imported, &dir, &counting.allocator), BB_OK);
  EXPECT_EQ(counting.allocations, 2u);
  EXPECT_EQ(imported.allocator, &counting.allocator);
  EXPECT_EQ(bb_filter_equal(&imported, &f), 1);
  bb_filter_release(&imported);
  bb_filter_release(&f);
  EXPECT_EQ(counting.deallocations, 2u);
  EXPECT_EQ(counting.LiveBytes(), 0u);
  // Bad log_space_bytes or directories allocate nothing.
  EXPECT_EQ(bb_kudu_filter_init_with_allocator(&f, 5, 0, &counting.allocator),
            BB_ERR_LOG_SPACE_OUT_OF_RANGE);
  const std::vector<uint8_t> half(512, 0);
  bb_kudu_directory bad = dir;
  bad.bloom_data = half.data();
  bad.bloom_data_size = half.size();
  EXPECT_EQ(bb_kudu_import_with_allocator(&f, &bad, &counting.allocator),
            BB_ERR_DIRECTORY_SIZE_MISMATCH);
  EXPECT_EQ(counting.allocations, 2u);
}

TEST(Allocator, MisalignedMemoryIsGivenBackAndRefused) {
  for (size_t misalign : {size_t{8}, size_t{32}, size_t{1}}) {
    CountingAllocator counting;
    counting.misalign = misalign;
    bb_filter f;
    std::memset(&f, 0x77, sizeof f);
    EXPECT_EQ(bb_filter_init_with_allocator(&f, 4096, &counting.allocator),
              BB_ERR_ALLOCATOR_MISALIGNED);
    EXPECT_EQ(f.data, nullptr);  // *f left zeroed
    EXPECT_EQ(f.allocator, nullptr);
    EXPECT_EQ(counting.allocations, 1u);
    EXPECT_EQ(counting.deallocations, 1u) << "the misaligned memory leaked";
    EXPECT_EQ(counting.LiveBytes(), 0u);
    EXPECT_EQ(bb_kudu_filter_init_with_allocator(&f, 12, 0, &counting.allocator),
              BB_ERR_ALLOCATOR_MISALIGNED);
    EXPECT_EQ(counting.LiveBytes(), 0u);
  }
}

TEST(Allocator, FailingAllocationIsOutOfMemoryWithNothingFreed) {
  CountingAllocator counting;
  counting.fail = true;
  bb_filter f;
  EXPECT_EQ(bb_filter_init_with_allocator(&f, 4096, &counting.allocator), BB_ERR_OUT_OF_MEMORY);
  EXPECT_EQ(f.data, nullptr);
  EXPECT_EQ(counting.deallocations, 0u);
  EXPECT_EQ(bb_kudu_filter_init_with_allocator(&f, 12, 0, &counting.allocator), BB_ERR_OUT_OF_MEMORY);
  EXPECT_EQ(counting.deallocations, 0u);
}

TEST(Allocator, MissingOrIncompleteAllocatorsAndBadSizesAreRefusedBeforeAllocating) {
  CountingAllocator counting;
  bb_filter f;
  EXPECT_EQ(bb_filter_init_with_allocator(&f, 4096, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_filter_init_with_allocator(nullptr, 4096, &counting.allocator), BB_ERR_NULL_POINTER);
  bb_allocator no_allocate = counting.allocator;
  no_allocate.allocate = nullptr;
  bb_allocator no_deallocate = counting.allocator;
  no_deallocate.deallocate = nullptr;
  EXPECT_EQ(bb_filter_init_with_allocator(&f, 4096, &no_allocate), BB_ERR_INVALID_ALLOCATOR);
  EXPECT_EQ(bb_filter_init_with_allocator(&f, 4096, &no_deallocate), BB_ERR_INVALID_ALLOCATOR);
  EXPECT_EQ(bb_kudu_filter_init_with_allocator(&f, 12, 0, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_kudu_filter_init_with_allocator(&f, 12, 0, &no_deallocate), BB_ERR_INVALID_ALLOCATOR);
  bb_kudu_directory dir{};
  EXPECT_EQ(bb_kudu_import_with_allocator(&f, &dir, &no_allocate), BB_ERR_INVALID_ALLOCATOR);
  EXPECT_EQ(bb_filter_init_with_allocator(&f, 33, &counting.allocator), BB_ERR_SIZE_NOT_MULTIPLE_OF_32);
  EXPECT_EQ(bb_filter_init_with_allocator(&f, 0, &counting.allocator), BB_ERR_SIZE_ZERO);
  EXPECT_EQ(f.data, nullptr);
  EXPECT_EQ(counting.allocations, 0u);
}

// Like every init, the *_with_allocator calls and bb_filter_copy overwrite
// *dst unread (blockbloom.h, Conventions): a struct that looks owned is not
// freed through the allocator it names.
TEST(Allocator, InitsOverwriteTheStructUnreadEvenIfItLooksOwned) {
  CountingAllocator counting, other;
  bb_filter source;
  ASSERT_EQ(bb_filter_init(&source, 64), BB_OK);
  bb_kudu_directory dir{};
  std::vector<uint8_t> kudu_bytes(64, 0);
  dir.log_space_bytes = 6;
  dir.bloom_data = kudu_bytes.data();
  dir.bloom_data_size = 64;
  dir.hash_algorithm = BB_KUDU_HASH_FAST_HASH;
  const std::function<int(bb_filter*)> inits[] = {
      [&](bb_filter* f) { return bb_filter_init_with_allocator(f, 64, &counting.allocator); },
      [&](bb_filter* f) { return bb_kudu_filter_init_with_allocator(f, 6, 0, &counting.allocator); },
      [&](bb_filter* f) { return bb_kudu_import_with_allocator(f, &dir, &counting.allocator); },
      [&](bb_filter* f) { return bb_filter_copy(f, &source); },
  };
  alignas(64) uint8_t canary[64];
  for (const auto& init : inits) {
    std::memset(canary, 0xc3, sizeof canary);
    bb_filter f{};
    f.data = canary;
    f.num_bytes = 64;
    f.num_blocks = 2;
    f.flags = BB_FILTER_OWNED;
    f.allocator = &other.allocator;
    ASSERT_EQ(init(&f), BB_OK);
    EXPECT_NE(f.data, canary);
    for (uint8_t byte : canary) ASSERT_EQ(byte, 0xc3);
    bb_filter_release(&f);
  }
  EXPECT_EQ(other.deallocations, 0u);
  EXPECT_EQ(counting.LiveBytes(), 0u);
  bb_filter_release(&source);
}

TEST(Copy, ViewsBecomeOwnedWritableCopiesFromTheDefaultAllocator) {
  std::vector<uint8_t> bytes(32 * 100 + 5, 0);
  bb_filter view;
  ASSERT_EQ(bb_filter_init_view(&view, bytes.data() + 5, 32 * 100), BB_OK);
  ASSERT_EQ(bb_insert(&view, 0xabcdef0123456789ull), BB_OK);
  bb_filter readonly;
  ASSERT_EQ(bb_filter_init_view_readonly(&readonly, bytes.data() + 5, 32 * 100), BB_OK);
  bb_filter copy;
  ASSERT_EQ(bb_filter_copy(&copy, &readonly), BB_OK);
  EXPECT_EQ(copy.flags, static_cast<uint32_t>(BB_FILTER_OWNED));  // not read-only
  EXPECT_EQ(copy.allocator, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(copy.data) % BB_ALLOC_ALIGNMENT, 0u);
  EXPECT_EQ(bb_filter_equal(&copy, &readonly), 1);
  EXPECT_EQ(bb_insert(&copy, 42), BB_OK);  // writable, and its own bytes
  EXPECT_EQ(bb_filter_equal(&copy, &readonly), 0);
  bb_filter_release(&copy);
  // dst == src turns a view into an owned copy of its bytes.
  ASSERT_EQ(bb_filter_copy(&view, &view), BB_OK);
  EXPECT_NE(view.data, bytes.data() + 5);
  EXPECT_EQ(view.flags, static_cast<uint32_t>(BB_FILTER_OWNED));
  EXPECT_EQ(bb_filter_equal(&view, &readonly), 1);
  bb_filter_release(&view);
}

TEST(Copy, LargeDefaultFiltersAndKuduStateAreCopied) {
  bb_filter big;
  ASSERT_EQ(bb_filter_init(&big, size_t{4} << 20), BB_OK);  // mmapped by the default allocator
  const std::vector<uint64_t> hashes = oracle::Hashes(2, 10000);
  ASSERT_EQ(bb_insert_batch(&big, hashes.data(), hashes.size()), BB_OK);
  bb_filter copy;
  ASSERT_EQ(bb_filter_copy(&copy, &big), BB_OK);
  EXPECT_EQ(bb_filter_equal(&copy, &big), 1);
  bb_filter_release(&copy);
  bb_filter_release(&big);

  bb_filter kudu;
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 9, 1234), BB_OK);
  bb_filter fresh;
  ASSERT_EQ(bb_filter_copy(&fresh, &kudu), BB_OK);
  EXPECT_EQ(fresh.layout, static_cast<uint32_t>(BB_LAYOUT_KUDU));
  EXPECT_EQ(fresh.hash_seed, 1234u);
  EXPECT_NE(fresh.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  ASSERT_EQ(bb_kudu_insert(&kudu, 99), BB_OK);
  bb_filter filled;
  ASSERT_EQ(bb_filter_copy(&filled, &kudu), BB_OK);
  EXPECT_EQ(filled.flags & BB_FILTER_ALWAYS_FALSE, 0u);
  EXPECT_EQ(bb_kudu_find(&filled, 99), 1);
  bb_filter_release(&fresh);
  bb_filter_release(&filled);
  bb_filter_release(&kudu);
}

TEST(Copy, ErrorsLeaveDstUntouched) {
  CountingAllocator counting;
  bb_filter src;
  ASSERT_EQ(bb_filter_init_with_allocator(&src, 1024, &counting.allocator), BB_OK);
  bb_filter dst;
  std::memset(&dst, 0x6b, sizeof dst);
  bb_filter before;
  std::memcpy(&before, &dst, sizeof dst);
  counting.fail = true;
  EXPECT_EQ(bb_filter_copy(&dst, &src), BB_ERR_OUT_OF_MEMORY);
  EXPECT_EQ(std::memcmp(&dst, &before, sizeof dst), 0);
  counting.fail = false;
  counting.misalign = 16;
  EXPECT_EQ(bb_filter_copy(&dst, &src), BB_ERR_ALLOCATOR_MISALIGNED);
  EXPECT_EQ(std::memcmp(&dst, &before, sizeof dst), 0);
  EXPECT_EQ(bb_filter_copy(nullptr, &src), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_filter_copy(&dst, nullptr), BB_ERR_NULL_POINTER);
  bb_filter empty{};
  EXPECT_EQ(bb_filter_copy(&dst, &empty), BB_ERR_NULL_POINTER);
  EXPECT_EQ(std::memcmp(&dst, &before, sizeof dst), 0);
  bb_filter_release(&src);
  EXPECT_EQ(counting.LiveBytes(), 0u);
}

TEST(Clear, ZeroesOwnedAndViewedBitsAndMakesKuduAlwaysFalseAgain) {
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 2048), BB_OK);
  const std::vector<uint64_t> hashes = oracle::Hashes(3, 200);
  ASSERT_EQ(bb_insert_batch(&f, hashes.data(), hashes.size()), BB_OK);
  ASSERT_FALSE(AllZero(f));
  ASSERT_EQ(bb_filter_clear(&f), BB_OK);
  EXPECT_TRUE(AllZero(f));
  EXPECT_EQ(bb_find(&f, hashes[0]), 0);
  EXPECT_EQ(f.flags, static_cast<uint32_t>(BB_FILTER_OWNED));
  bb_filter_release(&f);

  std::vector<uint8_t> bytes(128, 0xff);
  bb_filter view;
  ASSERT_EQ(bb_filter_init_view(&view, bytes.data(), 128), BB_OK);
  ASSERT_EQ(bb_filter_clear(&view), BB_OK);
  EXPECT_EQ(bytes, std::vector<uint8_t>(128, 0));

  std::vector<uint8_t> kept(128, 0xff);
  bb_filter readonly;
  ASSERT_EQ(bb_filter_init_view_readonly(&readonly, kept.data(), 128), BB_OK);
  EXPECT_EQ(bb_filter_clear(&readonly), BB_ERR_READ_ONLY);
  EXPECT_EQ(kept, std::vector<uint8_t>(128, 0xff));
  bb_filter kudu_readonly;
  ASSERT_EQ(bb_kudu_filter_init_view_readonly(&kudu_readonly, kept.data(), 128, 0, 0), BB_OK);
  EXPECT_EQ(bb_filter_clear(&kudu_readonly), BB_ERR_READ_ONLY);
  EXPECT_EQ(kudu_readonly.flags & BB_FILTER_ALWAYS_FALSE, 0u);

  bb_filter kudu;
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 8, 5), BB_OK);
  ASSERT_EQ(bb_kudu_insert(&kudu, 77), BB_OK);
  ASSERT_EQ(bb_kudu_find(&kudu, 77), 1);
  ASSERT_EQ(bb_filter_clear(&kudu), BB_OK);
  EXPECT_EQ(bb_kudu_find(&kudu, 77), 0);
  bb_kudu_directory dir;
  ASSERT_EQ(bb_kudu_export(&kudu, &dir), BB_OK);
  EXPECT_EQ(dir.always_false, 1);
  EXPECT_EQ(dir.hash_seed, 5u);
  EXPECT_TRUE(AllZero(kudu));
  bb_filter fresh;
  ASSERT_EQ(bb_kudu_filter_init(&fresh, 8, 5), BB_OK);
  EXPECT_EQ(bb_filter_equal(&kudu, &fresh), 1);  // as if new
  bb_filter_release(&fresh);
  bb_filter_release(&kudu);

  EXPECT_EQ(bb_filter_clear(nullptr), BB_ERR_NULL_POINTER);
  bb_filter empty{};
  EXPECT_EQ(bb_filter_clear(&empty), BB_ERR_NULL_POINTER);
}

TEST(Equal, ComparesLayoutSizeSeedStateAndBitsButNotWhereTheyLie) {
  std::vector<uint8_t> a_bytes(256, 0), b_bytes(256 + 3, 0);
  for (size_t i = 0; i < 256; ++i) a_bytes[i] = b_bytes[i + 3] = static_cast<uint8_t>(i * 7);
  bb_filter a, b, b_readonly;
  ASSERT_EQ(bb_filter_init_view(&a, a_bytes.data(), 256), BB_OK);
  ASSERT_EQ(bb_filter_init_view(&b, b_bytes.data() + 3, 256), BB_OK);  // another alignment
  ASSERT_EQ(bb_filter_init_view_readonly(&b_readonly, b_bytes.data() + 3, 256), BB_OK);
  EXPECT_EQ(bb_filter_equal(&a, &b), 1);
  EXPECT_EQ(bb_filter_equal(&a, &b_readonly), 1);
  EXPECT_EQ(bb_filter_equal(&a, &a), 1);
  b_bytes[3 + 200] ^= 0x10;  // one bit
  EXPECT_EQ(bb_filter_equal(&a, &b), 0);
  b_bytes[3 + 200] ^= 0x10;
  bb_filter shorter;
  ASSERT_EQ(bb_filter_init_view(&shorter, a_bytes.data(), 128), BB_OK);
  EXPECT_EQ(bb_filter_equal(&a, &shorter), 0);

  // The same bytes as Kudu filters: another layout, then seeds and state.
  bb_filter k1, k2;
  ASSERT_EQ(bb_kudu_filter_init_view(&k1, a_bytes.data(), 256, 0, 9), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init_view(&k2, b_bytes.data() + 3, 256, 0, 9), BB_OK);
  EXPECT_EQ(bb_filter_equal(&a, &k1), 0);
  EXPECT_EQ(bb_filter_equal(&k1, &k2), 1);
  bb_filter other_seed;
  ASSERT_EQ(bb_kudu_filter_init_view(&other_seed, b_bytes.data() + 3, 256, 0, 10), BB_OK);
  EXPECT_EQ(bb_filter_equal(&k1, &other_seed), 0);
  bb_filter k1_empty, k3_empty;
  std::vector<uint8_t> zeros(256, 0);
  ASSERT_EQ(bb_kudu_filter_init_view(&k1_empty, a_bytes.data(), 256, 1, 9), BB_OK);
  ASSERT_EQ(bb_kudu_filter_init_view(&k3_empty, zeros.data(), 256, 1, 9), BB_OK);
  EXPECT_EQ(bb_filter_equal(&k1_empty, &k3_empty), 1);  // always-false: bits count for nothing
  EXPECT_EQ(bb_filter_equal(&k1_empty, &k1), 0);        // same bytes, another state
  bb_filter zeros_not_empty;
  ASSERT_EQ(bb_kudu_filter_init_view(&zeros_not_empty, zeros.data(), 256, 0, 9), BB_OK);
  EXPECT_EQ(bb_filter_equal(&k3_empty, &zeros_not_empty), 0);  // exports differ

  EXPECT_EQ(bb_filter_equal(nullptr, &a), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_filter_equal(&a, nullptr), BB_ERR_NULL_POINTER);
  bb_filter empty{};
  EXPECT_EQ(bb_filter_equal(&a, &empty), BB_ERR_NULL_POINTER);
}

TEST(CppLifecycle, AllocatorCopyClearAndEqualityThroughTheWrapper) {
  static_assert(!std::is_constructible_v<blockbloom::Filter, size_t, bb_allocator&&>,
                "a temporary allocator would dangle");
  static_assert(!std::is_copy_constructible_v<blockbloom::Filter>, "copies are explicit");
  CountingAllocator counting;
  const std::vector<uint64_t> hashes = oracle::Hashes(4, 300);
  {
    blockbloom::Filter f(8192, counting.allocator);
    EXPECT_EQ(counting.bytes_allocated, 8192u);
    f.insert_batch(hashes.data(), hashes.size());
    blockbloom::Filter copy = blockbloom::Filter::copy_of(f);
    EXPECT_EQ(counting.allocations, 2u);
    EXPECT_TRUE(copy == f);
    blockbloom::Filter moved(std::move(copy));  // the allocator moves along
    EXPECT_EQ(moved.c_filter()->allocator, &counting.allocator);
    moved.clear();
    EXPECT_TRUE(moved != f);
    EXPECT_FALSE(moved.find(hashes[0]));
    const blockbloom::ConstView view(f.data(), f.num_bytes());
    EXPECT_TRUE(view == f);
    EXPECT_THROW(copy.clear(), blockbloom::Error);  // moved-from
    try {
      blockbloom::ConstView readonly(f.data(), f.num_bytes());
      blockbloom::Filter from_view = blockbloom::Filter::copy_of(readonly);  // default allocator
      EXPECT_EQ(from_view.c_filter()->allocator, nullptr);
      EXPECT_TRUE(from_view == f);
    } catch (const blockbloom::Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
  EXPECT_EQ(counting.allocations, 2u);
  EXPECT_EQ(counting.deallocations, 2u);
  EXPECT_EQ(counting.LiveBytes(), 0u);
}

}  // namespace
