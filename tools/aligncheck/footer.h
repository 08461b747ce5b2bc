// SPDX-License-Identifier: Apache-2.0
// --parquet: where a Parquet file's footer says its Bloom filters are.
//
// The footer and every filter's BloomFilterHeader are read by the library's
// public Parquet file API (blockbloom/parquet_file.h, over the project's one
// FileMetaData parser); this turns what it found into aligncheck's rows and
// its first problem into a CliError.
#ifndef BLOCKBLOOM_TOOLS_ALIGNCHECK_FOOTER_H_
#define BLOCKBLOOM_TOOLS_ALIGNCHECK_FOOTER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>


namespace blockbloom_tools::aligncheck {

struct ColumnChunkInfo {
  std::uint32_t row_group = 0;
  std::uint32_t column = 0;  // index within the row group
  std::string path;          // the column's dotted path from the schema
  bool has_bloom_filter_offset = false;
  std::int64_t bloom_filter_offset = 0;
  // bloom_filter_length (header + bitset), or the header's size + its
  // numBytes where the writer omitted it; 0 if unknown (bb_parquet_chunk).
  std::int64_t bloom_filter_length = 0;
  // What the library found of the filter: BB_OK (then the bitset is at
  // bitset_offset, bitset_bytes long), BB_ERR_PARQUET_NO_FILTER, or why it
  // cannot be used (filter_error).
  int filter_status = 0;
  std::string filter_error;
  std::uint64_t bitset_offset = 0;
  std::uint64_t bitset_bytes = 0;
};

struct ParquetFooter {
  std::vector<ColumnChunkInfo> chunks;  // every column chunk, in file order
};

// Parses the footer of the whole file in file[0 .. size) and checks each
// filter's header. Throws CliError with a message naming the problem (too
// short, bad magic, footer length past the file, truncated or malformed
// Thrift, a field of the wrong type, a schema the chunks disagree with).
ParquetFooter ReadParquetFooter(const std::uint8_t* file, std::size_t size);

// A column chunk's Bloom filter, located and its header parsed.
struct LocatedFilter {
  ColumnChunkInfo chunk;
  std::uint64_t header_offset = 0;  // = bloom_filter_offset
  std::uint64_t header_bytes = 0;
  std::uint64_t bitset_offset = 0;  // header_offset + header_bytes
  std::uint64_t bitset_bytes = 0;   // the header's numBytes
};

// The filters of the chunks that have a bloom_filter_offset, in file order.
// Throws CliError naming the chunk for the first one that cannot be used: an
// offset or length outside the file, or a corrupt header.
std::vector<LocatedFilter> LocateBloomFilters(const ParquetFooter& footer);

}  // namespace blockbloom_tools::aligncheck

#endif  // BLOCKBLOOM_TOOLS_ALIGNCHECK_FOOTER_H_
