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
//   auto col = blockbloom::Column::of(int16_values, n).with_validity(bits, offset);
//   filter.insert_column(col);                      // typed, nulls left out (column.h)
//
// What Arrow's BlockSplitBloomFilter users reach for, without a C call:
//   auto f = blockbloom::Filter::for_ndv(100000, 0.01);  // Sizing::parquet_safe
//   f.insert(blockbloom::parquet_hash(std::int64_t{42}));  // hashing.h's rules
//   f |= other;                                          // union (&= intersects)
//   std::vector<std::uint8_t> out = f.to_parquet_bytes();  // header + bitset
//   auto g = blockbloom::Filter::from_parquet_bytes(out.data(), out.size());
//   auto v = blockbloom::ConstView::parquet_in_place(out.data(), out.size());
// A filter file that keeps the values' type (filter_file.h):
//   f.save("keys.bbf", blockbloom::ValueType::parse("date"));
//   blockbloom::ValueType type;
//   auto h = blockbloom::Filter::load("keys.bbf", &type);  // type: INT32 DATE
// Filter, View and ConstView are the class templates BasicFilter, BasicView
// and BasicConstView over ParquetLayout; the Kudu layout's classes, the same
// templates over KuduLayout, are in blockbloom/kudu.hpp.
//
// Errors (bad sizes, null pointers, out of memory) throw blockbloom::Error,
// which carries the bb_status code; a constructor's message names the size
// it refused ("a filter of 33 bytes: filter size is not a multiple of 32
// bytes (the block size)"). Every operation (insert, insert_batch,
// find, find_batch_*) checks the library's status the same way: on a
// moved-from Filter, which holds no bitset, each of them throws Error with
// BB_ERR_NULL_POINTER rather than doing nothing or answering "absent". The
// observers (data(), num_bytes(), num_blocks(), c_filter()) never throw; on a
// moved-from Filter they report the empty state (nullptr, 0). The sizing
// questions (fpp, max_ndv) ask the C library about num_bytes(), so there they
// throw its code for a size of 0 (BB_ERR_SIZE_ZERO).

