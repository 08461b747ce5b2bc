// SPDX-License-Identifier: Apache-2.0
// The Parquet serialization of a split block Bloom filter: a Thrift compact
// BloomFilterHeader followed by the bitset (see docs/formats.md).
//
// The writer emits exactly the bytes parquet-mr writes. The reader uses the
// small, bounds-checked Thrift compact parser of src/parquet/format/thrift_compact_reader.h:
// every byte it looks at goes through CompactReader::Byte(), which refuses to
// step past the end of the buffer, so a hostile or truncated header can only
// produce an error code. Unknown fields of any type are skipped (with a
// nesting limit), so headers from newer writers that add optional fields
// still read.
#include <cstdint>
#include <cstring>

#include "blockbloom/blockbloom.h"
#include "blockbloom/parquet_format.h"
#include "src/parquet/format/bloom_filter_header.h"
#include "src/parquet/format/thrift_compact_reader.h"

namespace {

using blockbloom::internal::thrift::kI32;
using blockbloom::internal::thrift::kStop;
using blockbloom::internal::thrift::kStruct;
using Reader = blockbloom::internal::thrift::CompactReader;

// Largest numBytes a Thrift i32 can carry that is a whole number of blocks.
constexpr size_t kMaxHeaderNumBytes = static_cast<size_t>(INT32_MAX) / BB_BLOCK_BYTES * BB_BLOCK_BYTES;

// ------------------------------------------------------------------ writer

size_t PutVarint(uint64_t v, uint8_t* out) {
  size_t n = 0;
  while (v >= 0x80) {
    out[n++] = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  out[n++] = static_cast<uint8_t>(v);
  return n;
}

uint32_t ZigZag32(int32_t v) {
  return (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31);
}

// The whole header into scratch (at most BB_PARQUET_HEADER_MAX_BYTES); returns its length.
size_t EncodeHeader(int32_t num_bytes, uint8_t* scratch) {
  size_t n = 0;
  scratch[n++] = 0x15;  // field 1 (delta 1), i32: numBytes
  n += PutVarint(ZigZag32(num_bytes), scratch + n);
  // Fields 2, 3, 4 (each delta 1, struct): the algorithm, hash and
  // compression unions, each holding its field 1 (BLOCK, XXHASH,
  // UNCOMPRESSED), an empty struct.
  for (int field = 2; field <= 4; ++field) {
    scratch[n++] = 0x1c;  // union field (delta 1), struct
    scratch[n++] = 0x1c;  // union member 1 (delta 1), struct
    scratch[n++] = 0x00;  // end of the empty member struct
    scratch[n++] = 0x00;  // end of the union
  }
  scratch[n++] = 0x00;  // end of BloomFilterHeader
  return n;
}

// Which sizes a writer accepts: those every reader takes (the default), or
// any a header can carry.
enum class Sizes { kReaderSafe, kAny };

// BB_OK if num_bytes can be both a filter and a Parquet header's numBytes
// (and, for kReaderSafe, one that every reader accepts).
int CheckWritableSize(size_t num_bytes, Sizes sizes) {
  if (sizes == Sizes::kReaderSafe) return bb_parquet_check_size(num_bytes);
  const int status = bb_filter_check_size(num_bytes);
  if (status != BB_OK) return status;
  if (num_bytes > kMaxHeaderNumBytes) return BB_ERR_HEADER_NUM_BYTES;
  return BB_OK;
}

int WriteHeader(size_t num_bytes, Sizes sizes, uint8_t* out, size_t capacity, size_t* written) {
  if (out == nullptr || written == nullptr) return BB_ERR_NULL_POINTER;
  const int status = CheckWritableSize(num_bytes, sizes);
  if (status != BB_OK) return status;
  uint8_t scratch[BB_PARQUET_HEADER_MAX_BYTES];
  const size_t n = EncodeHeader(static_cast<int32_t>(num_bytes), scratch);
  if (capacity < n) return BB_ERR_BUFFER_TOO_SMALL;
  std::memcpy(out, scratch, n);
  *written = n;
  return BB_OK;
}

int WriteFilter(const bb_filter* f, Sizes sizes, uint8_t* out, size_t capacity, size_t* written) {
  if (f == nullptr || f->data == nullptr || out == nullptr || written == nullptr) {
    return BB_ERR_NULL_POINTER;
  }
  if (f->layout != BB_LAYOUT_PARQUET) return BB_ERR_LAYOUT_MISMATCH;
  const int status = CheckWritableSize(f->num_bytes, sizes);
  if (status != BB_OK) return status;
  uint8_t scratch[BB_PARQUET_HEADER_MAX_BYTES];
  const size_t n = EncodeHeader(static_cast<int32_t>(f->num_bytes), scratch);
  if (capacity < n || capacity - n < f->num_bytes) return BB_ERR_BUFFER_TOO_SMALL;
  std::memcpy(out, scratch, n);
  std::memcpy(out + n, f->data, f->num_bytes);
  *written = n + f->num_bytes;
  return BB_OK;
}

// ------------------------------------------------------------------ reader

// Which member a BloomFilterAlgorithm / Hash / Compression union holds.
enum class UnionMember { kFirst, kOther };

// Reads a union: exactly one member, skipped whatever it is. Member 1 (the
// only one Parquet defines for each union today) must be a struct.
int ReadUnion(Reader* r, UnionMember* member) {
  int last_id = 0;
  int members = 0;
  for (;;) {
    uint8_t type = 0;
    int id = 0;
    int status = r->FieldHeader(&last_id, &type, &id);
    if (status != BB_OK) return status;
    if (type == kStop) break;
    ++members;
    if (id == 1) {
      if (type != kStruct) return BB_ERR_HEADER_MALFORMED;
      *member = UnionMember::kFirst;
    } else {
      *member = UnionMember::kOther;
    }
    // Skip the member's value; depth 2 = header > union > member.
    status = r->Skip(type, 2, false);
    if (status != BB_OK) return status;
  }
  return members == 1 ? BB_OK : BB_ERR_HEADER_MALFORMED;
}

struct ParsedHeader {
  bool has_num_bytes = false;
  int32_t num_bytes = 0;
  bool has_union[3] = {false, false, false};  // fields 2, 3, 4
  UnionMember member[3] = {UnionMember::kOther, UnionMember::kOther, UnionMember::kOther};
};

int ParseHeader(Reader* r, ParsedHeader* h) {
  int last_id = 0;
  for (;;) {
    uint8_t type = 0;
    int id = 0;
    int status = r->FieldHeader(&last_id, &type, &id);
    if (status != BB_OK) return status;
    if (type == kStop) return BB_OK;
    if (id == 1) {
      if (type != kI32) return BB_ERR_HEADER_MALFORMED;
      status = r->I32(&h->num_bytes);
      h->has_num_bytes = true;
    } else if (id >= 2 && id <= 4) {
      if (type != kStruct) return BB_ERR_HEADER_MALFORMED;
      status = ReadUnion(r, &h->member[id - 2]);
      h->has_union[id - 2] = true;
    } else {
      status = r->Skip(type, 1, false);
    }
    if (status != BB_OK) return status;
  }
}

// Structure first (TRUNCATED / MALFORMED), then meaning: what the bitset is
// (algorithm, hash, compression) before how big it is.
int ValidateHeader(const ParsedHeader& h) {
  if (!h.has_num_bytes || !h.has_union[0] || !h.has_union[1] || !h.has_union[2]) {
    return BB_ERR_HEADER_MALFORMED;  // required fields 1-4
  }
  if (h.member[0] != UnionMember::kFirst) return BB_ERR_UNSUPPORTED_ALGORITHM;
  if (h.member[1] != UnionMember::kFirst) return BB_ERR_UNSUPPORTED_HASH;
  if (h.member[2] != UnionMember::kFirst) return BB_ERR_UNSUPPORTED_COMPRESSION;
  if (h.num_bytes <= 0 || bb_filter_check_size(static_cast<size_t>(h.num_bytes)) != BB_OK) {
    return BB_ERR_HEADER_NUM_BYTES;
  }
  return BB_OK;
}

}  // namespace

namespace blockbloom::internal {

int ParseBloomFilterHeader(const uint8_t* data, size_t len, size_t* header_bytes,
                           size_t* num_bytes) {
  Reader r(data, len);
  ParsedHeader h;
  int status = ParseHeader(&r, &h);
  if (status == BB_OK) status = ValidateHeader(h);
  if (status != BB_OK) return status;
  *header_bytes = r.pos();
  *num_bytes = static_cast<size_t>(h.num_bytes);
  return BB_OK;
}

}  // namespace blockbloom::internal

extern "C" {

// On error every out-parameter and output buffer keeps its contents
// (docs/reliability.md): they are written only once all checks have passed.
int bb_parquet_check_size(size_t num_bytes) {
  const int status = bb_filter_check_size(num_bytes);
  if (status != BB_OK) return status;
  const bool power_of_two = (num_bytes & (num_bytes - 1)) == 0;
  if (!power_of_two || num_bytes > BB_PARQUET_SAFE_MAX_BYTES) return BB_ERR_PARQUET_UNSAFE_SIZE;
  return BB_OK;  // a non-zero multiple of 32: at least BB_PARQUET_SAFE_MIN_BYTES
}

int bb_parquet_header_write(size_t num_bytes, uint8_t* out, size_t capacity, size_t* written) {
  return WriteHeader(num_bytes, Sizes::kReaderSafe, out, capacity, written);
}

int bb_parquet_header_write_any_size(size_t num_bytes, uint8_t* out, size_t capacity,
                                     size_t* written) {
  return WriteHeader(num_bytes, Sizes::kAny, out, capacity, written);
}

int bb_parquet_header_read(const uint8_t* data, size_t len, size_t* header_bytes,
                           size_t* num_bytes) {
  if (data == nullptr || header_bytes == nullptr || num_bytes == nullptr) {
    return BB_ERR_NULL_POINTER;
  }
  size_t header = 0;
  size_t bitset = 0;
  const int status = blockbloom::internal::ParseBloomFilterHeader(data, len, &header, &bitset);
  if (status != BB_OK) return status;
  if (bitset > len - header) return BB_ERR_BITSET_TRUNCATED;
  *header_bytes = header;
  *num_bytes = bitset;
  return BB_OK;
}

int bb_parquet_filter_read(bb_filter* f, const uint8_t* data, size_t len, size_t* consumed) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  size_t header_bytes = 0;
  size_t num_bytes = 0;
  int status = bb_parquet_header_read(data, len, &header_bytes, &num_bytes);
  if (status != BB_OK) return status;
  // A copy into a 64-byte-aligned owned bitset: the source may sit at any
  // offset of a file buffer. In-place probing: header_read + a read-only view.
  status = bb_filter_init(f, num_bytes);
  if (status != BB_OK) return status;
  std::memcpy(f->data, data + header_bytes, num_bytes);
  if (consumed != nullptr) *consumed = header_bytes + num_bytes;
  return BB_OK;
}

int bb_parquet_filter_write(const bb_filter* f, uint8_t* out, size_t capacity, size_t* written) {
  return WriteFilter(f, Sizes::kReaderSafe, out, capacity, written);
}

int bb_parquet_filter_write_any_size(const bb_filter* f, uint8_t* out, size_t capacity,
                                     size_t* written) {
  return WriteFilter(f, Sizes::kAny, out, capacity, written);
}

}  // extern "C"
