// SPDX-License-Identifier: Apache-2.0
// blockbloom/arrow.hpp: random ArrowSchema / ArrowArray structures (formats
// the adapter takes and garbage; offsets, lengths, null counts, buffer and
// child counts; int32 / int64 string offsets out of order or huge; views
// inline and out of line, their buffer indices and offsets in range or not;
// dictionaries with indices of any width inside or outside them) over
// buffers this target owns, each exactly as large as the array claims, so
// ASan sees any read past them. Claims past those buffers are only ever
// made past what memory can hold (more than 2^57 bytes), where the adapter
// must refuse before reading: a claim in between is a producer's lie no
// reader can detect (the C Data Interface gives no buffer sizes).
//
// Oracle, written here from the Arrow spec and arrow.hpp's documented rule:
// - accept / refuse: the format's support per layout (a table here), then the
//   array's counts, n_buffers, buffers present, positions within 2^57 bytes,
//   offsets monotone within [0, last], views within their variadic sizes,
//   valid rows' dictionary indices below the dictionary's length. validate()
//   in both layouts, insert and find_bitmap must give the expected status,
//   and a refused call changes no filter;
// - hashes: when accepted, the filters equal those of the typed-column calls
//   on the same logical rows gathered here (Parquet: bb_parquet_hash_typed_column
//   into the type bb_parquet_type_of_source gives, a valid row outside it
//   refusing the insert; Kudu: bb_insert_column), and so do the probes.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "blockbloom/arrow.hpp"
#include "blockbloom/kudu.h"
#include "fuzz_input.h"

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

constexpr int64_t kMemory = int64_t{1} << 57;  // arrow.hpp's bound on one buffer's bytes
constexpr uint32_t kKuduSeed = 0x5eed;

enum Layout { kFixed, kOffsets32, kOffsets64, kViews };

// A format, how Arrow lays it out, and what each filter layout makes of it.
struct Format {
  const char* name;
  Layout layout;
  size_t stride;          // bytes per Arrow value (fixed)
  bool parquet, kudu;     // taken (the adapter's table; refused: BB_ERR_ARROW_UNSUPPORTED_TYPE)
  uint32_t parquet_type;  // the column the Parquet reference hashes: its values as this type
  size_t parquet_width;   // bytes per reference value (0: byte array)
  bb_value_source src;
  uint32_t kudu_type;     // the Kudu reference column
  size_t kudu_width;      // its bytes per value (low-order bytes of the Arrow value)
};

bb_value_source Src(uint32_t kind, int32_t bits = 0, int32_t unit = 0, int32_t zone = 0, int32_t scale = 0,
                    int32_t precision = 0) {
  return bb_value_source{sizeof(bb_value_source), kind, bits, unit, zone, scale, precision};
}

