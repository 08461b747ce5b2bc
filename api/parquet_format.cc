// The Parquet serialization of a split block Bloom filter: a Thrift compact
// BloomFilterHeader followed by the bitset (see docs/formats.md).
//
// The writer emits exactly the bytes parquet-mr writes. The reader is a small,
// bounds-checked Thrift compact parser: every byte it looks at goes through
// Reader::Byte(), which refuses to step past the end of the buffer, so a
// hostile or truncated header can only produce an error code. Unknown fields
// of any type are skipped (with a nesting limit), so headers from newer
// writers that add optional fields still read.
#include <cstdint>
#include <cstring>

#include "blockbloom/blockbloom.h"
#include "blockbloom/parquet_format.h"

namespace {

// Thrift compact protocol type ids (the low nibble of a field header).
enum CompactType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
  kUuid = 13,  // Thrift 0.19+: 16 raw bytes
};

// Containers nested deeper than this are refused as malformed; the header
// itself needs a depth of 3 (header > union > empty struct).
constexpr int kMaxDepth = 64;

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

// BB_OK if num_bytes can be both a filter and a Parquet header's numBytes.
int CheckWritableSize(size_t num_bytes) {
  const int status = bb_filter_check_size(num_bytes);
  if (status != BB_OK) return status;
  if (num_bytes > kMaxHeaderNumBytes) return BB_ERR_HEADER_NUM_BYTES;
  return BB_OK;
}

// ------------------------------------------------------------------ reader

class Reader {
 public:
  Reader(const uint8_t* data, size_t len) : data_(data), len_(len) {}

  size_t pos() const { return pos_; }

  // The only place the buffer is read.
  int Byte(uint8_t* b) {
    if (pos_ >= len_) return BB_ERR_HEADER_TRUNCATED;
    *b = data_[pos_++];
    return BB_OK;
  }

  int SkipBytes(uint64_t n) {
    if (n > len_ - pos_) return BB_ERR_HEADER_TRUNCATED;
    pos_ += static_cast<size_t>(n);
    return BB_OK;
  }

  // An unsigned LEB128 varint of at most max_bytes bytes whose value fits in
  // value_bits bits (5 / 32 for i16 and i32, 10 / 64 for i64).
  int Varint(int max_bytes, int value_bits, uint64_t* value) {
    uint64_t v = 0;
    for (int i = 0; i < max_bytes; ++i) {
      uint8_t b = 0;
      const int status = Byte(&b);
      if (status != BB_OK) return status;
      const int shift = 7 * i;
      const uint64_t payload = b & 0x7fu;
      // Bits that would land above value_bits make the varint malformed.
      if (shift + 7 > value_bits && (payload >> (value_bits - shift)) != 0) {
        return BB_ERR_HEADER_MALFORMED;
      }
      v |= payload << shift;
      if ((b & 0x80) == 0) {
        *value = v;
        return BB_OK;
      }
    }
    return BB_ERR_HEADER_MALFORMED;  // continuation bit still set after max_bytes
  }

  int I32(int32_t* out) {
    uint64_t v = 0;
    const int status = Varint(5, 32, &v);
    if (status != BB_OK) return status;
    const uint32_t u = static_cast<uint32_t>(v);
    *out = static_cast<int32_t>((u >> 1) ^ (0u - (u & 1u)));  // zigzag decode
    return BB_OK;
  }

  // A collection or binary length (an unsigned varint32 that must fit a
  // non-negative i32, as Thrift sizes are signed).
  int Size(uint64_t* out) {
    const int status = Varint(5, 32, out);
    if (status != BB_OK) return status;
    if (*out > static_cast<uint64_t>(INT32_MAX)) return BB_ERR_HEADER_MALFORMED;
    return BB_OK;
  }

  // Field header: *type gets the compact type (kStop at the end of a struct),
  // *id the absolute field id given the previous one.
  int FieldHeader(int* last_id, uint8_t* type, int* id) {
    uint8_t b = 0;
    int status = Byte(&b);
    if (status != BB_OK) return status;
    if (b == 0) {
      *type = kStop;
      return BB_OK;
    }
    *type = b & 0x0f;
    const int delta = b >> 4;
    if (*type == kStop || *type > kUuid) return BB_ERR_HEADER_MALFORMED;
    if (delta != 0) {
      *id = *last_id + delta;
    } else {
      // Long form: the id follows as a zigzag i16 varint.
      int32_t long_id = 0;
      status = I32(&long_id);
      if (status != BB_OK) return status;
      if (long_id < INT16_MIN || long_id > INT16_MAX) return BB_ERR_HEADER_MALFORMED;
      *id = long_id;
    }
    *last_id = *id;
    return BB_OK;
  }

  // Skips one value of the given compact type. in_collection: booleans inside
  // lists, sets and maps take one byte; as struct fields they take none.
  int Skip(uint8_t type, int depth, bool in_collection) {
    switch (type) {
      case kBoolTrue:
      case kBoolFalse:
        return in_collection ? SkipBytes(1) : BB_OK;
      case kByte:
        return SkipBytes(1);
      case kI16:
      case kI32: {
        uint64_t v = 0;
        return Varint(5, 32, &v);
      }
      case kI64: {
        uint64_t v = 0;
        return Varint(10, 64, &v);
      }
      case kDouble:
        return SkipBytes(8);
      case kUuid:
        return SkipBytes(16);
      case kBinary: {
        uint64_t n = 0;
        const int status = Size(&n);
        return status != BB_OK ? status : SkipBytes(n);
      }
      case kList:
      case kSet:
        return SkipList(depth);
      case kMap:
        return SkipMap(depth);
      case kStruct:
        return SkipStruct(depth);
      default:
        return BB_ERR_HEADER_MALFORMED;
    }
  }

