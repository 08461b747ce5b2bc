// SPDX-License-Identifier: Apache-2.0
// A Parquet file's footer: where it is (the 8-byte tail) and what it says
// (the Thrift compact FileMetaData), parsed into what the Bloom filter layer
// needs. The one FileMetaData parser of the project, behind the C API of
// blockbloom/parquet_file.h (src/parquet/format/file_info.cc, column_lookup.h);
// the tools read footers through that API. The Thrift reader underneath is
// src/parquet/format/thrift_compact_reader.h, bounds-checked byte by byte.
//
// Read, everything else skipped (unknown fields of any type included; and,
// as Thrift's own readers do, a known field whose wire type is not the one
// below, which then reads as absent: a list in bloom_filter_length leaves the
// chunk with no length, a required field so written is missing):
//   FileMetaData   1: i32 version, 2: list<SchemaElement> schema, 3: i64 num_rows,
//                  4: list<RowGroup> row_groups (all four required)
//   SchemaElement  1: type, 2: type_length, 4: name, 5: num_children,
//                  6: converted_type, 7: scale, 8: precision, 10: LogicalType
//   RowGroup       1: list<ColumnChunk> columns, 3: i64 num_rows
//   ColumnChunk    1: file_path, 3: ColumnMetaData meta_data
//   ColumnMetaData 1: type, 3: list<binary> path_in_schema, 5: i64 num_values,
//                  14: i64 bloom_filter_offset, 15: i32 bloom_filter_length
// and checked against each other: every row group has one chunk per schema
// leaf, and a chunk's path_in_schema (name by name) and type (when given) are
// its leaf's.
//
// Internal: not installed; the library is compiled with hidden visibility,
// so none of it is exported.
#ifndef BLOCKBLOOM_PARQUET_FORMAT_FOOTER_H_
#define BLOCKBLOOM_PARQUET_FORMAT_FOOTER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/parquet/format/column_names.h"
#include "blockbloom/parquet_file.h"

namespace blockbloom::internal {
namespace parquet {

constexpr std::size_t kMagicBytes = 4;     // "PAR1" at the start and at the end
constexpr std::size_t kTailBytes = 8;      // FileMetaData length (u32 LE) + "PAR1"
constexpr std::size_t kMinFileBytes = 12;  // magic + tail

// A LogicalType's member and its parameters: what a SchemaElement's
// LogicalType says, kept apart while the schema is read.
// Compact (20 bytes): one per schema element while the schema is read, one
// per column after.
struct LogicalFields {
  std::int32_t logical_type = BB_PARQUET_LOGICAL_NONE;
  std::int32_t time_unit = 0;
  std::int32_t scale = 0;
  std::int32_t precision = 0;
  std::int8_t bit_width = 0;  // IntType.bitWidth is an i8
  std::int8_t is_signed = 0;
  std::int8_t is_adjusted_to_utc = 0;
};

// A schema leaf, with its type as the file annotates it. Compact (48 bytes):
// its path and names are in its FileMetaData's pool (FileMetaData::path(),
// names()), for a footer can hold a million columns in a few bytes each.
struct Column : LogicalFields {
  // The path, the names below the root joined with '.': path_len bytes and
  // a NUL at FileMetaData::column_text[path_pos].
  std::uint32_t path_pos = 0;
  std::uint32_t path_len = 0;
  // The same names apart, the path no dot can blur: depth of them. A single
  // name is the path itself; deeper names follow the path in column_text,
  // each with its NUL, starting at name_starts[names_at .. names_at + depth).
  std::uint32_t names_at = 0;
  std::uint32_t depth = 0;
  std::int32_t physical_type = 0;
  std::int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY only, else 0
  std::int32_t converted_type = BB_PARQUET_CONVERTED_NONE;
};

// What one column chunk's ColumnChunk / ColumnMetaData say. Compact (32
// bytes): a footer can hold millions of chunks of a few bytes each.
struct Chunk {
  std::int64_t num_values = -1;
  std::int64_t bloom_filter_offset = 0;
  std::int32_t bloom_filter_length = 0;
  // ColumnChunk.file_path: where it lies in the FileMetaData bytes (read
  // while they are at hand, to say why such a chunk's filter is not read).
  std::uint32_t file_path_pos = 0;
  std::uint32_t file_path_len = 0;
  bool has_meta_data = false;
  bool has_file_path = false;  // its data lies in another file
  bool has_bloom_filter_offset = false;
  bool has_bloom_filter_length = false;
};

// What parsing a footer may spend (bb_parquet_limits, resolved): Thrift
// lists the walk keeps longer than max_elements, or structures past
// max_memory bytes, are BB_ERR_PARQUET_LIMIT.
struct FooterLimits {
  std::uint64_t max_elements = BB_PARQUET_DEFAULT_MAX_CONTAINER_ELEMENTS;
  std::uint64_t max_memory = BB_PARQUET_DEFAULT_MEMORY_BASE_BYTES;

