// SPDX-License-Identifier: Apache-2.0
// Hashing one typed value the way a layout's readers do (Parquet XXH64 of
// the plain encoding, or Kudu FastHash32), by the library's column hash.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_VALUE_HASHING_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_VALUE_HASHING_H_

#include <cstdint>
#include <string_view>

#include "blockbloom/column.h"
#include "tools/blockbloom/hash_options.h"

namespace blockbloom_tools {

// mode is kXxh64 or kFastHash32; Kudu hashes are returned widened to 64 bits.
class ValueHasher {
 public:
  ValueHasher(HashMode mode, std::uint32_t seed) : mode_(mode), seed_(seed) {}

  std::uint64_t Int32(std::int32_t value) const;
  std::uint64_t Int64(std::int64_t value) const;
  std::uint64_t Float(float value) const;    // its IEEE 754 bits
  std::uint64_t Double(double value) const;  // its IEEE 754 bits
  std::uint64_t String(std::string_view bytes) const;  // the bytes, no length prefix

 private:
  std::uint64_t Column(const bb_column& col) const;        // of its one row
  std::uint64_t Fixed(std::uint32_t type, const void* value) const;

  HashMode mode_;
  std::uint32_t seed_;
};

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_VALUE_HASHING_H_