// Before C++17 (or included from C): one #error, then the rest of this file
// is skipped (its guard defined), so the compiler does not go on to fail deep
// inside it. MSVC reports the standard in _MSVC_LANG (__cplusplus is 199711L
// without /Zc:__cplusplus). BLOCKBLOOM_PRE_CXX17_REPORTED_: the first
// blockbloom .hpp included reports it, the others are skipped silently.
#if !defined(__cplusplus) || \
    (__cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#ifndef BLOCKBLOOM_PRE_CXX17_REPORTED_
#define BLOCKBLOOM_PRE_CXX17_REPORTED_
#error "blockbloom.hpp needs C++17 or later (the C API, blockbloom.h, works from C and any C++)"
#endif
#define BLOCKBLOOM_BLOCKBLOOM_HPP_
#endif

#ifndef BLOCKBLOOM_BLOCKBLOOM_HPP_
#define BLOCKBLOOM_BLOCKBLOOM_HPP_

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "blockbloom/filter_file.h"
#include "blockbloom/hashing.h"
#include "blockbloom/parquet_format.h"
#include "blockbloom/parquet_value.h"
#include "blockbloom/sizing.h"

namespace blockbloom {

class Error : public std::runtime_error {
 public:
  explicit Error(int status) : std::runtime_error(bb_status_message(status)), status_(status) {}
  // The code with a message that says more (why a Parquet file was refused).
  Error(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const noexcept { return status_; }

 private:
  int status_;
};

namespace detail {
inline void Check(int status) {
  if (status < 0) throw Error(status);
}
// A constructor's refusal names the size it was given ("a filter of 33
// bytes: filter size is not a multiple of 32 bytes"), as Python's does:
// what: "a filter", "a view"; size: the layout's size_text.
inline void CheckSized(int status, const char* what, const std::string& size) {
  if (status < 0) throw Error(status, std::string(what) + " of " + size + ": " + bb_status_message(status));
}
// A zeroed bb_parquet_column of this header's size.
inline bb_parquet_column BlankColumn() {
  bb_parquet_column t{};
  t.struct_size = sizeof t;
  return t;
}
}  // namespace detail

// What a filter's values are, as a filter file records it (filter_file.h):
// raw hashes the caller made, or values of a Parquet type (physical type and
// annotation; the path is not part of it).
struct ValueType {
  bool typed = false;
  bb_parquet_column type = detail::BlankColumn();  // when typed

  static ValueType raw_hashes() { return ValueType(); }
  static ValueType of(const bb_parquet_column& t) {
    ValueType v;
    v.typed = true;
    v.type = t;
    v.type.struct_size = sizeof(bb_parquet_column);
    v.type.path = nullptr;
    v.type.path_len = 0;
    return v;
  }
  // A type by name, as bb_parquet_type_parse reads it: "int64", "date",
  // "decimal(9,2)", "timestamp(us,utc)", ... (else Error BB_ERR_UNKNOWN_TYPE_NAME).
  static ValueType parse(std::string_view name) {
    bb_parquet_column t = detail::BlankColumn();
    detail::Check(bb_parquet_type_parse(name.data(), name.size(), &t));
    return of(t);
  }
};

namespace detail {
// A filter file's bytes into a new owned filter of `layout` (a file of the
// other layout: Error BB_ERR_LAYOUT_MISMATCH), its type into *values and its
// sizing into *sizing when given (bb_filter_file_read).
inline bb_filter ReadFilterFile(const void* data, std::size_t len, std::uint32_t layout,
                                ValueType* values, bb_filter_file_sizing* sizing) {
  bb_filter f{};
  std::int32_t kind = 0;
  bb_parquet_column type = BlankColumn();
  Check(bb_filter_file_read(static_cast<const std::uint8_t*>(data), len, &f, &kind, &type,
                            sizing));
  if (f.layout != layout) {
    bb_filter_release(&f);
    throw Error(BB_ERR_LAYOUT_MISMATCH);
  }
  if (values != nullptr) {
    *values = kind == BB_FILTER_VALUES_TYPED ? ValueType::of(type) : ValueType::raw_hashes();
  }
  return f;
}

// A whole file's bytes (Error BB_ERR_PARQUET_IO if it cannot be read).
inline std::vector<std::uint8_t> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(BB_ERR_PARQUET_IO);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  if (in.bad()) throw Error(BB_ERR_PARQUET_IO);
  return bytes;
}

// bb_filter_union / _intersect (op) of src into dst. Filters that cannot be
// combined throw Error BB_ERR_FILTER_MISMATCH whose message says what
// differs, with both values (bb_filter_mismatch).
inline void Combine(int (*op)(bb_filter*, const bb_filter*), bb_filter* dst, const bb_filter* src) {
  const int status = op(dst, src);
  if (status != BB_ERR_FILTER_MISMATCH) return Check(status);
  char reason[128] = "";
  bb_filter_mismatch(dst, src, reason, sizeof reason);
  throw Error(status, std::string(bb_status_message(status)) + ": " + reason);
}
}  // namespace detail

// A typed column (column.h), built by named constructors. It is a bb_column,
// so it goes wherever the C API takes one; copyable, it owns nothing.
struct Column : bb_column {
  Column() : bb_column BB_COLUMN_INIT {}

  // Values of a C++ arithmetic type: int8_t .. int64_t, uint8_t .. uint64_t,
  // float, double (each the bb_column_type of that name).
  template <typename T>
  static Column of(const T* row_values, std::size_t num_rows) {
    return typed(TypeOf<T>(), row_values, num_rows);
  }

  // Fixed-width values of any type but FIXED_LEN_BYTE_ARRAY (DATE32,
  // DATE64, TIME32, TIME64, TIMESTAMP, INT96 share their C++ types).
  static Column typed(bb_column_type value_type, const void* row_values, std::size_t num_rows) {
    Column c;
    c.type = value_type;
    c.length = num_rows;
    c.values = row_values;
    return c;
  }

  static Column fixed_len_byte_array(const void* row_values, std::size_t value_width,
                                     std::size_t num_rows) {
    Column c = typed(BB_TYPE_FIXED_LEN_BYTE_ARRAY, row_values, num_rows);
    c.width = value_width;
    return c;
  }

  // Arrow binary/string (int32 offsets) or large_binary/large_string (int64).
  static Column byte_array(const void* bytes, std::size_t num_bytes,
                           const std::int32_t* row_offsets, std::size_t num_rows) {
    return strings(BB_TYPE_BYTE_ARRAY, bytes, num_bytes, row_offsets, num_rows);
  }
  static Column byte_array(const void* bytes, std::size_t num_bytes,
                           const std::int64_t* row_offsets, std::size_t num_rows) {
    return strings(BB_TYPE_LARGE_BYTE_ARRAY, bytes, num_bytes, row_offsets, num_rows);
  }

  // The same column with an Arrow validity bitmap: row i is valid iff bit
  // (offset + i) of validity is 1.
  Column with_validity(const std::uint8_t* validity_bits, std::size_t offset) const {
    Column c = *this;
    c.validity = validity_bits;
    c.validity_offset = offset;
    return c;
  }

 private:
  template <typename T>
  static constexpr bb_column_type TypeOf() {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && sizeof(T) <= 8,
                  "an integer (not bool) or floating-point type");
    if constexpr (std::is_floating_point_v<T>) {
      static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
      return sizeof(T) == 4 ? BB_TYPE_FLOAT : BB_TYPE_DOUBLE;
    } else if constexpr (std::is_signed_v<T>) {
      return sizeof(T) == 1 ? BB_TYPE_INT8 : sizeof(T) == 2 ? BB_TYPE_INT16
                                           : sizeof(T) == 4 ? BB_TYPE_INT32 : BB_TYPE_INT64;
    } else {
      return sizeof(T) == 1 ? BB_TYPE_UINT8 : sizeof(T) == 2 ? BB_TYPE_UINT16
                                            : sizeof(T) == 4 ? BB_TYPE_UINT32 : BB_TYPE_UINT64;
    }
  }

  static Column strings(bb_column_type value_type, const void* bytes, std::size_t num_bytes,
                        const void* row_offsets, std::size_t num_rows) {
    Column c;
    c.type = value_type;
    c.length = num_rows;
    c.offsets = row_offsets;
    c.data = bytes;
    c.data_len = num_bytes;
    return c;
  }
};

// The Parquet hashes of col's valid rows into hashes (room for col.length);
// returns how many were written. (Kudu's: kudu_hash_column, kudu.hpp.)
inline std::size_t parquet_hash_column(const bb_column& col, std::uint64_t* hashes) {
  std::size_t n = 0;
  detail::Check(bb_parquet_hash_column(&col, hashes, &n));
  return n;
}

// The Parquet hash of one value, as Arrow's BlockSplitBloomFilter::Hash
// gives it. Every rule is the C library's: int32, int64, float and double go
// to bb_parquet_hash_<type> (hashing.h); the other integer types (int8 ..
// uint64, long long) to bb_parquet_hash_column with one row (column.h: the
// widening a Parquet writer does, unsigned as the signed type of its bits).
template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> &&
                                                  !std::is_same_v<T, bool>>>
std::uint64_t parquet_hash(T value) {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    return bb_parquet_hash_int32(value);
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return bb_parquet_hash_int64(value);
  } else if constexpr (std::is_same_v<T, float>) {
    return bb_parquet_hash_float(value);
  } else if constexpr (std::is_same_v<T, double>) {
    return bb_parquet_hash_double(value);
  } else {
    std::uint64_t hash = 0;
    parquet_hash_column(Column::of(&value, 1), &hash);
    return hash;
  }
}
// A BYTE_ARRAY value (string or binary): XXH64 of its bytes.
inline std::uint64_t parquet_hash(std::string_view bytes) {
  return bb_parquet_hash_bytes(bytes.data(), bytes.size());
}
inline std::uint64_t parquet_hash_bytes(const void* data, std::size_t len) {
  return bb_parquet_hash_bytes(data, len);
}

