// SPDX-License-Identifier: Apache-2.0
// The filter file (filter_file.h; docs/formats.md, "Filter files"): a
// 96-byte header of fixed little-endian fields, the bitset, and the XXH64 of
// both. The reader checks every field against the others and the file's
// length before it allocates, each kind of lie with a code of its own, and
// the checksum last (so a damaged field is named, not just "damaged").
#include <cmath>
#include <cstdint>
#include <cstring>

#include "src/hashing/byte_order.h"
#include "blockbloom/filter_file.h"
#include "blockbloom/hashing.h"
#include "blockbloom/kudu.h"

namespace {

using blockbloom::internal::ToLittleEndian;

// Field offsets; docs/formats.md has the same table.
constexpr size_t kVersionAt = 8, kLayoutAt = 12, kFlagsAt = 16, kSeedAt = 20, kValuesAt = 24,
                 kTypeAt = 28, kSizingKindAt = 68, kNdvAt = 72, kFppAt = 80, kNumBytesAt = 88;
constexpr size_t kTypeFields = 10;  // physical_type .. precision, int32 each
constexpr uint32_t kFlagAlwaysFalse = 1;
static_assert(kNumBytesAt + 8 == BB_FILTER_FILE_HEADER_BYTES, "the header ends with num_bytes");
static_assert(kTypeAt + 4 * kTypeFields == kSizingKindAt, "ten type fields");

void Put32(uint8_t* out, size_t at, uint32_t v) {
  v = ToLittleEndian(v);
  std::memcpy(out + at, &v, 4);
}
void Put64(uint8_t* out, size_t at, uint64_t v) {
  v = ToLittleEndian(v);
  std::memcpy(out + at, &v, 8);
}
uint32_t Get32(const uint8_t* in, size_t at) {
  uint32_t v;
  std::memcpy(&v, in + at, 4);
  return ToLittleEndian(v);
}
uint64_t Get64(const uint8_t* in, size_t at) {
  uint64_t v;
  std::memcpy(&v, in + at, 8);
  return ToLittleEndian(v);
}

// The type members in file order.
void TypeFields(const bb_parquet_column& t, int32_t out[kTypeFields]) {
  const int32_t fields[kTypeFields] = {t.physical_type, t.type_length,  t.logical_type,
                                       t.converted_type, t.bit_width,   t.is_signed,
                                       t.time_unit,     t.is_adjusted_to_utc, t.scale,
                                       t.precision};
  std::memcpy(out, fields, sizeof fields);
}

bb_parquet_column TypeOf(const int32_t in[kTypeFields]) {
  bb_parquet_column t{};
  t.struct_size = sizeof t;
  t.physical_type = in[0];
  t.type_length = in[1];
  t.logical_type = in[2];
  t.converted_type = in[3];
  t.bit_width = in[4];
  t.is_signed = in[5];
  t.time_unit = in[6];
  t.is_adjusted_to_utc = in[7];
  t.scale = in[8];
  t.precision = in[9];
  return t;
}

// What a raw-hash filter's type fields are.
bb_parquet_column NoType() {
  bb_parquet_column t{};
  t.struct_size = sizeof t;
  t.converted_type = BB_PARQUET_CONVERTED_NONE;
  return t;
}

// A type a filter of layout can hold: one it can hash, its flags 0 or 1, a
// length only on FIXED_LEN_BYTE_ARRAY.
bool TypeFits(uint32_t layout, const bb_parquet_column& t) {
  uint32_t column_type = 0;
  if (bb_layout_column_type(layout, &t, &column_type, nullptr) != BB_OK) return false;
  if ((t.type_length != 0) != (t.physical_type == BB_PARQUET_FIXED_LEN_BYTE_ARRAY)) return false;
  return (t.is_signed == 0 || t.is_signed == 1) &&
         (t.is_adjusted_to_utc == 0 || t.is_adjusted_to_utc == 1);
}

bool ValidFpp(double fpp) { return fpp > 0.0 && fpp < 1.0; }  // false for NaN

int SizeFits(uint32_t layout, uint64_t num_bytes) {
  if (num_bytes > SIZE_MAX) return BB_ERR_FILTER_FILE_SIZE;
  const size_t n = static_cast<size_t>(num_bytes);
  const int status = layout == BB_LAYOUT_KUDU ? bb_kudu_filter_check_size(n) : bb_filter_check_size(n);
  return status == BB_OK ? BB_OK : BB_ERR_FILTER_FILE_SIZE;
}

bool AllZero(const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

// The header fields read and checked.
struct Header {
  uint32_t layout = 0;
  bool always_false = false;
  uint32_t seed = 0;
  int32_t values = 0;
  bb_parquet_column type{};
  bb_filter_file_sizing sizing{};
  size_t num_bytes = 0;
};

int ReadHeader(const uint8_t* data, size_t len, Header* h) {
  // The magic first: a short file of other bytes (a raw bitset) is no
  // filter file at all, not a truncated one.
  if (len >= BB_FILTER_FILE_MAGIC_BYTES &&
      std::memcmp(data, BB_FILTER_FILE_MAGIC, BB_FILTER_FILE_MAGIC_BYTES) != 0) {
    return BB_ERR_FILTER_FILE_MAGIC;
  }
  if (len < BB_FILTER_FILE_HEADER_BYTES + BB_FILTER_FILE_TRAILER_BYTES) {
    return BB_ERR_FILTER_FILE_TRUNCATED;
  }
  if (Get32(data, kVersionAt) != BB_FILTER_FILE_VERSION) return BB_ERR_FILTER_FILE_VERSION;

  h->layout = Get32(data, kLayoutAt);
  const uint32_t flags = Get32(data, kFlagsAt);
  h->always_false = (flags & kFlagAlwaysFalse) != 0;
  if ((h->layout != BB_LAYOUT_PARQUET && h->layout != BB_LAYOUT_KUDU) ||
      (flags & ~kFlagAlwaysFalse) != 0 || (h->always_false && h->layout != BB_LAYOUT_KUDU)) {
    return BB_ERR_FILTER_FILE_LAYOUT;
  }
  h->seed = Get32(data, kSeedAt);
  if (h->layout == BB_LAYOUT_PARQUET && h->seed != 0) return BB_ERR_FILTER_FILE_SEED;

  h->values = static_cast<int32_t>(Get32(data, kValuesAt));
  int32_t fields[kTypeFields];
  for (size_t i = 0; i < kTypeFields; ++i) {
    fields[i] = static_cast<int32_t>(Get32(data, kTypeAt + 4 * i));
  }
  h->type = TypeOf(fields);
  if (h->values == BB_FILTER_VALUES_RAW_HASHES) {
    int32_t none[kTypeFields];
    TypeFields(NoType(), none);
    if (std::memcmp(fields, none, sizeof none) != 0) return BB_ERR_FILTER_FILE_TYPE;
  } else if (h->values != BB_FILTER_VALUES_TYPED || !TypeFits(h->layout, h->type)) {
    return BB_ERR_FILTER_FILE_TYPE;
  }

  h->sizing.struct_size = sizeof h->sizing;
  h->sizing.kind = static_cast<int32_t>(Get32(data, kSizingKindAt));
  h->sizing.ndv = Get64(data, kNdvAt);
  const uint64_t fpp_bits = Get64(data, kFppAt);
  std::memcpy(&h->sizing.fpp, &fpp_bits, 8);
  if (h->sizing.kind == BB_FILTER_SIZING_UNKNOWN) {
    if (h->sizing.ndv != 0 || fpp_bits != 0) return BB_ERR_FILTER_FILE_SIZING;
  } else if (h->sizing.kind < BB_SIZE_PARQUET || h->sizing.kind > BB_SIZE_PARQUET_SAFE ||
             !ValidFpp(h->sizing.fpp)) {
    return BB_ERR_FILTER_FILE_SIZING;
  }

  const uint64_t num_bytes = Get64(data, kNumBytesAt);
  if (SizeFits(h->layout, num_bytes) != BB_OK) return BB_ERR_FILTER_FILE_SIZE;
  h->num_bytes = static_cast<size_t>(num_bytes);
  // len >= header + trailer here, so the subtraction cannot wrap.
  if (len - BB_FILTER_FILE_HEADER_BYTES - BB_FILTER_FILE_TRAILER_BYTES != h->num_bytes) {
    return BB_ERR_FILTER_FILE_SIZE;
  }
  const uint8_t* bits = data + BB_FILTER_FILE_HEADER_BYTES;
  if (h->always_false && !AllZero(bits, h->num_bytes)) return BB_ERR_FILTER_FILE_LAYOUT;

  const size_t body = BB_FILTER_FILE_HEADER_BYTES + h->num_bytes;
  if (bb_parquet_hash_bytes(data, body) != Get64(data, body)) return BB_ERR_FILTER_FILE_CHECKSUM;
  return BB_OK;
}

// A new owned filter holding h's layout, seed, state and the bitset bits.
int MakeFilter(const Header& h, const uint8_t* bits, bb_filter* f, const bb_allocator* allocator) {
  if (h.layout == BB_LAYOUT_KUDU) {
    bb_kudu_directory dir{};
    dir.log_space_bytes = 0;
    while ((size_t{1} << dir.log_space_bytes) < h.num_bytes) ++dir.log_space_bytes;
    dir.bloom_data = bits;
    dir.bloom_data_size = h.num_bytes;
    dir.always_false = h.always_false ? 1 : 0;
    dir.hash_algorithm = BB_KUDU_HASH_FAST_HASH;
    dir.hash_seed = h.seed;
    return allocator != nullptr ? bb_kudu_import_with_allocator(f, &dir, allocator)
                                : bb_kudu_import(f, &dir);
  }
  const int status = allocator != nullptr ? bb_filter_init_with_allocator(f, h.num_bytes, allocator)
                                          : bb_filter_init(f, h.num_bytes);
  if (status != BB_OK) return status;
  std::memcpy(f->data, bits, h.num_bytes);
  return BB_OK;
}

int Read(const uint8_t* data, size_t len, bb_filter* f, int32_t* values, bb_parquet_column* type,
         bb_filter_file_sizing* sizing, const bb_allocator* allocator) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  if ((data == nullptr && len > 0) || values == nullptr) return BB_ERR_NULL_POINTER;
  if (type != nullptr && type->struct_size < sizeof(bb_parquet_column)) {
    return BB_ERR_BUFFER_TOO_SMALL;
  }
  if (sizing != nullptr && sizing->struct_size < sizeof(bb_filter_file_sizing)) {
    return BB_ERR_BUFFER_TOO_SMALL;
  }
  if (data == nullptr) return BB_ERR_FILTER_FILE_TRUNCATED;
  Header h;
  int status = ReadHeader(data, len, &h);
  if (status != BB_OK) return status;
  status = MakeFilter(h, data + BB_FILTER_FILE_HEADER_BYTES, f, allocator);
  if (status != BB_OK) return status;
  *values = h.values;
  if (type != nullptr) {
    const size_t caller_size = type->struct_size;
    *type = h.type;
    type->struct_size = caller_size;
  }
  if (sizing != nullptr) {
    const size_t caller_size = sizing->struct_size;
    *sizing = h.sizing;
    sizing->struct_size = caller_size;
  }
  return BB_OK;
}

}  // namespace

