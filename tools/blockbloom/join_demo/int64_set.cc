// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/join_demo/int64_set.h"

#include <cstdlib>
#include <new>
#include <stdexcept>

#include "src/tools_interface.h"

namespace blockbloom_tools::join_demo {
namespace {

constexpr std::uint64_t kMinCapacity = 16;
// Tables from here on do not fit the caches of the machines in view.
constexpr std::uint64_t kPrefetchBytes = std::uint64_t{1} << 20;
// Keys whose slots are prefetched before the first of them is probed.
constexpr std::size_t kGroup = 16;

std::uint64_t CapacityFor(std::uint64_t max_keys) {
  if (max_keys > (std::uint64_t{1} << 56)) throw std::bad_alloc();  // more bytes than 64 bits count
  std::uint64_t capacity = kMinCapacity;
  while (capacity / 4 * 3 < max_keys) capacity *= 2;
  return capacity;
}

// Zeroed memory for num_bytes, 2 MiB aligned and offered huge pages when large
// (the library's own mapping for large bitsets).
std::uint64_t* AllocateSlots(std::size_t num_bytes, bool* mapped) {
  *mapped = num_bytes >= blockbloom::internal::kHugePage;
  void* p = *mapped ? blockbloom::internal::MapHugePageAligned(num_bytes) : std::calloc(num_bytes, 1);
  if (p == nullptr) throw std::bad_alloc();
  return static_cast<std::uint64_t*>(p);
}

}  // namespace

std::uint64_t Int64Set::BytesFor(std::uint64_t max_keys) {
  return CapacityFor(max_keys) * sizeof(std::uint64_t);
}

Int64Set::Int64Set(std::uint64_t max_keys)
    : capacity_(CapacityFor(max_keys)), max_keys_(max_keys) {
  int log2 = 0;
  while ((std::uint64_t{1} << log2) < capacity_) ++log2;
  shift_ = 64 - log2;
  slots_ = AllocateSlots(static_cast<std::size_t>(bytes()), &mapped_);
  prefetch_ = bytes() >= kPrefetchBytes;
}

Int64Set::~Int64Set() {
  if (mapped_) {
    blockbloom::internal::UnmapHugePageAligned(slots_, static_cast<std::size_t>(bytes()));
  } else {
    std::free(slots_);
  }
}

// Multiply-shift on a once-folded key: the top bits pick the slot.
std::uint64_t Int64Set::Home(std::uint64_t key) const {
  return ((key ^ (key >> 31)) * 0x9e3779b97f4a7c15u) >> shift_;
}

bool Int64Set::ProbeFrom(std::uint64_t key, std::uint64_t slot) const {
  if (key == 0) return has_zero_;
  const std::uint64_t mask = capacity_ - 1;
  for (;;) {
    const std::uint64_t found = slots_[slot];
    if (found == key) return true;
    if (found == 0) return false;
    slot = (slot + 1) & mask;
  }
}

void Int64Set::Insert(std::int64_t signed_key) {
  const auto key = static_cast<std::uint64_t>(signed_key);
  if (key == 0) {
    if (!has_zero_) {
      if (size_ == max_keys_) throw std::length_error("Int64Set: more keys than reserved");
      has_zero_ = true;
      ++size_;
    }
    return;
  }
  const std::uint64_t mask = capacity_ - 1;
  for (std::uint64_t slot = Home(key);; slot = (slot + 1) & mask) {
    if (slots_[slot] == key) return;
    if (slots_[slot] == 0) {
      if (size_ == max_keys_) throw std::length_error("Int64Set: more keys than reserved");
      slots_[slot] = key;
      ++size_;
      return;
    }
  }
}

void Int64Set::InsertBatch(const std::int64_t* keys, std::size_t n) {
  for (std::size_t base = 0; base < n; base += kGroup) {
    const std::size_t m = n - base < kGroup ? n - base : kGroup;
    if (prefetch_) {
      for (std::size_t j = 0; j < m; ++j) {
        __builtin_prefetch(slots_ + Home(static_cast<std::uint64_t>(keys[base + j])), 1);
      }
    }
    for (std::size_t j = 0; j < m; ++j) Insert(keys[base + j]);
  }
}

bool Int64Set::Contains(std::int64_t key) const {
  const auto k = static_cast<std::uint64_t>(key);
  return ProbeFrom(k, Home(k));
}

// Probes keys[0 .. n) kGroup at a time: the group's home slots are computed
// (and in large tables prefetched) first, then probed; on_group(base, m,
// mask) gets bit j of mask set when keys[base + j] is in the set.
template <typename OnGroup>
void Int64Set::ProbeBatch(const std::int64_t* keys, std::size_t n, OnGroup&& on_group) const {
  std::uint64_t home[kGroup];
  for (std::size_t base = 0; base < n; base += kGroup) {
    const std::size_t m = n - base < kGroup ? n - base : kGroup;
    for (std::size_t j = 0; j < m; ++j) {
      home[j] = Home(static_cast<std::uint64_t>(keys[base + j]));
      if (prefetch_) __builtin_prefetch(slots_ + home[j]);
    }
    std::uint32_t mask = 0;
    for (std::size_t j = 0; j < m; ++j) {
      const bool hit = ProbeFrom(static_cast<std::uint64_t>(keys[base + j]), home[j]);
      mask |= static_cast<std::uint32_t>(hit) << j;
    }
    on_group(base, m, mask);
  }
}

std::size_t Int64Set::ContainsBatch(const std::int64_t* keys, std::size_t n,
                                    std::uint8_t* bitmap) const {
  static_assert(kGroup % 8 == 0, "each group's bits start on a byte boundary");
  std::size_t hits = 0;
  ProbeBatch(keys, n, [&](std::size_t base, std::size_t m, std::uint32_t mask) {
    hits += static_cast<std::size_t>(__builtin_popcount(mask));
    for (std::size_t b = 0; b < (m + 7) / 8; ++b) {
      bitmap[base / 8 + b] = static_cast<std::uint8_t>(mask >> (8 * b));
    }
  });
  return hits;
}

std::size_t Int64Set::CountBatch(const std::int64_t* keys, std::size_t n) const {
  std::size_t hits = 0;
  ProbeBatch(keys, n, [&](std::size_t, std::size_t, std::uint32_t mask) {
    hits += static_cast<std::size_t>(__builtin_popcount(mask));
  });
  return hits;
}

}  // namespace blockbloom_tools::join_demo