// The sizing rules of sizing.h. parquet_safe, Filter::for_ndv's default, is
// the rule for filters that go into Parquet files (to_parquet_bytes): a power
// of two from 32 B to 128 MiB, the sizes every reader accepts.
enum class Sizing : int {
  parquet = BB_SIZE_PARQUET,            // any multiple of 32 bytes: raw bitsets
  parquet_pow2 = BB_SIZE_PARQUET_POW2,  // a power of two clamped at 128 MiB, as Arrow
  kudu = BB_SIZE_KUDU,                  // a power of two >= 64 B, with hash collisions
  parquet_safe = BB_SIZE_PARQUET_SAFE,  // a power of two; past 128 MiB an Error
};

// The smallest size of the given kind whose FPP for ndv is at most fpp
// (bb_bytes_for; Arrow's OptimalNumOfBytes).
inline std::size_t bytes_for(std::uint64_t ndv, double fpp, Sizing sizing = Sizing::parquet_safe) {
  std::size_t num_bytes = 0;
  detail::Check(bb_bytes_for(ndv, fpp, static_cast<bb_sizing>(sizing), &num_bytes));
  return num_bytes;
}

// Where a serialized Parquet filter's bitset lies (bb_parquet_header_read).
struct ParquetHeader {
  std::size_t header_bytes;  // the bitset starts here
  std::size_t num_bytes;     // and has this many bytes
};
inline ParquetHeader parquet_header(const void* data, std::size_t len) {
  ParquetHeader header{0, 0};
  detail::Check(bb_parquet_header_read(static_cast<const std::uint8_t*>(data), len,
                                       &header.header_bytes, &header.num_bytes));
  return header;
}

