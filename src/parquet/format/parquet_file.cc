// SPDX-License-Identifier: Apache-2.0
// The C API of blockbloom/parquet_file.h over the internal reader
// (src/parquet/format/file_info.h). No exception leaves it: an allocation that
// fails is BB_ERR_OUT_OF_MEMORY.
#include "blockbloom/parquet_file.h"

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "src/parquet/format/column_lookup.h"
#include "src/parquet/format/file_info.h"
#include "src/parquet/values/type_table.h"
#include "blockbloom/hashing.h"
#include "blockbloom/parquet_format.h"

using blockbloom::internal::parquet::FileBytes;
using blockbloom::internal::parquet::FilterState;
using blockbloom::internal::parquet::ParquetFileInfo;

struct bb_parquet_file {
  std::unique_ptr<FileBytes> bytes;  // null for a handle from the FileMetaData alone
  std::vector<std::uint8_t> footer;  // the copied FileMetaData of such a handle
  ParquetFileInfo info;
};

namespace {

void CopyError(const std::string& reason, char* error, size_t capacity) {
  if (error == nullptr || capacity == 0) return;
  const size_t n = reason.size() < capacity - 1 ? reason.size() : capacity - 1;
  std::memcpy(error, reason.data(), n);
  error[n] = '\0';
}

// Runs an open: make(handle, &reason) fills a new handle; *file gets it on
// success, error gets the reason on failure.
template <typename Make>
int Open(bb_parquet_file** file, char* error, size_t capacity, Make make) {
  std::string reason;
  int status = BB_OK;
  try {
    auto handle = std::make_unique<bb_parquet_file>();
    status = make(handle.get(), &reason);
    if (status == BB_OK) {
      *file = handle.release();
      return BB_OK;
    }
  } catch (...) {  // std::bad_alloc, or a length_error of a container: memory either way
    status = BB_ERR_OUT_OF_MEMORY;
    reason = "out of memory while reading the footer";
  }
  try {
    CopyError(reason, error, capacity);
  } catch (...) {
  }
  return status;
}

// The filter of (row_group, column), or an error: a chunk that does not
// exist, has no filter, or has one that cannot be used.
int UsableFilter(const bb_parquet_file* file, size_t row_group, size_t column,
                 const FilterState** out) {
  if (file == nullptr) return BB_ERR_NULL_POINTER;
  const ParquetFileInfo& info = file->info;
  if (row_group >= info.meta.num_row_groups() || column >= info.meta.columns.size()) {
    return BB_ERR_PARQUET_NO_SUCH_CHUNK;
  }
  const FilterState& filter = info.filter(row_group, column);
  if (filter.status != BB_OK) return filter.status;
  *out = &filter;
  return BB_OK;
}

// Copies the first struct_size bytes of full into *out (the caller's struct,
// as big as it was compiled with), keeping the caller's struct_size.
template <typename T>
int WriteSized(const T& full, T* out) {
  if (out->struct_size < sizeof(size_t)) return BB_ERR_BUFFER_TOO_SMALL;
  const size_t n = out->struct_size < sizeof(T) ? out->struct_size : sizeof(T);
  const size_t caller = out->struct_size;
  std::memcpy(out, &full, n);
  out->struct_size = caller;
  return BB_OK;
}

}  // namespace