const Format kFormats[] = {
    {"c", kFixed, 1, true, true, BB_TYPE_INT8, 1, Src(BB_VALUE_INT, 8), BB_TYPE_INT8, 1},
    {"s", kFixed, 2, true, true, BB_TYPE_INT16, 2, Src(BB_VALUE_INT, 16), BB_TYPE_INT16, 2},
    {"i", kFixed, 4, true, true, BB_TYPE_INT32, 4, Src(BB_VALUE_INT, 32), BB_TYPE_INT32, 4},
    {"l", kFixed, 8, true, true, BB_TYPE_INT64, 8, Src(BB_VALUE_INT, 64), BB_TYPE_INT64, 8},
    {"C", kFixed, 1, true, true, BB_TYPE_UINT8, 1, Src(BB_VALUE_UINT, 8), BB_TYPE_UINT8, 1},
    {"L", kFixed, 8, true, true, BB_TYPE_UINT64, 8, Src(BB_VALUE_UINT, 64), BB_TYPE_UINT64, 8},
    {"e", kFixed, 2, true, false, BB_TYPE_FLOAT, 4, Src(BB_VALUE_FLOAT, 16), 0, 0},
    {"f", kFixed, 4, true, true, BB_TYPE_FLOAT, 4, Src(BB_VALUE_FLOAT, 32), BB_TYPE_FLOAT, 4},
    {"g", kFixed, 8, true, true, BB_TYPE_DOUBLE, 8, Src(BB_VALUE_FLOAT, 64), BB_TYPE_DOUBLE, 8},
    {"tdD", kFixed, 4, true, true, BB_TYPE_INT32, 4, Src(BB_VALUE_DATE, 0, BB_VALUE_UNIT_DAYS), BB_TYPE_DATE32, 4},
    {"tdm", kFixed, 8, true, true, BB_TYPE_INT64, 8, Src(BB_VALUE_DATE, 0, BB_PARQUET_UNIT_MILLIS), BB_TYPE_DATE64,
     8},
    {"ttm", kFixed, 4, true, true, BB_TYPE_INT32, 4, Src(BB_VALUE_TIME, 0, BB_PARQUET_UNIT_MILLIS), BB_TYPE_TIME32,
     4},
    {"ttn", kFixed, 8, true, true, BB_TYPE_INT64, 8, Src(BB_VALUE_TIME, 0, BB_PARQUET_UNIT_NANOS), BB_TYPE_TIME64, 8},
    {"tss:", kFixed, 8, true, true, BB_TYPE_INT64, 8,
     Src(BB_VALUE_TIMESTAMP, 0, BB_VALUE_UNIT_SECONDS, BB_VALUE_ZONE_NAIVE), BB_TYPE_TIMESTAMP, 8},
    {"tsu:UTC", kFixed, 8, true, true, BB_TYPE_INT64, 8,
     Src(BB_VALUE_TIMESTAMP, 0, BB_PARQUET_UNIT_MICROS, BB_VALUE_ZONE_UTC), BB_TYPE_TIMESTAMP, 8},
    {"d:9,2,32", kFixed, 4, true, true, BB_TYPE_INT32, 4, Src(BB_VALUE_DECIMAL, 0, 0, 0, 2, 9), BB_TYPE_INT32, 4},
    {"d:18,3,64", kFixed, 8, true, true, BB_TYPE_INT64, 8, Src(BB_VALUE_DECIMAL, 0, 0, 0, 3, 18), BB_TYPE_INT64, 8},
    {"d:5,1", kFixed, 16, true, true, BB_TYPE_FIXED_LEN_BYTE_ARRAY, 16, Src(BB_VALUE_DECIMAL, 0, 0, 0, 1, 5),
     BB_TYPE_INT32, 4},
    {"d:20,4", kFixed, 16, true, true, BB_TYPE_FIXED_LEN_BYTE_ARRAY, 16, Src(BB_VALUE_DECIMAL, 0, 0, 0, 4, 20),
     BB_TYPE_FIXED_LEN_BYTE_ARRAY, 16},
    {"d:40,2,256", kFixed, 32, true, false, BB_TYPE_FIXED_LEN_BYTE_ARRAY, 32, Src(BB_VALUE_DECIMAL, 0, 0, 0, 2, 40),
     0, 0},
    {"d:5,-1", kFixed, 16, false, true, 0, 0, Src(0), BB_TYPE_INT32, 4},  // a negative scale: Kudu only
    {"w:3", kFixed, 3, true, true, BB_TYPE_LARGE_BYTE_ARRAY, 0, Src(BB_VALUE_BYTES), BB_TYPE_FIXED_LEN_BYTE_ARRAY, 3},
    {"w:16", kFixed, 16, true, true, BB_TYPE_LARGE_BYTE_ARRAY, 0, Src(BB_VALUE_BYTES), BB_TYPE_FIXED_LEN_BYTE_ARRAY,
     16},
    {"u", kOffsets32, 0, true, true, BB_TYPE_LARGE_BYTE_ARRAY, 0, Src(BB_VALUE_TEXT), BB_TYPE_LARGE_BYTE_ARRAY, 0},
    {"z", kOffsets32, 0, true, true, BB_TYPE_LARGE_BYTE_ARRAY, 0, Src(BB_VALUE_BYTES), BB_TYPE_LARGE_BYTE_ARRAY, 0},
    {"U", kOffsets64, 0, true, true, BB_TYPE_LARGE_BYTE_ARRAY, 0, Src(BB_VALUE_TEXT), BB_TYPE_LARGE_BYTE_ARRAY, 0},
    {"Z", kOffsets64, 0, true, true, BB_TYPE_LARGE_BYTE_ARRAY, 0, Src(BB_VALUE_BYTES), BB_TYPE_LARGE_BYTE_ARRAY, 0},
    {"vu", kViews, 0, true, true, BB_TYPE_LARGE_BYTE_ARRAY, 0, Src(BB_VALUE_TEXT), BB_TYPE_LARGE_BYTE_ARRAY, 0},
    {"vz", kViews, 0, true, true, BB_TYPE_LARGE_BYTE_ARRAY, 0, Src(BB_VALUE_BYTES), BB_TYPE_LARGE_BYTE_ARRAY, 0},
    // Garbage: no layout takes these.
    {"b", kFixed, 1, false, false, 0, 0, Src(0), 0, 0},
    {"+l", kFixed, 1, false, false, 0, 0, Src(0), 0, 0},
    {"d:50,2", kFixed, 16, false, false, 0, 0, Src(0), 0, 0},
    {"w:0", kFixed, 1, false, false, 0, 0, Src(0), 0, 0},
    {"tsx:", kFixed, 8, false, false, 0, 0, Src(0), 0, 0},
    {"", kFixed, 1, false, false, 0, 0, Src(0), 0, 0},
    {"vx", kViews, 0, false, false, 0, 0, Src(0), 0, 0},
};
constexpr size_t kNumFormats = sizeof kFormats / sizeof kFormats[0];

