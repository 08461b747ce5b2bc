// SPDX-License-Identifier: Apache-2.0
#include "aligncheck/footer.h"

#include "blockbloom/blockbloom.h"
#include "common/cli_error.h"

namespace blockbloom_aligncheck {
namespace {

using blockbloom::parquet::FilterState;
using blockbloom_cli::CliError;

std::string ChunkName(const ColumnChunkInfo& c) {
  return "row group " + std::to_string(c.row_group) + " column " + std::to_string(c.column) +
         " (" + (c.path.empty() ? "unnamed" : c.path) + ")";
}

}  // namespace

ParquetFooter ReadParquetFooter(const std::uint8_t* file, std::size_t size) {
  const blockbloom::parquet::FileBytes bytes(file, size);
  blockbloom::parquet::ParquetFileInfo info;
  std::string reason;
  if (blockbloom::parquet::ReadParquetFile(bytes, nullptr, &info, &reason) != BB_OK) {
    throw CliError(reason);
  }
  ParquetFooter footer;
  footer.metadata_offset = info.metadata_offset;
  footer.metadata_length = info.metadata_length;
  const std::size_t columns = info.meta.columns.size();
  for (std::size_t i = 0; i < info.meta.chunks.size(); ++i) {
    const blockbloom::parquet::Chunk& c = info.meta.chunks[i];
    ColumnChunkInfo chunk;
    chunk.row_group = static_cast<std::uint32_t>(i / columns);
    chunk.column = static_cast<std::uint32_t>(i % columns);
    chunk.path = std::string(info.meta.path(info.meta.columns[i % columns]));
    chunk.has_bloom_filter_offset = c.has_meta_data && c.has_bloom_filter_offset;
    chunk.bloom_filter_offset = c.bloom_filter_offset;
    chunk.has_bloom_filter_length = c.has_meta_data && c.has_bloom_filter_length;
    chunk.bloom_filter_length = c.bloom_filter_length;
    footer.chunks.push_back(std::move(chunk));
  }
  footer.filters = std::move(info.filters);
  footer.reasons = std::move(info.reasons);
  return footer;
}

std::vector<LocatedFilter> LocateBloomFilters(const ParquetFooter& footer) {
  std::vector<LocatedFilter> filters;
  for (std::size_t i = 0; i < footer.chunks.size(); ++i) {
    const ColumnChunkInfo& chunk = footer.chunks[i];
    const FilterState& state = footer.filters[i];
    if (state.status == BB_ERR_PARQUET_NO_FILTER) continue;
    const std::string where = ChunkName(chunk);
    if (state.status == BB_ERR_PARQUET_FOOTER_MALFORMED) {
      throw CliError("corrupt footer: " + where + ": " + footer.reasons[state.reason]);
    }
    if (state.status == BB_ERR_PARQUET_UNSUPPORTED) throw CliError(where + ": " + footer.reasons[state.reason]);
    if (state.status != BB_OK) {
      throw CliError("corrupt BloomFilterHeader of " + where + " at offset " +
                     std::to_string(state.header_offset) + ": " + bb_status_message(state.status));
    }
    LocatedFilter f;
    f.chunk = chunk;
    f.header_offset = state.header_offset;
    f.header_bytes = state.header_bytes;
    f.bitset_offset = state.bitset_offset();
    f.bitset_bytes = state.bitset_bytes;
    filters.push_back(std::move(f));
  }
  return filters;
}

}  // namespace blockbloom_aligncheck
