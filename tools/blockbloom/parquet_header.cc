// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/parquet_header.h"

#include "tools/common/cli_error.h"

namespace blockbloom_tools {

bool AnySizeFlag(const ParsedFlags& flags, bool with_header) {
  const bool any_size = flags.Has("--any-size");
  if (any_size && !with_header) {
    throw UsageError("--any-size goes with --parquet-header (a raw bitset takes any multiple "
                     "of 32 anyway)");
  }
  return any_size;
}

void CheckHeaderSize(std::size_t num_bytes, bool any_size, const std::string& what) {
  if (any_size) {
    if (num_bytes <= kMaxHeaderNumBytes) return;
    throw CliError(what + ": too large for --parquet-header: a BloomFilterHeader's numBytes is a "
                   "signed 32-bit integer, at most " + std::to_string(kMaxHeaderNumBytes) +
                   " bytes as a multiple of 32");
  }
  if (bb_parquet_check_size(num_bytes) == BB_OK) return;
  std::string instead;
  if (num_bytes > BB_PARQUET_SAFE_MAX_BYTES) {
    instead = "at most " + std::to_string(BB_PARQUET_SAFE_MAX_BYTES) + " bytes";
  } else {
    std::size_t up = BB_PARQUET_SAFE_MIN_BYTES;
    while (up < num_bytes) up *= 2;
    instead = std::to_string(up / 2) + " or " + std::to_string(up) + " bytes";
  }
  throw CliError(what + ": Arrow's, Velox's and ClickHouse's Parquet readers refuse a Bloom "
                 "filter whose bitset is not a power of two from 32 B to 128 MiB (\"Given length "
                 "of bitset is illegal\"); use " + instead + ", or --any-size to write it for "
                 "readers that take any multiple of 32 (DuckDB)");
}

EncodedHeader EncodeParquetHeader(std::size_t num_bytes, bool any_size) {
  EncodedHeader header{};
  const int status =
      any_size ? bb_parquet_header_write_any_size(num_bytes, header.bytes, sizeof header.bytes,
                                                  &header.size)
               : bb_parquet_header_write(num_bytes, header.bytes, sizeof header.bytes,
                                         &header.size);
  if (status != BB_OK) {
    throw CliError("cannot write a Parquet BloomFilterHeader for " + std::to_string(num_bytes) +
                   " bytes: " + bb_status_message(status));
  }
  return header;
}

HeaderedBitset ReadParquetHeader(const std::uint8_t* data, std::size_t len,
                                 const std::string& where) {
  if (len == 0) throw CliError(where + ": " + bb_status_message(BB_ERR_HEADER_TRUNCATED));
  HeaderedBitset found{};
  const int status = bb_parquet_header_read(data, len, &found.header_bytes, &found.num_bytes);
  if (status != BB_OK) throw CliError(where + ": " + bb_status_message(status));
  return found;
}

std::string ForgottenHeaderReason(const std::string& what, std::uint64_t offset,
                                  const HeaderedBitset& found) {
  return what + " are a Parquet BloomFilterHeader (its " + std::to_string(found.num_bytes) +
         "-byte bitset follows at offset " + std::to_string(offset + found.header_bytes) +
         ")";
}

}  // namespace blockbloom_tools
