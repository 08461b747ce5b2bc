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
// The Kudu layout has the same surface in blockbloom/kudu.hpp.
//
// Errors (bad sizes, null pointers, out of memory) throw blockbloom::Error,
// which carries the bb_status code. Every operation (insert, insert_batch,
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

// Equality and a move that leaves the source empty, for both layouts'
// classes (here and kudu.hpp).
inline bool Equal(const bb_filter& a, const bb_filter& b) {
  const int equal = bb_filter_equal(&a, &b);
  Check(equal);
  return equal > 0;
}
// Releases dst's bitset and takes src's, leaving src empty (not holding
// dst's old bitset, as a swap would).
inline void MoveAssign(bb_filter& dst, bb_filter& src) noexcept {
  if (&dst == &src) return;
  bb_filter_release(&dst);
  dst = src;
  src = bb_filter{};
}

// What a view of either layout (ConstView here, KuduConstView in kudu.hpp)
// asks the C library the same way, the layout being the filter's own.
class ViewBase {
 public:
  // Typed columns (column.h), hashed by the filter's layout: null rows are
  // never hits.
  std::size_t find_column_bitmap(const bb_column& col, std::uint8_t* bitmap) const {
    std::size_t hits = 0;
    Check(bb_find_column_bitmap(&filter_, &col, bitmap, &hits));
    return hits;
  }
  std::size_t find_column_select(const bb_column& col, std::uint32_t* selection) const {
    std::size_t hits = 0;
    Check(bb_find_column_select(&filter_, &col, selection, &hits));
    return hits;
  }

  // The expected FPP holding ndv distinct values (bb_fpp: the block model;
  // a Kudu filter's 32-bit hash collisions, ndv / 2^32, come on top), the
  // most distinct values it holds at an FPP of at most target_fpp
  // (bb_max_ndv_for with its layout's sizing, a Kudu filter's collisions
  // counted: bytes_for(max_ndv(p), p, Sizing::kudu or Sizing::parquet) is
  // no more than this filter's size), and the distinct values its bits imply (bb_filter_estimate_ndv: +infinity when
  // full, 0 while always-false).
  double fpp(std::uint64_t ndv) const {
    double p = 0.0;
    Check(bb_fpp(ndv, filter_.num_bytes, &p));
    return p;
  }
  std::uint64_t max_ndv(double target_fpp) const {
    std::uint64_t ndv = 0;
    const bb_sizing kind = filter_.layout == BB_LAYOUT_KUDU ? BB_SIZE_KUDU : BB_SIZE_PARQUET;
    Check(bb_max_ndv_for(filter_.num_bytes, target_fpp, kind, &ndv));
    return ndv;
  }
  double estimated_ndv() const {
    double ndv = 0.0;
    Check(bb_filter_estimate_ndv(&filter_, nullptr, &ndv));
    return ndv;
  }
  std::uint64_t bits_set() const {
    std::uint64_t bits = 0;
    double ndv = 0.0;
    Check(bb_filter_estimate_ndv(&filter_, &bits, &ndv));
    return bits;
  }

