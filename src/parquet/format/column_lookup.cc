// SPDX-License-Identifier: Apache-2.0
// Finding a column by its dotted path or its names (src/parquet/format/column_lookup.h).
#include "src/parquet/format/column_lookup.h"

#include <cstring>

#include "blockbloom/blockbloom.h"

namespace blockbloom::internal {
namespace parquet {

int FindColumnByPath(const FileMetaData& meta, std::string_view path, std::size_t* column) {
  bool found = false;
  std::size_t first = 0;
  for (std::size_t i = 0; i < meta.columns.size(); ++i) {
    if (meta.path(meta.columns[i]) != path) continue;
    if (found) return BB_ERR_PARQUET_AMBIGUOUS_COLUMN;
    found = true;
    first = i;
  }
  if (!found) return BB_ERR_PARQUET_NO_SUCH_CHUNK;
  *column = first;
  return BB_OK;
}

int FindColumnByNames(const FileMetaData& meta, const char* const* names,
                      const std::size_t* lens, std::size_t depth, std::size_t* column) {
  for (std::size_t i = 0; i < meta.columns.size(); ++i) {
    if (meta.columns[i].depth != depth) continue;
    const ColumnNamesView n = meta.names(meta.columns[i]);
    std::size_t k = 0;
    while (k < depth && n.NameIs(k, names[k], lens[k])) ++k;
    if (k == depth && depth > 0) {
      *column = i;
      return BB_OK;
    }
  }
  return BB_ERR_PARQUET_NO_SUCH_CHUNK;
}

std::string NamesAsJson(ColumnNamesView names) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += i == 0 ? "\"" : ", \"";
    const char* name = names.name(i);
    for (std::size_t k = 0; k < names.length(i); ++k) {
      const auto c = static_cast<unsigned char>(name[k]);
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20 || c == 0x7f) {
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      } else {
        out += static_cast<char>(c);
      }
    }
    out += '"';
  }
  return out + "]";
}

void CopyCutMessage(const std::string& message, char* error, std::size_t capacity) {
  if (error == nullptr || capacity == 0) return;
  if (message.size() < capacity) {
    std::memcpy(error, message.data(), message.size());
    error[message.size()] = '\0';
    return;
  }
  static const char kMore[] = "...";
  const std::size_t more = capacity - 1 < 3 ? capacity - 1 : 3;
  std::size_t n = capacity - 1 - more;
  // Back to the start of a character: at most 3 UTF-8 continuation bytes.
  for (int back = 0; back < 3 && n > 0 && (static_cast<unsigned char>(message[n]) & 0xc0) == 0x80;
       ++back) {
    --n;
  }
  std::memcpy(error, message.data(), n);
  std::memcpy(error + n, kMore, more);
  error[n + more] = '\0';
}

}  // namespace parquet
}  // namespace blockbloom::internal
