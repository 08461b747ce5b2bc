// SPDX-License-Identifier: Apache-2.0
// blockbloom over the Arrow C Data Interface: insert / probe an ArrowArray
// (with its ArrowSchema) as the typed column (column.h) it is, header-only and
// without any Arrow library. The structs are declared as the spec declares
// them, under the spec's own guard, so this header and Arrow's abi.h (or
// nanoarrow's) can be included in either order.
//
//   bb_filter* f = ...;  ArrowSchema s;  ArrowArray a;   // from any producer
//   int st = blockbloom::arrow::insert(f, &s, &a);       // nulls left out
//   st = blockbloom::arrow::find_bitmap(f, &s, &a, bitmap, &hits);
//   hits = blockbloom::arrow::find_select(view, s, a, selection);  // C++ API: throws Error
//
// Every value is hashed by the typed-column call of its type, so an Arrow
// array and the same values given to bb_insert_column give the same filter:
//   c C s S i I l L  int8 .. uint64      f g   float32, float64
//   tdD tdm          date32, date64      tts ttm ttu ttn  time32 / time64 as held
//   ts?:tz           timestamp as held   w:N   fixed-size binary (FLBA, N bytes)
//   z u              binary / utf8 (int32 offsets)   Z U  large (int64 offsets)
//   vz vu            binary / string views (gathered, then as byte arrays)
//   d:P,S[,BW]       decimals: Kudu filters only, as the cell Kudu keeps for
//                    the precision (P <= 9: DECIMAL32, the int32 unscaled
//                    value; <= 18: DECIMAL64, int64; <= 38: DECIMAL128, 16
//                    little-endian bytes), whatever BW (32/64/128/256).
//                    Parquet filters refuse them: a Parquet writer stores a
//                    decimal big-endian in a width (or INT32/INT64) of its
//                    choosing, so the Arrow bytes would hash as a value no file
//                    holds (docs/formats.md, "Decimals").
// A dictionary-encoded array (indices of any integer type) is hashed by value:
// its rows are gathered from the dictionary, a row being null if its index or
// its dictionary entry is. Offsets apply as Arrow says: array->offset to the
// values, the validity bits and the string offsets; a dictionary's own offset
// to its entries.
//
// Refusals (nothing inserted or written):
//   a NULL filter, schema or array                          BB_ERR_NULL_POINTER
//   a format not listed above (boolean, float16, duration,
//     interval, nested types, decimals of P > 38 or in Parquet) BB_ERR_ARROW_UNSUPPORTED_TYPE
//   a released array/schema, negative length / offset, the wrong
//     n_buffers, a buffer NULL where rows need it, offsets
//     negative / decreasing, a view past its buffer            BB_ERR_ARROW_MALFORMED
//   a valid row's dictionary index outside the dictionary    BB_ERR_ARROW_DICTIONARY_INDEX
// then whatever the typed-column call refuses (a read-only view, a type the
// layout has no meaning for: Kudu and unsigned or time types, ...).

// Before C++17: one clear #error and the rest skipped (see blockbloom.hpp).
#if !defined(__cplusplus) || \
    (__cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#ifndef BLOCKBLOOM_PRE_CXX17_REPORTED_
#define BLOCKBLOOM_PRE_CXX17_REPORTED_
#error "arrow.hpp needs C++17 or later (the C API, column.h, works from C and any C++)"
#endif
#define BLOCKBLOOM_ARROW_HPP_
#endif

#ifndef BLOCKBLOOM_ARROW_HPP_
#define BLOCKBLOOM_ARROW_HPP_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/blockbloom.hpp"
#include "blockbloom/column.h"

// The Arrow C Data Interface, exactly as its specification declares it.
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS 4

extern "C" {
struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};
}  // extern "C"

#endif  // ARROW_C_DATA_INTERFACE

