// SPDX-License-Identifier: Apache-2.0
// blockbloom over the Arrow C Data Interface: insert / probe an ArrowArray
// (with its ArrowSchema), header-only and without any Arrow library. The
// structs are declared as the spec declares them, under the spec's own guard,
// so this header and Arrow's abi.h (or nanoarrow's) can be included in either
// order.
//
//   bb_filter* f = ...;  ArrowSchema s;  ArrowArray a;   // from any producer
//   int st = blockbloom::arrow::insert(f, &s, &a);       // nulls left out
//   st = blockbloom::arrow::insert(f, &type, &s, &a);    // into a column's type
//   st = blockbloom::arrow::find_bitmap(f, &s, &a, bitmap, &hits);
//   hits = blockbloom::arrow::find_select(view, type, s, a, selection);  // C++ API: throws Error
//
// Parquet filters: every format is a source of values (parquet_value.h's
// bb_value_source) and its rows go into a Parquet type through the library's
// one rule, bb_parquet_hash_typed_column (docs/formats.md, "Values into a
// typed filter"), so an Arrow array, a Python container and a value typed as
// text give the same hash for the same value:
//   format        source (kind, bits / unit, zone)    type without one given
//   c s i l       INT 8 16 32 64                       INT32 / INT64 INTEGER(bits, signed)
//   C S I L       UINT 8 16 32 64                      INT32 / INT64 INTEGER(bits, unsigned)
//   e f g         FLOAT 16 32 64                       FLOAT16 (FLBA(2)), FLOAT, DOUBLE
//   tdD tdm       DATE days, DATE millis               INT32 DATE
//   tts ttm       TIME s, ms                           INT32 TIME(MILLIS)
//   ttu ttn       TIME us, ns                          INT64 TIME(MICROS / NANOS)
//   tss: tsm: ... TIMESTAMP s ms us ns, NAIVE          INT64 TIMESTAMP(unit, local); s -> MILLIS
//   ts?:tz        TIMESTAMP, UTC (a non-empty zone)     INT64 TIMESTAMP(unit, UTC); s -> MILLIS
//   d:P,S[,BW]    DECIMAL scale S, precision P (the    DECIMAL(P,S) on the physical type
//                 unscaled BW-bit values, BW 32, 64,   bb_parquet_type_parse picks for P
//                 128 (default) or 256)                (P <= 38; more: BB_ERR_VALUE_KIND)
//   u U vu        TEXT (utf8, large, view)             BYTE_ARRAY STRING
//   z Z vz        BYTES (binary, large, view)          BYTE_ARRAY
//   w:N           BYTES (fixed-size binary)            FIXED_LEN_BYTE_ARRAY(N)
// The type "without one given" is what Arrow's Parquet writer stores the
// array as (parquet_type_of; Parquet has no seconds, so seconds are stored
// and hashed as milliseconds); the calls without a type use it. The calls
// with a type (a bb_parquet_column: a file's column, bb_parquet_type_parse)
// convert each row into it. A valid row that cannot be of the type (out of
// its range, finer than its unit, more fraction digits than its scale, ...)
// answers 0 to a probe and refuses an insert (BB_ERR_VALUE_RANGE, its row in
// the message, nothing inserted: leaving it out would lose it); a source the type cannot take at all or
// only ambiguously (a tz-aware timestamp into a local TIMESTAMP, an integer
// into a DATE, bytes into an INT64, ...) is the call's error, nothing
// inserted or written.
//
// Kudu filters hash every row as the Kudu cell it is compared with, as
// bb_insert_column of the typed column (column.h) of the same values:
//   c s i l  INT8 .. INT64    f g  FLOAT, DOUBLE    tdD tdm  DATE (date64 as days)
//   ts?:tz   UNIXTIME_MICROS as held   z u Z U vz vu w:N  the bytes
//   d:P,S[,BW]  the cell Kudu keeps for the precision (P <= 9: DECIMAL32, the
//               int32 unscaled value; <= 18: DECIMAL64, int64; <= 38:
//               DECIMAL128, 16 little-endian bytes), whatever BW.
// Unsigned, time-of-day and float16 arrays are BB_ERR_TYPE_NOT_IN_LAYOUT /
// unsupported there (Kudu has no such cell), and the calls with a type are
// for Parquet filters only (BB_ERR_LAYOUT_MISMATCH).
//
// A dictionary-encoded array (indices of any integer type) is hashed by value:
// its rows are gathered from the dictionary, a row being null if its index or
// its dictionary entry is. Offsets apply as Arrow says: array->offset to the
// values, the validity bits and the string offsets; a dictionary's own offset
// to its entries.
//
// Refusals (nothing inserted; a probe's output then unspecified):
//   a NULL filter, schema, array or type                    BB_ERR_NULL_POINTER
//   a format not listed above (boolean, duration, interval,
//     nested types, a decimal whose precision its width cannot
//     hold or, in Kudu, of P > 38; in Parquet of a negative
//     scale or one above P)                                   BB_ERR_ARROW_UNSUPPORTED_TYPE
//   a released array/schema, negative length / offset, the wrong
//     n_buffers, children on an array of a format above, a
//     null_count not -1 nor in 0 .. length, a buffer NULL where
//     rows need it, offsets negative / decreasing, a view past
//     its buffer (its variadic size), or any position that
//     cannot exist (below)                                     BB_ERR_ARROW_MALFORMED
//   a valid row's dictionary index outside the dictionary    BB_ERR_ARROW_DICTIONARY_INDEX
// then what the library refuses: the conversion (BB_ERR_VALUE_AMBIGUOUS,
// BB_ERR_VALUE_KIND, a text row's BB_ERR_VALUE_SYNTAX / _RANGE), the typed
// column call (a read-only view, a type the layout has no meaning for, ...).
// Every call takes an optional std::string* why: on an error it receives a
// message naming the Arrow format refused and why (the library's phrase);
// the C++ overloads throw Error with that message.
//
// Positions that cannot exist: the C Data Interface gives no buffer sizes
// (but a view's variadic ones), so the adapter trusts a length and offset
// only as far as memory can hold them. Each buffer (the validity bits, the
// values, the offset + length + 1 offsets, the 16-byte views, the data up to
// the last offset, the buffers array itself) must fit offset + length
// positions, whatever the length, in at most 2^57 bytes (no process has more
// address space) without passing the top of the address space from where it
// starts; a dictionary's values and its indices each by their own offset and
// length. Checked before any row is read, so no product wraps. validate()
// runs these checks alone.

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

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/blockbloom.hpp"
#include "blockbloom/column.h"
#include "blockbloom/parquet_value.h"

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