// The C++ classes of both layouts: one class template per role (a read-only
// view, a writable view, an owned filter) over a layout policy, as
// Boost.Bloom's filter is one template over its subfilter. A policy
// (ParquetLayout below, KuduLayout in kudu.hpp) names
//   hash_type             the hashes its filters take (64 or 32 bits);
//   id                    its bb_layout (a filter file of another is refused);
//   size_type             an owned filter's size argument (bytes, log2 bytes);
//   view_args, owner_args the constructor arguments after the bytes / the
//                         size, as a function type void(...);
//   init, init_with_allocator, init_view, init_view_readonly, insert,
//   insert_batch, build_from_hashes, build_from_hashes_partition, find,
//   find_batch_bitmap, find_batch_select, find_batch_select_from,
//   find_batch_bitmap_and, partition_hashes
//                         its C calls, each with the C signature;
//   Reads<Self>, Owns<Self>  its own members of the read-only view and of
//                         the owned filter (mixins over the class Self).
// So ConstView is BasicConstView<ParquetLayout> and KuduConstView is
// BasicConstView<KuduLayout>: the same code, the hash type the layout's, and
// a layout's own members (to_parquet_bytes, to_directory, ...) exist on its
// own classes only.
template <class Layout, class Args = typename Layout::view_args>
class BasicConstView;
template <class Layout, class Args = typename Layout::view_args>
class BasicView;
template <class Layout, class Args = typename Layout::owner_args>
class BasicFilter;