namespace blockbloom {
namespace arrow {

// What a (non-dictionary) Arrow format is as a typed column.
struct ValueKind {
  std::uint32_t type = 0;  // bb_column_type; 0 = unsupported
  std::size_t width = 0;   // bytes per value hashed (fixed-width types)
  std::size_t stride = 0;  // bytes per Arrow value: width, but for decimals narrowed to Kudu's cell
  bool view = false;       // vz / vu: 16-byte views over variadic buffers
};

namespace detail {

inline bool Is(const char* format, const char* name) { return std::strcmp(format, name) == 0; }

// "N[,N...]": at most `max` comma-separated decimal integers, each at most
// 10^6 and, but for field `may_be_negative` (a decimal's scale), not negative.
// Returns how many, 0 if the text is anything else.
inline std::size_t Numbers(const char* p, std::size_t* out, std::size_t max, std::size_t may_be_negative) {
  for (std::size_t count = 0; count < max;) {
    if (*p == '-' && count == may_be_negative) ++p;
    if (*p < '0' || *p > '9') return 0;
    std::size_t n = 0;
    for (; *p >= '0' && *p <= '9'; ++p) {
      if (n > 1000000) return 0;
      n = n * 10 + static_cast<std::size_t>(*p - '0');
    }
    out[count++] = n;
    if (*p == '\0') return count;
    if (*p++ != ',') return 0;
  }
  return 0;
}

// "w:N" -> N (0 if not a positive decimal number).
inline std::size_t FixedWidth(const char* digits) {
  std::size_t n = 0;
  return Numbers(digits, &n, 1, 1) == 1 ? n : 0;
}

// Kudu's cell bytes for an Arrow decimal "P,S" or "P,S,BW" (BW 128 when
// absent): 4, 8 or 16 by the precision (DECIMAL32 / 64 / 128, as Kudu picks
// it); 0 if Kudu has none (P > 38), the spec is malformed, or P does not fit
// BW. *arrow_bytes: BW / 8.
inline std::size_t KuduDecimalCell(const char* spec, std::size_t* arrow_bytes) {
  std::size_t f[3] = {0, 0, 128};
  const std::size_t n = Numbers(spec, f, 3, 1);
  const std::size_t precision = f[0], bits = f[2];
  if (n < 2 || (bits != 32 && bits != 64 && bits != 128 && bits != 256)) return 0;
  const std::size_t cell = precision == 0 ? 0 : precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 0;
  *arrow_bytes = bits / 8;
  return cell <= *arrow_bytes ? cell : 0;
}

}  // namespace detail

// The typed column a format is hashed as in a filter of `layout` (bb_layout).
inline ValueKind kind_of(const char* format, std::uint32_t layout) {
  using detail::Is;
  ValueKind k;
  struct Simple {
    const char* format;
    std::uint32_t type;
    std::size_t width;
  };
  static const Simple kSimple[] = {
      {"c", BB_TYPE_INT8, 1},     {"C", BB_TYPE_UINT8, 1},   {"s", BB_TYPE_INT16, 2},
      {"S", BB_TYPE_UINT16, 2},   {"i", BB_TYPE_INT32, 4},   {"I", BB_TYPE_UINT32, 4},
      {"l", BB_TYPE_INT64, 8},    {"L", BB_TYPE_UINT64, 8},  {"f", BB_TYPE_FLOAT, 4},
      {"g", BB_TYPE_DOUBLE, 8},   {"tdD", BB_TYPE_DATE32, 4}, {"tdm", BB_TYPE_DATE64, 8},
      {"tts", BB_TYPE_TIME32, 4}, {"ttm", BB_TYPE_TIME32, 4}, {"ttu", BB_TYPE_TIME64, 8},
      {"ttn", BB_TYPE_TIME64, 8}, {"z", BB_TYPE_BYTE_ARRAY, 0}, {"u", BB_TYPE_BYTE_ARRAY, 0},
      {"Z", BB_TYPE_LARGE_BYTE_ARRAY, 0}, {"U", BB_TYPE_LARGE_BYTE_ARRAY, 0},
      {"vz", BB_TYPE_LARGE_BYTE_ARRAY, 0}, {"vu", BB_TYPE_LARGE_BYTE_ARRAY, 0}};
  if (format == nullptr) return k;
  for (const Simple& s : kSimple) {
    if (Is(format, s.format)) {
      k.type = s.type;
      k.width = k.stride = s.width;
      k.view = format[0] == 'v';
      return k;
    }
  }
  // Timestamps: "ts" + unit + ":" + time zone (possibly empty).
  if (std::strncmp(format, "ts", 2) == 0 && format[2] != '\0' && std::strchr("smun", format[2]) != nullptr &&
      format[3] == ':') {
    k.type = BB_TYPE_TIMESTAMP;
    k.width = k.stride = 8;
    return k;
  }
  if (std::strncmp(format, "w:", 2) == 0) {
    const std::size_t width = detail::FixedWidth(format + 2);
    if (width != 0) {
      k.type = BB_TYPE_FIXED_LEN_BYTE_ARRAY;
      k.width = k.stride = width;
    }
    return k;
  }
  // Decimals: Kudu's cell is the unscaled value in 4, 8 or 16 bytes by the
  // precision, whatever Arrow's width (a decimal128(5, 2) is a DECIMAL32 cell).
  if (std::strncmp(format, "d:", 2) == 0 && layout == BB_LAYOUT_KUDU) {
    std::size_t arrow_bytes = 0;
    switch (detail::KuduDecimalCell(format + 2, &arrow_bytes)) {
      case 4: k.type = BB_TYPE_INT32; k.width = 4; k.stride = arrow_bytes; break;
      case 8: k.type = BB_TYPE_INT64; k.width = 8; k.stride = arrow_bytes; break;
      case 16: k.type = BB_TYPE_FIXED_LEN_BYTE_ARRAY; k.width = 16; k.stride = arrow_bytes; break;
      default: break;
    }
  }
  return k;
}

namespace detail {

inline bool Bit(const std::uint8_t* bits, std::size_t i) { return ((bits[i / 8] >> (i % 8)) & 1u) != 0; }

// One non-dictionary array, checked, as a readable column: its rows are
// [0, length), row i at Arrow position offset + i.
class Values {
 public:
  int Open(const ArrowSchema* s, const ArrowArray* a, std::uint32_t layout) {
    if (s->release == nullptr || a->release == nullptr || s->format == nullptr) return BB_ERR_ARROW_MALFORMED;
    kind_ = kind_of(s->format, layout);
    if (kind_.type == 0) return BB_ERR_ARROW_UNSUPPORTED_TYPE;
    if (a->length < 0 || a->offset < 0 || a->n_buffers < 0 || (a->n_buffers > 0 && a->buffers == nullptr)) {
      return BB_ERR_ARROW_MALFORMED;
    }
    length_ = static_cast<std::size_t>(a->length);
    offset_ = static_cast<std::size_t>(a->offset);
    if (length_ > SIZE_MAX / 32 - offset_) return BB_ERR_ARROW_MALFORMED;  // positions * 16-byte views fit
    const bool byte_array = kind_.width == 0;
    if (kind_.view ? a->n_buffers < 3 : a->n_buffers != (byte_array ? 3 : 2)) return BB_ERR_ARROW_MALFORMED;
    validity_ = static_cast<const std::uint8_t*>(a->buffers[0]);
    if (validity_ == nullptr && a->null_count > 0) return BB_ERR_ARROW_MALFORMED;
    if (length_ == 0) return BB_OK;  // no buffer is read
    if (a->buffers[1] == nullptr) return BB_ERR_ARROW_MALFORMED;
    if (kind_.view) return OpenViews(a);
    if (!byte_array) {
      if (offset_ > SIZE_MAX / kind_.stride - length_) return BB_ERR_ARROW_MALFORMED;
      values_ = static_cast<const std::uint8_t*>(a->buffers[1]) + offset_ * kind_.stride;
      return BB_OK;
    }
    return OpenOffsets(a);
  }