// What a (non-dictionary) Arrow format is in a filter of a layout: the column
// its rows are read as and, for Parquet filters, the values they are.
struct ValueKind {
  std::uint32_t type = 0;  // bb_column_type the rows are hashed as; 0 = unsupported
  std::size_t width = 0;   // bytes per value in that column (fixed-width types); 0: byte arrays
  std::size_t stride = 0;  // bytes per Arrow value: width, but for Kudu decimals narrowed to
                           // Kudu's cell and float16 widened to float
  bool view = false;       // vz / vu: 16-byte views over variadic buffers
  bool half = false;       // e: IEEE half floats, given to the library as the floats they equal
  bool as_bytes = false;   // w:N into Parquet: fixed-width values given as byte arrays
  bb_value_source source = {sizeof(bb_value_source), 0, 0, 0, 0, 0, 0};  // Parquet: the values
};

namespace detail {

inline bool Is(const char* format, const char* name) { return std::strcmp(format, name) == 0; }

// "N[,N...]": at most `max` comma-separated decimal integers, each at most
// 10^6 in magnitude and, but for field `may_be_negative` (a decimal's
// scale), not negative. Returns how many, 0 if the text is anything else.
inline std::size_t Numbers(const char* p, long* out, std::size_t max, std::size_t may_be_negative) {
  for (std::size_t count = 0; count < max;) {
    const bool negative = *p == '-' && count == may_be_negative;
    if (negative) ++p;
    if (*p < '0' || *p > '9') return 0;
    long n = 0;
    for (; *p >= '0' && *p <= '9'; ++p) {
      if (n > 1000000) return 0;
      n = n * 10 + (*p - '0');
    }
    out[count++] = negative ? -n : n;
    if (*p == '\0') return count;
    if (*p++ != ',') return 0;
  }
  return 0;
}

// "w:N" -> N (0 if not a positive decimal number).
inline std::size_t FixedWidth(const char* digits) {
  long n = 0;
  return Numbers(digits, &n, 1, 1) == 1 ? static_cast<std::size_t>(n) : 0;
}

// An Arrow decimal "P,S" or "P,S,BW" (BW 128 when absent): false unless
// well formed with 1 <= P, BW one of 32 / 64 / 128 / 256 and P digits held
// by BW bits (9 / 18 / 38 / 76, as Arrow allows).
inline bool DecimalSpec(const char* spec, long* precision, long* scale, long* bits) {
  long f[3] = {0, 0, 128};
  if (Numbers(spec, f, 3, 1) < 2) return false;
  *precision = f[0];
  *scale = f[1];
  *bits = f[2];
  const long max_digits = f[2] == 32 ? 9 : f[2] == 64 ? 18 : f[2] == 128 ? 38 : f[2] == 256 ? 76 : 0;
  return f[0] >= 1 && f[0] <= max_digits;
}

// Kudu's cell bytes for an Arrow decimal: 4, 8 or 16 by the precision
// (DECIMAL32 / 64 / 128, as Kudu picks it); 0 if Kudu has none (P > 38) or
// the spec is refused by DecimalSpec. *arrow_bytes: BW / 8.
inline std::size_t KuduDecimalCell(const char* spec, std::size_t* arrow_bytes) {
  long precision, scale, bits;
  if (!DecimalSpec(spec, &precision, &scale, &bits)) return 0;
  *arrow_bytes = static_cast<std::size_t>(bits) / 8;
  return precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 0;
}

// A format's row of the table in the header comment: its column type and
// bytes per value, and the value source it is.
struct FormatRow {
  const char* format;
  std::uint32_t type;  // bb_column_type as Kudu hashes it
  std::size_t width;
  std::uint32_t kind;  // bb_value_kind
  std::int32_t bits;
  std::int32_t unit;
};

inline const FormatRow* SimpleFormat(const char* format) {
  static const FormatRow kRows[] = {
      {"c", BB_TYPE_INT8, 1, BB_VALUE_INT, 8, 0},
      {"s", BB_TYPE_INT16, 2, BB_VALUE_INT, 16, 0},
      {"i", BB_TYPE_INT32, 4, BB_VALUE_INT, 32, 0},
      {"l", BB_TYPE_INT64, 8, BB_VALUE_INT, 64, 0},
      {"C", BB_TYPE_UINT8, 1, BB_VALUE_UINT, 8, 0},
      {"S", BB_TYPE_UINT16, 2, BB_VALUE_UINT, 16, 0},
      {"I", BB_TYPE_UINT32, 4, BB_VALUE_UINT, 32, 0},
      {"L", BB_TYPE_UINT64, 8, BB_VALUE_UINT, 64, 0},
      {"e", 0, 2, BB_VALUE_FLOAT, 16, 0},  // no Kudu cell
      {"f", BB_TYPE_FLOAT, 4, BB_VALUE_FLOAT, 32, 0},
      {"g", BB_TYPE_DOUBLE, 8, BB_VALUE_FLOAT, 64, 0},
      {"tdD", BB_TYPE_DATE32, 4, BB_VALUE_DATE, 0, BB_VALUE_UNIT_DAYS},
      {"tdm", BB_TYPE_DATE64, 8, BB_VALUE_DATE, 0, BB_PARQUET_UNIT_MILLIS},
      {"tts", BB_TYPE_TIME32, 4, BB_VALUE_TIME, 0, BB_VALUE_UNIT_SECONDS},
      {"ttm", BB_TYPE_TIME32, 4, BB_VALUE_TIME, 0, BB_PARQUET_UNIT_MILLIS},
      {"ttu", BB_TYPE_TIME64, 8, BB_VALUE_TIME, 0, BB_PARQUET_UNIT_MICROS},
      {"ttn", BB_TYPE_TIME64, 8, BB_VALUE_TIME, 0, BB_PARQUET_UNIT_NANOS},
      {"u", BB_TYPE_BYTE_ARRAY, 0, BB_VALUE_TEXT, 0, 0},
      {"z", BB_TYPE_BYTE_ARRAY, 0, BB_VALUE_BYTES, 0, 0},
      {"U", BB_TYPE_LARGE_BYTE_ARRAY, 0, BB_VALUE_TEXT, 0, 0},
      {"Z", BB_TYPE_LARGE_BYTE_ARRAY, 0, BB_VALUE_BYTES, 0, 0},
      {"vu", BB_TYPE_LARGE_BYTE_ARRAY, 0, BB_VALUE_TEXT, 0, 0},
      {"vz", BB_TYPE_LARGE_BYTE_ARRAY, 0, BB_VALUE_BYTES, 0, 0}};
  for (const FormatRow& r : kRows) {
    if (Is(format, r.format)) return &r;
  }
  return nullptr;
}

// The column type holding a source's integers as they are (the library's
// typed call reads dates, times and timestamps as plain integers).
inline std::uint32_t PlainIntegerType(std::uint32_t type) {
  switch (type) {
    case BB_TYPE_DATE32:
    case BB_TYPE_TIME32: return BB_TYPE_INT32;
    case BB_TYPE_DATE64:
    case BB_TYPE_TIME64:
    case BB_TYPE_TIMESTAMP: return BB_TYPE_INT64;
    default: return type;
  }
}

}  // namespace detail