extern "C" {

int bb_parquet_file_open_path(bb_parquet_file** file, const char* path, char* error,
                              size_t error_capacity) {
  return bb_parquet_file_open_path_limits(file, path, nullptr, error, error_capacity);
}

int bb_parquet_file_open_memory(bb_parquet_file** file, const uint8_t* data, size_t len,
                                char* error, size_t error_capacity) {
  return bb_parquet_file_open_memory_limits(file, data, len, nullptr, error, error_capacity);
}

int bb_parquet_file_open_footer(bb_parquet_file** file, const uint8_t* file_metadata, size_t len,
                                char* error, size_t error_capacity) {
  return bb_parquet_file_open_footer_limits(file, file_metadata, len, nullptr, error,
                                            error_capacity);
}

int bb_parquet_file_open_path_limits(bb_parquet_file** file, const char* path,
                                     const bb_parquet_limits* limits, char* error,
                                     size_t error_capacity) {
  if (file == nullptr || path == nullptr) return BB_ERR_NULL_POINTER;
  return Open(file, error, error_capacity, [&](bb_parquet_file* h, std::string* reason) {
    FileBytes* bytes = nullptr;
    const int status = FileBytes::OpenPath(path, &bytes, reason);
    if (status != BB_OK) return status;
    h->bytes.reset(bytes);
    const int read = blockbloom::internal::parquet::ReadParquetFile(*h->bytes, limits, &h->info, reason);
    // I/O reasons name the file already; the others say what is wrong with it.
    if (read != BB_OK && read != BB_ERR_PARQUET_IO) *reason = std::string(path) + ": " + *reason;
    return read;
  });
}

int bb_parquet_file_open_memory_limits(bb_parquet_file** file, const uint8_t* data, size_t len,
                                       const bb_parquet_limits* limits, char* error,
                                       size_t error_capacity) {
  if (file == nullptr || (data == nullptr && len > 0)) return BB_ERR_NULL_POINTER;
  return Open(file, error, error_capacity, [&](bb_parquet_file* h, std::string* reason) {
    static const uint8_t kNothing = 0;
    h->bytes = std::make_unique<FileBytes>(data != nullptr ? data : &kNothing, len);
    return blockbloom::internal::parquet::ReadParquetFile(*h->bytes, limits, &h->info, reason);
  });
}

int bb_parquet_file_open_footer_limits(bb_parquet_file** file, const uint8_t* file_metadata,
                                       size_t len, const bb_parquet_limits* limits, char* error,
                                       size_t error_capacity) {
  if (file == nullptr || (file_metadata == nullptr && len > 0)) return BB_ERR_NULL_POINTER;
  return Open(file, error, error_capacity, [&](bb_parquet_file* h, std::string* reason) {
    h->footer.assign(file_metadata, file_metadata + len);
    return blockbloom::internal::parquet::ReadFileMetaDataOnly(h->footer.data(), h->footer.size(), limits,
                                                     &h->info, reason);
  });
}

void bb_parquet_file_close(bb_parquet_file* file) { delete file; }

int bb_parquet_file_num_row_groups(const bb_parquet_file* file, size_t* row_groups) {
  if (file == nullptr || row_groups == nullptr) return BB_ERR_NULL_POINTER;
  *row_groups = file->info.meta.num_row_groups();
  return BB_OK;
}

int bb_parquet_file_num_columns(const bb_parquet_file* file, size_t* columns) {
  if (file == nullptr || columns == nullptr) return BB_ERR_NULL_POINTER;
  *columns = file->info.meta.columns.size();
  return BB_OK;
}

int bb_parquet_file_find_column(const bb_parquet_file* file, const char* path, size_t path_len,
                                size_t* column) {
  if (file == nullptr || column == nullptr || (path == nullptr && path_len > 0)) {
    return BB_ERR_NULL_POINTER;
  }
  return blockbloom::internal::parquet::FindColumnByPath(
      file->info.meta, std::string_view(path_len > 0 ? path : "", path_len), column);
}

int bb_parquet_file_find_column_names(const bb_parquet_file* file, const char* const* names,
                                      const size_t* lens, size_t depth, size_t* column) {
  if (file == nullptr || column == nullptr || (depth > 0 && (names == nullptr || lens == nullptr))) {
    return BB_ERR_NULL_POINTER;
  }
  for (size_t i = 0; i < depth; ++i) {
    if (names[i] == nullptr && lens[i] > 0) return BB_ERR_NULL_POINTER;
  }
  return blockbloom::internal::parquet::FindColumnByNames(file->info.meta, names, lens, depth, column);
}

int bb_parquet_file_lookup_column(const bb_parquet_file* file, const char* path, size_t path_len,
                                  size_t* column, char* error, size_t error_capacity) {
  const int status = bb_parquet_file_find_column(file, path, path_len, column);
  if (status == BB_OK || status == BB_ERR_NULL_POINTER) return status;
  try {
    blockbloom::internal::parquet::CopyCutMessage(
        blockbloom::internal::parquet::ColumnLookupMessage(
            file->info.meta, std::string_view(path_len > 0 ? path : "", path_len), status),
        error, error_capacity);
  } catch (...) {  // std::bad_alloc: the status without the closest columns
    CopyError(bb_status_message(status), error, error_capacity);
  }
  return status;
}

int bb_parquet_file_column_depth(const bb_parquet_file* file, size_t column, size_t* depth) {
  if (file == nullptr || depth == nullptr) return BB_ERR_NULL_POINTER;
  const auto& columns = file->info.meta.columns;
  if (column >= columns.size()) return BB_ERR_PARQUET_NO_SUCH_CHUNK;
  *depth = columns[column].depth;
  return BB_OK;
}

int bb_parquet_file_column_name(const bb_parquet_file* file, size_t column, size_t i,
                                const char** name, size_t* len) {
  if (file == nullptr || name == nullptr || len == nullptr) return BB_ERR_NULL_POINTER;
  const auto& meta = file->info.meta;
  if (column >= meta.columns.size() || i >= meta.columns[column].depth) {
    return BB_ERR_PARQUET_NO_SUCH_CHUNK;
  }
  const blockbloom::internal::parquet::ColumnNamesView names = meta.names(meta.columns[column]);
  *name = names.name(i);
  *len = names.length(i);
  return BB_OK;
}

int bb_parquet_file_column(const bb_parquet_file* file, size_t column, bb_parquet_column* info) {
  if (file == nullptr || info == nullptr) return BB_ERR_NULL_POINTER;
  const auto& columns = file->info.meta.columns;
  if (column >= columns.size()) return BB_ERR_PARQUET_NO_SUCH_CHUNK;
  const blockbloom::internal::parquet::Column& c = columns[column];
  bb_parquet_column full{};
  full.path = file->info.meta.path_c_str(c);
  full.path_len = c.path_len;
  full.physical_type = c.physical_type;
  full.type_length = c.type_length;
  full.logical_type = c.logical_type;
  full.converted_type = c.converted_type;
  full.bit_width = c.bit_width;
  full.is_signed = c.is_signed;
  full.time_unit = c.time_unit;
  full.is_adjusted_to_utc = c.is_adjusted_to_utc;
  full.scale = c.scale;
  full.precision = c.precision;
  return WriteSized(full, info);
}

int bb_parquet_file_chunk(const bb_parquet_file* file, size_t row_group, size_t column,
                          bb_parquet_chunk* info) {
  if (file == nullptr || info == nullptr) return BB_ERR_NULL_POINTER;
  const ParquetFileInfo& pf = file->info;
  if (row_group >= pf.meta.num_row_groups() || column >= pf.meta.columns.size()) {
    return BB_ERR_PARQUET_NO_SUCH_CHUNK;
  }
  const blockbloom::internal::parquet::Chunk& chunk = pf.meta.chunk(row_group, column);
  const FilterState& filter = pf.filter(row_group, column);
  bb_parquet_chunk full{};
  full.num_values = chunk.num_values;
  full.has_filter = chunk.has_meta_data && chunk.has_bloom_filter_offset ? 1 : 0;
  full.filter_status = filter.status;
  full.filter_error = filter.status == BB_OK ? nullptr : pf.reason(filter).c_str();
  full.filter_offset = full.has_filter ? chunk.bloom_filter_offset : 0;
  full.filter_length = filter.length;
  full.filter_checked = filter.checked ? 1 : 0;
  full.bitset_offset = filter.checked ? filter.bitset_offset() : 0;
  full.bitset_bytes = filter.bitset_bytes;
  return WriteSized(full, info);
}

int bb_parquet_file_load_filter(const bb_parquet_file* file, size_t row_group, size_t column,
                                bb_filter* f) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  const FilterState* filter = nullptr;
  int status = UsableFilter(file, row_group, column, &filter);
  if (status != BB_OK) return status;
  if (!filter->checked) return BB_ERR_PARQUET_UNSUPPORTED;  // from the footer alone
  const FileBytes& bytes = *file->bytes;
  if (bytes.memory() != nullptr) {
    // The header again, as bb_parquet_filter_read reads it: it was checked
    // at open, so this cannot fail but for memory.
    return bb_parquet_filter_read(f, bytes.memory() + filter->header_offset,
                                  filter->header_bytes + filter->bitset_bytes, nullptr);
  }
  status = bb_filter_init(f, filter->bitset_bytes);
  if (status != BB_OK) return status;
  std::string reason;
  try {
    status = bytes.Read(filter->bitset_offset(), filter->bitset_bytes, f->data, &reason);
  } catch (const std::bad_alloc&) {
    status = BB_ERR_OUT_OF_MEMORY;
  }
  if (status != BB_OK) bb_filter_release(f);
  return status;
}

