// SPDX-License-Identifier: Apache-2.0
// blockbloom C++17 API for the Kudu / Impala layout: a thin, header-only
// layer over blockbloom/kudu.h, for code written against Kudu's
// BlockBloomFilter: the class templates of blockbloom.hpp over KuduLayout.
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

// The Kudu layout (kudu.h): 32-bit hashes (FastHash32 with the filter's
// seed), a directory of 2^log_space_bytes bytes, always-false until the
// first insert; its own members read and write Kudu's BlockBloomFilterPB
// fields. Its views take the always-false state and seed after the bytes,
// its owned filters the seed after the size (log_space_bytes).
struct KuduLayout {
  using hash_type = std::uint32_t;
  using size_type = std::int32_t;  // log2 of the bytes
  using view_args = void(bool always_false, std::uint32_t hash_seed);
  using owner_args = void(std::uint32_t hash_seed);
  static constexpr std::uint32_t id = BB_LAYOUT_KUDU;
  // A size as refusals name it.
  static std::string size_text(size_type log_space_bytes) {
    return "log_space_bytes " + std::to_string(log_space_bytes);
  }
  static constexpr auto init = bb_kudu_filter_init;
  static constexpr auto init_with_allocator = bb_kudu_filter_init_with_allocator;
  static int init_view(bb_filter* f, void* data, std::size_t num_bytes, bool always_false,
                       std::uint32_t hash_seed) {
    return bb_kudu_filter_init_view(f, data, num_bytes, always_false ? 1 : 0, hash_seed);
  }
  static int init_view_readonly(bb_filter* f, const void* data, std::size_t num_bytes,
                                bool always_false, std::uint32_t hash_seed) {
    return bb_kudu_filter_init_view_readonly(f, data, num_bytes, always_false ? 1 : 0, hash_seed);
  }
  static constexpr auto insert = bb_kudu_insert;
  static constexpr auto insert_batch = bb_kudu_insert_batch;
  static constexpr auto build_from_hashes = bb_kudu_build_from_hashes;
  static constexpr auto build_from_hashes_partition = bb_kudu_build_from_hashes_partition;
  static constexpr auto find = bb_kudu_find;
  static constexpr auto find_batch_bitmap = bb_kudu_find_batch_bitmap;
  static constexpr auto find_batch_select = bb_kudu_find_batch_select;
  static constexpr auto find_batch_select_from = bb_kudu_find_batch_select_from;
  static constexpr auto find_batch_bitmap_and = bb_kudu_find_batch_bitmap_and;
  static constexpr auto partition_hashes = bb_kudu_partition_hashes;

  template <class Self>
  class Reads {
   public:
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

   private:
    bb_kudu_directory Export() const {
      bb_kudu_directory d{};
      detail::Check(bb_kudu_export(static_cast<const Self&>(*this).c_filter(), &d));
      return d;
    }
  };

  template <class Self>
  class Owns {
   public:
    // The smallest Kudu directory whose FPP for ndv distinct values is at
    // most target_fpp, hash collisions counted (bb_bytes_for with
    // BB_SIZE_KUDU; Kudu's MinLogSpace, then the filter); ndv 0 gives the
    // smallest, 64 bytes.
    static Self for_ndv(std::uint64_t ndv, double target_fpp, std::uint32_t hash_seed = 0) {
      std::size_t num_bytes = bytes_for(ndv, target_fpp, Sizing::kudu);
      std::int32_t log_space_bytes = 0;
      for (; num_bytes > 1; num_bytes >>= 1) ++log_space_bytes;  // a power of two
      return Self(log_space_bytes, hash_seed);
    }

    // A new owned filter holding a copy of the directory (bb_kudu_import: a
    // size not 2^log_space_bytes, an out-of-range log_space_bytes or a hash
    // other than FAST_HASH throw Error with their own code).
    static Self from_directory(const KuduDirectory& in) {
      bb_kudu_directory d{};
      d.log_space_bytes = in.log_space_bytes;
      d.bloom_data = in.bloom_data.data();
      d.bloom_data_size = in.bloom_data.size();
      d.always_false = in.always_false ? 1 : 0;
      d.hash_algorithm = in.hash_algorithm;
      d.hash_seed = in.hash_seed;
      bb_filter f{};
      const int status = bb_kudu_import(&f, &d);
      return detail::Adopted<Self>(status, &f);
    }
  };
};

// The Kudu layout's classes: the templates of the Parquet layout's
// (blockbloom.hpp) over KuduLayout. KuduFilter owns a zeroed, always-false
// directory of 2^log_space_bytes bytes, 64-byte aligned; move-only, as
// Filter is.
using KuduConstView = BasicConstView<KuduLayout>;
using KuduView = BasicView<KuduLayout>;
using KuduFilter = BasicFilter<KuduLayout>;

}  // namespace blockbloom

#endif  // BLOCKBLOOM_KUDU_HPP_
