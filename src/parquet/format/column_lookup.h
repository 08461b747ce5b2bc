// SPDX-License-Identifier: Apache-2.0
// Finding a column of a Parquet file by its path (blockbloom/parquet_file.h:
// bb_parquet_file_find_column, _find_column_names, _lookup_column): by the
// dotted path, which two columns may share (a top-level column named "a.b"
// and field b of group a), or by the names, which no two share; and, when
// a dotted path finds none or more than one, the message for a person that
// says which columns were meant.
//
// Internal: not installed; the library is compiled with hidden visibility.
#ifndef BLOCKBLOOM_PARQUET_FORMAT_COLUMN_LOOKUP_H_
#define BLOCKBLOOM_PARQUET_FORMAT_COLUMN_LOOKUP_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "src/parquet/format/footer.h"

namespace blockbloom::internal {
namespace parquet {

// The column of meta whose dotted path is path: BB_OK with *column,
// BB_ERR_PARQUET_NO_SUCH_CHUNK, or BB_ERR_PARQUET_AMBIGUOUS_COLUMN when more
// than one column has it (*column untouched on error).
int FindColumnByPath(const FileMetaData& meta, std::string_view path, std::size_t* column);

// The column whose names are names[0 .. depth) (names[i] is lens[i] bytes):
// BB_OK with *column, or BB_ERR_PARQUET_NO_SUCH_CHUNK.
int FindColumnByNames(const FileMetaData& meta, const char* const* names,
                      const std::size_t* lens, std::size_t depth, std::size_t* column);

// Why FindColumnByPath(meta, path) failed with status (NO_SUCH_CHUNK or
// AMBIGUOUS_COLUMN), in English, names as the file's bytes:
//   no column X; the closest by name: A, B, ...
//   no column st: st is a group: its columns are st.a, st.b
//   column a.b is ambiguous: 2 columns have that dotted path: ["a.b"], ["a", "b"]
// A column whose dotted path another shares, or that holds a NUL, is shown
// as its names (a JSON array); a path asked for that holds a NUL as a JSON
// string (the message is a C string). May throw std::bad_alloc.
std::string ColumnLookupMessage(const FileMetaData& meta, std::string_view path, int status);

// message into error[0 .. capacity): whole when it fits, else cut before a
// character (never inside a UTF-8 sequence) and ended with "...".
void CopyCutMessage(const std::string& message, char* error, std::size_t capacity);

}  // namespace parquet
}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_PARQUET_FORMAT_COLUMN_LOOKUP_H_
