// SPDX-License-Identifier: Apache-2.0
// A column's path as names: the names of the schema elements from the
// root's child to the leaf, kept apart (a name may hold '.', or any byte),
// so that a top-level column named "a.b" and field b of group a, which share
// the dotted path "a.b", stay two paths. One string holds every name, each
// followed by a NUL (so each is a C string as parquet_file.h returns it),
// and where each starts.
//
// Internal: not installed; the library is compiled with hidden visibility.
#ifndef BLOCKBLOOM_PARQUET_FORMAT_COLUMN_NAMES_H_
#define BLOCKBLOOM_PARQUET_FORMAT_COLUMN_NAMES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace blockbloom::internal {
namespace parquet {

// A column's names where they are kept (a ColumnNames, or the pool of a
// FileMetaData): name i is text + starts[i], each followed by a NUL, the
// last ending (NUL included) at text + end. Valid while what it views is.
class ColumnNamesView {
 public:
  ColumnNamesView(const char* text, const std::uint32_t* starts, std::size_t size, std::size_t end)
      : text_(text), starts_(starts), size_(size), end_(end) {}

  std::size_t size() const { return size_; }
  // Name i: length(i) bytes followed by a NUL.
  const char* name(std::size_t i) const { return text_ + starts_[i]; }
  std::size_t length(std::size_t i) const {
    const std::size_t next = i + 1 < size_ ? starts_[i + 1] : end_;
    return next - starts_[i] - 1;
  }
  bool NameIs(std::size_t i, const char* text, std::size_t len) const {
    return length(i) == len && (len == 0 || std::memcmp(name(i), text, len) == 0);
  }

  bool operator==(const ColumnNamesView& other) const {
    if (size_ != other.size_) return false;
    for (std::size_t i = 0; i < size_; ++i) {
      if (!other.NameIs(i, name(i), length(i))) return false;
    }
    return true;
  }
  bool operator!=(const ColumnNamesView& other) const { return !(*this == other); }

 private:
  const char* text_;
  const std::uint32_t* starts_;
  std::size_t size_;
  std::size_t end_;
};

// Names gathered one by one (a path_in_schema read, a path asked for).
class ColumnNames {
 public:
  void Add(const char* name, std::size_t len) {
    starts_.push_back(static_cast<std::uint32_t>(bytes_.size()));
    bytes_.append(name, len);
    bytes_ += '\0';
  }
  void Add(const std::string& name) { Add(name.data(), name.size()); }
  // Keeps the first depth names.
  void Truncate(std::size_t depth) {
    if (depth >= starts_.size()) return;
    bytes_.resize(starts_[depth]);
    starts_.resize(depth);
  }

  std::size_t size() const { return starts_.size(); }
  // The names' bytes: each name and its NUL, in order.
  const std::string& bytes() const { return bytes_; }
  ColumnNamesView view() const {
    return ColumnNamesView(bytes_.data(), starts_.data(), starts_.size(), bytes_.size());
  }
  operator ColumnNamesView() const { return view(); }  // NOLINT: a view of it

 private:
  std::string bytes_;  // names are at most 4 GiB in all: a FileMetaData is
  std::vector<std::uint32_t> starts_;
};

// names as a JSON array of strings: ["a", "b.c"] (", \ and control
// characters escaped; other bytes, UTF-8 or not, as they are). In
// src/parquet/format/column_lookup.cc.
std::string NamesAsJson(ColumnNamesView names);

}  // namespace parquet
}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_PARQUET_FORMAT_COLUMN_NAMES_H_