// Dictionary index formats: integers (signed or not) and two that are not.
struct IndexFormat {
  const char* name;
  size_t width;
  bool is_signed;
  bool integer;
};
const IndexFormat kIndexFormats[] = {{"c", 1, true, true},  {"C", 1, false, true}, {"s", 2, true, true},
                                     {"S", 2, false, true}, {"i", 4, true, true},  {"I", 4, false, true},
                                     {"l", 8, true, true},  {"L", 8, false, true}, {"f", 4, true, false},
                                     {"u", 4, true, false}};

// Offsets and lengths past what memory holds: refused whatever the width.
const int64_t kHostile[] = {kMemory + 1, int64_t{1} << 60, (int64_t{1} << 61) + 1, int64_t{1} << 62, INT64_MAX};

using Bytes = std::vector<uint8_t>;

bool BitOf(const Bytes& bits, size_t i) { return ((bits[i / 8] >> (i % 8)) & 1u) != 0; }

// One generated array: its buffers (each exactly the claimed size), its
// structs, and what the oracle knows of it.
struct Built {
  ArrowSchema schema{};
  ArrowArray array{};
  std::vector<Bytes> buffers;
  std::vector<bool> null_buffer;  // buffer i given as NULL
  std::vector<const void*> pointers;
  std::vector<int64_t> sizes;  // views: the variadic sizes
  bool hostile = false;        // positions past memory
  bool malformed = false;      // the oracle's verdict on the structure
  std::vector<bool> valid;     // per row (when not hostile and not malformed)
  std::vector<std::string> rows;  // per row, its Arrow value's bytes
};

void ReleaseSchema(ArrowSchema* s) { s->release = nullptr; }
void ReleaseArray(ArrowArray* a) { a->release = nullptr; }

// length / offset / null_count / n_children / n_buffers, and the validity bitmap.
struct Counts {
  int64_t length, offset, null_count, n_children, n_buffers;
  bool validity;
};

// Builds the values array of format f (or dictionary indices of width w).
class Generator {
 public:
  explicit Generator(bbfuzz::FuzzInput* in) : in_(in) {}

  uint8_t Byte() { return in_->Take<uint8_t>(); }

  // Whether the main buffer's positions (stride bytes each) cannot fit in
  // memory: the arrays the adapter must refuse before any read.
  static bool PastMemory(const Counts& c, size_t stride) {
    return c.length > kMemory || c.offset > kMemory || c.offset + c.length > kMemory / static_cast<int64_t>(stride);
  }

  // Counts: mostly small and honest, sometimes hostile or off the spec.
  // stride: the bytes of one position in the array's main buffer; a count
  // within kMemory positions whose bytes are not (kMemory / stride + 1 and
  // a little more) tests that the bound is on bytes, not positions.
  Counts Choose(int64_t natural_buffers, size_t stride) {
    Counts c;
    const uint8_t shape = Byte();
    c.length = Byte() % 40;
    c.offset = Byte() % 9;
    const int64_t past_in_bytes = kMemory / static_cast<int64_t>(stride) + 1 + Byte() % 3;
    if (shape % 16 == 1) c.length = kHostile[Byte() % 5];
    if (shape % 16 == 2) c.offset = kHostile[Byte() % 5];
    if (shape % 16 == 3) c.length = past_in_bytes;
    if (shape % 16 == 4) c.offset = past_in_bytes;
    c.validity = (shape & 0x20) == 0;
    c.n_children = shape % 29 == 3 ? 1 : 0;
    c.n_buffers = natural_buffers;
    const uint8_t b = Byte();
    if (b % 23 == 1) c.n_buffers = natural_buffers - 1;
    if (b % 23 == 2) c.n_buffers = natural_buffers + 1;
    if (b % 23 == 3) c.n_buffers = int64_t{1} << 61;
    c.null_count = 0;  // set once the validity is known
    return c;
  }

  // The null_count the spec allows (mostly) or not.
  int64_t NullCount(int64_t nulls, int64_t length) {
    switch (Byte() % 24) {
      case 0: return -1;
      case 1: return length < INT64_MAX ? length + 1 : -2;
      case 2: return -2;
      default: return nulls;
    }
  }