  int SkipStruct(int depth) {
    if (depth >= kMaxDepth) return BB_ERR_HEADER_MALFORMED;
    int last_id = 0;
    for (;;) {
      uint8_t type = 0;
      int id = 0;
      int status = FieldHeader(&last_id, &type, &id);
      if (status != BB_OK) return status;
      if (type == kStop) return BB_OK;
      status = Skip(type, depth + 1, false);
      if (status != BB_OK) return status;
    }
  }

 private:
  static bool ValidElementType(uint8_t t) { return t >= kBoolTrue && t <= kUuid; }

  // Each element takes at least one byte, so a huge announced count runs out
  // of buffer (TRUNCATED) after at most len iterations.
  int SkipList(int depth) {
    if (depth >= kMaxDepth) return BB_ERR_HEADER_MALFORMED;
    uint8_t b = 0;
    int status = Byte(&b);
    if (status != BB_OK) return status;
    const uint8_t elem = b & 0x0f;
    uint64_t count = b >> 4;
    if (count == 15) {
      status = Size(&count);
      if (status != BB_OK) return status;
    }
    if (!ValidElementType(elem)) return BB_ERR_HEADER_MALFORMED;
    for (uint64_t i = 0; i < count; ++i) {
      status = Skip(elem, depth + 1, true);
      if (status != BB_OK) return status;
    }
    return BB_OK;
  }

  int SkipMap(int depth) {
    if (depth >= kMaxDepth) return BB_ERR_HEADER_MALFORMED;
    uint64_t count = 0;
    int status = Size(&count);
    if (status != BB_OK) return status;
    if (count == 0) return BB_OK;  // an empty map has no key/value type byte
    uint8_t kv = 0;
    status = Byte(&kv);
    if (status != BB_OK) return status;
    const uint8_t key = kv >> 4;
    const uint8_t value = kv & 0x0f;
    if (!ValidElementType(key) || !ValidElementType(value)) return BB_ERR_HEADER_MALFORMED;
    for (uint64_t i = 0; i < count; ++i) {
      status = Skip(key, depth + 1, true);
      if (status == BB_OK) status = Skip(value, depth + 1, true);
      if (status != BB_OK) return status;
    }
    return BB_OK;
  }

  const uint8_t* data_;
  size_t len_;
  size_t pos_ = 0;
};

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

extern "C" {

int bb_parquet_header_write(size_t num_bytes, uint8_t* out, size_t capacity, size_t* written) {
  if (written != nullptr) *written = 0;
  if (out == nullptr || written == nullptr) return BB_ERR_NULL_POINTER;
  const int status = CheckWritableSize(num_bytes);
  if (status != BB_OK) return status;
  uint8_t scratch[BB_PARQUET_HEADER_MAX_BYTES];
  const size_t n = EncodeHeader(static_cast<int32_t>(num_bytes), scratch);
  if (capacity < n) return BB_ERR_BUFFER_TOO_SMALL;
  std::memcpy(out, scratch, n);
  *written = n;
  return BB_OK;
}

int bb_parquet_header_read(const uint8_t* data, size_t len, size_t* header_bytes,
                           size_t* num_bytes) {
  if (header_bytes != nullptr) *header_bytes = 0;
  if (num_bytes != nullptr) *num_bytes = 0;
  if (data == nullptr || header_bytes == nullptr || num_bytes == nullptr) {
    return BB_ERR_NULL_POINTER;
  }
  Reader r(data, len);
  ParsedHeader h;
  int status = ParseHeader(&r, &h);
  if (status != BB_OK) return status;
  status = ValidateHeader(h);
  if (status != BB_OK) return status;
  const size_t bitset = static_cast<size_t>(h.num_bytes);
  if (bitset > len - r.pos()) return BB_ERR_BITSET_TRUNCATED;
  *header_bytes = r.pos();
  *num_bytes = bitset;
  return BB_OK;
}

int bb_parquet_filter_read(bb_filter* f, const uint8_t* data, size_t len, size_t* consumed) {
  if (consumed != nullptr) *consumed = 0;
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
  if (written != nullptr) *written = 0;
  if (f == nullptr || f->data == nullptr || out == nullptr || written == nullptr) {
    return BB_ERR_NULL_POINTER;
  }
  if (f->layout != BB_LAYOUT_PARQUET) return BB_ERR_LAYOUT_MISMATCH;
  const int status = CheckWritableSize(f->num_bytes);
  if (status != BB_OK) return status;
  uint8_t scratch[BB_PARQUET_HEADER_MAX_BYTES];
  const size_t n = EncodeHeader(static_cast<int32_t>(f->num_bytes), scratch);
  if (capacity < n || capacity - n < f->num_bytes) return BB_ERR_BUFFER_TOO_SMALL;
  std::memcpy(out, scratch, n);
  std::memcpy(out + n, f->data, f->num_bytes);
  *written = n + f->num_bytes;
  return BB_OK;
}

}  // extern "C"
