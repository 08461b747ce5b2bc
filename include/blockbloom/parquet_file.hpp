// SPDX-License-Identifier: Apache-2.0
// blockbloom C++17 API for Parquet files: a thin, header-only layer over
// blockbloom/parquet_file.h.
//
//   auto file = blockbloom::ParquetFile::open("f.parquet");
//   if (auto c = file.find_column("c")) {
//     const std::int32_t v = 42;
//     const std::uint64_t h = blockbloom::parquet_hash_value(file.column(*c), &v, sizeof v);
//     bool maybe = file.load_filter(2, *c).find(h);  // row group 2
//   }
//
// Errors throw blockbloom::Error with the bb_status code; a refused open
// carries the reason (which file, what is wrong with it) as what().

// Before C++17: one clear #error and the rest skipped (see blockbloom.hpp).
#if !defined(__cplusplus) || \
    (__cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#ifndef BLOCKBLOOM_PRE_CXX17_REPORTED_
#define BLOCKBLOOM_PRE_CXX17_REPORTED_
#error "parquet_file.hpp needs C++17 or later (the C API, parquet_file.h, works from C and any C++)"
#endif
#define BLOCKBLOOM_PARQUET_FILE_HPP_
#endif

#ifndef BLOCKBLOOM_PARQUET_FILE_HPP_
#define BLOCKBLOOM_PARQUET_FILE_HPP_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "blockbloom/blockbloom.hpp"
#include "blockbloom/parquet_file.h"

namespace blockbloom {

// A Parquet file's columns and Bloom filters. Move-only; a moved-from
// ParquetFile holds no file and its calls throw Error(BB_ERR_NULL_POINTER).
class ParquetFile {
 public:
  static ParquetFile open(const std::string& path) {
    return Opened([&](bb_parquet_file** f, char* why, std::size_t n) {
      return bb_parquet_file_open_path(f, path.c_str(), why, n);
    });
  }
  // The whole file, borrowed: it must outlive this object and its views.
  static ParquetFile from_memory(const void* data, std::size_t len) {
    return Opened([&](bb_parquet_file** f, char* why, std::size_t n) {
      return bb_parquet_file_open_memory(f, static_cast<const std::uint8_t*>(data), len, why, n);
    });
  }
  // The FileMetaData bytes alone (copied): columns and filter locations only.
  static ParquetFile from_footer(const void* file_metadata, std::size_t len) {
    return Opened([&](bb_parquet_file** f, char* why, std::size_t n) {
      return bb_parquet_file_open_footer(f, static_cast<const std::uint8_t*>(file_metadata), len,
                                         why, n);
    });
  }

  // The opens above within limits (bb_parquet_limits: a member left 0 takes
  // its default); past one they throw Error(BB_ERR_PARQUET_LIMIT).
  static ParquetFile open(const std::string& path, const bb_parquet_limits& limits) {
    return Opened([&](bb_parquet_file** f, char* why, std::size_t n) {
      return bb_parquet_file_open_path_limits(f, path.c_str(), &limits, why, n);
    });
  }
  static ParquetFile from_memory(const void* data, std::size_t len,
                                 const bb_parquet_limits& limits) {
    return Opened([&](bb_parquet_file** f, char* why, std::size_t n) {
      return bb_parquet_file_open_memory_limits(f, static_cast<const std::uint8_t*>(data), len,
                                                &limits, why, n);
    });
  }
  static ParquetFile from_footer(const void* file_metadata, std::size_t len,
                                 const bb_parquet_limits& limits) {
    return Opened([&](bb_parquet_file** f, char* why, std::size_t n) {
      return bb_parquet_file_open_footer_limits(
          f, static_cast<const std::uint8_t*>(file_metadata), len, &limits, why, n);
    });
  }

  ~ParquetFile() { bb_parquet_file_close(file_); }
  ParquetFile(ParquetFile&& other) noexcept : file_(std::exchange(other.file_, nullptr)) {}
  ParquetFile& operator=(ParquetFile&& other) noexcept {
    if (this != &other) {
      bb_parquet_file_close(file_);
      file_ = std::exchange(other.file_, nullptr);
    }
    return *this;
  }
  ParquetFile(const ParquetFile&) = delete;
  ParquetFile& operator=(const ParquetFile&) = delete;

  std::size_t num_row_groups() const {
    std::size_t n = 0;
    detail::Check(bb_parquet_file_num_row_groups(file_, &n));
    return n;
  }
  std::size_t num_columns() const {
    std::size_t n = 0;
    detail::Check(bb_parquet_file_num_columns(file_, &n));
    return n;
  }
  // The column with this dotted path, or nullopt; a path that more than one
  // column has throws Error(BB_ERR_PARQUET_AMBIGUOUS_COLUMN).
  std::optional<std::size_t> find_column(std::string_view path) const {
    std::size_t c = 0;
    const int status = bb_parquet_file_find_column(file_, path.data(), path.size(), &c);
    if (status == BB_ERR_PARQUET_NO_SUCH_CHUNK) return std::nullopt;
    detail::Check(status);
    return c;
  }
  // The column whose path is exactly these names (never ambiguous), or nullopt.
  std::optional<std::size_t> find_column_names(const std::vector<std::string>& names) const {
    std::vector<const char*> pointers;
    std::vector<std::size_t> lens;
    for (const std::string& name : names) {
      pointers.push_back(name.data());
      lens.push_back(name.size());
    }
    std::size_t c = 0;
    const int status =
        bb_parquet_file_find_column_names(file_, pointers.data(), lens.data(), names.size(), &c);
    if (status == BB_ERR_PARQUET_NO_SUCH_CHUNK) return std::nullopt;
    detail::Check(status);
    return c;
  }
  // The column with this dotted path; none or more than one throws Error
  // with the library's message (the closest columns, or the candidates).
  std::size_t lookup_column(std::string_view path) const {
    std::size_t c = 0;
    char why[1024];
    why[0] = '\0';
    const int status =
        bb_parquet_file_lookup_column(file_, path.data(), path.size(), &c, why, sizeof why);
    if (status != BB_OK) throw Error(status, why[0] != '\0' ? why : bb_status_message(status));
    return c;
  }
  // The names of column c's path, the root's child first.
  std::vector<std::string> column_names(std::size_t c) const {
    std::size_t depth = 0;
    detail::Check(bb_parquet_file_column_depth(file_, c, &depth));
    std::vector<std::string> names;
    for (std::size_t i = 0; i < depth; ++i) {
      const char* name = nullptr;
      std::size_t len = 0;
      detail::Check(bb_parquet_file_column_name(file_, c, i, &name, &len));
      names.emplace_back(name, len);
    }
    return names;
  }
  // Its path and strings stay valid as long as this file.
  bb_parquet_column column(std::size_t c) const {
    bb_parquet_column info{};
    info.struct_size = sizeof info;
    detail::Check(bb_parquet_file_column(file_, c, &info));
    return info;
  }
  bb_parquet_chunk chunk(std::size_t row_group, std::size_t c) const {
    bb_parquet_chunk info{};
    info.struct_size = sizeof info;
    detail::Check(bb_parquet_file_chunk(file_, row_group, c, &info));
    return info;
  }
  // A copy into an owned, 64-byte-aligned filter.
  Filter load_filter(std::size_t row_group, std::size_t c) const {
    bb_filter f;
    detail::Check(bb_parquet_file_load_filter(file_, row_group, c, &f));
    return Filter::adopt(&f);
  }
  // The bitset where it lies (from_memory files only).
  ConstView view_filter(std::size_t row_group, std::size_t c) const {
    bb_filter f;
    detail::Check(bb_parquet_file_view_filter(file_, row_group, c, &f));
    return ConstView(f.data, f.num_bytes);
  }

  const bb_parquet_file* c_file() const noexcept { return file_; }

 private:
  explicit ParquetFile(bb_parquet_file* file) : file_(file) {}

  template <typename Open>
  static ParquetFile Opened(Open open) {
    bb_parquet_file* f = nullptr;
    char why[512];
    why[0] = '\0';
    const int status = open(&f, why, sizeof why);
    if (status != BB_OK) throw Error(status, why[0] != '\0' ? why : bb_status_message(status));
    return ParquetFile(f);
  }

  bb_parquet_file* file_ = nullptr;
};

// The Parquet Bloom filter hash of a value of the column, given as its plain
// encoding (bb_parquet_hash_value: the length must be the physical type's).
inline std::uint64_t parquet_hash_value(const bb_parquet_column& column, const void* value,
                                        std::size_t len) {
  std::uint64_t h = 0;
  detail::Check(bb_parquet_hash_value(column.physical_type, column.type_length, value, len, &h));
  return h;
}

}  // namespace blockbloom

#endif  // BLOCKBLOOM_PARQUET_FILE_HPP_