  // The filter file (filter_file.h) of this filter: layout, size, seed,
  // state and bits, with what its values are and, when given, the sizing it
  // was built for (bb_filter_file_write). save writes it to path (replacing
  // it; Error BB_ERR_PARQUET_IO if that fails); Filter::load and
  // KuduFilter::load read it back.
  std::vector<std::uint8_t> to_file_bytes(const ValueType& values,
                                          const bb_filter_file_sizing* sizing = nullptr) const {
    std::size_t n = 0;
    Check(bb_filter_file_size(&filter_, &n));
    std::vector<std::uint8_t> out(n);
    std::size_t written = 0;
    Check(bb_filter_file_write(&filter_, values.typed ? &values.type : nullptr, sizing,
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

 protected:
  ViewBase() = default;
  bb_filter filter_{};
};

// The writes of either layout's writable view (Self: View or KuduView) that
// take any layout; Const is the read-only view of the same layout, so a
// union never mixes layouts.
template <typename Self, typename Const>
class Writable : public Const {
 public:
  // Typed columns (column.h), hashed by the filter's layout: the valid rows,
  // nulls left out.
  void insert_column(const bb_column& col) { Check(bb_insert_column(&this->filter_, &col)); }
  // Every bit back to 0, a Kudu filter always-false again (bb_filter_clear).
  void clear() { Check(bb_filter_clear(&this->filter_)); }

  // Union (bit OR: per-worker filters become one) and intersection (AND)
  // with a filter or view of the same layout, size and (Kudu) hash seed
  // (bb_filter_union / _intersect; else Error BB_ERR_FILTER_MISMATCH naming
  // what differs and both values, this filter untouched; Kudu's
  // always-false state is honoured).
  Self& operator|=(const Const& other) {
    Combine(bb_filter_union, &this->filter_, other.c_filter());
    return static_cast<Self&>(*this);
  }
  Self& operator&=(const Const& other) {
    Combine(bb_filter_intersect, &this->filter_, other.c_filter());
    return static_cast<Self&>(*this);
  }

  using Const::data;
  std::uint8_t* data() noexcept { return this->filter_.data; }
  using Const::c_filter;  // const objects keep the const one
  bb_filter* c_filter() noexcept { return &this->filter_; }

 protected:
  Writable() = default;
};
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

// A read-only view of a bitset the caller owns (any alignment). Copyable.
// The column probes, sizing questions (fpp, max_ndv, estimated_ndv,
// bits_set) and observers are detail::ViewBase's (both layouts').
class ConstView : public detail::ViewBase {
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

  // The radix partition of a multi-threaded build (bb_partition_hashes): the
  // hashes grouped by part of the filter's blocks into out (room for n),
  // counts[p] (num_parts entries) the size of part p; then each thread
  // inserts its own part with View::insert_batch (docs/concurrency.md).
  void partition_hashes(const std::uint64_t* hashes, std::size_t n, std::uint32_t num_parts,
                        std::uint64_t* out, std::size_t* counts) const {
    detail::Check(bb_partition_hashes(&filter_, hashes, n, num_parts, out, counts));
  }

  // Same layout, size, seed and bits (bb_filter_equal), wherever they lie.
  friend bool operator==(const ConstView& a, const ConstView& b) {
    return detail::Equal(a.filter_, b.filter_);
  }
  friend bool operator!=(const ConstView& a, const ConstView& b) { return !(a == b); }

  // Probes the bitset of a serialized Parquet filter (header + bitset, as
  // to_parquet_bytes writes it or a file holds it) where it lies, no copy.
  static ConstView parquet_in_place(const void* data, std::size_t len) {
    const ParquetHeader header = parquet_header(data, len);
    return ConstView(static_cast<const std::uint8_t*>(data) + header.header_bytes,
                     header.num_bytes);
  }

  // Header + bitset, as a Parquet file stores it (bb_parquet_filter_write):
  // the size must be one every reader accepts (a power of two, 32 B .. 128
  // MiB; else Error BB_ERR_PARQUET_UNSAFE_SIZE). _any_size writes the others
  // too, for readers such as DuckDB (bb_parquet_filter_write_any_size).
  std::vector<std::uint8_t> to_parquet_bytes() const {
    return ParquetBytes(bb_parquet_filter_write);
  }
  std::vector<std::uint8_t> to_parquet_bytes_any_size() const {
    return ParquetBytes(bb_parquet_filter_write_any_size);
  }

 protected:
  ConstView() = default;

 private:
  using WriteFn = int (*)(const bb_filter*, std::uint8_t*, std::size_t, std::size_t*);
  std::vector<std::uint8_t> ParquetBytes(WriteFn write) const {
    std::vector<std::uint8_t> out(BB_PARQUET_HEADER_MAX_BYTES + filter_.num_bytes);
    std::size_t written = 0;
    detail::Check(write(&filter_, out.data(), out.size(), &written));
    out.resize(written);
    return out;
  }
};

// A writable view of a bitset the caller owns (any alignment). Copyable.
// insert_column, clear, |= and &= are detail::Writable's (both layouts').
class View : public detail::Writable<View, ConstView> {
 public:
  View(void* data, std::size_t num_bytes) {
    detail::Check(bb_filter_init_view(&filter_, data, num_bytes));
  }

  void insert(std::uint64_t hash) { detail::Check(bb_insert(&filter_, hash)); }
  void insert_batch(const std::uint64_t* hashes, std::size_t n) {
    detail::Check(bb_insert_batch(&filter_, hashes, n));
  }
  // A whole build (bb_build_from_hashes): the bytes of insert_batch; from 1
  // GiB range by range through scratch (room for n hashes; nullptr: n hashes
  // from the filter's allocator for the call), below that insert_batch.
  void build_from_hashes(const std::uint64_t* hashes, std::size_t n,
                         std::uint64_t* scratch = nullptr) {
    detail::Check(bb_build_from_hashes(&filter_, hashes, n, scratch));
  }
  // Thread `part` of `num_parts`'s share of that build
  // (bb_build_from_hashes_partition): one scratch for all the threads.
  void build_from_hashes_partition(const std::uint64_t* hashes, std::size_t n,
                                   std::uint64_t* scratch, std::uint32_t part,
                                   std::uint32_t num_parts) {
    detail::Check(bb_build_from_hashes_partition(&filter_, hashes, n, scratch, part, num_parts));
  }

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

  // The smallest filter of the given kind whose FPP for ndv distinct values
  // is at most target_fpp (bytes_for; Arrow's OptimalNumOfBytes, then the
  // filter); ndv 0 (an empty build side) gives the smallest, 32 bytes.
  static Filter for_ndv(std::uint64_t ndv, double target_fpp,
                        Sizing sizing = Sizing::parquet_safe) {
    return Filter(bytes_for(ndv, target_fpp, sizing));
  }

  // A serialized Parquet filter (header + bitset) read into an owned, aligned
  // copy (bb_parquet_filter_read); *consumed (if given) gets header + bitset
  // length. To probe it where it lies instead: ConstView::parquet_in_place.
  static Filter from_parquet_bytes(const void* data, std::size_t len,
                                   std::size_t* consumed = nullptr) {
    Filter out;
    detail::Check(
        bb_parquet_filter_read(&out.filter_, static_cast<const std::uint8_t*>(data), len, consumed));
    return out;
  }

  // A filter file (filter_file.h; ViewBase::to_file_bytes, save) read into
  // an owned copy, checked field by field (bb_filter_file_read: a damaged or
  // lying file throws its BB_ERR_FILTER_FILE_* code; a Kudu file
  // BB_ERR_LAYOUT_MISMATCH: KuduFilter::load reads those). *values and
  // *sizing, when given, get what the file says the values are and the
  // sizing it was built for.
  static Filter from_file_bytes(const void* data, std::size_t len, ValueType* values = nullptr,
                                bb_filter_file_sizing* sizing = nullptr) {
    Filter out;
    out.filter_ = detail::ReadFilterFile(data, len, BB_LAYOUT_PARQUET, values, sizing);
    return out;
  }
  static Filter load(const std::string& path, ValueType* values = nullptr,
                     bb_filter_file_sizing* sizing = nullptr) {
    const std::vector<std::uint8_t> bytes = detail::ReadWholeFile(path);
    return from_file_bytes(bytes.data(), bytes.size(), values, sizing);
  }

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
    detail::MoveAssign(filter_, other.filter_);
    return *this;
  }
  Filter(const Filter&) = delete;  // a copy is explicit: copy_of
  Filter& operator=(const Filter&) = delete;

  // Takes over the bitset a C call initialised *f with (bb_parquet_filter_read,
  // bb_parquet_file_load_filter, bb_kudu_import, ...), leaving *f zeroed: the
  // Filter releases it.
  static Filter adopt(bb_filter* f) noexcept {
    Filter out;
    out.filter_ = *f;
    *f = bb_filter{};
    return out;
  }

 private:
  Filter() = default;
};

// ISA selection (see blockbloom.h).
inline std::string selected_isa() { return bb_selected_isa(); }
inline void select_isa(const std::string& name) { detail::Check(bb_select_isa(name.c_str())); }

}  // namespace blockbloom

#endif  // BLOCKBLOOM_BLOCKBLOOM_HPP_