  const ValueKind& kind() const { return kind_; }
  std::size_t length() const { return length_; }
  bool valid(std::size_t i) const { return validity_ == nullptr || Bit(validity_, offset_ + i); }

  // The rows as one bb_column, read in place (when in_place()).
  bb_column column() const {
    bb_column c = BB_COLUMN_INIT;
    c.type = kind_.type;
    c.length = length_;
    if (kind_.width != 0) {
      c.width = kind_.width;
      c.values = values_;
    } else {
      c.offsets = offsets_;
      c.data = data_len_ != 0 ? data_ : nullptr;
      c.data_len = data_len_;
    }
    c.validity = validity_;
    c.validity_offset = offset_;
    return c;
  }

  // The rows as one bb_column in place: not views, nor values narrowed.
  bool in_place() const { return !kind_.view && kind_.stride == kind_.width; }

  // Row i's `width` bytes: for a narrowed decimal the low-order ones of its
  // native-endian (Arrow's) value, which hold it (its precision fits the cell).
  const std::uint8_t* fixed(std::size_t i) const {
    const std::uint16_t one = 1;
    std::uint8_t first_byte;
    std::memcpy(&first_byte, &one, 1);
    const std::size_t low = first_byte == 1 ? 0 : kind_.stride - kind_.width;
    return values_ + i * kind_.stride + low;
  }