  // limits (may be null) over the defaults, for a FileMetaData of
  // footer_len bytes. BB_OK, or BB_ERR_BUFFER_TOO_SMALL for a struct_size
  // below that of its first member.
  static int Resolve(const bb_parquet_limits* limits, std::uint64_t footer_len,
                     FooterLimits* out);
};

// The memory a parse holds, counted against FooterLimits::max_memory as it
// grows: the estimate of what each kept structure takes.
class MemoryBudget {
 public:
  explicit MemoryBudget(std::uint64_t limit) : limit_(limit) {}
  // false, with nothing counted, when n more bytes would pass the limit.
  bool Charge(std::uint64_t n) {
    if (n > limit_ - used_) return false;
    used_ += n;
    return true;
  }
  std::uint64_t limit() const { return limit_; }
  // "... more than max_memory_bytes N (bb_parquet_limits)": the reason's end.
  std::string Exceeded(const std::string& what) const;

 private:
  std::uint64_t limit_;
  std::uint64_t used_ = 0;
};

struct FileMetaData {
  std::int32_t version = 0;
  std::int64_t num_rows = 0;
  std::vector<Column> columns;               // the schema's leaves, depth first
  // The columns' paths and names (Column). A vector, whose bytes stay where
  // they are when the FileMetaData is moved: the C API hands out pointers
  // into it.
  std::vector<char> column_text;
  std::vector<std::uint32_t> name_starts;    // into column_text, for columns deeper than 1
  std::vector<std::int64_t> row_group_rows;  // RowGroup.num_rows (-1 if absent), per row group
  std::vector<Chunk> chunks;                 // [row_group * columns.size() + column]
  std::string created_by;

  // Column c's dotted path, followed by a NUL (path_c_str).
  std::string_view path(const Column& c) const {
    return std::string_view(column_text.data() + c.path_pos, c.path_len);
  }
  const char* path_c_str(const Column& c) const { return column_text.data() + c.path_pos; }
  // Column c's names (a view valid while this FileMetaData and c are).
  ColumnNamesView names(const Column& c) const {
    const std::uint32_t* starts = c.depth == 1 ? &c.path_pos : name_starts.data() + c.names_at;
    return ColumnNamesView(column_text.data(), starts, c.depth,
                           std::size_t{starts[0]} + c.path_len + 1);
  }

  std::size_t num_row_groups() const { return row_group_rows.size(); }
  const Chunk& chunk(std::size_t row_group, std::size_t column) const {
    return chunks[row_group * columns.size() + column];
  }
};

// Where the FileMetaData of a file of file_size bytes lies, from its first 4
// bytes (head) and its last 8 (tail). BB_OK with *offset and *length;
// BB_ERR_PARQUET_NOT_PARQUET (too short, bad magic, an encrypted "PARE"
// footer) or BB_ERR_PARQUET_FOOTER_MALFORMED (a footer length of 0 or past
// the start of the file) with *reason.
int LocateFileMetaData(std::uint64_t file_size, const std::uint8_t* head,
                       const std::uint8_t* tail, std::uint64_t* offset, std::uint32_t* length,
                       std::string* reason);

// Parses the FileMetaData in data[0 .. len), counting what it keeps
// against limits and *budget (which the caller may go on charging). BB_OK
// with *out filled; BB_ERR_PARQUET_FOOTER_MALFORMED with *reason ("corrupt
// footer: ... (at byte N of the FileMetaData)"); or BB_ERR_PARQUET_LIMIT with
// *reason (what was found, the limit and its value); *out is then
// unspecified. May throw std::bad_alloc.
int ParseFileMetaData(const std::uint8_t* data, std::size_t len, const FooterLimits& limits,
                      MemoryBudget* budget, FileMetaData* out, std::string* reason);

}  // namespace parquet
}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_PARQUET_FORMAT_FOOTER_H_
