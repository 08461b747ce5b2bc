// SPDX-License-Identifier: Apache-2.0
// --parquet: where a Parquet file's footer says its Bloom filters are.
//
// The footer is the last 8 bytes (a 4-byte little-endian length and "PAR1")
// preceded by that many bytes of Thrift-compact FileMetaData. Only these
// fields are read, everything else is skipped:
//   FileMetaData  4: list<RowGroup> row_groups
//   RowGroup      1: list<ColumnChunk> columns
//   ColumnChunk   3: ColumnMetaData meta_data
//   ColumnMetaData 3: list<binary> path_in_schema, 14: i64 bloom_filter_offset,
//                 15: i32 bloom_filter_length (both optional)
// The Thrift reader is the library's (api/thrift_compact_reader.h).
#ifndef BLOCKBLOOM_TOOLS_ALIGNCHECK_FOOTER_H_
#define BLOCKBLOOM_TOOLS_ALIGNCHECK_FOOTER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace blockbloom_aligncheck {

struct ColumnChunkInfo {
  std::uint32_t row_group = 0;
  std::uint32_t column = 0;  // index within the row group
  std::string path;          // path_in_schema joined with "."
  bool has_bloom_filter_offset = false;
  std::int64_t bloom_filter_offset = 0;
  bool has_bloom_filter_length = false;
  std::int32_t bloom_filter_length = 0;
};

struct ParquetFooter {
  std::uint64_t metadata_offset = 0;  // where FileMetaData starts
  std::uint32_t metadata_length = 0;
  std::vector<ColumnChunkInfo> chunks;  // every column chunk, in file order
};

// Parses the footer of the whole file in file[0 .. size). Throws CliError
// with a message naming the problem (too short, bad magic, footer length past
// the file, truncated or malformed Thrift, a field of the wrong type).
ParquetFooter ReadParquetFooter(const std::uint8_t* file, std::size_t size);

// A column chunk's Bloom filter, located and its header parsed.
struct LocatedFilter {
  ColumnChunkInfo chunk;
  std::uint64_t header_offset = 0;  // = bloom_filter_offset
  std::uint64_t header_bytes = 0;
  std::uint64_t bitset_offset = 0;  // header_offset + header_bytes
  std::uint64_t bitset_bytes = 0;   // the header's numBytes
};

// The filters of the chunks that have a bloom_filter_offset, in file order:
// each BloomFilterHeader is parsed with bb_parquet_header_read, within
// bloom_filter_length bytes when the footer gives it, else the rest of the
// file. Throws CliError naming the chunk for an offset or length outside the
// file or a corrupt header.
std::vector<LocatedFilter> LocateBloomFilters(const ParquetFooter& footer,
                                              const std::uint8_t* file, std::size_t size);

}  // namespace blockbloom_aligncheck

#endif  // BLOCKBLOOM_TOOLS_ALIGNCHECK_FOOTER_H_