  // A fixed-width / offsets / views array of format f.
  void Values(const Format& f, Built* b) {
    const int64_t natural = f.layout == kViews ? 3 : f.layout == kFixed ? 2 : 3;
    const size_t stride = f.layout == kViews ? 16 : f.layout == kFixed ? std::max<size_t>(f.stride, 1)
                          : f.layout == kOffsets64                   ? 8
                                                                     : 4;
    Counts c = Choose(natural, stride);
    size_t variadic = 0;
    if (f.layout == kViews) {
      variadic = Byte() % 3;
      if (c.n_buffers == natural) c.n_buffers = 3 + static_cast<int64_t>(variadic);
      else if (c.n_buffers == natural + 1) c.n_buffers = 2;  // never more buffers than given
    } else if (c.n_buffers == natural + 1 && Byte() % 2 == 0) {
      c.n_buffers = natural;
    }
    b->hostile = PastMemory(c, stride);
    const size_t positions = b->hostile ? 4 : static_cast<size_t>(c.offset + c.length);
    // Validity, honest for the positions.
    Bytes validity(positions / 8 + 1, 0);
    for (auto& byte : validity) byte = Byte();
    int64_t nulls = 0;
    if (!b->hostile) {
      for (size_t i = 0; i < static_cast<size_t>(c.length); ++i) nulls += BitOf(validity, c.offset + i) ? 0 : 1;
    }
    if (!c.validity) nulls = 0;
    c.null_count = NullCount(nulls, c.length);
    if (!c.validity && Byte() % 8 == 0) c.null_count = 1;  // nulls counted, no bitmap
    b->buffers.push_back(c.validity ? validity : Bytes());
    b->null_buffer.push_back(!c.validity);
    const bool values_null = Byte() % 16 == 0;
    if (f.layout == kFixed) {
      Bytes values(positions * f.stride);
      const bool small = Byte() % 2 == 0;  // values in any type's range
      for (size_t i = 0; i < values.size(); ++i) values[i] = small && i % f.stride >= 1 ? 0 : Byte();
      b->buffers.push_back(values);
      b->null_buffer.push_back(false);
    } else if (f.layout == kViews) {
      Views(c, positions, variadic, b);
    } else {
      Offsets(f.layout == kOffsets64, c, positions, b);
    }
    if (values_null) b->null_buffer[1] = true;
    Finish(f.name, c, b);
    b->malformed = Malformed(f, c, *b);
    if (!b->malformed && !b->hostile) Rows(f, c, b);
  }

  // Dictionary indices of format x into a dictionary of dict_length rows.
  void Indices(const IndexFormat& x, int64_t dict_length, Built* b) {
    Counts c = Choose(2, x.width);
    if (c.n_buffers > 2 && c.n_buffers < 100) c.n_buffers = 2;
    b->hostile = PastMemory(c, x.width);
    const size_t positions = b->hostile ? 4 : static_cast<size_t>(c.offset + c.length);
    Bytes validity(positions / 8 + 1, 0);
    for (auto& byte : validity) byte = Byte();
    int64_t nulls = 0;
    if (!b->hostile && c.validity) {
      for (size_t i = 0; i < static_cast<size_t>(c.length); ++i) nulls += BitOf(validity, c.offset + i) ? 0 : 1;
    }
    c.null_count = NullCount(nulls, c.length);
    b->buffers.push_back(c.validity ? validity : Bytes());
    b->null_buffer.push_back(!c.validity);
    Bytes values(positions * x.width);
    for (size_t i = 0; i < positions; ++i) {
      // Mostly inside the dictionary; sometimes -1, its length, or any bytes.
      const uint8_t how = Byte();
      int64_t v = dict_length > 0 ? static_cast<int64_t>(Byte()) % dict_length : 0;
      if (how % 61 == 1) v = -1;
      if (how % 61 == 2) v = dict_length;
      std::memcpy(values.data() + i * x.width, &v, x.width);  // little-endian low bytes
      if (how % 61 == 3) {
        for (size_t k = 0; k < x.width; ++k) values[i * x.width + k] = Byte();
      }
    }
    b->buffers.push_back(values);
    b->null_buffer.push_back(false);
    Finish(x.name, c, b);
    b->valid.assign(b->hostile ? 0 : static_cast<size_t>(c.length), true);
    b->malformed = b->hostile || BadCounts(c) || c.n_buffers != 2 || (!c.validity && c.null_count > 0) ||
                   (c.length > 0 && b->null_buffer[1]);
    if (b->malformed || !c.validity) return;
    for (size_t i = 0; i < static_cast<size_t>(c.length); ++i) b->valid[i] = BitOf(validity, c.offset + i);
  }

  // Row i's index as the format reads it; false outside 0 .. size - 1.
  static bool Index(const IndexFormat& x, const Built& b, size_t i, int64_t size, size_t* out) {
    const uint8_t* p = b.buffers[1].data() + (static_cast<size_t>(b.array.offset) + i) * x.width;
    uint64_t u = 0;
    std::memcpy(&u, p, x.width);
    if (x.is_signed && x.width < 8 && (u >> (8 * x.width - 1)) != 0) return false;  // negative
    if (x.is_signed && x.width == 8 && static_cast<int64_t>(u) < 0) return false;
    if (u >= static_cast<uint64_t>(size)) return false;
    *out = static_cast<size_t>(u);
    return true;
  }

 private:
  static bool BadCounts(const Counts& c) {
    return c.length < 0 || c.offset < 0 || c.n_buffers < 0 || c.n_children != 0 || c.null_count < -1 ||
           c.null_count > c.length;
  }