  // Row i's bytes (byte arrays and views); false if a view points outside its buffer.
  bool bytes(std::size_t i, const std::uint8_t** p, std::size_t* n) const {
    if (kind_.view) return View(i, p, n);
    std::int64_t lo, hi;
    Offsets(i, &lo, &hi);
    *p = data_ + lo;
    *n = static_cast<std::size_t>(hi - lo);
    return true;
  }

 private:
  // Offsets: Arrow gives no data length, so the last offset is it.
  int OpenOffsets(const ArrowArray* a) {
    data_ = static_cast<const std::uint8_t*>(a->buffers[2]);
    std::int64_t first, last;
    if (kind_.type == BB_TYPE_BYTE_ARRAY) {
      const std::int32_t* o = static_cast<const std::int32_t*>(a->buffers[1]) + offset_;
      std::int32_t f32, l32;
      std::memcpy(&f32, o, sizeof f32);
      std::memcpy(&l32, o + length_, sizeof l32);
      first = f32;
      last = l32;
      offsets_ = o;
    } else {
      const std::int64_t* o = static_cast<const std::int64_t*>(a->buffers[1]) + offset_;
      std::memcpy(&first, o, sizeof first);
      std::memcpy(&last, o + length_, sizeof last);
      offsets_ = o;
    }
    if (first < 0 || last < first) return BB_ERR_ARROW_MALFORMED;
    data_len_ = static_cast<std::size_t>(last);
    if (data_len_ != 0 && data_ == nullptr) return BB_ERR_ARROW_MALFORMED;
    // Every offset in 0 .. last, non-decreasing, or a row could read outside
    // the data when gathered: checked once here rather than per row.
    for (std::size_t i = 0; i < length_; ++i) {
      std::int64_t lo, hi;
      Offsets(i, &lo, &hi);
      if (lo < 0 || hi < lo || hi > last) return BB_ERR_ARROW_MALFORMED;
    }
    return BB_OK;
  }

  // Row i's offsets (int32 or int64, any alignment).
  void Offsets(std::size_t i, std::int64_t* lo, std::int64_t* hi) const {
    if (kind_.type == BB_TYPE_BYTE_ARRAY) {
      std::int32_t o[2];
      std::memcpy(o, static_cast<const std::int32_t*>(offsets_) + i, sizeof o);
      *lo = o[0];
      *hi = o[1];
    } else {
      std::int64_t o[2];
      std::memcpy(o, static_cast<const std::int64_t*>(offsets_) + i, sizeof o);
      *lo = o[0];
      *hi = o[1];
    }
  }

  // Views: buffers are validity, views, the variadic data buffers, then their
  // int64 sizes. Every valid row's view is checked against its buffer.
  int OpenViews(const ArrowArray* a) {
    views_ = static_cast<const std::uint8_t*>(a->buffers[1]) + offset_ * 16;
    num_variadic_ = static_cast<std::size_t>(a->n_buffers - 3);
    variadic_ = a->buffers + 2;
    sizes_ = static_cast<const std::int64_t*>(a->buffers[a->n_buffers - 1]);
    if (num_variadic_ != 0 && sizes_ == nullptr) return BB_ERR_ARROW_MALFORMED;
    for (std::size_t i = 0; i < length_; ++i) {
      const std::uint8_t* p;
      std::size_t n;
      if (valid(i) && !View(i, &p, &n)) return BB_ERR_ARROW_MALFORMED;
    }
    return BB_OK;
  }

  bool View(std::size_t i, const std::uint8_t** p, std::size_t* n) const {
    const std::uint8_t* v = views_ + i * 16;
    std::int32_t len, index, offset;
    std::memcpy(&len, v, 4);
    if (len < 0) return false;
    *n = static_cast<std::size_t>(len);
    if (len <= 12) {  // inline: the bytes follow the length
      *p = v + 4;
      return true;
    }
    std::memcpy(&index, v + 8, 4);
    std::memcpy(&offset, v + 12, 4);
    if (index < 0 || static_cast<std::size_t>(index) >= num_variadic_ || offset < 0) return false;
    std::int64_t size;
    std::memcpy(&size, sizes_ + index, sizeof size);
    const void* buffer = variadic_[index];
    if (buffer == nullptr || static_cast<std::int64_t>(offset) + len > size) return false;
    *p = static_cast<const std::uint8_t*>(buffer) + offset;
    return true;
  }

