// blockbloom C++17 API: a thin layer over blockbloom.h.
//
//   blockbloom::Filter filter(1 << 20);            // owned, zeroed, 64-byte aligned
//   filter.insert(hash);
//   if (filter.find(hash)) { ... }
//   size_t hits = filter.find_batch_bitmap(hashes, n, bitmap);
//
//   blockbloom::ConstView view(file_bytes + offset, num_bytes);  // probe in place
//
// Errors (bad sizes, null pointers, out of memory) throw blockbloom::Error,
// which carries the bb_status code. The per-hash calls on a constructed object
// cannot fail and go straight to the selected kernel.
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

  bool find(std::uint64_t hash) const { return bb_find(&filter_, hash) > 0; }

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

  void insert(std::uint64_t hash) { bb_insert(&filter_, hash); }
  void insert_batch(const std::uint64_t* hashes, std::size_t n) {
    detail::Check(bb_insert_batch(&filter_, hashes, n));
  }

  using ConstView::data;
  std::uint8_t* data() noexcept { return filter_.data; }
  bb_filter* c_filter() noexcept { return &filter_; }

 protected:
  View() = default;
};

// Owns a zeroed, 64-byte-aligned bitset. Move-only.
class Filter : public View {
 public:
  explicit Filter(std::size_t num_bytes) { detail::Check(bb_filter_init(&filter_, num_bytes)); }
  ~Filter() { bb_filter_release(&filter_); }

  Filter(Filter&& other) noexcept { std::swap(filter_, other.filter_); }
  Filter& operator=(Filter&& other) noexcept {
    std::swap(filter_, other.filter_);
    return *this;
  }
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;
};

// ISA selection (see blockbloom.h).
inline std::string selected_isa() { return bb_selected_isa(); }
inline void select_isa(const std::string& name) { detail::Check(bb_select_isa(name.c_str())); }

}  // namespace blockbloom

#endif  // BLOCKBLOOM_BLOCKBLOOM_HPP_