  void Views(const Counts& c, size_t positions, size_t variadic, Built* b) {
    std::vector<Bytes> heaps(variadic);
    for (Bytes& h : heaps) {
      h.resize(Byte() % 48);
      for (auto& byte : h) byte = Byte();
    }
    Bytes views(positions * 16, 0);
    for (size_t i = 0; i < positions; ++i) {
      uint8_t* v = views.data() + i * 16;
      const uint8_t how = Byte();
      int32_t len = static_cast<int32_t>(Byte() % 24);
      if (how % 13 == 1) len = -1;
      std::memcpy(v, &len, 4);
      if (len <= 12) {
        for (int k = 0; k < 12; ++k) v[4 + k] = k < len ? Byte() : 0;
        continue;
      }
      int32_t index = variadic != 0 ? static_cast<int32_t>(Byte() % variadic) : 0;
      int32_t offset = 0;
      if (index < static_cast<int32_t>(variadic)) {
        const int32_t size = static_cast<int32_t>(heaps[index].size());
        offset = size > len ? static_cast<int32_t>(Byte() % (size - len + 1)) : 0;
      }
      if (how % 13 == 2) index = static_cast<int32_t>(variadic);  // past the buffers
      if (how % 13 == 3) index = -1;
      if (how % 13 == 4) offset = -1;
      if (how % 13 == 5) offset += 1000;
      if (variadic != 0 && index >= 0 && index < static_cast<int32_t>(variadic) && offset >= 0 &&
          static_cast<size_t>(offset) + static_cast<size_t>(len) <= heaps[index].size()) {
        std::memcpy(v + 4, heaps[index].data() + offset, 4);  // the prefix
      }
      std::memcpy(v + 8, &index, 4);
      std::memcpy(v + 12, &offset, 4);
    }
    b->buffers.push_back(views);
    b->null_buffer.push_back(false);
    for (size_t k = 0; k < variadic; ++k) {
      b->sizes.push_back(static_cast<int64_t>(heaps[k].size()));
      b->buffers.push_back(heaps[k]);
      b->null_buffer.push_back(heaps[k].empty() && Byte() % 2 == 0);
    }
    if (variadic != 0 && Byte() % 9 == 0) b->sizes[0] = -1;  // a negative size claimed
    Bytes sizes(b->sizes.size() * 8);
    if (!sizes.empty()) std::memcpy(sizes.data(), b->sizes.data(), sizes.size());
    b->buffers.push_back(sizes);
    b->null_buffer.push_back(sizes.empty() || Byte() % 29 == 0);
    (void)c;
  }

  void Offsets(bool wide, const Counts& c, size_t positions, Built* b) {
    std::vector<int64_t> o(positions + 1);
    o[0] = Byte() % 4;
    for (size_t i = 1; i <= positions; ++i) o[i] = o[i - 1] + Byte() % 9;
    const uint8_t how = Byte();
    const size_t at = positions != 0 ? Byte() % (positions + 1) : 0;
    if (how % 7 == 1) o[at] = -1;
    if (how % 7 == 2 && at > 0) o[at] = o[at - 1] - 1;
    if (how % 7 == 3 && at < positions) o[at] = o[positions] + 1;
    if (how % 7 == 4 && wide) o[positions] = kHostile[Byte() % 5];  // the last: data past memory
    Bytes offsets((positions + 1) * (wide ? 8 : 4));
    for (size_t i = 0; i <= positions; ++i) {
      if (wide) {
        std::memcpy(offsets.data() + i * 8, &o[i], 8);
      } else {
        const int32_t v = static_cast<int32_t>(o[i]);
        std::memcpy(offsets.data() + i * 4, &v, 4);
      }
    }
    b->buffers.push_back(offsets);
    b->null_buffer.push_back(false);
    // The data: as many bytes as the last offset of the slice says, when that can be.
    const int64_t last = b->hostile ? 0 : o[static_cast<size_t>(c.offset + c.length)];
    Bytes data(last > 0 && last < 4096 ? static_cast<size_t>(last) : 0);
    for (auto& byte : data) byte = Byte();
    b->buffers.push_back(data);
    b->null_buffer.push_back(data.empty() && Byte() % 2 == 0);
  }

  void Finish(const char* format, const Counts& c, Built* b) {
    b->pointers.clear();
    for (size_t i = 0; i < b->buffers.size(); ++i) {
      // An empty buffer is a distinct non-NULL pointer (a zero-size
      // allocation) unless it is given as NULL.
      if (b->buffers[i].empty() && !b->null_buffer[i]) b->buffers[i].reserve(1);
      b->pointers.push_back(b->null_buffer[i] ? nullptr : b->buffers[i].data());
    }
    // Never fewer pointers than n_buffers claims (when it claims a few).
    while (c.n_buffers > 0 && c.n_buffers < 16 && b->pointers.size() < static_cast<size_t>(c.n_buffers)) {
      b->pointers.push_back(nullptr);
    }
    b->schema = ArrowSchema{format, "col", nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr, ReleaseSchema, nullptr};
    b->array = ArrowArray{c.length, c.null_count, c.offset, c.n_buffers, c.n_children, b->pointers.data(),
                          nullptr, nullptr, ReleaseArray, nullptr};
  }