  ValueKind kind_;
  std::size_t length_ = 0;
  std::size_t offset_ = 0;
  const std::uint8_t* validity_ = nullptr;
  const std::uint8_t* values_ = nullptr;
  const void* offsets_ = nullptr;
  const std::uint8_t* data_ = nullptr;
  std::size_t data_len_ = 0;
  const std::uint8_t* views_ = nullptr;
  const void* const* variadic_ = nullptr;
  std::size_t num_variadic_ = 0;
  const std::int64_t* sizes_ = nullptr;
};

// Dictionary indices: any integer type, read as int64 (uint64 above
// INT64_MAX is out of range anyway).
class Indices {
 public:
  int Open(const ArrowSchema* s, const ArrowArray* a) {
    static const char kFormats[] = "cCsSiIlL";
    static const std::size_t kWidths[] = {1, 1, 2, 2, 4, 4, 8, 8};
    if (s->format == nullptr) return BB_ERR_ARROW_MALFORMED;
    const char* at = s->format[0] != '\0' && s->format[1] == '\0' ? std::strchr(kFormats, s->format[0]) : nullptr;
    if (at == nullptr) return BB_ERR_ARROW_UNSUPPORTED_TYPE;  // dictionary indices must be integers
    const std::size_t k = static_cast<std::size_t>(at - kFormats);
    width_ = kWidths[k];
    signed_ = k % 2 == 0;
    if (a->length < 0 || a->offset < 0 || a->n_buffers != 2 || a->buffers == nullptr) return BB_ERR_ARROW_MALFORMED;
    length_ = static_cast<std::size_t>(a->length);
    offset_ = static_cast<std::size_t>(a->offset);
    if (offset_ > SIZE_MAX / 8 - length_) return BB_ERR_ARROW_MALFORMED;
    validity_ = static_cast<const std::uint8_t*>(a->buffers[0]);
    if (validity_ == nullptr && a->null_count > 0) return BB_ERR_ARROW_MALFORMED;
    values_ = static_cast<const std::uint8_t*>(a->buffers[1]);
    if (length_ != 0 && values_ == nullptr) return BB_ERR_ARROW_MALFORMED;
    return BB_OK;
  }
  std::size_t length() const { return length_; }
  bool valid(std::size_t i) const { return validity_ == nullptr || Bit(validity_, offset_ + i); }
  // Row i's index; false if it is outside 0 .. size - 1.
  bool index(std::size_t i, std::size_t size, std::size_t* out) const {
    const std::uint8_t* p = values_ + (offset_ + i) * width_;
    std::uint64_t u = 0;
    std::int64_t v = 0;
    switch (width_) {
      case 1: Read<std::int8_t, std::uint8_t>(p, &v, &u); break;
      case 2: Read<std::int16_t, std::uint16_t>(p, &v, &u); break;
      case 4: Read<std::int32_t, std::uint32_t>(p, &v, &u); break;
      default: Read<std::int64_t, std::uint64_t>(p, &v, &u); break;
    }
    if (signed_) {
      if (v < 0) return false;
      u = static_cast<std::uint64_t>(v);
    }
    if (u >= size) return false;
    *out = static_cast<std::size_t>(u);
    return true;
  }

 private:
  // The index at p read as its signed and as its unsigned type (any alignment).
  template <class Signed, class Unsigned>
  static void Read(const std::uint8_t* p, std::int64_t* v, std::uint64_t* u) {
    Signed s;
    Unsigned w;
    std::memcpy(&s, p, sizeof s);
    std::memcpy(&w, p, sizeof w);
    *v = s;
    *u = w;
  }

