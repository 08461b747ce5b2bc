// SPDX-License-Identifier: Apache-2.0
// Why a dotted path found no column, or more than one: the message of
// bb_parquet_file_lookup_column (src/parquet/format/column_lookup.h).
#include <algorithm>
#include <unordered_map>
#include <utility>

#include "src/parquet/format/column_lookup.h"
#include "blockbloom/blockbloom.h"

namespace blockbloom::internal {
namespace parquet {
namespace {

constexpr std::size_t kClosest = 8;  // columns named when the path is no group
// Paths are ranked by the distance of kCompared bytes after the prefix they
// share with the path asked for (a shared prefix adds nothing to the
// distance; nested columns often share one longer than kCompared): enough for
// a hint, linear in the lengths, where the whole distance costs their
// product (a 100 KB path asked of a file with a 10 KB one: 10^9 steps).
constexpr std::size_t kCompared = 64;

// Whether text would cut the message short (a C string).
bool HoldsNul(std::string_view text) { return text.find('\0') != std::string_view::npos; }

// The path asked for as the message shows it: as given, or as a JSON string
// when it holds a NUL.
std::string Asked(std::string_view path) {
  if (!HoldsNul(path)) return std::string(path);
  ColumnNames one;
  one.Add(path.data(), path.size());
  const std::string array = NamesAsJson(one);  // ["..."]
  return array.substr(1, array.size() - 2);
}

// How each column is shown: its dotted path, or its names when another
// column has the same dotted path or it holds a NUL.
class ShownPaths {
 public:
  explicit ShownPaths(const FileMetaData& meta) : meta_(meta) {
    for (const Column& c : meta.columns) ++count_[meta.path(c)];
  }
  std::string operator()(std::size_t i) const {
    const Column& c = meta_.columns[i];
    const std::string_view path = meta_.path(c);
    return count_.at(path) > 1 || HoldsNul(path) ? NamesAsJson(meta_.names(c))
                                                 : std::string(path);
  }

 private:
  const FileMetaData& meta_;
  std::unordered_map<std::string_view, std::size_t> count_;
};

// Whether path is the dotted path of a group above column c: the first d
// names of c (d below its depth) joined with '.'.
bool UnderGroup(const FileMetaData& meta, const Column& c, std::string_view path) {
  const ColumnNamesView names = meta.names(c);
  std::size_t end = 0;  // where the first d names end in c's path
  for (std::size_t d = 0; d + 1 < names.size(); ++d) {
    end += (d == 0 ? 0 : 1) + names.length(d);
    if (end == path.size()) return meta.path(c).substr(0, end) == path;
    if (end > path.size()) return false;
  }
  return false;
}

// The Levenshtein distance of two byte strings.
std::size_t Distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : ", ") + items[i];
  return out;
}

std::string Missing(const FileMetaData& meta, std::string_view path) {
  const std::vector<Column>& columns = meta.columns;
  const std::string head = "no column " + Asked(path);
  if (columns.empty()) return head + ": the file has no columns";
  const ShownPaths shown(meta);
  std::vector<std::string> under;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (UnderGroup(meta, columns[i], path)) under.push_back(shown(i));
  }
  if (!under.empty()) {
    return head + ": " + Asked(path) + " is a group: its columns are " + Join(under);
  }
  std::vector<std::pair<std::size_t, std::size_t>> ranked;  // (distance, column)
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string_view other = meta.path(columns[i]);
    const std::size_t shared = static_cast<std::size_t>(
        std::mismatch(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(std::min(path.size(), other.size())),
                      other.begin())
            .first -
        path.begin());
    ranked.emplace_back(Distance(path.substr(shared, kCompared), other.substr(shared, kCompared)), i);
  }
  const std::size_t n = std::min(kClosest, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(n), ranked.end());
  std::vector<std::string> closest;
  for (std::size_t k = 0; k < n; ++k) closest.push_back(shown(ranked[k].second));
  return head + "; the closest of its " + std::to_string(columns.size()) +
         (columns.size() == 1 ? " column" : " columns") + " by name: " + Join(closest);
}

std::string Ambiguous(const FileMetaData& meta, std::string_view path) {
  std::vector<std::string> candidates;
  for (const Column& c : meta.columns) {
    if (meta.path(c) == path) candidates.push_back(NamesAsJson(meta.names(c)));
  }
  return "column " + Asked(path) + " is ambiguous: " + std::to_string(candidates.size()) +
         " columns have that dotted path: " + Join(candidates);
}

}  // namespace

std::string ColumnLookupMessage(const FileMetaData& meta, std::string_view path, int status) {
  return status == BB_ERR_PARQUET_AMBIGUOUS_COLUMN ? Ambiguous(meta, path) : Missing(meta, path);
}

}  // namespace parquet
}  // namespace blockbloom::internal
