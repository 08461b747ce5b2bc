// SPDX-License-Identifier: Apache-2.0
// The Parquet file layer (blockbloom/parquet_file.h): any bytes, as a whole
// file in memory and as FileMetaData alone, are either refused with a
// Parquet error code or read into a handle whose every accessor answers.
// What aborts it: an error code outside those the open may return; a file
// that opens whose own FileMetaData does not open alone, or opens with other
// columns or filter locations; a filter whose load and in-place view differ;
// a filter reported usable that cannot be loaded; a loaded filter that is
// not 64-byte aligned. ASan catches any read outside the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "blockbloom/parquet_file.h"

namespace {

bool OpenCode(int status) {
  return status == BB_OK || status == BB_ERR_PARQUET_NOT_PARQUET ||
         status == BB_ERR_PARQUET_FOOTER_MALFORMED || status == BB_ERR_PARQUET_LIMIT ||
         status == BB_ERR_OUT_OF_MEMORY;
}

bb_parquet_column Column(const bb_parquet_file* f, size_t c) {
  bb_parquet_column info{};
  info.struct_size = sizeof info;
  if (bb_parquet_file_column(f, c, &info) != BB_OK) std::abort();
  return info;
}

bb_parquet_chunk Chunk(const bb_parquet_file* f, size_t g, size_t c) {
  bb_parquet_chunk info{};
  info.struct_size = sizeof info;
  if (bb_parquet_file_chunk(f, g, c, &info) != BB_OK) std::abort();
  return info;
}

// The column's path finds it: the dotted path (unless another column has
// it too: ambiguous), its names (the first column of those names), and the
// lookup, whose message is NUL-terminated within its buffer.
void ExerciseLookup(const bb_parquet_file* f, size_t c, const bb_parquet_column& col) {
  size_t found = 0;
  const int dotted = bb_parquet_file_find_column(f, col.path, col.path_len, &found);
  if (dotted != BB_ERR_PARQUET_AMBIGUOUS_COLUMN && (dotted != BB_OK || found != c)) std::abort();
  size_t depth = 0;
  if (bb_parquet_file_column_depth(f, c, &depth) != BB_OK || depth == 0) std::abort();
  std::vector<const char*> names(depth);
  std::vector<size_t> lens(depth);
  size_t joined = depth - 1;  // the dots
  for (size_t i = 0; i < depth; ++i) {
    if (bb_parquet_file_column_name(f, c, i, &names[i], &lens[i]) != BB_OK) std::abort();
    if (names[i][lens[i]] != '\0') std::abort();
    joined += lens[i];
  }
  if (joined != col.path_len) std::abort();
  if (bb_parquet_file_find_column_names(f, names.data(), lens.data(), depth, &found) != BB_OK ||
      found > c) {
    std::abort();
  }
  char message[48];
  const int looked = bb_parquet_file_lookup_column(f, col.path, col.path_len, &found, message,
                                                   sizeof message);
  if (looked != dotted) std::abort();
  if (looked != BB_OK && std::strlen(message) >= sizeof message) std::abort();
  // The first name less its last byte: any column, none or several.
  if (lens[0] > 0) {
    const int other =
        bb_parquet_file_lookup_column(f, names[0], lens[0] - 1, &found, message, sizeof message);
    if (other != BB_OK && other != BB_ERR_PARQUET_NO_SUCH_CHUNK &&
        other != BB_ERR_PARQUET_AMBIGUOUS_COLUMN) {
      std::abort();
    }
  }
}

// Every accessor of a handle opened in memory, against one of its FileMetaData alone.
void Exercise(const bb_parquet_file* f, const bb_parquet_file* footer_only) {
  size_t groups = 0, columns = 0;
  if (bb_parquet_file_num_row_groups(f, &groups) != BB_OK) std::abort();
  if (bb_parquet_file_num_columns(f, &columns) != BB_OK) std::abort();
  size_t footer_groups = 0, footer_columns = 0;
  bb_parquet_file_num_row_groups(footer_only, &footer_groups);
  bb_parquet_file_num_columns(footer_only, &footer_columns);
  if (footer_groups != groups || footer_columns != columns) std::abort();
  for (size_t c = 0; c < columns; ++c) {
    const bb_parquet_column col = Column(f, c);
    const bb_parquet_column other = Column(footer_only, c);
    if (col.path_len != other.path_len || std::memcmp(col.path, other.path, col.path_len) != 0 ||
        col.physical_type != other.physical_type || col.logical_type != other.logical_type) {
      std::abort();
    }
    ExerciseLookup(f, c, col);
    const uint8_t probe[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    uint64_t hash = 0;
    const size_t len = col.physical_type == BB_PARQUET_FIXED_LEN_BYTE_ARRAY
                           ? 0
                           : col.physical_type == BB_PARQUET_INT96 ? 12 : 4;
    bb_parquet_hash_value(col.physical_type, col.type_length, probe, len, &hash);
    for (size_t g = 0; g < groups; ++g) {
      const bb_parquet_chunk k = Chunk(f, g, c);
      const bb_parquet_chunk fk = Chunk(footer_only, g, c);
      if (k.has_filter != fk.has_filter || k.filter_offset != fk.filter_offset ||
          k.num_values != fk.num_values) {
        std::abort();
      }
      if ((k.filter_status == BB_OK) != (k.filter_error == nullptr)) std::abort();
      bb_filter loaded, view;
      const int load = bb_parquet_file_load_filter(f, g, c, &loaded);
      const int viewed = bb_parquet_file_view_filter(f, g, c, &view);
      if (load != k.filter_status && load != BB_ERR_OUT_OF_MEMORY) std::abort();
      if (load != BB_OK) {
        if (loaded.data != nullptr) std::abort();
        continue;
      }
      if (viewed != BB_OK || view.num_bytes != loaded.num_bytes ||
          view.num_bytes != k.bitset_bytes ||
          std::memcmp(view.data, loaded.data, loaded.num_bytes) != 0 ||
          reinterpret_cast<uintptr_t>(loaded.data) % BB_ALLOC_ALIGNMENT != 0) {
        std::abort();
      }
      if (bb_find(&loaded, hash) != bb_find(&view, hash)) std::abort();
      bb_filter_release(&loaded);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Exactly sized heap copies, so an overread hits ASan's redzone.
  const std::vector<uint8_t> input(data, data + size);
  bb_parquet_file* as_footer = nullptr;
  if (!OpenCode(bb_parquet_file_open_footer(&as_footer, input.data(), input.size(), nullptr, 0))) {
    std::abort();
  }
  bb_parquet_file_close(as_footer);

  bb_parquet_file* f = nullptr;
  char why[64];
  const int status = bb_parquet_file_open_memory(&f, input.data(), input.size(), why, sizeof why);
  if (!OpenCode(status)) std::abort();
  if (status != BB_OK) {
    if (f != nullptr || std::strlen(why) == 0) std::abort();
    return 0;
  }
  // The same FileMetaData alone must read alike.
  uint32_t length = 0;
  std::memcpy(&length, input.data() + size - 8, 4);  // little-endian hosts
  const std::vector<uint8_t> footer(input.end() - 8 - length, input.end() - 8);
  bb_parquet_file* alone = nullptr;
  if (bb_parquet_file_open_footer(&alone, footer.data(), footer.size(), nullptr, 0) != BB_OK) {
    std::abort();
  }
  Exercise(f, alone);
  bb_parquet_file_close(alone);
  bb_parquet_file_close(f);
  return 0;
}