  std::size_t width_ = 0;
  bool signed_ = false;
  std::size_t length_ = 0;
  std::size_t offset_ = 0;
  const std::uint8_t* validity_ = nullptr;
  const std::uint8_t* values_ = nullptr;
};

// Rows go to the library kChunk at a time when they must be gathered
// (dictionaries, views, narrowed decimals); a multiple of 8, so each chunk's bitmap starts on a byte.
constexpr std::size_t kChunk = 4096;

// Rows [first, first + count) gathered into contiguous buffers: fixed-width
// values as their own type, bytes as a LARGE_BYTE_ARRAY (hashed as the same
// bytes as BYTE_ARRAY, column.h), a null row holding no bytes.
class Gathered {
 public:
  // source(i, &row): the values' row for row i, or false for a null row;
  // returns a negative status on a bad index.
  template <class Source>
  int Fill(const Values& v, std::size_t first, std::size_t count, Source source) {
    const ValueKind& k = v.kind();
    validity_.assign((count + 7) / 8, 0);
    if (k.width != 0) {
      fixed_.assign(count * k.width, 0);
    } else {
      offsets_.assign(count + 1, 0);
      data_.clear();
    }
    for (std::size_t i = 0; i < count; ++i) {
      std::size_t row = 0;
      const int st = source(first + i, &row);
      if (st < 0) return st;
      const bool valid = st > 0;
      if (valid) validity_[i / 8] = static_cast<std::uint8_t>(validity_[i / 8] | (1u << (i % 8)));
      if (k.width != 0) {
        if (valid) std::memcpy(fixed_.data() + i * k.width, v.fixed(row), k.width);
        continue;
      }
      if (valid) {
        const std::uint8_t* p = nullptr;
        std::size_t n = 0;
        if (!v.bytes(row, &p, &n)) return BB_ERR_ARROW_MALFORMED;
        data_.insert(data_.end(), p, p + n);
      }
      offsets_[i + 1] = static_cast<std::int64_t>(data_.size());
    }
    column_ = bb_column BB_COLUMN_INIT;
    column_.length = count;
    column_.validity = count != 0 ? validity_.data() : nullptr;
    if (k.width != 0) {
      column_.type = k.type;
      column_.width = k.width;
      column_.values = count != 0 ? fixed_.data() : nullptr;
    } else {
      column_.type = BB_TYPE_LARGE_BYTE_ARRAY;
      column_.offsets = offsets_.data();
      column_.data = data_.empty() ? nullptr : data_.data();
      column_.data_len = data_.size();
    }
    return BB_OK;
  }
  const bb_column& column() const { return column_; }

 private:
  std::vector<std::uint8_t> validity_;
  std::vector<std::uint8_t> fixed_;
  std::vector<std::int64_t> offsets_;
  std::vector<std::uint8_t> data_;
  bb_column column_ = BB_COLUMN_INIT;
};

// An ArrowArray opened for hashing: fn(first, count, column) for each run of
// rows, in order (at least once, with count 0 for an empty array, so the
// library still checks the filter). The first negative status stops it.
class Source {
 public:
  int Open(const bb_filter* f, const ArrowSchema* s, const ArrowArray* a) {
    if (f == nullptr || s == nullptr || a == nullptr) return BB_ERR_NULL_POINTER;
    if (s->release == nullptr || a->release == nullptr) return BB_ERR_ARROW_MALFORMED;
    if ((s->dictionary == nullptr) != (a->dictionary == nullptr)) return BB_ERR_ARROW_MALFORMED;
    if (s->dictionary == nullptr) return values_.Open(s, a, f->layout);
    dictionary_ = true;
    if (s->dictionary->dictionary != nullptr) return BB_ERR_ARROW_UNSUPPORTED_TYPE;  // nested dictionaries
    int st = values_.Open(s->dictionary, a->dictionary, f->layout);
    if (st < 0) return st;
    st = indices_.Open(s, a);
    if (st < 0) return st;
    // Every valid row's index checked before anything is hashed.
    for (std::size_t i = 0; i < indices_.length(); ++i) {
      std::size_t row;
      if (indices_.valid(i) && !indices_.index(i, values_.length(), &row)) return BB_ERR_ARROW_DICTIONARY_INDEX;
    }
    return BB_OK;
  }

  std::size_t length() const { return dictionary_ ? indices_.length() : values_.length(); }

