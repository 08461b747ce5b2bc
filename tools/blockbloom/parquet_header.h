// SPDX-License-Identifier: Apache-2.0
// --parquet-header: the Thrift BloomFilterHeader that precedes a bitset in a
// Parquet file (blockbloom/parquet_format.h).
#ifndef BLOCKBLOOM_TOOLS_PARQUET_HEADER_H_
#define BLOCKBLOOM_TOOLS_PARQUET_HEADER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "blockbloom/parquet_format.h"

namespace blockbloom_cli {

struct EncodedHeader {
  std::uint8_t bytes[BB_PARQUET_HEADER_MAX_BYTES];
  std::size_t size;
};

// The largest bitset a BloomFilterHeader can describe: numBytes is a Thrift
// i32, so 2^31 - 1 rounded down to whole 32-byte blocks.
constexpr std::size_t kMaxHeaderNumBytes = 2147483616;

// Throws CliError("<what>: ...") stating that limit when num_bytes (a valid
// Parquet filter size otherwise) is above it; build calls it before reading
// any input so that a too-large --parquet-header filter is refused up front.
void CheckHeaderNumBytes(std::size_t num_bytes, const std::string& what);

// The header for a bitset of num_bytes (a valid Parquet filter size).
EncodedHeader EncodeParquetHeader(std::size_t num_bytes);

// Where the header at data[0 .. len) says its bitset is.
struct HeaderedBitset {
  std::size_t header_bytes;  // the bitset starts at data + header_bytes
  std::size_t num_bytes;     // and is this long (it fits in len)
};

// Parses the header; a corrupt or truncated one (or len 0) throws
// CliError("<where>: <bb_status_message>"), where names the file and offset.
HeaderedBitset ReadParquetHeader(const std::uint8_t* data, std::size_t len,
                                 const std::string& where);

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_PARQUET_HEADER_H_
