// SPDX-License-Identifier: Apache-2.0
// bb_parquet_hash_typed_column (parquet_value.h): a column of source values
// converted into a type by the table of value_convert.cc and hashed.
//
// Speed: the conversions that are integer arithmetic (integer widths and
// ranges, time units, dates) run as one loop per 1024-row chunk (a range
// compare, a multiply or an exact division, no call per row) into a stack
// array that the library's SIMD column hashers then hash; when the stored
// bytes are the source's own (int64 into INT64, microseconds into
// TIMESTAMP(MICROS), double into DOUBLE) the hashers read the source itself,
// as bb_parquet_hash_column does. Every other conversion (decimals, text,
// floats into integers, INT96) goes row by row through the scalar rule.
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "src/columns/column_hashers.h"
#include "src/columns/column_view.h"
#include "src/columns/validity.h"
#include "src/parquet/values/value_convert.h"

namespace blockbloom::internal::parquet_value {
namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

bool IsSigned(uint32_t t) { return t >= BB_TYPE_INT8 && t <= BB_TYPE_INT64; }
bool IsUnsigned(uint32_t t) { return t >= BB_TYPE_UINT8 && t <= BB_TYPE_UINT64; }
bool IsByteArray(uint32_t t) { return t == BB_TYPE_BYTE_ARRAY || t == BB_TYPE_LARGE_BYTE_ARRAY; }

// Whether a column of element type c.type can hold values of the source kind.
bool Holds(const bb_value_source& s, const ColumnView& c) {
  const uint32_t t = c.type;
  switch (s.kind) {
    case BB_VALUE_INT: return IsSigned(t);
    case BB_VALUE_UINT: return IsUnsigned(t);
    case BB_VALUE_FLOAT: return t == BB_TYPE_FLOAT || t == BB_TYPE_DOUBLE;
    case BB_VALUE_DATE:
      return IsSigned(t) || (t == BB_TYPE_DATE32 && s.unit != BB_PARQUET_UNIT_MILLIS) ||
             (t == BB_TYPE_DATE64 && s.unit == BB_PARQUET_UNIT_MILLIS);
    case BB_VALUE_TIMESTAMP: return IsSigned(t) || t == BB_TYPE_TIMESTAMP;
    case BB_VALUE_TIME: return IsSigned(t) || t == BB_TYPE_TIME32 || t == BB_TYPE_TIME64;
    case BB_VALUE_DECIMAL:
      return IsSigned(t) || (t == BB_TYPE_FIXED_LEN_BYTE_ARRAY && (c.width == 16 || c.width == 32));
    case BB_VALUE_TEXT: return IsByteArray(t);
    case BB_VALUE_BYTES: return IsByteArray(t) || t == BB_TYPE_FIXED_LEN_BYTE_ARRAY;
    default: return true;  // BOOL: the plan refuses it
  }
}

int64_t LoadSigned(const ColumnView& c, size_t i) {
  const uint8_t* p = c.values + i * c.width;
  switch (c.width) {
    case 1: { int8_t v; std::memcpy(&v, p, 1); return v; }
    case 2: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { int32_t v; std::memcpy(&v, p, 4); return v; }
    default: { int64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

uint64_t LoadUnsigned(const ColumnView& c, size_t i) {
  const uint8_t* p = c.values + i * c.width;
  switch (c.width) {
    case 1: return p[0];
    case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

std::string_view Row(const ColumnView& c, size_t i) {
  if (!IsByteArray(c.type)) {
    return std::string_view(reinterpret_cast<const char*>(c.values + i * c.width), c.width);
  }
  int64_t begin, end;
  if (c.width == 4) {
    int32_t b, e;
    std::memcpy(&b, c.offsets + 4 * i, 4);
    std::memcpy(&e, c.offsets + 4 * i + 4, 4);
    begin = b, end = e;
  } else {
    std::memcpy(&begin, c.offsets + 8 * i, 8);
    std::memcpy(&end, c.offsets + 8 * i + 8, 8);
  }
  return std::string_view(reinterpret_cast<const char*>(c.data) + begin,
                          static_cast<size_t>(end - begin));
}

// Integer arithmetic that is the whole conversion: out = v * mul, or v / div
// when v % div == 0, in lo .. hi, stored as `width` little-endian bytes.
struct Linear {
  bool ok = false;
  int64_t mul = 1, div = 1;
  int64_t lo = kInt64Min, hi = kInt64Max;
  int width = 8;
  bool all_uint64 = false;  // UINT64 elements into UINT_64: every value, as its bits
  bool truncate = false;    // v / div toward zero, remainder or not (date64 into DATE)
};

Linear LinearOf(const Plan& p, const ColumnView& c) {
  const Rules& r = p.rules;
  const uint32_t kind = p.src.kind;
  const bool physical = (p.flags & BB_PARQUET_TEXT_PHYSICAL) != 0;
  Linear l;
  l.ok = true;
  l.width = r.width;
  if (r.kind == Kind::kInteger &&
      (kind == BB_VALUE_INT || kind == BB_VALUE_UINT ||
       (physical && (kind == BB_VALUE_DATE || kind == BB_VALUE_TIMESTAMP || kind == BB_VALUE_TIME)))) {
    l.lo = r.min < kInt64Min ? kInt64Min : static_cast<int64_t>(r.min);
    l.hi = r.max > kInt64Max ? kInt64Max : static_cast<int64_t>(r.max);
    l.all_uint64 = c.type == BB_TYPE_UINT64 && r.max > kInt64Max;
    return l;
  }
  const int64_t src_per_day = 86400 * PerSecond(p.src.unit);
  const int64_t a = PerSecond(p.src.unit), b = PerSecond(p.target_unit);
  if (kind == BB_VALUE_DATE && r.kind == Kind::kDate) {
    // date64: the day it falls in, as Arrow's Parquet writer stores it.
    l.div = p.src.unit == BB_PARQUET_UNIT_MILLIS ? 86400000 : 1;
    l.truncate = true;
    l.lo = kInt32Min, l.hi = kInt32Max;
  } else if (kind == BB_VALUE_DATE && r.kind == Kind::kTimestamp &&
             p.src.unit != BB_PARQUET_UNIT_MILLIS) {
    l.mul = 86400 * b;
  } else if (kind == BB_VALUE_TIMESTAMP && r.kind == Kind::kDate) {
    l.div = src_per_day;
    l.lo = kInt32Min, l.hi = kInt32Max;
  } else if ((kind == BB_VALUE_TIMESTAMP && r.kind == Kind::kTimestamp) ||
             (kind == BB_VALUE_TIME && r.kind == Kind::kTime)) {
    (b >= a ? l.mul : l.div) = b >= a ? b / a : a / b;
    if (r.kind == Kind::kTime) l.lo = 0, l.hi = 86400 * b;  // 24:00:00 included
  } else {
    l.ok = false;
  }
  return l;
}

// The range of values of an integer element type.
void ElementRange(uint32_t t, int64_t* lo, int64_t* hi) {
  switch (t) {
    case BB_TYPE_INT8: *lo = -128, *hi = 127; return;
    case BB_TYPE_INT16: *lo = -32768, *hi = 32767; return;
    case BB_TYPE_UINT8: *lo = 0, *hi = 255; return;
    case BB_TYPE_UINT16: *lo = 0, *hi = 65535; return;
    case BB_TYPE_UINT32: *lo = 0, *hi = 4294967295; return;
    case BB_TYPE_UINT64: *lo = 0, *hi = kInt64Max; return;  // the rest: see all_uint64
    default:
      if (t == BB_TYPE_INT32 || t == BB_TYPE_DATE32 || t == BB_TYPE_TIME32) {
        *lo = kInt32Min, *hi = kInt32Max;
      } else {
        *lo = kInt64Min, *hi = kInt64Max;
      }
  }
}

// The width bb_parquet_hash_column stores an integer element type as.
int HashedWidth(uint32_t t) {
  return t == BB_TYPE_INT64 || t == BB_TYPE_UINT64 || t == BB_TYPE_TIME64 ||
                 t == BB_TYPE_TIMESTAMP
             ? 8
             : 4;
}

// bits[k] bit j = ok[8k + j]: eight bools (bytes of 0 / 1) at a time, the
// multiply gathering byte i's low bit into bit i of the top byte.
void PackBits(const bool* ok, size_t n, uint8_t* bits) {
  size_t k = 0;
  for (; 8 * k + 8 <= n; ++k) {
    uint64_t x;
    std::memcpy(&x, ok + 8 * k, 8);
    bits[k] = static_cast<uint8_t>((x * 0x0102040810204080u) >> 56);
  }
  if (8 * k < n) {
    unsigned byte = 0;
    for (size_t j = 0; 8 * k + j < n; ++j) byte |= static_cast<unsigned>(ok[8 * k + j]) << j;
    bits[k] = static_cast<uint8_t>(byte);
  }
}

// The converted values of rows [0, n) of src (elements of type T) into out.
// Returns true when every row is in the type (or `checked` is false: the
// caller knows it), else false with whether each is into ok: loops without
// a branch per row, the common all-in case without a store per row besides
// the value. UINT64 elements past INT64_MAX (kBig) are in the type only for
// all_uint64.
template <typename T>
bool LinearRows(const Linear& l, const uint8_t* src, size_t n, bool checked, int64_t* out,
                bool* ok) {
  constexpr bool kBig = std::is_same<T, uint64_t>::value;
  auto load = [src](size_t i) {
    T x;
    std::memcpy(&x, src + i * sizeof(T), sizeof(T));
    return x;
  };
  if (!checked || l.all_uint64) {  // only the width changes
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(load(i));
    return true;
  }
  if (l.div > 1) {
    for (size_t i = 0; i < n; ++i) {
      const T x = load(i);
      const int64_t v = static_cast<int64_t>(x);
      const int64_t q = v / l.div;
      out[i] = q;
      ok[i] = (!kBig || (static_cast<uint64_t>(x) >> 63) == 0) & (l.truncate | (q * l.div == v)) & (q >= l.lo) &
              (q <= l.hi);
    }
    return false;
  }
  // out in lo .. hi  <=>  v in vlo .. vhi (rounded inward), one unsigned
  // compare; the product of a row outside is never used, and is computed
  // without overflow.
  const int64_t vlo = l.lo / l.mul + (l.lo > 0 && l.lo % l.mul != 0);
  const int64_t vhi = l.hi / l.mul - (l.hi < 0 && l.hi % l.mul != 0);
  const uint64_t mul = static_cast<uint64_t>(l.mul);
  const uint64_t span = static_cast<uint64_t>(vhi) - static_cast<uint64_t>(vlo);
  auto outside = [vlo, span](T x) {
    const uint64_t big = kBig ? static_cast<uint64_t>(x) >> 63 : 0;
    return big | (static_cast<uint64_t>(static_cast<int64_t>(x)) - static_cast<uint64_t>(vlo) > span);
  };
  uint64_t any = 0;
  for (size_t i = 0; i < n; ++i) {
    const T x = load(i);
    out[i] = static_cast<int64_t>(static_cast<uint64_t>(static_cast<int64_t>(x)) * mul);
    any |= outside(x);
  }
  if (any == 0) return true;
  for (size_t i = 0; i < n; ++i) ok[i] = outside(load(i)) == 0;
  return false;
}

bool LinearChunk(const Linear& l, const ColumnView& c, size_t start, size_t n, bool checked,
                 int64_t* out, bool* ok) {
  const uint8_t* src = c.values + start * c.width;
  switch (c.type) {
    case BB_TYPE_INT8: return LinearRows<int8_t>(l, src, n, checked, out, ok);
    case BB_TYPE_INT16: return LinearRows<int16_t>(l, src, n, checked, out, ok);
    case BB_TYPE_UINT8: return LinearRows<uint8_t>(l, src, n, checked, out, ok);
    case BB_TYPE_UINT16: return LinearRows<uint16_t>(l, src, n, checked, out, ok);
    case BB_TYPE_UINT32: return LinearRows<uint32_t>(l, src, n, checked, out, ok);
    case BB_TYPE_UINT64: return LinearRows<uint64_t>(l, src, n, checked, out, ok);
    default:
      if (c.width == 4) return LinearRows<int32_t>(l, src, n, checked, out, ok);
      return LinearRows<int64_t>(l, src, n, checked, out, ok);
  }
}

struct Output {
  uint64_t* hashes;
  uint8_t* in_type;
  size_t count = 0;
  // Row bits [start, start + n): ok and valid.
  void Bits(const ColumnView& c, size_t start, size_t n, const bool* ok) {
    uint8_t bits[kColumnChunk / 8], valid[kColumnChunk / 8];
    PackBits(ok, n, bits);
    if (c.validity != nullptr) {
      ExtractBits(c.validity, c.validity_offset + start, n, valid);
      AndBits(bits, valid, n);
    }
    Store(bits, start, n);
  }
  // Row bits [start, start + n) when every valid row is in the type.
  void Valid(const ColumnView& c, size_t start, size_t n) {
    uint8_t bits[kColumnChunk / 8];
    if (c.validity != nullptr) {
      ExtractBits(c.validity, c.validity_offset + start, n, bits);
      Store(bits, start, n);
      return;
    }
    count += n;
    if (in_type != nullptr) SetLowBits(in_type + start / 8, n);
  }
  void Store(const uint8_t* bits, size_t start, size_t n) {
    count += CountBits(bits, n);
    if (in_type != nullptr) std::memcpy(in_type + start / 8, bits, BitmapBytes(n));
  }
};

// Hashes n stored values of `width` bytes (4: int32 of out's low bits, 8:
// int64) through the column hashers.
void HashStored(const int64_t* out, size_t n, int width, uint64_t* hashes) {
  ColumnView v{};
  v.length = n;
  if (width == 8) {
    v.type = BB_TYPE_INT64;
    v.width = 8;
    v.values = reinterpret_cast<const uint8_t*>(out);
    ParquetChunkHasher(v)(v, 0, n, 0, hashes);
    return;
  }
  int32_t narrow[kColumnChunk];
  for (size_t i = 0; i < n; ++i) narrow[i] = static_cast<int32_t>(static_cast<uint64_t>(out[i]));
  v.type = BB_TYPE_INT32;
  v.width = 4;
  v.values = reinterpret_cast<const uint8_t*>(narrow);
  ParquetChunkHasher(v)(v, 0, n, 0, hashes);
}

// The stored bytes are the column's own, every valid row in the type: the
// column hashers read the column itself, as bb_parquet_hash_column does.
void RunDirect(const ColumnView& c, Output* o) {
  ColumnView plain = c;
  plain.validity = nullptr;
  const auto hash = ParquetChunkHasher(plain);
  for (size_t start = 0; start < c.length; start += kColumnChunk) {
    const size_t n = c.length - start < kColumnChunk ? c.length - start : kColumnChunk;
    hash(plain, start, n, 0, o->hashes + start);
    o->Valid(c, start, n);
  }
}

void RunLinear(const Linear& l, const ColumnView& c, Output* o) {
  int64_t elo = 0, ehi = 0;
  ElementRange(c.type, &elo, &ehi);
  const bool inside = l.all_uint64 || (elo >= l.lo && ehi <= l.hi && c.type != BB_TYPE_UINT64);
  // The source's bytes are the stored bytes: hash the column itself.
  const bool direct = l.mul == 1 && l.div == 1 && HashedWidth(c.type) == l.width &&
                      c.type != BB_TYPE_DATE64;
  if (direct && inside) return RunDirect(c, o);
  ColumnView plain = c;
  plain.validity = nullptr;
  const auto hash = ParquetChunkHasher(plain);
  int64_t out[kColumnChunk];
  bool ok[kColumnChunk];
  for (size_t start = 0; start < c.length; start += kColumnChunk) {
    const size_t n = c.length - start < kColumnChunk ? c.length - start : kColumnChunk;
    const bool all_in = LinearChunk(l, c, start, n, !(inside && l.mul == 1 && l.div == 1), out, ok);
    // Hashed in eighths, each after asking for an eighth of the next chunk's
    // values: they arrive from memory while this chunk is hashed, where the
    // conversion loop alone would wait for each line.
    const size_t next = start + n, ahead = next < c.length ? c.length - next : 0;
    const size_t ahead_bytes = (ahead < kColumnChunk ? ahead : kColumnChunk) * c.width;
    for (size_t part = 0; part < n; part += kColumnChunk / 8) {
      const size_t m = n - part < kColumnChunk / 8 ? n - part : kColumnChunk / 8;
      const size_t from = part / (kColumnChunk / 8) * ahead_bytes / 8;
      const size_t to = (part / (kColumnChunk / 8) + 1) * ahead_bytes / 8;
      for (size_t b = from; b < to; b += 64) __builtin_prefetch(c.values + next * c.width + b);
      if (direct) {
        hash(plain, start + part, m, 0, o->hashes + start + part);
      } else {
        HashStored(out + part, m, l.width, o->hashes + start + part);
      }
    }
    if (all_in) {
      o->Valid(c, start, n);
    } else {
      o->Bits(c, start, n, ok);
    }
  }
}

bool RowValid(const ColumnView& c, size_t i) {
  if (c.validity == nullptr) return true;
  const size_t bit = c.validity_offset + i;
  return ((c.validity[bit / 8] >> (bit % 8)) & 1) != 0;
}

// Row by row through the scalar rule.
int RunRows(const Plan& p, const ColumnView& c, Output* o, std::string* why) {
  std::string bytes, phrase;
  bool ok[kColumnChunk];
  for (size_t start = 0; start < c.length; start += kColumnChunk) {
    const size_t n = c.length - start < kColumnChunk ? c.length - start : kColumnChunk;
    for (size_t k = 0; k < n; ++k) {
      const size_t i = start + k;
      ok[k] = false;
      o->hashes[i] = 0;
      if (!RowValid(c, i)) continue;
      Value v;
      Exact exact;
      bool rescaled = false;
      int rc = BB_OK;
      switch (p.src.kind) {
        case BB_VALUE_UINT: v.u = LoadUnsigned(c, i); break;
        case BB_VALUE_FLOAT:
          if (c.type == BB_TYPE_FLOAT) {
            float f;
            std::memcpy(&f, c.values + 4 * i, 4);
            v.d = f;
          } else {
            std::memcpy(&v.d, c.values + 8 * i, 8);
          }
          break;
        case BB_VALUE_DECIMAL:
          if (p.rules.kind == Kind::kDecimal && c.width <= 16) {  // Int128 arithmetic
            Int128 u = 0;
            if (c.type == BB_TYPE_FIXED_LEN_BYTE_ARRAY) {
              UInt128 le = 0;
              for (size_t b = 16; b-- > 0;) le = le << 8 | c.values[i * 16 + b];
              u = static_cast<Int128>(le);
            } else {
              u = LoadSigned(c, i);
            }
            rescaled = true;
            rc = RescaledInto(p, u, p.src.scale, &bytes);
            break;
          }
          exact = c.type == BB_TYPE_FIXED_LEN_BYTE_ARRAY
                      ? ExactFromTwosComplement(c.values + i * c.width, c.width, p.src.scale)
                      : ExactFromInteger(LoadSigned(c, i), p.src.scale);
          v.exact = &exact;
          break;
        case BB_VALUE_TEXT:
        case BB_VALUE_BYTES: v.bytes = Row(c, i); break;
        default: v.i = LoadSigned(c, i);
      }
      if (!rescaled) rc = Convert(p, v, &bytes, &phrase);
      if (rc < 0) {
        *why = "row " + std::to_string(i) + ": text '" + std::string(v.bytes.substr(0, 40)) +
               "' " + phrase;
        return rc;
      }
      if (rc != BB_OK) continue;
      ok[k] = bb_parquet_hash_value(p.type.physical_type, p.type.type_length, bytes.data(),
                                    bytes.size(), &o->hashes[i]) == BB_OK;
    }
    o->Bits(c, start, n, ok);
  }
  return BB_OK;
}

int HashTypedColumn(const bb_parquet_column& type, const bb_value_source& src,
                    const bb_column* col, uint32_t flags, Output* o, std::string* why) {
  if (type.struct_size < sizeof(bb_parquet_column) || src.struct_size < sizeof(bb_value_source)) {
    *why = "a struct_size (of the column type or the value source) is too small";
    return BB_ERR_BUFFER_TOO_SMALL;
  }
  ColumnView c;
  int rc = CheckColumn(col, &c);
  if (rc == BB_OK && c.length > 0 && o->hashes == nullptr) rc = BB_ERR_NULL_POINTER;
  if (rc == BB_OK) rc = CheckOffsets(c);
  if (rc != BB_OK) {
    *why = bb_status_message(rc);
    return rc;
  }
  const Plan p = MakePlan(type, src, flags);
  if (p.rc != BB_OK) {
    *why = p.rc == BB_ERR_PARQUET_UNSUPPORTED ? p.why : "a column of " + SourceWords(src) + p.why;
    return p.rc;
  }
  if (!Holds(src, c)) {
    *why = "a bb_column of this element type cannot hold " + SourceWords(src) +
           " (see bb_parquet_hash_typed_column)";
    return BB_ERR_VALUE_KIND;
  }
  const Linear l = LinearOf(p, c);
  if (l.ok && !IsByteArray(c.type) && c.type != BB_TYPE_FIXED_LEN_BYTE_ARRAY &&
      src.kind != BB_VALUE_DECIMAL) {
    RunLinear(l, c, o);
    return BB_OK;
  }
  // float32 into FLOAT, double into DOUBLE: the bits as they are, NaNs too
  // (sign and payload), as a writer hashes what it stores.
  if (src.kind == BB_VALUE_FLOAT && ((c.type == BB_TYPE_FLOAT && p.rules.kind == Kind::kFloat) ||
                                     (c.type == BB_TYPE_DOUBLE && p.rules.kind == Kind::kDouble))) {
    RunDirect(c, o);
    return BB_OK;
  }
  return RunRows(p, c, o, why);
}

}  // namespace
}  // namespace blockbloom::internal::parquet_value

extern "C" int bb_parquet_hash_typed_column(const bb_parquet_column* type,
                                            const bb_value_source* src, const bb_column* col,
                                            uint32_t flags, uint64_t* hashes, uint8_t* in_type,
                                            size_t* num_in_type, char* error,
                                            size_t error_capacity) {
  namespace in = blockbloom::internal::parquet_value;
  if (type == nullptr || src == nullptr || col == nullptr) {
    in::SayError("a NULL pointer was passed", error, error_capacity);
    return BB_ERR_NULL_POINTER;
  }
  in::Output o;
  o.hashes = hashes;
  o.in_type = in_type;
  std::string why;
  const int rc = in::HashTypedColumn(*type, *src, col, flags, &o, &why);
  if (rc != BB_OK) {
    in::SayError(why, error, error_capacity);
    return rc;
  }
  if (num_in_type != nullptr) *num_in_type = o.count;
  return BB_OK;
}
