// SPDX-License-Identifier: Apache-2.0
// blockbloom C++17 API: a thin layer over blockbloom.h.
//
//   blockbloom::Filter filter(1 << 20);            // owned, zeroed, 64-byte aligned
//   filter.insert(hash);
//   if (filter.find(hash)) { ... }
//   size_t hits = filter.find_batch_bitmap(hashes, n, bitmap);
//
//   blockbloom::ConstView view(file_bytes + offset, num_bytes);  // probe in place
//   hits = view.find_batch_bitmap_and(hashes, n, bitmap);         // chain filters
//
// Errors (bad sizes, null pointers, out of memory) throw blockbloom::Error,
// which carries the bb_status code. Every operation (insert, insert_batch,
// find, find_batch_*) checks the library's status the same way: on a
// moved-from Filter, which holds no bitset, each of them throws Error with
// BB_ERR_NULL_POINTER rather than doing nothing or answering "absent". The
// observers (data(), num_bytes(), num_blocks(), c_filter()) never throw; on a
// moved-from Filter they report the empty state (nullptr, 0).
#ifndef BLOCKBLOOM_BLOCKBLOOM_HPP_
#define BLOCKBLOOM_BLOCKBLOOM_HPP_

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "blockbloom/blockbloom.h"

namespace blockbloom {

class Error : public std::runtime_error {
 public:
  explicit Error(int status) : std::runtime_error(bb_status_message(status)), status_(status) {}
  int status() const noexcept { return status_; }

 private:
  int status_;
};

namespace detail {
inline void Check(int status) {
  if (status < 0) throw Error(status);
}
}  // namespace detail

// A read-only view of a bitset the caller owns (any alignment). Copyable.
class ConstView {
 public:
  ConstView(const void* data, std::size_t num_bytes) {
    detail::Check(bb_filter_init_view_readonly(&filter_, data, num_bytes));
  }

  bool find(std::uint64_t hash) const {
    const int found = bb_find(&filter_, hash);
    detail::Check(found);
    return found > 0;
  }

  // Bitmap: (n + 7) / 8 bytes, LSB first. Returns the number of hits.
  std::size_t find_batch_bitmap(const std::uint64_t* hashes, std::size_t n,
                                std::uint8_t* bitmap) const {
    std::size_t hits = 0;
    detail::Check(bb_find_batch_bitmap(&filter_, hashes, n, bitmap, &hits));
    return hits;
  }

  // Selection: room for n indices. Returns the number of hits.
  std::size_t find_batch_select(const std::uint64_t* hashes, std::size_t n,
                                std::uint32_t* selection) const {
    std::size_t hits = 0;
    detail::Check(bb_find_batch_select(&filter_, hashes, n, selection, &hits));
    return hits;
  }

  // Pipeline probes (blockbloom.h). select_from tests hashes[sel_in[k]] for
  // k < m and writes the rows that may be present to sel_out (room for m;
  // may be sel_in itself). bitmap_and clears the bits of absent rows below n.
  // Both return the number of rows left.
  std::size_t find_batch_select_from(const std::uint64_t* hashes, std::size_t n,
                                     const std::uint32_t* sel_in, std::size_t m,
                                     std::uint32_t* sel_out) const {
    std::size_t hits = 0;
    detail::Check(bb_find_batch_select_from(&filter_, hashes, n, sel_in, m, sel_out, &hits));
    return hits;
  }
  std::size_t find_batch_bitmap_and(const std::uint64_t* hashes, std::size_t n,
                                    std::uint8_t* bitmap) const {
    std::size_t hits = 0;
    detail::Check(bb_find_batch_bitmap_and(&filter_, hashes, n, bitmap, &hits));
    return hits;
  }

  // Same layout, size, seed and bits (bb_filter_equal), wherever they lie.
  friend bool operator==(const ConstView& a, const ConstView& b) {
    const int equal = bb_filter_equal(&a.filter_, &b.filter_);
    detail::Check(equal);
    return equal > 0;
  }
  friend bool operator!=(const ConstView& a, const ConstView& b) { return !(a == b); }

  const std::uint8_t* data() const noexcept { return filter_.data; }
  std::size_t num_bytes() const noexcept { return filter_.num_bytes; }
  std::uint32_t num_blocks() const noexcept { return filter_.num_blocks; }
  const bb_filter* c_filter() const noexcept { return &filter_; }

 protected:
  ConstView() = default;
  bb_filter filter_{};
};

// A writable view of a bitset the caller owns (any alignment). Copyable.
class View : public ConstView {
 public:
  View(void* data, std::size_t num_bytes) {
    detail::Check(bb_filter_init_view(&filter_, data, num_bytes));
  }

  void insert(std::uint64_t hash) { detail::Check(bb_insert(&filter_, hash)); }
  void insert_batch(const std::uint64_t* hashes, std::size_t n) {
    detail::Check(bb_insert_batch(&filter_, hashes, n));
  }
  // Every bit back to 0 (bb_filter_clear).
  void clear() { detail::Check(bb_filter_clear(&filter_)); }

  using ConstView::data;
  std::uint8_t* data() noexcept { return filter_.data; }
  bb_filter* c_filter() noexcept { return &filter_; }

 protected:
  View() = default;
};

// Owns a zeroed, 64-byte-aligned bitset. Move-only. A moved-from Filter
// (after construction from it or assignment from it) holds no bitset: its
// operations throw Error(BB_ERR_NULL_POINTER); assigning a Filter to it makes
// it usable again.
class Filter : public View {
 public:
  explicit Filter(std::size_t num_bytes) { detail::Check(bb_filter_init(&filter_, num_bytes)); }
  // The bitset from allocator (bb_filter_init_with_allocator), which must
  // outlive the Filter and every copy_of it: hence no temporaries.
  Filter(std::size_t num_bytes, const bb_allocator& allocator) {
    detail::Check(bb_filter_init_with_allocator(&filter_, num_bytes, &allocator));
  }
  Filter(std::size_t num_bytes, const bb_allocator&& allocator) = delete;
  ~Filter() { bb_filter_release(&filter_); }

  // An owned copy of any filter or view, from its allocator (bb_filter_copy).
  static Filter copy_of(const ConstView& src) {
    Filter copy;
    detail::Check(bb_filter_copy(&copy.filter_, src.c_filter()));
    return copy;
  }

  Filter(Filter&& other) noexcept { std::swap(filter_, other.filter_); }
  // Releases this bitset and takes other's, leaving other empty (not holding
  // this one's old bitset, as a swap would).
  Filter& operator=(Filter&& other) noexcept {
    if (this != &other) {
      bb_filter_release(&filter_);
      filter_ = other.filter_;
      other.filter_ = bb_filter{};
    }
    return *this;
  }
  Filter(const Filter&) = delete;  // a copy is explicit: copy_of
  Filter& operator=(const Filter&) = delete;

 private:
  Filter() = default;
};

// ISA selection (see blockbloom.h).
inline std::string selected_isa() { return bb_selected_isa(); }
inline void select_isa(const std::string& name) { detail::Check(bb_select_isa(name.c_str())); }

}  // namespace blockbloom

#endif  // BLOCKBLOOM_BLOCKBLOOM_HPP_