  template <class Fn>
  int ForEach(Fn fn) {
    if (!dictionary_ && values_.in_place()) {
      return fn(std::size_t{0}, values_.length(), values_.column());
    }
    const std::size_t n = length();
    std::size_t first = 0;
    do {
      const std::size_t count = n - first < kChunk ? n - first : kChunk;
      int st = dictionary_ ? gathered_.Fill(values_, first, count,
                                            [this](std::size_t i, std::size_t* row) {
                                              if (!indices_.valid(i)) return 0;
                                              indices_.index(i, values_.length(), row);  // checked in Open
                                              return values_.valid(*row) ? 1 : 0;
                                            })
                           : gathered_.Fill(values_, first, count, [this](std::size_t i, std::size_t* row) {
                               *row = i;
                               return values_.valid(i) ? 1 : 0;
                             });
      if (st < 0) return st;
      st = fn(first, count, gathered_.column());
      if (st < 0) return st;
      first += count;
    } while (first < n);
    return BB_OK;
  }

 private:
  Values values_;
  Indices indices_;
  bool dictionary_ = false;
  Gathered gathered_;
};

}  // namespace detail

// Inserts the array's valid rows into f, hashed by its layout (Kudu: its
// hash_seed), exactly as bb_insert_column of the same values.
inline int insert(bb_filter* f, const ArrowSchema* schema, const ArrowArray* array) {
  detail::Source src;
  const int st = src.Open(f, schema, array);
  if (st < 0) return st;
  return src.ForEach([f](std::size_t, std::size_t, const bb_column& c) { return bb_insert_column(f, &c); });
}

// Probes every row (bb_find_column_bitmap): bit i of bitmap is 1 iff row i
// is valid and may be in f; writes (length + 7) / 8 bytes. *hits may be NULL.
inline int find_bitmap(const bb_filter* f, const ArrowSchema* schema, const ArrowArray* array,
                       std::uint8_t* bitmap, std::size_t* hits) {
  detail::Source src;
  int st = src.Open(f, schema, array);
  if (st < 0) return st;
  if (bitmap == nullptr && src.length() != 0) return BB_ERR_NULL_POINTER;
  std::size_t total = 0;
  st = src.ForEach([&](std::size_t first, std::size_t, const bb_column& c) {
    std::size_t h = 0;
    const int s = bb_find_column_bitmap(f, &c, bitmap != nullptr ? bitmap + first / 8 : nullptr, &h);
    total += h;
    return s;
  });
  if (st >= 0 && hits != nullptr) *hits = total;
  return st;
}

// Probes every row (bb_find_column_select): the indices of the valid rows
// that may be in f, ascending, to selection[0 .. *hits); room for `length`.
inline int find_select(const bb_filter* f, const ArrowSchema* schema, const ArrowArray* array,
                       std::uint32_t* selection, std::size_t* hits) {
  detail::Source src;
  int st = src.Open(f, schema, array);
  if (st < 0) return st;
  if (selection == nullptr && src.length() != 0) return BB_ERR_NULL_POINTER;
  if (src.length() > UINT32_MAX) return BB_ERR_BATCH_TOO_LARGE;
  std::size_t total = 0;
  st = src.ForEach([&](std::size_t first, std::size_t, const bb_column& c) {
    std::size_t h = 0;
    const int s = bb_find_column_select(f, &c, selection != nullptr ? selection + total : nullptr, &h);
    for (std::size_t i = 0; s >= 0 && i < h; ++i) selection[total + i] += static_cast<std::uint32_t>(first);
    total += h;
    return s;
  });
  if (st >= 0 && hits != nullptr) *hits = total;
  return st;
}

// The C++ API (blockbloom.hpp): the same calls, throwing Error.
inline void insert(View& f, const ArrowSchema& schema, const ArrowArray& array) {
  blockbloom::detail::Check(insert(f.c_filter(), &schema, &array));
}
inline std::size_t find_bitmap(const ConstView& f, const ArrowSchema& schema, const ArrowArray& array,
                               std::uint8_t* bitmap) {
  std::size_t hits = 0;
  blockbloom::detail::Check(find_bitmap(f.c_filter(), &schema, &array, bitmap, &hits));
  return hits;
}
inline std::size_t find_select(const ConstView& f, const ArrowSchema& schema, const ArrowArray& array,
                               std::uint32_t* selection) {
  std::size_t hits = 0;
  blockbloom::detail::Check(find_select(f.c_filter(), &schema, &array, selection, &hits));
  return hits;
}

}  // namespace arrow
}  // namespace blockbloom

#endif  // BLOCKBLOOM_ARROW_HPP_
