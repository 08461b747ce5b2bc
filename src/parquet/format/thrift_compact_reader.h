// SPDX-License-Identifier: Apache-2.0
// A small, bounds-checked reader of the Thrift compact protocol, header-only.
//
// Used by the Parquet BloomFilterHeader parser (src/parquet/format/bloom_filter_format.cc) and the
// FileMetaData parser (src/parquet/format/footer.cc), so that there is one Thrift
// parser in the project. Every byte it looks at goes
// through Byte(), which refuses to step past the end of the buffer, so a
// hostile or truncated input can only produce an error code:
// BB_ERR_HEADER_TRUNCATED when the buffer ends inside a value,
// BB_ERR_HEADER_MALFORMED when the bytes are not valid Thrift compact.
//
// Internal: not installed, and everything here has hidden visibility, so the
// library exports no symbol for it.
#ifndef BLOCKBLOOM_PARQUET_FORMAT_THRIFT_COMPACT_READER_H_
#define BLOCKBLOOM_PARQUET_FORMAT_THRIFT_COMPACT_READER_H_

#include <cstddef>
#include <cstdint>

#include "blockbloom/blockbloom.h"

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

namespace blockbloom::internal {
namespace thrift {

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

// Containers nested deeper than this are refused as malformed; the
// BloomFilterHeader needs a depth of 3 (header > union > empty struct), a
// Parquet footer about 8 (FileMetaData > row groups > ... > statistics).
constexpr int kMaxDepth = 64;

class CompactReader {
 public:
  CompactReader(const uint8_t* data, size_t len) : data_(data), len_(len) {}

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

  int I64(int64_t* out) {
    uint64_t u = 0;
    const int status = Varint(10, 64, &u);
    if (status != BB_OK) return status;
    *out = static_cast<int64_t>((u >> 1) ^ (0u - (u & 1u)));  // zigzag decode
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

  // A binary (or string) value: *bytes points into the buffer, *size bytes long.
  int Binary(const uint8_t** bytes, size_t* size) {
    uint64_t n = 0;
    int status = Size(&n);
    if (status != BB_OK) return status;
    const size_t start = pos_;
    status = SkipBytes(n);
    if (status != BB_OK) return status;
    *bytes = data_ + start;
    *size = static_cast<size_t>(n);
    return BB_OK;
  }

  // A list or set header: *elem gets the element type, *count the number of
  // elements that follow. The element type is checked after the count, so a
  // buffer that ends inside the count reads as truncated.
  int ListHeader(uint8_t* elem, uint64_t* count) {
    uint8_t b = 0;
    int status = Byte(&b);
    if (status != BB_OK) return status;
    *elem = b & 0x0f;
    *count = b >> 4;
    if (*count == 15) {
      status = Size(count);
      if (status != BB_OK) return status;
    }
    if (!ValidElementType(*elem)) return BB_ERR_HEADER_MALFORMED;
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
    uint8_t elem = 0;
    uint64_t count = 0;
    int status = ListHeader(&elem, &count);
    if (status != BB_OK) return status;
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

}  // namespace thrift
}  // namespace blockbloom::internal

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // BLOCKBLOOM_PARQUET_FORMAT_THRIFT_COMPACT_READER_H_