// A read-only view of a bitset the caller owns (any alignment). Copyable.
template <class Layout, class... ViewArgs>
class BasicConstView<Layout, void(ViewArgs...)>
    : public Layout::template Reads<BasicConstView<Layout>> {
 public:
  using layout_type = Layout;
  using hash_type = typename Layout::hash_type;

  // The bytes and, for Kudu, the always-false state and hash seed
  // (bb_filter_init_view_readonly, bb_kudu_filter_init_view_readonly).
  BasicConstView(const void* data, std::size_t num_bytes, ViewArgs... args) {
    detail::CheckSized(Layout::init_view_readonly(&filter_, data, num_bytes, args...), "a view",
                       std::to_string(num_bytes) + " bytes");
  }

  bool find(hash_type hash) const {
    const int found = Layout::find(&filter_, hash);
    detail::Check(found);
    return found > 0;
  }
  // Bitmap: (n + 7) / 8 bytes, LSB first. Returns the number of hits.
  std::size_t find_batch_bitmap(const hash_type* hashes, std::size_t n,
                                std::uint8_t* bitmap) const {
    return Hits(Layout::find_batch_bitmap, hashes, n, bitmap);
  }
  // Selection: room for n indices. Returns the number of hits.
  std::size_t find_batch_select(const hash_type* hashes, std::size_t n,
                                std::uint32_t* selection) const {
    return Hits(Layout::find_batch_select, hashes, n, selection);
  }
  // Pipeline probes (blockbloom.h). select_from tests hashes[sel_in[k]] for
  // k < m and writes the rows that may be present to sel_out (room for m;
  // may be sel_in itself). bitmap_and clears the bits of absent rows below n.
  // Both return the number of rows left.
  std::size_t find_batch_select_from(const hash_type* hashes, std::size_t n,
                                     const std::uint32_t* sel_in, std::size_t m,
                                     std::uint32_t* sel_out) const {
    return Hits(Layout::find_batch_select_from, hashes, n, sel_in, m, sel_out);
  }
  std::size_t find_batch_bitmap_and(const hash_type* hashes, std::size_t n,
                                    std::uint8_t* bitmap) const {
    return Hits(Layout::find_batch_bitmap_and, hashes, n, bitmap);
  }

  // Typed columns (column.h), hashed by the filter's layout: null rows are
  // never hits.
  std::size_t find_column_bitmap(const bb_column& col, std::uint8_t* bitmap) const {
    return Hits(bb_find_column_bitmap, &col, bitmap);
  }
  std::size_t find_column_select(const bb_column& col, std::uint32_t* selection) const {
    return Hits(bb_find_column_select, &col, selection);
  }

  // The radix partition of a multi-threaded build (bb_partition_hashes,
  // bb_kudu_partition_hashes): the hashes grouped by part of the filter's
  // blocks into out (room for n), counts[p] (num_parts entries) the size of
  // part p; then each thread inserts its own part with
  // BasicView::insert_batch (docs/concurrency.md).
  void partition_hashes(const hash_type* hashes, std::size_t n, std::uint32_t num_parts,
                        hash_type* out, std::size_t* counts) const {
    detail::Check(Layout::partition_hashes(&filter_, hashes, n, num_parts, out, counts));
  }

  // The expected FPP holding ndv distinct values (bb_fpp: the block model;
  // a Kudu filter's 32-bit hash collisions, ndv / 2^32, come on top), the
  // most distinct values it holds at an FPP of at most target_fpp
  // (bb_max_ndv_for with its layout's sizing, a Kudu filter's collisions
  // counted: bytes_for(max_ndv(p), p, Sizing::kudu or Sizing::parquet) is
  // no more than this filter's size), and the distinct values its bits
  // imply (bb_filter_estimate_ndv: +infinity when full, 0 while
  // always-false).
  double fpp(std::uint64_t ndv) const {
    double p = 0.0;
    detail::Check(bb_fpp(ndv, filter_.num_bytes, &p));
    return p;
  }
  std::uint64_t max_ndv(double target_fpp) const {
    std::uint64_t ndv = 0;
    const bb_sizing kind = filter_.layout == BB_LAYOUT_KUDU ? BB_SIZE_KUDU : BB_SIZE_PARQUET;
    detail::Check(bb_max_ndv_for(filter_.num_bytes, target_fpp, kind, &ndv));
    return ndv;
  }
  double estimated_ndv() const {
    double ndv = 0.0;
    detail::Check(bb_filter_estimate_ndv(&filter_, nullptr, &ndv));
    return ndv;
  }
  std::uint64_t bits_set() const {
    std::uint64_t bits = 0;
    double ndv = 0.0;
    detail::Check(bb_filter_estimate_ndv(&filter_, &bits, &ndv));
    return bits;
  }

  // The filter file (filter_file.h) of this filter: layout, size, seed,
  // state and bits, with what its values are and, when given, the sizing it
  // was built for (bb_filter_file_write). save writes it to path (replacing
  // it; Error BB_ERR_PARQUET_IO if that fails); BasicFilter::load reads it
  // back.
  std::vector<std::uint8_t> to_file_bytes(const ValueType& values,
                                          const bb_filter_file_sizing* sizing = nullptr) const {
    std::size_t n = 0;
    detail::Check(bb_filter_file_size(&filter_, &n));
    std::vector<std::uint8_t> out(n);
    std::size_t written = 0;
    detail::Check(bb_filter_file_write(&filter_, values.typed ? &values.type : nullptr, sizing,
                                       out.data(), out.size(), &written));
    return out;
  }
  void save(const std::string& path, const ValueType& values,
            const bb_filter_file_sizing* sizing = nullptr) const {
    const std::vector<std::uint8_t> bytes = to_file_bytes(values, sizing);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw Error(BB_ERR_PARQUET_IO);
  }

  const std::uint8_t* data() const noexcept { return filter_.data; }
  std::size_t num_bytes() const noexcept { return filter_.num_bytes; }
  std::uint32_t num_blocks() const noexcept { return filter_.num_blocks; }
  const bb_filter* c_filter() const noexcept { return &filter_; }

  // Same layout, size, seed, always-false state and bits (bb_filter_equal),
  // wherever they lie.
  friend bool operator==(const BasicConstView& a, const BasicConstView& b) {
    const int equal = bb_filter_equal(&a.filter_, &b.filter_);
    detail::Check(equal);
    return equal > 0;
  }
  friend bool operator!=(const BasicConstView& a, const BasicConstView& b) { return !(a == b); }

 protected:
  BasicConstView() = default;
  bb_filter filter_{};

 private:
  // A C probe's hit count: call(filter, args..., &hits), its status checked.
  template <class Call, class... Args>
  std::size_t Hits(Call call, Args... args) const {
    std::size_t hits = 0;
    detail::Check(call(&filter_, args..., &hits));
    return hits;
  }
};