// The column and values a format is hashed as in a filter of `layout`
// (bb_layout); type 0 if it has none there.
inline ValueKind kind_of(const char* format, std::uint32_t layout) {
  ValueKind k;
  if (format == nullptr) return k;
  const bool parquet = layout != BB_LAYOUT_KUDU;
  bb_value_source& src = k.source;
  if (const detail::FormatRow* r = detail::SimpleFormat(format)) {
    src.kind = r->kind;
    src.bits = r->bits;
    src.unit = r->unit;
    k.view = format[0] == 'v';
    k.width = k.stride = r->width;
    if (!parquet) {
      k.type = r->type;
      if (k.type == 0) k.width = k.stride = 0;
      return k;
    }
    k.type = detail::PlainIntegerType(r->type);
    if (k.type == 0) {  // float16: widened to the float it equals
      k.type = BB_TYPE_FLOAT;
      k.width = 4;
      k.half = true;
    }
    return k;
  }
  // Timestamps: "ts" + unit + ":" + time zone (possibly empty: a wall clock).
  if (std::strncmp(format, "ts", 2) == 0 && format[2] != '\0' && std::strchr("smun", format[2]) != nullptr &&
      format[3] == ':') {
    static const char kLetters[] = "smun";
    static const std::int32_t kUnits[] = {BB_VALUE_UNIT_SECONDS, BB_PARQUET_UNIT_MILLIS, BB_PARQUET_UNIT_MICROS,
                                          BB_PARQUET_UNIT_NANOS};
    src.kind = BB_VALUE_TIMESTAMP;
    src.unit = kUnits[std::strchr(kLetters, format[2]) - kLetters];
    src.zone = format[4] != '\0' ? BB_VALUE_ZONE_UTC : BB_VALUE_ZONE_NAIVE;
    k.type = parquet ? BB_TYPE_INT64 : BB_TYPE_TIMESTAMP;
    k.width = k.stride = 8;
    return k;
  }
  if (std::strncmp(format, "w:", 2) == 0) {
    const std::size_t width = detail::FixedWidth(format + 2);
    if (width != 0) {
      src.kind = BB_VALUE_BYTES;
      k.type = BB_TYPE_FIXED_LEN_BYTE_ARRAY;
      k.width = k.stride = width;
      k.as_bytes = parquet;
    }
    return k;
  }
  if (std::strncmp(format, "d:", 2) != 0) return k;
  if (!parquet) {
    // Kudu's cell is the unscaled value in 4, 8 or 16 bytes by the precision,
    // whatever Arrow's width (a decimal128(5, 2) is a DECIMAL32 cell).
    std::size_t arrow_bytes = 0;
    switch (detail::KuduDecimalCell(format + 2, &arrow_bytes)) {
      case 4: k.type = BB_TYPE_INT32; k.width = 4; k.stride = arrow_bytes; break;
      case 8: k.type = BB_TYPE_INT64; k.width = 8; k.stride = arrow_bytes; break;
      case 16: k.type = BB_TYPE_FIXED_LEN_BYTE_ARRAY; k.width = 16; k.stride = arrow_bytes; break;
      default: break;
    }
    return k;
  }
  // Parquet: the unscaled values as Arrow holds them (int32, int64, or 16 /
  // 32 little-endian bytes), with their scale; a scale Parquet cannot have
  // (negative, or above the precision) is refused.
  long precision, scale, bits;
  if (!detail::DecimalSpec(format + 2, &precision, &scale, &bits) || scale < 0 || scale > precision) return k;
  src.kind = BB_VALUE_DECIMAL;
  src.scale = static_cast<std::int32_t>(scale);
  src.precision = static_cast<std::int32_t>(precision);
  k.width = k.stride = static_cast<std::size_t>(bits) / 8;
  k.type = bits == 32 ? BB_TYPE_INT32 : bits == 64 ? BB_TYPE_INT64 : BB_TYPE_FIXED_LEN_BYTE_ARRAY;
  return k;
}

// What Arrow's Parquet writer stores a (non-dictionary) format as: the type
// the calls without a type convert its rows into (the table above). BB_OK,
// or BB_ERR_ARROW_UNSUPPORTED_TYPE for a format without one.
inline int parquet_type_of(const char* format, bb_parquet_column* type) {
  if (type == nullptr) return BB_ERR_NULL_POINTER;
  const ValueKind k = kind_of(format, BB_LAYOUT_PARQUET);
  if (k.type == 0) return BB_ERR_ARROW_UNSUPPORTED_TYPE;
  const int st = bb_parquet_type_of_source(&k.source, type);
  if (st < 0) return st;
  if (k.as_bytes) {  // fixed_size_binary(N) is FIXED_LEN_BYTE_ARRAY(N), not BYTE_ARRAY
    type->physical_type = BB_PARQUET_FIXED_LEN_BYTE_ARRAY;
    type->type_length = static_cast<std::int32_t>(k.width);
  }
  return BB_OK;
}

// The same for an array's schema: a dictionary's values' format.
inline int parquet_type_of(const ArrowSchema* schema, bb_parquet_column* type) {
  if (schema == nullptr) return BB_ERR_NULL_POINTER;
  if (schema->release == nullptr) return BB_ERR_ARROW_MALFORMED;
  const ArrowSchema* values = schema->dictionary != nullptr ? schema->dictionary : schema;
  if (values->release == nullptr) return BB_ERR_ARROW_MALFORMED;
  return parquet_type_of(values->format, type);
}

