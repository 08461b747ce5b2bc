// SPDX-License-Identifier: Apache-2.0
// blockbloom C++17 API for the Kudu / Impala layout: a thin, header-only
// layer over blockbloom/kudu.h, with the surface blockbloom.hpp gives the
// Parquet layout, for code written against Kudu's BlockBloomFilter.
//
//   auto f = blockbloom::KuduFilter::for_ndv(100000, 0.01);  // seed 0
//   f.insert(blockbloom::kudu_hash(std::int64_t{42}, f.hash_seed()));
//   f |= other;                                             // union (&= intersects)
//   blockbloom::KuduDirectory pb = f.to_directory();        // BlockBloomFilterPB's fields
//   auto g = blockbloom::KuduFilter::from_directory(pb);
//
// Hashes are 32-bit (FastHash32 with the filter's seed). A new filter is
// always-false until the first insert. Errors throw blockbloom::Error with
// the bb_status code; a moved-from KuduFilter holds no bitset, and its
// operations throw Error(BB_ERR_NULL_POINTER), as Filter's do.

// Before C++17: one clear #error and the rest skipped (see blockbloom.hpp).
#if !defined(__cplusplus) || \
    (__cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#ifndef BLOCKBLOOM_PRE_CXX17_REPORTED_
#define BLOCKBLOOM_PRE_CXX17_REPORTED_
#error "kudu.hpp needs C++17 or later (the C API, kudu.h, works from C and any C++)"
#endif
#define BLOCKBLOOM_KUDU_HPP_
#endif

#ifndef BLOCKBLOOM_KUDU_HPP_
#define BLOCKBLOOM_KUDU_HPP_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "blockbloom/blockbloom.hpp"
#include "blockbloom/column.h"
#include "blockbloom/hashing.h"
#include "blockbloom/kudu.h"
#include "blockbloom/sizing.h"

namespace blockbloom {

// The Kudu hashes (FastHash32 with seed) of col's valid rows into hashes
// (room for col.length); returns how many were written.
inline std::size_t kudu_hash_column(const bb_column& col, std::uint32_t seed,
                                    std::uint32_t* hashes) {
  std::size_t n = 0;
  detail::Check(bb_kudu_hash_column(&col, seed, hashes, &n));
  return n;
}

// The Kudu hash of one value, as Kudu hashes the cell a filter is compared
// with: bb_kudu_hash_column with one row (column.h's table: int8 is 1 byte,
// int16 2, int32 / float 4, int64 / double 8). Kudu has no unsigned type:
// those throw Error(BB_ERR_TYPE_NOT_IN_LAYOUT).
template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> &&
                                                  !std::is_same_v<T, bool>>>
std::uint32_t kudu_hash(T value, std::uint32_t seed = 0) {
  std::uint32_t hash = 0;
  kudu_hash_column(Column::of(&value, 1), seed, &hash);
  return hash;
}
// A BINARY / STRING cell: FastHash32 of its bytes (bb_kudu_fasthash32).
inline std::uint32_t kudu_hash(std::string_view bytes, std::uint32_t seed = 0) {
  return bb_kudu_fasthash32(bytes.data(), bytes.size(), seed);
}
inline std::uint32_t kudu_hash_bytes(const void* data, std::size_t len, std::uint32_t seed = 0) {
  return bb_kudu_fasthash32(data, len, seed);
}
// A null cell, by Kudu's null rule (bb_kudu_fasthash32 of NULL).
inline std::uint32_t kudu_hash_null(std::uint32_t seed = 0) {
  return bb_kudu_fasthash32(nullptr, 0, seed);
}

// Kudu's BlockBloomFilterPB, field by field, owning its bloom_data: what
// to_directory gives and from_directory takes (bb_kudu_export / _import).
struct KuduDirectory {
  std::int32_t log_space_bytes = 0;     // field 1
  std::vector<std::uint8_t> bloom_data;  // field 2: 2^log_space_bytes bytes
  bool always_false = true;              // field 3
  std::int32_t hash_algorithm = BB_KUDU_HASH_FAST_HASH;  // field 4
  std::uint32_t hash_seed = 0;           // field 5
};

// A read-only view of a Kudu directory the caller owns (any alignment).
// The column probes, sizing questions (fpp, max_ndv, estimated_ndv,
// bits_set) and observers are detail::ViewBase's, as for ConstView.
class KuduConstView : public detail::ViewBase {
 public:
  KuduConstView(const void* data, std::size_t num_bytes, bool always_false,
                std::uint32_t hash_seed) {
    detail::Check(bb_kudu_filter_init_view_readonly(&filter_, data, num_bytes,
                                                    always_false ? 1 : 0, hash_seed));
  }

  bool find(std::uint32_t hash) const {
    const int found = bb_kudu_find(&filter_, hash);
    detail::Check(found);
    return found > 0;
  }
  // Bitmap: (n + 7) / 8 bytes, LSB first. Returns the number of hits.
  std::size_t find_batch_bitmap(const std::uint32_t* hashes, std::size_t n,
                                std::uint8_t* bitmap) const {
    std::size_t hits = 0;
    detail::Check(bb_kudu_find_batch_bitmap(&filter_, hashes, n, bitmap, &hits));
    return hits;
  }
  // Selection: room for n indices. Returns the number of hits.
  std::size_t find_batch_select(const std::uint32_t* hashes, std::size_t n,
                                std::uint32_t* selection) const {
    std::size_t hits = 0;
    detail::Check(bb_kudu_find_batch_select(&filter_, hashes, n, selection, &hits));
    return hits;
  }
  // The pipeline probes (ConstView's, for 32-bit hashes).
  std::size_t find_batch_select_from(const std::uint32_t* hashes, std::size_t n,
                                     const std::uint32_t* sel_in, std::size_t m,
                                     std::uint32_t* sel_out) const {
    std::size_t hits = 0;
    detail::Check(
        bb_kudu_find_batch_select_from(&filter_, hashes, n, sel_in, m, sel_out, &hits));
    return hits;
  }
  std::size_t find_batch_bitmap_and(const std::uint32_t* hashes, std::size_t n,
                                    std::uint8_t* bitmap) const {
    std::size_t hits = 0;
    detail::Check(bb_kudu_find_batch_bitmap_and(&filter_, hashes, n, bitmap, &hits));
    return hits;
  }
  // bb_kudu_partition_hashes: see ConstView::partition_hashes.
  void partition_hashes(const std::uint32_t* hashes, std::size_t n, std::uint32_t num_parts,
                        std::uint32_t* out, std::size_t* counts) const {
    detail::Check(bb_kudu_partition_hashes(&filter_, hashes, n, num_parts, out, counts));
  }

  // The directory's fields (bb_kudu_export).
  std::int32_t log_space_bytes() const { return Export().log_space_bytes; }
  bool always_false() const { return Export().always_false != 0; }
  std::int32_t hash_algorithm() const { return Export().hash_algorithm; }
  std::uint32_t hash_seed() const { return Export().hash_seed; }
  // All of them, with a copy of the directory bytes.
  KuduDirectory to_directory() const {
    const bb_kudu_directory d = Export();
    KuduDirectory out;
    out.log_space_bytes = d.log_space_bytes;
    out.bloom_data.assign(d.bloom_data, d.bloom_data + d.bloom_data_size);
    out.always_false = d.always_false != 0;
    out.hash_algorithm = d.hash_algorithm;
    out.hash_seed = d.hash_seed;
    return out;
  }

  // Same size, seed, always-false state and bits (bb_filter_equal).
  friend bool operator==(const KuduConstView& a, const KuduConstView& b) {
    return detail::Equal(a.filter_, b.filter_);
  }
  friend bool operator!=(const KuduConstView& a, const KuduConstView& b) { return !(a == b); }

 protected:
  KuduConstView() = default;

 private:
  bb_kudu_directory Export() const {
    bb_kudu_directory d{};
    detail::Check(bb_kudu_export(&filter_, &d));
    return d;
  }
};

// A writable view of a Kudu directory the caller owns (any alignment).
// insert_column, clear, |= and &= are detail::Writable's, as for View.
class KuduView : public detail::Writable<KuduView, KuduConstView> {
 public:
  KuduView(void* data, std::size_t num_bytes, bool always_false, std::uint32_t hash_seed) {
    detail::Check(
        bb_kudu_filter_init_view(&filter_, data, num_bytes, always_false ? 1 : 0, hash_seed));
  }

  void insert(std::uint32_t hash) { detail::Check(bb_kudu_insert(&filter_, hash)); }
  void insert_batch(const std::uint32_t* hashes, std::size_t n) {
    detail::Check(bb_kudu_insert_batch(&filter_, hashes, n));
  }
  // bb_kudu_build_from_hashes: see View::build_from_hashes.
  void build_from_hashes(const std::uint32_t* hashes, std::size_t n,
                         std::uint32_t* scratch = nullptr) {
    detail::Check(bb_kudu_build_from_hashes(&filter_, hashes, n, scratch));
  }
  // bb_kudu_build_from_hashes_partition: see View::build_from_hashes_partition.
  void build_from_hashes_partition(const std::uint32_t* hashes, std::size_t n,
                                   std::uint32_t* scratch, std::uint32_t part,
                                   std::uint32_t num_parts) {
    detail::Check(bb_kudu_build_from_hashes_partition(&filter_, hashes, n, scratch, part, num_parts));
  }

 protected:
  KuduView() = default;
};

// Owns a zeroed, always-false Kudu directory of 2^log_space_bytes bytes,
// 64-byte aligned. Move-only, as Filter is.
class KuduFilter : public KuduView {
 public:
  explicit KuduFilter(std::int32_t log_space_bytes, std::uint32_t hash_seed = 0) {
    detail::Check(bb_kudu_filter_init(&filter_, log_space_bytes, hash_seed));
  }
  // The directory from allocator, which must outlive the filter and its copies.
  KuduFilter(std::int32_t log_space_bytes, std::uint32_t hash_seed, const bb_allocator& allocator) {
    detail::Check(
        bb_kudu_filter_init_with_allocator(&filter_, log_space_bytes, hash_seed, &allocator));
  }
  KuduFilter(std::int32_t log_space_bytes, std::uint32_t hash_seed,
             const bb_allocator&& allocator) = delete;
  ~KuduFilter() { bb_filter_release(&filter_); }

  // The smallest Kudu directory whose FPP for ndv distinct values is at most
  // target_fpp, hash collisions counted (bb_bytes_for with BB_SIZE_KUDU;
  // Kudu's MinLogSpace, then the filter); ndv 0 gives the smallest, 64 bytes.
  static KuduFilter for_ndv(std::uint64_t ndv, double target_fpp, std::uint32_t hash_seed = 0) {
    std::size_t num_bytes = bytes_for(ndv, target_fpp, Sizing::kudu);
    std::int32_t log_space_bytes = 0;
    for (; num_bytes > 1; num_bytes >>= 1) ++log_space_bytes;  // a power of two
    return KuduFilter(log_space_bytes, hash_seed);
  }

  // A new owned filter holding a copy of the directory (bb_kudu_import: a
  // size not 2^log_space_bytes, an out-of-range log_space_bytes or a hash
  // other than FAST_HASH throw Error with their own code).
  static KuduFilter from_directory(const KuduDirectory& in) {
    bb_kudu_directory d{};
    d.log_space_bytes = in.log_space_bytes;
    d.bloom_data = in.bloom_data.data();
    d.bloom_data_size = in.bloom_data.size();
    d.always_false = in.always_false ? 1 : 0;
    d.hash_algorithm = in.hash_algorithm;
    d.hash_seed = in.hash_seed;
    KuduFilter out;
    detail::Check(bb_kudu_import(&out.filter_, &d));
    return out;
  }

  // A Kudu filter file (filter_file.h; to_file_bytes, save) read into an
  // owned copy with its seed and always-false state, as Filter::load (a
  // Parquet file: Error BB_ERR_LAYOUT_MISMATCH).
  static KuduFilter from_file_bytes(const void* data, std::size_t len,
                                    ValueType* values = nullptr,
                                    bb_filter_file_sizing* sizing = nullptr) {
    KuduFilter out;
    out.filter_ = detail::ReadFilterFile(data, len, BB_LAYOUT_KUDU, values, sizing);
    return out;
  }
  static KuduFilter load(const std::string& path, ValueType* values = nullptr,
                         bb_filter_file_sizing* sizing = nullptr) {
    const std::vector<std::uint8_t> bytes = detail::ReadWholeFile(path);
    return from_file_bytes(bytes.data(), bytes.size(), values, sizing);
  }

  // An owned copy of any Kudu filter or view (bb_filter_copy).
  static KuduFilter copy_of(const KuduConstView& src) {
    KuduFilter copy;
    detail::Check(bb_filter_copy(&copy.filter_, src.c_filter()));
    return copy;
  }

  KuduFilter(KuduFilter&& other) noexcept { std::swap(filter_, other.filter_); }
  KuduFilter& operator=(KuduFilter&& other) noexcept {
    detail::MoveAssign(filter_, other.filter_);
    return *this;
  }
  KuduFilter(const KuduFilter&) = delete;  // a copy is explicit: copy_of
  KuduFilter& operator=(const KuduFilter&) = delete;

 private:
  KuduFilter() = default;
};

}  // namespace blockbloom

#endif  // BLOCKBLOOM_KUDU_HPP_