// A writable view of a bitset the caller owns (any alignment). Copyable.
template <class Layout, class... ViewArgs>
class BasicView<Layout, void(ViewArgs...)> : public BasicConstView<Layout> {
  using Const = BasicConstView<Layout>;

 public:
  using hash_type = typename Layout::hash_type;

  // The bytes and, for Kudu, the always-false state and hash seed
  // (bb_filter_init_view, bb_kudu_filter_init_view).
  BasicView(void* data, std::size_t num_bytes, ViewArgs... args) {
    detail::CheckSized(Layout::init_view(&this->filter_, data, num_bytes, args...), "a view",
                       std::to_string(num_bytes) + " bytes");
  }

  void insert(hash_type hash) { detail::Check(Layout::insert(&this->filter_, hash)); }
  void insert_batch(const hash_type* hashes, std::size_t n) {
    detail::Check(Layout::insert_batch(&this->filter_, hashes, n));
  }
  // A whole build (bb_build_from_hashes, bb_kudu_build_from_hashes): the
  // bytes of insert_batch; from 1 GiB range by range through scratch (room
  // for n hashes; nullptr: n hashes from the filter's allocator for the
  // call), below that insert_batch.
  void build_from_hashes(const hash_type* hashes, std::size_t n, hash_type* scratch = nullptr) {
    detail::Check(Layout::build_from_hashes(&this->filter_, hashes, n, scratch));
  }
  // Thread `part` of `num_parts`'s share of that build
  // (bb_build_from_hashes_partition): one scratch for all the threads.
  void build_from_hashes_partition(const hash_type* hashes, std::size_t n, hash_type* scratch,
                                   std::uint32_t part, std::uint32_t num_parts) {
    detail::Check(
        Layout::build_from_hashes_partition(&this->filter_, hashes, n, scratch, part, num_parts));
  }

  // Typed columns (column.h), hashed by the filter's layout: the valid rows,
  // nulls left out.
  void insert_column(const bb_column& col) {
    detail::Check(bb_insert_column(&this->filter_, &col));
  }
  // Every bit back to 0, a Kudu filter always-false again (bb_filter_clear).
  void clear() { detail::Check(bb_filter_clear(&this->filter_)); }

  // Union (bit OR: per-worker filters become one) and intersection (AND)
  // with a filter or view of the same layout, size and (Kudu) hash seed
  // (bb_filter_union / _intersect; else Error BB_ERR_FILTER_MISMATCH naming
  // what differs and both values, this filter untouched; Kudu's
  // always-false state is honoured).
  BasicView& operator|=(const Const& other) {
    detail::Combine(bb_filter_union, &this->filter_, other.c_filter());
    return *this;
  }
  BasicView& operator&=(const Const& other) {
    detail::Combine(bb_filter_intersect, &this->filter_, other.c_filter());
    return *this;
  }

  using Const::data;
  std::uint8_t* data() noexcept { return this->filter_.data; }
  using Const::c_filter;  // const objects keep the const one
  bb_filter* c_filter() noexcept { return &this->filter_; }

 protected:
  BasicView() = default;
};

