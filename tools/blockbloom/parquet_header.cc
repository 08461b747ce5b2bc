// SPDX-License-Identifier: Apache-2.0
#include "parquet_header.h"

#include "common/cli_error.h"

namespace blockbloom_cli {

void CheckHeaderNumBytes(std::size_t num_bytes, const std::string& what) {
  if (num_bytes <= kMaxHeaderNumBytes) return;
  throw CliError(what + ": too large for --parquet-header: a BloomFilterHeader's numBytes is a "
                 "signed 32-bit integer, at most " + std::to_string(kMaxHeaderNumBytes) +
                 " bytes as a multiple of 32");
}

EncodedHeader EncodeParquetHeader(std::size_t num_bytes) {
  EncodedHeader header{};
  const int status =
      bb_parquet_header_write(num_bytes, header.bytes, sizeof header.bytes, &header.size);
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

}  // namespace blockbloom_cli
