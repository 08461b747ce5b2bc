// SPDX-License-Identifier: Apache-2.0
// The exact side of the join: a flat open-addressing set of int64 keys
// (linear probing, one 8-byte slot per key, 0 marks an empty slot and key 0 is
// a flag of its own). Its capacity is a power of two with at most 3/4 of the
// slots used: 47.5 million keys fit 2^26 slots, 512 MiB (a 0.7 cap would need
// 2^27 slots, 1 GiB). Tables of 2 MiB and more are offered transparent huge
// pages, and the batch probes prefetch their slots, as the filter's kernels
// do: the no-filter baseline is a fair one.
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_INT64_SET_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_INT64_SET_H_

#include <cstddef>
#include <cstdint>

namespace blockbloom_tools::join_demo {

class Int64Set {
 public:
  // Room for max_keys keys; throws std::bad_alloc when the memory is not there.
  explicit Int64Set(std::uint64_t max_keys);
  ~Int64Set();
  Int64Set(const Int64Set&) = delete;
  Int64Set& operator=(const Int64Set&) = delete;

  // The bytes of slots a set for max_keys keys allocates.
  static std::uint64_t BytesFor(std::uint64_t max_keys);

  // Adds key (a no-op if present). Throws std::length_error past max_keys.
  void Insert(std::int64_t key);
  // Insert(keys[i]) for each i, prefetching slots ahead in large tables.
  void InsertBatch(const std::int64_t* keys, std::size_t n);
  bool Contains(std::int64_t key) const;

  // Tests keys[0 .. n): bit i of bitmap ((n + 7) / 8 bytes, LSB first, unused
  // high bits 0) is 1 when keys[i] is in the set. Returns the number of 1s.
  std::size_t ContainsBatch(const std::int64_t* keys, std::size_t n, std::uint8_t* bitmap) const;
  // The number of keys[0 .. n) in the set.
  std::size_t CountBatch(const std::int64_t* keys, std::size_t n) const;

  std::uint64_t size() const { return size_; }
  std::uint64_t bytes() const { return capacity_ * sizeof(std::uint64_t); }

 private:
  std::uint64_t Home(std::uint64_t key) const;
  bool ProbeFrom(std::uint64_t key, std::uint64_t slot) const;
  template <typename OnGroup>
  void ProbeBatch(const std::int64_t* keys, std::size_t n, OnGroup&& on_group) const;

  std::uint64_t* slots_ = nullptr;
  std::uint64_t capacity_ = 0;  // a power of two
  std::uint64_t max_keys_ = 0;
  int shift_ = 0;               // 64 - log2(capacity_)
  bool mapped_ = false;         // slots_ came from mmap, not calloc
  bool prefetch_ = false;       // larger than the caches: prefetch in batches
  bool has_zero_ = false;
  std::uint64_t size_ = 0;
};

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_INT64_SET_H_