int bb_parquet_file_view_filter(const bb_parquet_file* file, size_t row_group, size_t column,
                                bb_filter* f) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  const FilterState* filter = nullptr;
  const int status = UsableFilter(file, row_group, column, &filter);
  if (status != BB_OK) return status;
  if (!filter->checked || file->bytes->memory() == nullptr) return BB_ERR_PARQUET_UNSUPPORTED;
  return bb_filter_init_view_readonly(f, file->bytes->memory() + filter->bitset_offset(),
                                      filter->bitset_bytes);
}

int bb_parquet_hash_value(int32_t physical_type, int32_t type_length, const void* value,
                          size_t len, uint64_t* hash) {
  if (hash == nullptr || (value == nullptr && len > 0)) return BB_ERR_NULL_POINTER;
  // BOOLEAN, no Parquet type or no FIXED_LEN_BYTE_ARRAY length: -1.
  const int width = blockbloom::internal::parquet_types::ValueWidth(physical_type, type_length);
  if (width < 0) return BB_ERR_PARQUET_UNSUPPORTED;
  if (width > 0 && len != static_cast<size_t>(width)) return BB_ERR_PARQUET_UNSUPPORTED;
  static const uint8_t kEmpty = 0;
  *hash = bb_parquet_hash_bytes(value != nullptr ? value : &kEmpty, len);
  return BB_OK;
}

}  // extern "C"