  // The spec's verdict on a values array (the adapter's documented rule:
  // every buffer fits offset + length positions in 2^57 bytes).
  bool Malformed(const Format& f, const Counts& c, const Built& b) const {
    if (BadCounts(c)) return true;
    if (f.layout == kViews ? c.n_buffers < 3 : c.n_buffers != (f.layout == kFixed ? 2 : 3)) return true;
    if (c.n_buffers > (int64_t{1} << 50)) return true;  // the buffers array itself past memory
    if (!c.validity && c.null_count > 0) return true;
    if (b.hostile) return true;  // past memory in every buffer
    if (c.length == 0) return false;
    if (b.null_buffer[1]) return true;
    const size_t off = static_cast<size_t>(c.offset), n = static_cast<size_t>(c.length);
    if (f.layout == kOffsets32 || f.layout == kOffsets64) {
      const bool wide = f.layout == kOffsets64;
      auto at = [&](size_t i) -> int64_t {
        if (wide) {
          int64_t v;
          std::memcpy(&v, b.buffers[1].data() + i * 8, 8);
          return v;
        }
        int32_t v;
        std::memcpy(&v, b.buffers[1].data() + i * 4, 4);
        return v;
      };
      const int64_t first = at(off), last = at(off + n);
      if (first < 0 || last < first || last > kMemory) return true;
      for (size_t i = off; i < off + n; ++i) {
        if (at(i) < 0 || at(i + 1) < at(i) || at(i + 1) > last) return true;
      }
      if (last != 0 && b.null_buffer[2]) return true;
      return false;
    }
    if (f.layout == kViews) {
      const size_t variadic = static_cast<size_t>(c.n_buffers - 3);
      if (variadic != 0 && b.null_buffer.back()) return true;
      for (size_t i = 0; i < n; ++i) {
        if (c.validity && !BitOf(b.buffers[0], off + i)) continue;  // a null row's view is not read
        const uint8_t* v = b.buffers[1].data() + (off + i) * 16;
        int32_t len, index, offset;
        std::memcpy(&len, v, 4);
        std::memcpy(&index, v + 8, 4);
        std::memcpy(&offset, v + 12, 4);
        if (len < 0) return true;
        if (len <= 12) continue;
        if (index < 0 || static_cast<size_t>(index) >= variadic || offset < 0) return true;
        if (b.null_buffer[2 + static_cast<size_t>(index)]) return true;
        if (static_cast<int64_t>(offset) + len > b.sizes[static_cast<size_t>(index)]) return true;
      }
    }
    return false;
  }

  // The logical rows of an accepted array.
  void Rows(const Format& f, const Counts& c, Built* b) {
    const size_t off = static_cast<size_t>(c.offset), n = static_cast<size_t>(c.length);
    b->valid.assign(n, true);
    b->rows.assign(n, std::string());
    for (size_t i = 0; i < n; ++i) {
      if (c.validity) b->valid[i] = BitOf(b->buffers[0], off + i);
      if (f.layout == kFixed) {
        b->rows[i].assign(reinterpret_cast<const char*>(b->buffers[1].data()) + (off + i) * f.stride, f.stride);
      } else if (f.layout == kViews) {
        if (!b->valid[i]) continue;
        const uint8_t* v = b->buffers[1].data() + (off + i) * 16;
        int32_t len, index, offset;
        std::memcpy(&len, v, 4);
        std::memcpy(&index, v + 8, 4);
        std::memcpy(&offset, v + 12, 4);
        const uint8_t* p = len <= 12 ? v + 4 : b->buffers[2 + static_cast<size_t>(index)].data() + offset;
        b->rows[i].assign(reinterpret_cast<const char*>(p), static_cast<size_t>(len));
      } else {
        const bool wide = f.layout == kOffsets64;
        int64_t lo = 0, hi = 0;
        if (wide) {
          std::memcpy(&lo, b->buffers[1].data() + (off + i) * 8, 8);
          std::memcpy(&hi, b->buffers[1].data() + (off + i + 1) * 8, 8);
        } else {
          int32_t l, h;
          std::memcpy(&l, b->buffers[1].data() + (off + i) * 4, 4);
          std::memcpy(&h, b->buffers[1].data() + (off + i + 1) * 4, 4);
          lo = l;
          hi = h;
        }
        b->rows[i].assign(reinterpret_cast<const char*>(b->buffers[2].data()) + lo, static_cast<size_t>(hi - lo));
      }
    }
  }

  bbfuzz::FuzzInput* in_;
};

// An IEEE half as the float it equals (a NaN keeps its payload, shifted).
float Half(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h >> 15) << 31;
  const uint32_t e = (h >> 10) & 31u, m = h & 0x3ffu;
  float f;
  if (e == 31) {
    const uint32_t bits = sign | 0x7f800000u | (m << 13);
    std::memcpy(&f, &bits, 4);
    return f;
  }
  f = e == 0 ? std::ldexp(static_cast<float>(m), -24) : std::ldexp(static_cast<float>(m | 0x400u), static_cast<int>(e) - 25);
  return sign != 0 ? -f : f;
}

