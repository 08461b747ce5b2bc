// SPDX-License-Identifier: Apache-2.0
#include "tools/aligncheck/footer.h"

#include <memory>

#include "blockbloom/blockbloom.h"
#include "blockbloom/parquet_file.h"
#include "tools/common/cli_error.h"

namespace blockbloom_tools::aligncheck {
namespace {

using blockbloom_tools::CliError;

std::string ChunkName(const ColumnChunkInfo& c) {
  return "row group " + std::to_string(c.row_group) + " column " + std::to_string(c.column) +
         " (" + (c.path.empty() ? "unnamed" : c.path) + ")";
}

struct CloseFile {
  void operator()(bb_parquet_file* f) const { bb_parquet_file_close(f); }
};

// A call that cannot fail on an open handle and indexes within its counts.
void MustSucceed(int status, const char* what) {
  if (status != BB_OK) throw CliError(std::string(what) + ": " + bb_status_message(status));
}

}  // namespace

ParquetFooter ReadParquetFooter(const std::uint8_t* file, std::size_t size) {
  bb_parquet_file* opened = nullptr;
  char why[1024] = {0};
  if (bb_parquet_file_open_memory(&opened, file, size, why, sizeof why) != BB_OK) {
    throw CliError(why);
  }
  const std::unique_ptr<bb_parquet_file, CloseFile> handle(opened);
  std::size_t row_groups = 0, columns = 0;
  MustSucceed(bb_parquet_file_num_row_groups(opened, &row_groups), "reading the row groups");
  MustSucceed(bb_parquet_file_num_columns(opened, &columns), "reading the columns");
  ParquetFooter footer;
  std::vector<std::string> paths(columns);
  for (std::size_t c = 0; c < columns; ++c) {
    bb_parquet_column column{};
    column.struct_size = sizeof column;
    MustSucceed(bb_parquet_file_column(opened, c, &column), "reading a column");
    paths[c].assign(column.path, column.path_len);
  }
  for (std::size_t g = 0; g < row_groups; ++g) {
    for (std::size_t c = 0; c < columns; ++c) {
      bb_parquet_chunk info{};
      info.struct_size = sizeof info;
      MustSucceed(bb_parquet_file_chunk(opened, g, c, &info), "reading a column chunk");
      ColumnChunkInfo chunk;
      chunk.row_group = static_cast<std::uint32_t>(g);
      chunk.column = static_cast<std::uint32_t>(c);
      chunk.path = paths[c];
      chunk.has_bloom_filter_offset = info.has_filter != 0;
      chunk.bloom_filter_offset = info.filter_offset;
      chunk.bloom_filter_length = info.filter_length;
      chunk.filter_status = info.filter_status;
      if (info.filter_error != nullptr) chunk.filter_error = info.filter_error;
      chunk.bitset_offset = info.bitset_offset;
      chunk.bitset_bytes = info.bitset_bytes;
      footer.chunks.push_back(std::move(chunk));
    }
  }
  return footer;
}

std::vector<LocatedFilter> LocateBloomFilters(const ParquetFooter& footer) {
  std::vector<LocatedFilter> filters;
  for (const ColumnChunkInfo& chunk : footer.chunks) {
    if (chunk.filter_status == BB_ERR_PARQUET_NO_FILTER) continue;
    const std::string where = ChunkName(chunk);
    if (chunk.filter_status == BB_ERR_PARQUET_FOOTER_MALFORMED) {
      throw CliError("corrupt footer: " + where + ": " + chunk.filter_error);
    }
    if (chunk.filter_status == BB_ERR_PARQUET_UNSUPPORTED) throw CliError(where + ": " + chunk.filter_error);
    if (chunk.filter_status != BB_OK) {
      throw CliError("corrupt BloomFilterHeader of " + where + " at offset " +
                     std::to_string(chunk.bloom_filter_offset) + ": " +
                     bb_status_message(chunk.filter_status));
    }
    LocatedFilter f;
    f.chunk = chunk;
    f.header_offset = static_cast<std::uint64_t>(chunk.bloom_filter_offset);
    f.header_bytes = chunk.bitset_offset - f.header_offset;
    f.bitset_offset = chunk.bitset_offset;
    f.bitset_bytes = chunk.bitset_bytes;
    filters.push_back(std::move(f));
  }
  return filters;
}

}  // namespace blockbloom_tools::aligncheck
