// SPDX-License-Identifier: Apache-2.0
#include "value_hashing.h"

#include <cstring>

#include "blockbloom/hashing.h"

namespace blockbloom_cli {
namespace {

// The n low bytes of bits, little-endian whatever the host's byte order.
void StoreLittleEndian(std::uint64_t bits, unsigned char* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<unsigned char>(bits >> (8 * i));
}

}  // namespace

std::uint64_t ValueHasher::KuduBytes(const void* data, std::size_t len) const {
  return bb_kudu_fasthash32(data, len, seed_);
}

std::uint64_t ValueHasher::Int32(std::int32_t value) const {
  if (mode_ == HashMode::kXxh64) return bb_parquet_hash_int32(value);
  unsigned char bytes[4];
  StoreLittleEndian(static_cast<std::uint32_t>(value), bytes, sizeof bytes);
  return KuduBytes(bytes, sizeof bytes);
}

std::uint64_t ValueHasher::Int64(std::int64_t value) const {
  if (mode_ == HashMode::kXxh64) return bb_parquet_hash_int64(value);
  unsigned char bytes[8];
  StoreLittleEndian(static_cast<std::uint64_t>(value), bytes, sizeof bytes);
  return KuduBytes(bytes, sizeof bytes);
}

std::uint64_t ValueHasher::Float(float value) const {
  if (mode_ == HashMode::kXxh64) return bb_parquet_hash_float(value);
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  unsigned char bytes[4];
  StoreLittleEndian(bits, bytes, sizeof bytes);
  return KuduBytes(bytes, sizeof bytes);
}

std::uint64_t ValueHasher::Double(double value) const {
  if (mode_ == HashMode::kXxh64) return bb_parquet_hash_double(value);
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  unsigned char bytes[8];
  StoreLittleEndian(bits, bytes, sizeof bytes);
  return KuduBytes(bytes, sizeof bytes);
}

std::uint64_t ValueHasher::String(std::string_view bytes) const {
  // A non-null pointer even for "": for Kudu, NULL would mean a null cell.
  static const char kEmpty[1] = {0};
  const char* data = bytes.empty() ? kEmpty : bytes.data();
  if (mode_ == HashMode::kXxh64) return bb_parquet_hash_bytes(data, bytes.size());
  return KuduBytes(data, bytes.size());
}

}  // namespace blockbloom_cli