// The reference column of the rows: values as the reference type, nulls
// holding nothing (or zeros).
struct Reference {
  bb_column column = BB_COLUMN_INIT;
  Bytes values, validity, data;
  std::vector<int64_t> offsets;

  Reference(uint32_t type, size_t width, const Format& f, const std::vector<bool>& valid,
            const std::vector<std::string>& rows, bool widen_half) {
    const size_t n = valid.size();
    validity.assign(n / 8 + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      if (valid[i]) validity[i / 8] = static_cast<uint8_t>(validity[i / 8] | (1u << (i % 8)));
    }
    column.type = type;
    column.length = n;
    column.validity = validity.data();
    if (width == 0) {
      offsets.push_back(0);
      for (size_t i = 0; i < n; ++i) {
        if (valid[i]) data.insert(data.end(), rows[i].begin(), rows[i].end());
        offsets.push_back(static_cast<int64_t>(data.size()));
      }
      data.push_back(0);
      column.offsets = offsets.data();
      column.data = data.data();
      column.data_len = data.size() - 1;
      return;
    }
    values.assign(n * width + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      if (widen_half) {
        uint16_t h;
        std::memcpy(&h, rows[i].data(), 2);
        const float v = Half(h);
        std::memcpy(values.data() + i * 4, &v, 4);
      } else {
        std::memcpy(values.data() + i * width, rows[i].data(), width < f.stride ? width : f.stride);  // low bytes (LE)
      }
    }
    if (type == BB_TYPE_FIXED_LEN_BYTE_ARRAY) column.width = width;
    column.values = values.data();
  }
};

struct Filter {
  bb_filter f{};
  explicit Filter(bool kudu) { Check((kudu ? bb_kudu_filter_init(&f, 10, kKuduSeed) : bb_filter_init(&f, 1024)) == BB_OK); }
  ~Filter() { bb_filter_release(&f); }
  Bytes bytes() const { return Bytes(f.data, f.data + f.num_bytes); }
};

// The oracle's expected hashes and statuses for a Parquet filter, compared with the adapter's.
void CheckParquet(const Format& f, const std::vector<bool>& valid, const std::vector<std::string>& rows,
                  const ArrowSchema& s, const ArrowArray& a) {
  bb_parquet_column type{};
  type.struct_size = sizeof type;
  Filter adapter(false), reference(false);
  int typed = bb_parquet_type_of_source(&f.src, &type);
  if (typed >= 0 && f.name[0] == 'w') {  // fixed_size_binary(N): FIXED_LEN_BYTE_ARRAY(N)
    type.physical_type = BB_PARQUET_FIXED_LEN_BYTE_ARRAY;
    type.type_length = static_cast<int32_t>(f.stride);
  }
  const int inserted = blockbloom::arrow::insert(&adapter.f, &s, &a);
  if (typed < 0) {
    Check(inserted == typed);
    Check(adapter.bytes() == reference.bytes());
    return;
  }
  const Reference ref(f.parquet_type, f.parquet_width, f, valid, rows, f.name[0] == 'e');
  const size_t n = valid.size();
  std::vector<uint64_t> hashes(n + 1, 0);
  Bytes in_type(n / 8 + 1, 0);
  char error[BB_PARQUET_VALUE_ERROR_MAX] = "";
  const int hashed =
      bb_parquet_hash_typed_column(&type, &f.src, &ref.column, 0, hashes.data(), in_type.data(), nullptr, error,
                                   sizeof error);
  if (hashed < 0) {
    Check(inserted == hashed);
    Check(adapter.bytes() == reference.bytes());
    Bytes bitmap(n / 8 + 1, 0);
    Check(blockbloom::arrow::find_bitmap(&reference.f, &s, &a, bitmap.data(), nullptr) == hashed);
    return;
  }
  std::vector<uint64_t> held;
  bool outside = false;
  for (size_t i = 0; i < n; ++i) {
    if (!valid[i]) continue;
    if (BitOf(in_type, i)) held.push_back(hashes[i]);
    else outside = true;
  }
  if (outside) {
    Check(inserted == BB_ERR_VALUE_RANGE);
    Check(adapter.bytes() == reference.bytes());
  } else {
    Check(inserted == BB_OK);
    Check(bb_insert_batch(&reference.f, held.data(), held.size()) == BB_OK);
    Check(adapter.bytes() == reference.bytes());
  }
  // Probe a filter of half the held rows: a row is found iff valid, of the
  // type and the filter may hold its hash.
  Filter half(false);
  if (!held.empty()) Check(bb_insert_batch(&half.f, held.data(), held.size() / 2 + 1) == BB_OK);
  Bytes bitmap(n / 8 + 1, 0xEE);
  size_t hits = 0;
  Check(blockbloom::arrow::find_bitmap(&half.f, &s, &a, bitmap.data(), &hits) == BB_OK);
  size_t want_hits = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool want = valid[i] && BitOf(in_type, i) && bb_find(&half.f, hashes[i]) == 1;
    Check(BitOf(bitmap, i) == want);
    want_hits += want ? 1 : 0;
  }
  Check(hits == want_hits);
}

