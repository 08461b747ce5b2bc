// SPDX-License-Identifier: Apache-2.0
// The Parquet BloomFilterHeader parser behind bb_parquet_header_read, for
// callers that hold only the start of a filter: the Parquet file layer reads
// a filter's header from a file (src/parquet/format/parquet_file.cc) before it reads, or
// instead of reading, the bitset.
//
// Internal: not installed; the library is compiled with hidden visibility,
// so none of it is exported.
#ifndef BLOCKBLOOM_PARQUET_FORMAT_BLOOM_FILTER_HEADER_H_
#define BLOCKBLOOM_PARQUET_FORMAT_BLOOM_FILTER_HEADER_H_

#include <cstddef>
#include <cstdint>

namespace blockbloom::internal {

// Parses the header at data[0 .. len) with bb_parquet_header_read's checks
// and codes, except the last: that numBytes of bitset follow it in the
// buffer. On BB_OK *header_bytes is the header's length and *num_bytes the
// bitset size it announces; on error both are untouched. A buffer that ends
// inside the header is BB_ERR_HEADER_TRUNCATED, so a caller reading a file
// can read more and try again. The file layer parses a header shared by
// many chunks once and judges each chunk's bloom_filter_length against it
// (src/parquet/format/file_info.cc).
int ParseBloomFilterHeader(const std::uint8_t* data, std::size_t len, std::size_t* header_bytes,
                           std::size_t* num_bytes);

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_PARQUET_FORMAT_BLOOM_FILTER_HEADER_H_