namespace detail {

inline bool Bit(const std::uint8_t* bits, std::size_t i) { return ((bits[i / 8] >> (i % 8)) & 1u) != 0; }

// An IEEE half float's value as a float (every half is exactly a float; a
// NaN keeps its sign and payload, shifted into the float's).
inline float HalfToFloat(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu;
  const std::uint32_t mantissa = h & 0x3ffu;
  std::uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else {
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // subnormal or zero
    std::memcpy(&bits, &magnitude, sizeof bits);
    bits |= sign;
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// The most bytes one buffer can span: no address space holds more (a
// process gets at most 2^56 bytes on x86-64 and RISC-V, 2^52 on AArch64,
// 2^32 on a 32-bit machine). A row whose bytes would lie further from its
// buffer's start, or past the top of the address space, cannot exist: the
// producer lied about a length or offset, and reading there is undefined.
constexpr std::uint64_t kMaxBufferBytes = std::uint64_t{1} << 57;

// True if `items` items of `item_bytes` bytes each can lie from `buffer` on:
// at most kMaxBufferBytes (and SIZE_MAX) in all, not wrapping past the top of
// the address space. The products are checked before they are formed.
inline bool Addressable(const void* buffer, std::uint64_t items, std::uint64_t item_bytes) {
  if (item_bytes != 0 && items > kMaxBufferBytes / item_bytes) return false;
  const std::uint64_t bytes = items * item_bytes;
  if (bytes > SIZE_MAX) return false;
  return reinterpret_cast<std::uintptr_t>(buffer) <= UINTPTR_MAX - static_cast<std::uintptr_t>(bytes);
}

// The same for a bitmap of `bits` bits (NULL: none is read).
inline bool BitsAddressable(const void* bitmap, std::uint64_t bits) {
  return bitmap == nullptr || Addressable(bitmap, bits / 8 + 1, 1);
}

// Why an array's counts are not those the spec allows for a leaf (NULL if
// they are): length, offset and n_buffers not negative, null_count -1
// (unknown) or 0 .. length, no children (no format taken here has any),
// the buffers given.
inline const char* BadCounts(const ArrowArray* a) {
  if (a->length < 0) return "a negative length";
  if (a->offset < 0) return "a negative offset";
  if (a->n_buffers < 0) return "a negative n_buffers";
  if (a->null_count < -1 || a->null_count > a->length) return "a null_count neither -1 nor in 0 .. length";
  if (a->n_children != 0) return "children on an array whose format has none";
  if (a->n_buffers != 0 && a->buffers == nullptr) return "n_buffers buffers but no buffers array";
  return nullptr;
}

// The phrases of the refusals more than one check makes.
constexpr const char* kReleased = "a released array or schema";
constexpr const char* kNoValidity = "nulls counted but no validity buffer";
constexpr const char* kPastMemory =
    "an offset, length or buffer count puts rows past what memory can hold (more than 2^57 bytes from "
    "their buffer, or past the top of the address space)";
constexpr const char* kBadOffsets = "its string offsets are negative, decreasing or past the last one";

// offset + length, the positions a leaf's buffers hold (both checked >= 0 by
// BadCounts first, so the sum fits).
inline std::uint64_t Positions(const ArrowArray* a) {
  return static_cast<std::uint64_t>(a->offset) + static_cast<std::uint64_t>(a->length);
}

// One non-dictionary array, checked, as a readable column: its rows are
// [0, length), row i at Arrow position offset + i.
class Values {
 public:
  int Open(const ArrowSchema* s, const ArrowArray* a, std::uint32_t layout) {
    if (s->release == nullptr || a->release == nullptr) return Malformed(kReleased);
    if (s->format == nullptr) return Malformed("its schema has no format");
    kind_ = kind_of(s->format, layout);
    if (kind_.type == 0) return BB_ERR_ARROW_UNSUPPORTED_TYPE;
    if (const char* bad = BadCounts(a)) return Malformed(bad);
    const bool byte_array = kind_.width == 0;
    if (kind_.view ? a->n_buffers < 3 : a->n_buffers != (byte_array ? 3 : 2)) {
      return Malformed(kind_.view ? "n_buffers below the 3 of a view array" : byte_array
                                      ? "n_buffers not the 3 of a string / binary array"
                                      : "n_buffers not the 2 of a fixed-width array");
    }
    if (!Addressable(a->buffers, static_cast<std::uint64_t>(a->n_buffers), sizeof(void*))) {
      return Malformed("n_buffers more than memory can hold");
    }
    // Positions 0 .. offset + length: every buffer must be able to hold them
    // (checked whatever the length, so no later product wraps).
    const std::uint64_t positions = Positions(a);
    validity_ = static_cast<const std::uint8_t*>(a->buffers[0]);
    if (validity_ == nullptr && a->null_count > 0) return Malformed(kNoValidity);
    if (!BitsAddressable(validity_, positions)) return Malformed(kPastMemory);
    const bool fits = kind_.view      ? Addressable(a->buffers[1], positions, 16)
                      : !byte_array   ? Addressable(a->buffers[1], positions, kind_.stride)
                      : kind_.type == BB_TYPE_BYTE_ARRAY ? Addressable(a->buffers[1], positions + 1, 4)
                                                         : Addressable(a->buffers[1], positions + 1, 8);
    if (!fits) return Malformed(kPastMemory);
    length_ = static_cast<std::size_t>(a->length);
    offset_ = static_cast<std::size_t>(a->offset);
    if (length_ == 0) return BB_OK;  // no buffer is read
    if (a->buffers[1] == nullptr) return Malformed("its rows' buffer 1 is NULL");
    if (kind_.view) return OpenViews(a);
    if (!byte_array) {
      values_ = static_cast<const std::uint8_t*>(a->buffers[1]) + offset_ * kind_.stride;
      return BB_OK;
    }
    return OpenOffsets(a);
  }

  const ValueKind& kind() const { return kind_; }
  std::size_t length() const { return length_; }
  // Why Open refused the array as malformed (NULL if it did not).
  const char* problem() const { return problem_; }
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

  // The rows as one bb_column in place: not views, nor values narrowed,
  // widened or given as bytes.
  bool in_place() const { return !kind_.view && !kind_.half && !kind_.as_bytes && kind_.stride == kind_.width; }

  // Row i's value: `stride` bytes, or for a narrowed decimal its low-order
  // `width` ones of its native-endian (Arrow's) value, which hold it (its
  // precision fits the cell).
  const std::uint8_t* fixed(std::size_t i) const {
    const std::uint16_t one = 1;
    std::uint8_t first_byte;
    std::memcpy(&first_byte, &one, 1);
    const std::size_t low = first_byte == 1 || kind_.stride <= kind_.width ? 0 : kind_.stride - kind_.width;
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
    if (first < 0 || last < first) return Malformed(kBadOffsets);
    if (!Addressable(data_, static_cast<std::uint64_t>(last), 1)) {
      return Malformed("its last string offset is more bytes than memory can hold");
    }
    data_len_ = static_cast<std::size_t>(last);
    if (data_len_ != 0 && data_ == nullptr) return Malformed("its data buffer is NULL under non-empty rows");
    // Every offset in 0 .. last, non-decreasing, or a row could read outside
    // the data when gathered: checked once here rather than per row.
    for (std::size_t i = 0; i < length_; ++i) {
      std::int64_t lo, hi;
      Offsets(i, &lo, &hi);
      if (lo < 0 || hi < lo || hi > last) return Malformed(kBadOffsets);
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
    if (num_variadic_ != 0 && sizes_ == nullptr) return Malformed("its variadic buffers' sizes buffer is NULL");
    if (!Addressable(sizes_, num_variadic_, sizeof(std::int64_t))) return Malformed(kPastMemory);
    for (std::size_t i = 0; i < length_; ++i) {
      const std::uint8_t* p;
      std::size_t n;
      if (valid(i) && !View(i, &p, &n)) {
        return Malformed("a view's length, buffer index or offset is outside its buffer (its variadic size)");
      }
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
    const std::int64_t end = static_cast<std::int64_t>(offset) + len;
    if (buffer == nullptr || end > size || !Addressable(buffer, static_cast<std::uint64_t>(end), 1)) return false;
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
  const char* problem_ = nullptr;

  int Malformed(const char* why) {
    problem_ = why;
    return BB_ERR_ARROW_MALFORMED;
  }
};

// Dictionary indices: any integer type, read as int64 (uint64 above
// INT64_MAX is out of range anyway).
class Indices {
 public:
  int Open(const ArrowSchema* s, const ArrowArray* a) {
    static const char kFormats[] = "cCsSiIlL";
    static const std::size_t kWidths[] = {1, 1, 2, 2, 4, 4, 8, 8};
    if (s->format == nullptr) return Malformed("its schema has no format");
    const char* at = s->format[0] != '\0' && s->format[1] == '\0' ? std::strchr(kFormats, s->format[0]) : nullptr;
    if (at == nullptr) return BB_ERR_ARROW_UNSUPPORTED_TYPE;  // dictionary indices must be integers
    const std::size_t k = static_cast<std::size_t>(at - kFormats);
    width_ = kWidths[k];
    signed_ = k % 2 == 0;
    if (const char* bad = BadCounts(a)) return Malformed(bad);
    if (a->n_buffers != 2) return Malformed("n_buffers not the 2 of a fixed-width array");
    if (!Addressable(a->buffers, 2, sizeof(void*))) return Malformed(kPastMemory);
    validity_ = static_cast<const std::uint8_t*>(a->buffers[0]);
    if (validity_ == nullptr && a->null_count > 0) return Malformed(kNoValidity);
    values_ = static_cast<const std::uint8_t*>(a->buffers[1]);
    const std::uint64_t positions = Positions(a);
    if (!BitsAddressable(validity_, positions) || !Addressable(values_, positions, width_)) {
      return Malformed(kPastMemory);
    }
    length_ = static_cast<std::size_t>(a->length);
    offset_ = static_cast<std::size_t>(a->offset);
    if (length_ != 0 && values_ == nullptr) return Malformed("its rows' buffer 1 is NULL");
    return BB_OK;
  }
  std::size_t length() const { return length_; }
  // Why Open refused the indices as malformed (NULL if it did not).
  const char* problem() const { return problem_; }
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
  const char* problem_ = nullptr;

  int Malformed(const char* why) {
    problem_ = why;
    return BB_ERR_ARROW_MALFORMED;
  }
};

// Rows go to the library kChunk at a time when they must be gathered
// (dictionaries, views, narrowed or widened values) and into Parquet filters;
// a multiple of 8, so each chunk's bitmap starts on a byte.
constexpr std::size_t kChunk = 4096;
// A gathered chunk also ends (on a multiple of 8 rows) once it holds this
// many bytes: a dictionary or views may repeat one long value in every row,
// and 4096 copies of a 1 MB value would cost 4 GB for an input of 1 MB. With
// the cap a chunk costs at most this plus 8 of the array's values.
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

// Rows [first, first + count) of an in-place column.
inline bb_column Slice(const bb_column& c, std::size_t first, std::size_t count) {
  bb_column s = c;
  s.length = count;
  s.validity_offset = c.validity_offset + first;
  if (count == 0) return s;
  if (c.values != nullptr) {
    s.values = static_cast<const std::uint8_t*>(c.values) + first * c.width;
  } else if (c.type == BB_TYPE_BYTE_ARRAY) {
    s.offsets = static_cast<const std::int32_t*>(c.offsets) + first;
  } else {
    s.offsets = static_cast<const std::int64_t*>(c.offsets) + first;
  }
  return s;
}

// Rows [first, first + count) gathered into contiguous buffers: fixed-width
// values as their column's type (float16 widened to float), bytes (and
// fixed-width values given as bytes) as a LARGE_BYTE_ARRAY (hashed as the
// same bytes as BYTE_ARRAY, column.h), a null row holding no bytes.
class Gathered {
 public:
  // source(i, &row): the values' row for row i, or false for a null row;
  // returns a negative status on a bad index. Gathers up to `count` rows,
  // fewer (a multiple of 8) when they pass kChunkBytes: column().length says
  // how many.
  template <class Source>
  int Fill(const Values& v, std::size_t first, std::size_t count, Source source) {
    const ValueKind& k = v.kind();
    const bool fixed = k.width != 0 && !k.as_bytes;
    if (fixed && count > 8 && count * k.width > kChunkBytes) {
      count = kChunkBytes / k.width > 8 ? kChunkBytes / k.width / 8 * 8 : 8;
    }
    validity_.assign((count + 7) / 8, 0);
    if (fixed) {
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
      if (fixed) {
        if (valid && k.half) {
          std::uint16_t h;
          std::memcpy(&h, v.fixed(row), sizeof h);
          const float value = HalfToFloat(h);
          std::memcpy(fixed_.data() + i * k.width, &value, sizeof value);
        } else if (valid) {
          std::memcpy(fixed_.data() + i * k.width, v.fixed(row), k.width);
        }
        continue;
      }
      if (valid) {
        const std::uint8_t* p = nullptr;
        std::size_t n = k.width;
        if (k.as_bytes) {
          p = v.fixed(row);
        } else if (!v.bytes(row, &p, &n)) {
          return BB_ERR_ARROW_MALFORMED;
        }
        data_.insert(data_.end(), p, p + n);
      }
      offsets_[i + 1] = static_cast<std::int64_t>(data_.size());
      if (data_.size() >= kChunkBytes && (i + 1) % 8 == 0 && i + 1 < count) count = i + 1;
    }
    column_ = bb_column BB_COLUMN_INIT;
    column_.length = count;
    column_.validity = count != 0 ? validity_.data() : nullptr;
    if (fixed) {
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

// An ArrowArray opened for hashing into a filter of `layout`: fn(first,
// count, column) for each run of rows, in order (at least once, with count 0
// for an empty array, so the library still checks the filter). The first
// negative status stops it.
class Source {
 public:
  int Open(const ArrowSchema* s, const ArrowArray* a, std::uint32_t layout) {
    if (s == nullptr || a == nullptr) return BB_ERR_NULL_POINTER;
    // A live schema's format names the refusal of a released array too (a
    // released schema's pointers may dangle: not read).
    if (s->release == nullptr) return Malformed(kReleased);
    format_ = s->format;
    if (a->release == nullptr) return Malformed(kReleased);
    if ((s->dictionary == nullptr) != (a->dictionary == nullptr)) {
      return Malformed("a dictionary on the schema or the array but not both");
    }
    if (s->dictionary == nullptr) return values_.Open(s, a, layout);
    dictionary_ = true;
    format_ = s->dictionary->format;
    if (s->dictionary->dictionary != nullptr) return BB_ERR_ARROW_UNSUPPORTED_TYPE;  // nested dictionaries
    int st = values_.Open(s->dictionary, a->dictionary, layout);
    if (st < 0) return st;
    format_ = s->format;
    indices_refused_ = true;
    st = indices_.Open(s, a);
    if (st < 0) return st;
    indices_refused_ = false;
    format_ = s->dictionary->format;
    // Every valid row's index checked before anything is hashed.
    for (std::size_t i = 0; i < indices_.length(); ++i) {
      std::size_t row;
      if (indices_.valid(i) && !indices_.index(i, values_.length(), &row)) return BB_ERR_ARROW_DICTIONARY_INDEX;
    }
    return BB_OK;
  }

  std::size_t length() const { return dictionary_ ? indices_.length() : values_.length(); }
  const ValueKind& kind() const { return values_.kind(); }
  // Why Open refused the array as malformed, for messages (NULL if it did not).
  const char* problem() const {
    return problem_ != nullptr ? problem_ : indices_refused_ ? indices_.problem() : values_.problem();
  }

  // "Arrow format 'tsu:UTC'" (or the dictionary's values' format, or its
  // indices' when they are what was refused), for messages.
  std::string Describe() const {
    if (format_ == nullptr) return "Arrow array (no format: a NULL or released schema, or none given)";
    std::string d = "Arrow format '";
    d += format_;
    d += "'";
    if (dictionary_) d += indices_refused_ ? " (as dictionary indices)" : " (a dictionary's values)";
    return d;
  }

  // chunked: also an in-place column is given kChunk rows at a time.
  template <class Fn>
  int ForEach(bool chunked, Fn fn) {
    const std::size_t n = length();
    if (!dictionary_ && values_.in_place()) {
      const bb_column all = values_.column();
      if (!chunked) return fn(std::size_t{0}, n, all);
      std::size_t first = 0;
      do {
        const std::size_t count = n - first < kChunk ? n - first : kChunk;
        const int st = fn(first, count, Slice(all, first, count));
        if (st < 0) return st;
        first += count;
      } while (first < n);
      return BB_OK;
    }
    std::size_t first = 0;
    do {
      std::size_t count = n - first < kChunk ? n - first : kChunk;
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
      count = gathered_.column().length;  // fewer when the chunk's bytes reached kChunkBytes
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
  bool indices_refused_ = false;
  const char* format_ = nullptr;
  const char* problem_ = nullptr;
  Gathered gathered_;

  int Malformed(const char* why) {
    problem_ = why;
    return BB_ERR_ARROW_MALFORMED;
  }
};

// The rows of an opened array converted into a Parquet type by the library's
// one rule, kChunk at a time: Hash() gives each chunk's hashes and in-type bits.
class Converted {
 public:
  Converted(const bb_parquet_column* type, const ValueKind& kind) : type_(type), source_(kind.source) {}

  // The chunk's rows start at row `first` of the array.
  int Hash(const bb_column& c, std::uint8_t* in_type, std::size_t first) {
    const int st =
        bb_parquet_hash_typed_column(type_, &source_, &c, 0, hashes_, in_type, nullptr, error_, sizeof error_);
    if (st < 0 && first != 0) Renumber(first);
    return st;
  }
  std::uint64_t* hashes() { return hashes_; }
  // The library's phrase for the last error ("" if it gave none).
  const char* error() const { return error_; }

 private:
  // A text row's error names its row in the chunk ("row 5: ..."): in the
  // array it is row first + 5.
  void Renumber(std::size_t first) {
    if (std::strncmp(error_, "row ", 4) != 0) return;
    std::size_t row = 0;
    const char* p = error_ + 4;
    for (; *p >= '0' && *p <= '9' && row < SIZE_MAX / 16; ++p) row = row * 10 + static_cast<std::size_t>(*p - '0');
    if (p == error_ + 4 || *p != ':') return;
    const std::string renumbered = "row " + std::to_string(first + row) + p;
    std::snprintf(error_, sizeof error_, "%s", renumbered.c_str());
  }

  const bb_parquet_column* type_;
  bb_value_source source_;
  std::uint64_t hashes_[kChunk];
  char error_[BB_PARQUET_VALUE_ERROR_MAX] = "";
};

// The message for status st of a call on src: its format and why.
inline void Explain(int st, const Source& src, const char* phrase, std::string* why) {
  if (st >= 0 || why == nullptr) return;
  *why = src.Describe() + ": " + (phrase != nullptr && phrase[0] != '\0' ? phrase : bb_status_message(st));
}

// The calls, by layout: Parquet filters through the typed conversion (type
// NULL: the array's own parquet_type_of), Kudu filters through the typed
// column calls (column.h) of the Kudu cells.
class Call {
 public:
  Call(const bb_filter* f, const bb_parquet_column* type, bool typed, const ArrowSchema* s, const ArrowArray* a,
       std::string* why)
      : why_(why) {
    if (f == nullptr || s == nullptr || a == nullptr || (typed && type == nullptr)) {
      status_ = BB_ERR_NULL_POINTER;
      Fail(nullptr);
      return;
    }
    parquet_ = f->layout == BB_LAYOUT_PARQUET;
    if (typed && !parquet_) {
      status_ = BB_ERR_LAYOUT_MISMATCH;
      Fail("a Parquet type given for a filter that is not of the Parquet layout (Kudu filters hash Kudu's "
           "cells: call the overload without a type)");
      return;
    }
    status_ = source_.Open(s, a, parquet_ ? std::uint32_t{BB_LAYOUT_PARQUET} : f->layout);
    if (status_ < 0) {
      Fail(status_ == BB_ERR_ARROW_MALFORMED ? source_.problem() : nullptr);
      return;
    }
    if (!parquet_) return;
    if (type == nullptr) {
      own_type_.struct_size = sizeof own_type_;
      status_ = parquet_type_of(s, &own_type_);
      if (status_ < 0) {
        Fail("its values have no Parquet type of their own this library writes (a decimal of more than 38 "
             "digits): give the call a type");
        return;
      }
      type = &own_type_;
    }
    converted_.reset(new Converted(type, source_.kind()));
  }

  int status() const { return status_; }
  Source& source() { return source_; }
  bool parquet() const { return parquet_; }
  Converted& converted() { return *converted_; }

  // Records an error's message (phrase: the library's, or NULL for the status message).
  int Fail(const char* phrase) {
    Explain(status_, source_, phrase, why_);
    return status_;
  }
  int Finish(int st, const char* phrase) {
    status_ = st;
    return Fail(phrase);
  }

 private:
  std::string* why_;
  int status_ = BB_OK;
  bool parquet_ = false;
  Source source_;
  bb_parquet_column own_type_{};
  std::unique_ptr<Converted> converted_;
};

inline int Insert(bb_filter* f, const bb_parquet_column* type, bool typed, const ArrowSchema* s,
                  const ArrowArray* a, std::string* why) {
  Call call(f, type, typed, s, a, why);
  if (call.status() < 0) return call.status();
  if (!call.parquet()) {
    return call.Finish(call.source().ForEach(false, [f](std::size_t, std::size_t, const bb_column& c) -> int {
      return bb_insert_column(f, &c);
    }), nullptr);
  }
  // Every row is hashed before any is inserted: a text row's syntax error or
  // a valid row whose value is not of the type (inserting it would lose it
  // silently) refuses the whole insert.
  Converted& conv = call.converted();
  std::vector<std::uint64_t> held;
  std::uint8_t in_type[kChunk / 8];
  std::string outside;
  int st = call.source().ForEach(true, [&](std::size_t first, std::size_t count, const bb_column& c) -> int {
    const int hashed = conv.Hash(c, in_type, first);
    if (hashed < 0) return hashed;
    std::uint64_t* h = conv.hashes();
    std::size_t kept = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (Bit(in_type, i)) {
        h[kept++] = h[i];
      } else if (c.validity == nullptr || Bit(c.validity, c.validity_offset + i)) {
        outside = "row " + std::to_string(first + i) +
                  " is no value of the Parquet type (out of its range, finer than its unit or with more "
                  "fraction digits than its scale): nothing inserted";
        return BB_ERR_VALUE_RANGE;
      }
    }
    held.insert(held.end(), h, h + kept);
    return BB_OK;
  });
  if (st >= 0) st = bb_insert_batch(f, held.data(), held.size());
  return call.Finish(st, outside.empty() ? conv.error() : outside.c_str());
}

// Probes every row, kChunk rows at a time: fn(first, count, chunk_bitmap,
// hits) after the chunk's (count + 7) / 8 bitmap bytes are written to
// bitmap(first). outputs(length) checks the caller's outputs first.
template <class Outputs, class Bitmap, class Fn>
int Find(const bb_filter* f, const bb_parquet_column* type, bool typed, const ArrowSchema* s, const ArrowArray* a,
         std::string* why, Outputs outputs, Bitmap bitmap, Fn fn) {
  Call call(f, type, typed, s, a, why);
  if (call.status() < 0) return call.status();
  const int checked = outputs(call.source().length());
  if (checked < 0) return call.Finish(checked, nullptr);
  if (!call.parquet()) {
    return call.Finish(call.source().ForEach(true, [&](std::size_t first, std::size_t count, const bb_column& c) -> int {
      std::uint8_t none = 0;
      std::uint8_t* out = count != 0 ? bitmap(first) : &none;
      std::size_t hits = 0;
      const int found = bb_find_column_bitmap(f, &c, out, &hits);
      return found < 0 ? found : fn(first, count, out, hits);
    }), nullptr);
  }
  Converted& conv = call.converted();
  const int st = call.source().ForEach(true, [&](std::size_t first, std::size_t count, const bb_column& c) -> int {
    std::uint8_t none = 0;  // an empty array's output may be NULL; the filter is still checked
    std::uint8_t* out = count != 0 ? bitmap(first) : &none;
    int found = conv.Hash(c, out, first);  // the rows in the type, then those of them the filter may hold
    std::size_t hits = 0;
    if (found >= 0) found = bb_find_batch_bitmap_and(f, conv.hashes(), count, out, &hits);
    return found < 0 ? found : fn(first, count, out, hits);
  });
  return call.Finish(st, conv.error());
}

inline int FindBitmap(const bb_filter* f, const bb_parquet_column* type, bool typed, const ArrowSchema* s,
                      const ArrowArray* a, std::uint8_t* bitmap, std::size_t* hits, std::string* why) {
  std::size_t total = 0;
  const int st = Find(
      f, type, typed, s, a, why,
      [bitmap](std::size_t length) -> int { return bitmap == nullptr && length != 0 ? BB_ERR_NULL_POINTER : BB_OK; },
      [bitmap](std::size_t first) { return bitmap + first / 8; },
                      [&](std::size_t, std::size_t, const std::uint8_t*, std::size_t h) -> int {
                        total += h;
                        return BB_OK;
                      });
  if (st >= 0 && hits != nullptr) *hits = total;
  return st;
}

inline int FindSelect(const bb_filter* f, const bb_parquet_column* type, bool typed, const ArrowSchema* s,
                      const ArrowArray* a, std::uint32_t* selection, std::size_t* hits, std::string* why) {
  std::uint8_t chunk[kChunk / 8];
  std::size_t total = 0;
  const int st = Find(
      f, type, typed, s, a, why,
      [selection](std::size_t length) -> int {
        return selection == nullptr && length != 0 ? BB_ERR_NULL_POINTER
               : length > UINT32_MAX             ? BB_ERR_BATCH_TOO_LARGE
                                                  : BB_OK;
      },
      [&chunk](std::size_t) { return chunk; },
                      [&](std::size_t first, std::size_t count, const std::uint8_t* bits, std::size_t) -> int {
                        for (std::size_t i = 0; i < count; ++i) {
                          if (Bit(bits, i)) selection[total++] = static_cast<std::uint32_t>(first + i);
                        }
                        return BB_OK;
                      });
  if (st >= 0 && hits != nullptr) *hits = total;
  return st;
}

}  // namespace detail

// Checks an array as every call here does before it reads a row: its format
// taken in a filter of `layout` (bb_layout), its structure, every position
// (above), every valid row's dictionary index. BB_OK, or the status and *why
// (may be NULL) the calls would refuse it with. For a caller that sizes its
// own outputs from array->length: a malformed length is then refused, not
// allocated for.
inline int validate(const ArrowSchema* schema, const ArrowArray* array, std::uint32_t layout,
                    std::string* why = nullptr) {
  detail::Source source;
  const int st = source.Open(schema, array, layout);
  detail::Explain(st, source, st == BB_ERR_ARROW_MALFORMED ? source.problem() : nullptr, why);
  return st;
}

// Inserts the array's valid rows into f. A Parquet filter takes each row as
// the value it is (the table above) converted into the array's own Parquet
// type (parquet_type_of: as Arrow's Parquet writer stores it); a Kudu filter
// (its hash_seed) as bb_insert_column of the Kudu cells. *why (may be NULL):
// the message of an error.
inline int insert(bb_filter* f, const ArrowSchema* schema, const ArrowArray* array, std::string* why = nullptr) {
  return detail::Insert(f, nullptr, false, schema, array, why);
}

// Inserts the array's valid rows converted into `type` (a Parquet filter's;
// a file's column, bb_parquet_type_parse). A valid row whose value cannot be
// of the type (inserting it would lose it) is BB_ERR_VALUE_RANGE, its row and
// the format in *why, nothing inserted; so is a source the type refuses (its
// own code). Probes answer 0 for such rows.
inline int insert(bb_filter* f, const bb_parquet_column* type, const ArrowSchema* schema, const ArrowArray* array,
                  std::string* why = nullptr) {
  return detail::Insert(f, type, true, schema, array, why);
}

// Probes every row: bit i of bitmap is 1 iff row i is valid and may be in f
// (with a type: and its value can be of the type); writes (length + 7) / 8
// bytes. *hits may be NULL.
inline int find_bitmap(const bb_filter* f, const ArrowSchema* schema, const ArrowArray* array, std::uint8_t* bitmap,
                       std::size_t* hits, std::string* why = nullptr) {
  return detail::FindBitmap(f, nullptr, false, schema, array, bitmap, hits, why);
}
inline int find_bitmap(const bb_filter* f, const bb_parquet_column* type, const ArrowSchema* schema,
                       const ArrowArray* array, std::uint8_t* bitmap, std::size_t* hits, std::string* why = nullptr) {
  return detail::FindBitmap(f, type, true, schema, array, bitmap, hits, why);
}

// Probes every row: the indices of the rows find_bitmap would set, ascending,
// to selection[0 .. *hits); room for `length` (below 2^32).
inline int find_select(const bb_filter* f, const ArrowSchema* schema, const ArrowArray* array,
                       std::uint32_t* selection, std::size_t* hits, std::string* why = nullptr) {
  return detail::FindSelect(f, nullptr, false, schema, array, selection, hits, why);
}
inline int find_select(const bb_filter* f, const bb_parquet_column* type, const ArrowSchema* schema,
                       const ArrowArray* array, std::uint32_t* selection, std::size_t* hits,
                       std::string* why = nullptr) {
  return detail::FindSelect(f, type, true, schema, array, selection, hits, why);
}

namespace detail {
// The C++ overloads below: the C call on f (type NULL: the array's own),
// its status thrown as Error with the message naming the Arrow format.
inline void Throw(int status, const std::string& why) {
  if (status < 0) throw Error(status, why.empty() ? std::string(bb_status_message(status)) : why);
}
inline void InsertOrThrow(bb_filter* f, const bb_parquet_column* type, const ArrowSchema& schema,
                          const ArrowArray& array) {
  std::string why;
  Throw(Insert(f, type, type != nullptr, &schema, &array, &why), why);
}
// find: FindBitmap or FindSelect, out: the bitmap or the selection.
template <class Out>
std::size_t FindOrThrow(int (*find)(const bb_filter*, const bb_parquet_column*, bool,
                                    const ArrowSchema*, const ArrowArray*, Out*, std::size_t*,
                                    std::string*),
                        const bb_filter* f, const bb_parquet_column* type,
                        const ArrowSchema& schema, const ArrowArray& array, Out* out) {
  std::size_t hits = 0;
  std::string why;
  Throw(find(f, type, type != nullptr, &schema, &array, out, &hits, &why), why);
  return hits;
}
}  // namespace detail

// The C++ API (blockbloom.hpp, kudu.hpp): the same calls, throwing Error
// (its message names the Arrow format and why). Without a type they take a
// filter or view of either layout; with a Parquet type, a Parquet one.
template <class Layout, class Args>
void insert(BasicView<Layout, Args>& f, const ArrowSchema& schema, const ArrowArray& array) {
  detail::InsertOrThrow(f.c_filter(), nullptr, schema, array);
}
inline void insert(View& f, const bb_parquet_column& type, const ArrowSchema& schema,
                   const ArrowArray& array) {
  detail::InsertOrThrow(f.c_filter(), &type, schema, array);
}
template <class Layout, class Args>
std::size_t find_bitmap(const BasicConstView<Layout, Args>& f, const ArrowSchema& schema,
                        const ArrowArray& array, std::uint8_t* bitmap) {
  return detail::FindOrThrow(detail::FindBitmap, f.c_filter(), nullptr, schema, array, bitmap);
}
inline std::size_t find_bitmap(const ConstView& f, const bb_parquet_column& type,
                               const ArrowSchema& schema, const ArrowArray& array,
                               std::uint8_t* bitmap) {
  return detail::FindOrThrow(detail::FindBitmap, f.c_filter(), &type, schema, array, bitmap);
}
template <class Layout, class Args>
std::size_t find_select(const BasicConstView<Layout, Args>& f, const ArrowSchema& schema,
                        const ArrowArray& array, std::uint32_t* selection) {
  return detail::FindOrThrow(detail::FindSelect, f.c_filter(), nullptr, schema, array, selection);
}
inline std::size_t find_select(const ConstView& f, const bb_parquet_column& type,
                               const ArrowSchema& schema, const ArrowArray& array,
                               std::uint32_t* selection) {
  return detail::FindOrThrow(detail::FindSelect, f.c_filter(), &type, schema, array, selection);
}

}  // namespace arrow
}  // namespace blockbloom

#endif  // BLOCKBLOOM_ARROW_HPP_
