// SPDX-License-Identifier: Apache-2.0
// --parquet-header: the Thrift BloomFilterHeader that precedes a bitset in a
// Parquet file (blockbloom/parquet_format.h).
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_HEADER_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_HEADER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "blockbloom/parquet_format.h"
#include "tools/common/cli_args.h"

namespace blockbloom_tools {

struct EncodedHeader {
  std::uint8_t bytes[BB_PARQUET_HEADER_MAX_BYTES];
  std::size_t size;
};

// The largest bitset a BloomFilterHeader can describe: numBytes is a Thrift
// i32, so 2^31 - 1 rounded down to whole 32-byte blocks.
constexpr std::size_t kMaxHeaderNumBytes = 2147483616;

// --any-size: write a BloomFilterHeader for a size that Arrow's, Velox's and
// ClickHouse's readers refuse. A usage error without --parquet-header (a raw
// bitset takes any multiple of 32 anyway).
bool AnySizeFlag(const ParsedFlags& flags, bool with_header);

// Throws CliError("<what>: ...") unless a BloomFilterHeader may announce
// num_bytes (a valid Parquet filter size): without any_size, only a power of
// two from 32 B to 128 MiB (bb_parquet_check_size), the message naming the
// readers that refuse others, the nearest size they take and --any-size;
// with it, anything up to kMaxHeaderNumBytes (the message states that
// limit). build and union call it before reading any input or writing
// anything, so such a size is refused up front.
void CheckHeaderSize(std::size_t num_bytes, bool any_size, const std::string& what);

// The header for a bitset of num_bytes, which CheckHeaderSize accepted.
EncodedHeader EncodeParquetHeader(std::size_t num_bytes, bool any_size);

// Where the header at data[0 .. len) says its bitset is.
struct HeaderedBitset {
  std::size_t header_bytes;  // the bitset starts at data + header_bytes
  std::size_t num_bytes;     // and is this long (it fits in len)
};

// Parses the header; a corrupt or truncated one (or len 0) throws
// CliError("<where>: <bb_status_message>"), where names the file and offset.
HeaderedBitset ReadParquetHeader(const std::uint8_t* data, std::size_t len,
                                 const std::string& where);

// Without --parquet-header, bytes are taken for a raw bitset (or a filter
// file). If they are a valid BloomFilterHeader instead (whose bitset fits),
// the flag was almost certainly forgotten: probe or union would read the
// header's bytes as bits and a shifted bitset, answering 0 for values that
// are there. probe and union refuse such bytes, naming the flag after this
// reason: "<what> are a Parquet BloomFilterHeader (its N-byte bitset follows
// at offset M)", found being what the header at offset says.
std::string ForgottenHeaderReason(const std::string& what, std::uint64_t offset,
                                  const HeaderedBitset& found);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_HEADER_H_