void CheckKudu(const Format& f, const std::vector<bool>& valid, const std::vector<std::string>& rows,
               const ArrowSchema& s, const ArrowArray& a) {
  Filter adapter(true), reference(true);
  const Reference ref(f.kudu_type, f.kudu_width, f, valid, rows, false);
  const int inserted = blockbloom::arrow::insert(&adapter.f, &s, &a);
  const int want = bb_insert_column(&reference.f, &ref.column);
  Check(inserted == want);
  Check(adapter.bytes() == reference.bytes());
  const size_t n = valid.size();
  Bytes got(n / 8 + 1, 0), expected(n / 8 + 1, 0);
  size_t got_hits = 0, want_hits = 0;
  const int found = bb_find_column_bitmap(&reference.f, &ref.column, expected.data(), &want_hits);
  Check(blockbloom::arrow::find_bitmap(&reference.f, &s, &a, got.data(), &got_hits) == found);
  if (found < 0) return;
  for (size_t i = 0; i < n; ++i) Check(BitOf(got, i) == BitOf(expected, i));
  Check(got_hits == want_hits);
}

// A refused array: every call gives the status and no filter changes.
void CheckRefused(int status, bool kudu, const ArrowSchema& s, const ArrowArray& a) {
  Filter filter(kudu), untouched(kudu);
  Check(blockbloom::arrow::insert(&filter.f, &s, &a) == status);
  Check(filter.bytes() == untouched.bytes());
  uint8_t bitmap[64];
  uint32_t selection[64];
  Check(blockbloom::arrow::find_bitmap(&filter.f, &s, &a, bitmap, nullptr) == status);
  Check(blockbloom::arrow::find_select(&filter.f, &s, &a, selection, nullptr) == status);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  bbfuzz::FuzzInput in(data, size);
  Generator gen(&in);
  const Format& f = kFormats[gen.Byte() % kNumFormats];
  const uint8_t shape = gen.Byte();
  const bool dictionary = shape % 3 == 0;
  Built values;
  gen.Values(f, &values);
  Built indices;
  const IndexFormat& x = kIndexFormats[gen.Byte() % (sizeof kIndexFormats / sizeof kIndexFormats[0])];
  const ArrowSchema* s = &values.schema;
  const ArrowArray* a = &values.array;
  bool schema_only = false, array_only = false;
  if (dictionary) {
    gen.Indices(x, values.hostile || values.malformed ? 0 : values.array.length, &indices);
    indices.schema.dictionary = &values.schema;
    indices.array.dictionary = &values.array;
    if (shape % 37 == 3) indices.array.dictionary = nullptr, schema_only = true;
    if (shape % 37 == 6) indices.schema.dictionary = nullptr, array_only = true;
    s = &indices.schema;
    a = &indices.array;
  }

  for (bool kudu : {false, true}) {
    const uint32_t layout = kudu ? BB_LAYOUT_KUDU : BB_LAYOUT_PARQUET;
    // The oracle's status for the structure, in the adapter's documented order.
    int want = BB_OK;
    if (schema_only || array_only) {
      want = BB_ERR_ARROW_MALFORMED;
    } else if (!(kudu ? f.kudu : f.parquet)) {
      want = BB_ERR_ARROW_UNSUPPORTED_TYPE;
    } else if (values.malformed) {
      want = BB_ERR_ARROW_MALFORMED;
    } else if (dictionary && !x.integer) {
      want = BB_ERR_ARROW_UNSUPPORTED_TYPE;
    } else if (dictionary && indices.malformed) {
      want = BB_ERR_ARROW_MALFORMED;
    }
    // The rows the array holds, gathered through the dictionary.
    std::vector<bool> valid = values.valid;
    std::vector<std::string> rows = values.rows;
    if (want == BB_OK && dictionary) {
      valid.assign(indices.valid.size(), false);
      rows.assign(indices.valid.size(), std::string(f.stride, '\0'));
      for (size_t i = 0; i < indices.valid.size() && want == BB_OK; ++i) {
        if (!indices.valid[i]) continue;
        size_t row;
        if (!Generator::Index(x, indices, i, values.array.length, &row)) {
          want = BB_ERR_ARROW_DICTIONARY_INDEX;
          break;
        }
        valid[i] = values.valid[row];
        if (valid[i] || f.layout == kFixed) rows[i] = values.rows[row];
      }
    }
    std::string why;
    Check(blockbloom::arrow::validate(s, a, layout, &why) == want);
    if (want < 0) {
      Check(why.find("Arrow format '") == 0);
      CheckRefused(want, kudu, *s, *a);
      continue;
    }
    if (kudu) {
      CheckKudu(f, valid, rows, *s, *a);
    } else {
      CheckParquet(f, valid, rows, *s, *a);
    }
  }
  return 0;
}