// Owns a zeroed, 64-byte-aligned bitset (a Kudu one always-false). Move-only.
// A moved-from filter (after construction from it or assignment from it)
// holds no bitset: its operations throw Error(BB_ERR_NULL_POINTER);
// assigning a filter to it makes it usable again.
template <class Layout, class... OwnerArgs>
class BasicFilter<Layout, void(OwnerArgs...)>
    : public BasicView<Layout>, public Layout::template Owns<BasicFilter<Layout>> {
 public:
  using size_type = typename Layout::size_type;

  // The size (Parquet: bytes; Kudu: log2 of the bytes, then the hash seed)
  // (bb_filter_init, bb_kudu_filter_init).
  explicit BasicFilter(size_type size, OwnerArgs... args) {
    detail::CheckSized(Layout::init(&this->filter_, size, args...), "a filter", Layout::size_text(size));
  }
  // The size alone where the layout takes more: the rest 0 (Kudu's seed).
  template <std::size_t N = sizeof...(OwnerArgs), std::enable_if_t<(N > 0), int> = 0>
  explicit BasicFilter(size_type size) : BasicFilter(size, OwnerArgs{}...) {}
  // The bitset from allocator (bb_filter_init_with_allocator), which must
  // outlive the filter and every copy_of it: hence no temporaries.
  BasicFilter(size_type size, OwnerArgs... args, const bb_allocator& allocator) {
    detail::CheckSized(Layout::init_with_allocator(&this->filter_, size, args..., &allocator), "a filter",
                       Layout::size_text(size));
  }
  BasicFilter(size_type size, OwnerArgs... args, const bb_allocator&& allocator) = delete;
  ~BasicFilter() { bb_filter_release(&this->filter_); }

  // A filter file (filter_file.h; BasicConstView::to_file_bytes, save) read
  // into an owned copy with its seed and always-false state, checked field
  // by field (bb_filter_file_read: a damaged or lying file throws its
  // BB_ERR_FILTER_FILE_* code; a file of the other layout
  // BB_ERR_LAYOUT_MISMATCH). *values and *sizing, when given, get what the
  // file says the values are and the sizing it was built for.
  static BasicFilter from_file_bytes(const void* data, std::size_t len,
                                     ValueType* values = nullptr,
                                     bb_filter_file_sizing* sizing = nullptr) {
    BasicFilter out;
    out.filter_ = detail::ReadFilterFile(data, len, Layout::id, values, sizing);
    return out;
  }
  static BasicFilter load(const std::string& path, ValueType* values = nullptr,
                          bb_filter_file_sizing* sizing = nullptr) {
    const std::vector<std::uint8_t> bytes = detail::ReadWholeFile(path);
    return from_file_bytes(bytes.data(), bytes.size(), values, sizing);
  }

  // An owned copy of any filter or view of the layout, from its allocator
  // (bb_filter_copy).
  static BasicFilter copy_of(const BasicConstView<Layout>& src) {
    BasicFilter copy;
    detail::Check(bb_filter_copy(&copy.filter_, src.c_filter()));
    return copy;
  }

  // Takes over the bitset a C call initialised *f with (bb_parquet_filter_read,
  // bb_parquet_file_load_filter, bb_kudu_import, ...), leaving *f zeroed: the
  // filter releases it.
  static BasicFilter adopt(bb_filter* f) noexcept {
    BasicFilter out;
    out.filter_ = *f;
    *f = bb_filter{};
    return out;
  }

  BasicFilter(BasicFilter&& other) noexcept { std::swap(this->filter_, other.filter_); }
  // Releases this bitset and takes other's, leaving other empty (not holding
  // this one's old bitset, as a swap would).
  BasicFilter& operator=(BasicFilter&& other) noexcept {
    if (this != &other) {
      bb_filter_release(&this->filter_);
      this->filter_ = other.filter_;
      other.filter_ = bb_filter{};
    }
    return *this;
  }
  BasicFilter(const BasicFilter&) = delete;  // a copy is explicit: copy_of
  BasicFilter& operator=(const BasicFilter&) = delete;

 private:
  BasicFilter() = default;
};

namespace detail {
// An owned filter of type Owned from a C call that initialises a bb_filter
// (status its result): adopted first, so that whatever the call left is
// released if the status is an error.
template <class Owned>
Owned Adopted(int status, bb_filter* f) {
  Owned out = Owned::adopt(f);
  Check(status);
  return out;
}
}  // namespace detail