extern "C" {

int bb_filter_file_size(const bb_filter* f, size_t* bytes) {
  if (f == nullptr || bytes == nullptr || f->data == nullptr) return BB_ERR_NULL_POINTER;
  if (f->num_bytes > SIZE_MAX - BB_FILTER_FILE_HEADER_BYTES - BB_FILTER_FILE_TRAILER_BYTES) {
    return BB_ERR_TOO_MANY_BLOCKS;
  }
  *bytes = BB_FILTER_FILE_HEADER_BYTES + f->num_bytes + BB_FILTER_FILE_TRAILER_BYTES;
  return BB_OK;
}

int bb_filter_file_write(const bb_filter* f, const bb_parquet_column* type,
                         const bb_filter_file_sizing* sizing, uint8_t* out, size_t capacity,
                         size_t* written) {
  if (written == nullptr || out == nullptr) return BB_ERR_NULL_POINTER;
  size_t total = 0;
  int status = bb_filter_file_size(f, &total);
  if (status != BB_OK) return status;
  if (f->layout != BB_LAYOUT_PARQUET && f->layout != BB_LAYOUT_KUDU) return BB_ERR_LAYOUT_MISMATCH;
  const bool always_false = (__atomic_load_n(&f->flags, __ATOMIC_RELAXED) & BB_FILTER_ALWAYS_FALSE) != 0;
  if (f->layout == BB_LAYOUT_PARQUET && f->hash_seed != 0) return BB_ERR_LAYOUT_MISMATCH;
  int32_t fields[kTypeFields];
  if (type != nullptr) {
    uint32_t column_type = 0;
    status = bb_layout_column_type(f->layout, type, &column_type, nullptr);
    if (status != BB_OK) return status;
    bb_parquet_column t = *type;
    t.path = nullptr;
    t.path_len = 0;
    if (!TypeFits(f->layout, t)) return BB_ERR_PARQUET_UNSUPPORTED;
    TypeFields(t, fields);
  } else {
    TypeFields(NoType(), fields);
  }
  int32_t kind = BB_FILTER_SIZING_UNKNOWN;
  uint64_t ndv = 0;
  double fpp = 0.0;
  if (sizing != nullptr) {
    if (sizing->struct_size < sizeof(bb_filter_file_sizing)) return BB_ERR_BUFFER_TOO_SMALL;
    if (sizing->kind != BB_FILTER_SIZING_UNKNOWN) {
      if (sizing->kind < BB_SIZE_PARQUET || sizing->kind > BB_SIZE_PARQUET_SAFE) {
        return BB_ERR_INVALID_SIZING;
      }
      if (!ValidFpp(sizing->fpp)) return BB_ERR_INVALID_FPP;
      kind = sizing->kind;
      ndv = sizing->ndv;
      fpp = sizing->fpp;
    }
  }
  if (capacity < total) return BB_ERR_BUFFER_TOO_SMALL;

  std::memset(out, 0, BB_FILTER_FILE_HEADER_BYTES);
  std::memcpy(out, BB_FILTER_FILE_MAGIC, BB_FILTER_FILE_MAGIC_BYTES);
  Put32(out, kVersionAt, BB_FILTER_FILE_VERSION);
  Put32(out, kLayoutAt, f->layout);
  Put32(out, kFlagsAt, always_false ? kFlagAlwaysFalse : 0);
  Put32(out, kSeedAt, f->hash_seed);
  Put32(out, kValuesAt, type != nullptr ? BB_FILTER_VALUES_TYPED : BB_FILTER_VALUES_RAW_HASHES);
  for (size_t i = 0; i < kTypeFields; ++i) {
    Put32(out, kTypeAt + 4 * i, static_cast<uint32_t>(fields[i]));
  }
  Put32(out, kSizingKindAt, static_cast<uint32_t>(kind));
  Put64(out, kNdvAt, ndv);
  uint64_t fpp_bits = 0;
  std::memcpy(&fpp_bits, &fpp, 8);
  Put64(out, kFppAt, fpp_bits);
  Put64(out, kNumBytesAt, f->num_bytes);
  // An always-false Kudu filter's bits count for nothing; they are written as 0.
  if (always_false) {
    std::memset(out + BB_FILTER_FILE_HEADER_BYTES, 0, f->num_bytes);
  } else {
    std::memcpy(out + BB_FILTER_FILE_HEADER_BYTES, f->data, f->num_bytes);
  }
  const size_t body = BB_FILTER_FILE_HEADER_BYTES + f->num_bytes;
  Put64(out, body, bb_parquet_hash_bytes(out, body));
  *written = total;
  return BB_OK;
}

int bb_filter_file_read(const uint8_t* data, size_t len, bb_filter* f, int32_t* values,
                        bb_parquet_column* type, bb_filter_file_sizing* sizing) {
  return Read(data, len, f, values, type, sizing, nullptr);
}

int bb_filter_file_read_with_allocator(const uint8_t* data, size_t len, bb_filter* f,
                                       int32_t* values, bb_parquet_column* type,
                                       bb_filter_file_sizing* sizing,
                                       const bb_allocator* allocator) {
  return Read(data, len, f, values, type, sizing, allocator);
}

}  // extern "C"
