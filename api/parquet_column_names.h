// SPDX-License-Identifier: Apache-2.0
// A column's path as names: the names of the schema elements from the
// root's child to the leaf, kept apart (a name may hold '.', or any byte),
// so that a top-level column named "a.b" and field b of group a, which share
// the dotted path "a.b", stay two paths. One string holds every name, each
// followed by a NUL (so each is a C string as parquet_file.h returns it),
// and where each starts.
//
// Internal: not installed; the library is compiled with hidden visibility.
#ifndef BLOCKBLOOM_API_PARQUET_COLUMN_NAMES_H_
#define BLOCKBLOOM_API_PARQUET_COLUMN_NAMES_H_

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace blockbloom {
namespace parquet {

class ColumnNames {
 public:
  void Add(const char* name, std::size_t len) {
    starts_.push_back(bytes_.size());
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
  // Name i: length(i) bytes followed by a NUL.
  const char* name(std::size_t i) const { return bytes_.data() + starts_[i]; }
  std::size_t length(std::size_t i) const {
    const std::size_t end = i + 1 < starts_.size() ? starts_[i + 1] : bytes_.size();
    return end - starts_[i] - 1;
  }
  bool NameIs(std::size_t i, const char* text, std::size_t len) const {
    return length(i) == len && (len == 0 || std::memcmp(name(i), text, len) == 0);
  }

  bool operator==(const ColumnNames& other) const {
    return starts_ == other.starts_ && bytes_ == other.bytes_;
  }
  bool operator!=(const ColumnNames& other) const { return !(*this == other); }

 private:
  std::string bytes_;
  std::vector<std::size_t> starts_;
};

// names as a JSON array of strings: ["a", "b.c"] (", \ and control
// characters escaped; other bytes, UTF-8 or not, as they are). In
// api/parquet_column_lookup.cc.
std::string NamesAsJson(const ColumnNames& names);

}  // namespace parquet
}  // namespace blockbloom

#endif  // BLOCKBLOOM_API_PARQUET_COLUMN_NAMES_H_