// The Parquet layout (blockbloom.h): 64-bit hashes (XXH64), a bitset of any
// multiple of 32 bytes; its own members write and read Parquet's serialized
// filter (header + bitset).
struct ParquetLayout {
  using hash_type = std::uint64_t;
  using size_type = std::size_t;  // bytes
  using view_args = void();
  using owner_args = void();
  static constexpr std::uint32_t id = BB_LAYOUT_PARQUET;
  // A size as refusals name it.
  static std::string size_text(size_type bytes) { return std::to_string(bytes) + " bytes"; }
  static constexpr auto init = bb_filter_init;
  static constexpr auto init_with_allocator = bb_filter_init_with_allocator;
  static constexpr auto init_view = bb_filter_init_view;
  static constexpr auto init_view_readonly = bb_filter_init_view_readonly;
  static constexpr auto insert = bb_insert;
  static constexpr auto insert_batch = bb_insert_batch;
  static constexpr auto build_from_hashes = bb_build_from_hashes;
  static constexpr auto build_from_hashes_partition = bb_build_from_hashes_partition;
  static constexpr auto find = bb_find;
  static constexpr auto find_batch_bitmap = bb_find_batch_bitmap;
  static constexpr auto find_batch_select = bb_find_batch_select;
  static constexpr auto find_batch_select_from = bb_find_batch_select_from;
  static constexpr auto find_batch_bitmap_and = bb_find_batch_bitmap_and;
  static constexpr auto partition_hashes = bb_partition_hashes;

  template <class Self>
  class Reads {
   public:
    // Probes the bitset of a serialized Parquet filter (header + bitset, as
    // to_parquet_bytes writes it or a file holds it) where it lies, no copy.
    static Self parquet_in_place(const void* data, std::size_t len) {
      const ParquetHeader header = parquet_header(data, len);
      return Self(static_cast<const std::uint8_t*>(data) + header.header_bytes,
                  header.num_bytes);
    }

    // Header + bitset, as a Parquet file stores it (bb_parquet_filter_write):
    // the size must be one every reader accepts (a power of two, 32 B .. 128
    // MiB; else Error BB_ERR_PARQUET_UNSAFE_SIZE). _any_size writes the
    // others too, for readers such as DuckDB (bb_parquet_filter_write_any_size).
    std::vector<std::uint8_t> to_parquet_bytes() const {
      return ParquetBytes(bb_parquet_filter_write);
    }
    std::vector<std::uint8_t> to_parquet_bytes_any_size() const {
      return ParquetBytes(bb_parquet_filter_write_any_size);
    }

   private:
    using WriteFn = int (*)(const bb_filter*, std::uint8_t*, std::size_t, std::size_t*);
    std::vector<std::uint8_t> ParquetBytes(WriteFn write) const {
      const bb_filter* f = static_cast<const Self&>(*this).c_filter();
      std::vector<std::uint8_t> out(BB_PARQUET_HEADER_MAX_BYTES + f->num_bytes);
      std::size_t written = 0;
      detail::Check(write(f, out.data(), out.size(), &written));
      out.resize(written);
      return out;
    }
  };

  template <class Self>
  class Owns {
   public:
    // The smallest filter of the given kind whose FPP for ndv distinct values
    // is at most target_fpp (bytes_for; Arrow's OptimalNumOfBytes, then the
    // filter); ndv 0 (an empty build side) gives the smallest, 32 bytes.
    static Self for_ndv(std::uint64_t ndv, double target_fpp,
                        Sizing sizing = Sizing::parquet_safe) {
      return Self(bytes_for(ndv, target_fpp, sizing));
    }

    // A serialized Parquet filter (header + bitset) read into an owned,
    // aligned copy (bb_parquet_filter_read); *consumed (if given) gets header
    // + bitset length. To probe it where it lies instead:
    // ConstView::parquet_in_place.
    static Self from_parquet_bytes(const void* data, std::size_t len,
                                   std::size_t* consumed = nullptr) {
      bb_filter f{};
      const int status =
          bb_parquet_filter_read(&f, static_cast<const std::uint8_t*>(data), len, consumed);
      return detail::Adopted<Self>(status, &f);
    }
  };
};

// The Parquet layout's classes. The Kudu layout's, the same templates over
// KuduLayout, are in kudu.hpp.
using ConstView = BasicConstView<ParquetLayout>;
using View = BasicView<ParquetLayout>;
using Filter = BasicFilter<ParquetLayout>;

// ISA selection (see blockbloom.h).
inline std::string selected_isa() { return bb_selected_isa(); }
inline void select_isa(const std::string& name) { detail::Check(bb_select_isa(name.c_str())); }

}  // namespace blockbloom

#endif  // BLOCKBLOOM_BLOCKBLOOM_HPP_
