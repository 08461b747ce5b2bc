// SPDX-License-Identifier: Apache-2.0
// Parquet files made by hand for the tests: a Thrift compact writer, just
// enough of it to write FileMetaData (schema, row groups, column chunks with
// bloom_filter_offset / bloom_filter_length) with unrelated fields around
// the ones the library reads, and the file around it ("PAR1", body, footer,
// its length, "PAR1"). Used by tests/parquet/parquet_file_test.cc and
// tests/aligncheck/aligncheck_unit_test.cc; the Python twin is
// tests/support/parquet_files.py.
#ifndef BLOCKBLOOM_TESTS_PARQUET_TEST_FILE_H_
#define BLOCKBLOOM_TESTS_PARQUET_TEST_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "blockbloom/parquet_format.h"

namespace bbtest {

// Thrift compact type ids.
constexpr int kBoolTrue = 1, kBoolFalse = 2, kByte = 3, kI32 = 5, kI64 = 6, kDouble = 7,
              kBinary = 8, kList = 9, kMap = 11, kStruct = 12;

class CompactWriter {
 public:
  CompactWriter& Field(int id, int type) {
    const int delta = id - last_.back();
    if (delta > 0 && delta <= 15) {
      out_ += static_cast<char>(delta << 4 | type);
    } else {
      out_ += static_cast<char>(type);
      Varint(ZigZag(id));
    }
    last_.back() = id;
    return *this;
  }
  CompactWriter& BeginStruct() {
    last_.push_back(0);
    return *this;
  }
  CompactWriter& EndStruct() {
    out_ += '\0';
    last_.pop_back();
    return *this;
  }
  CompactWriter& ListHeader(int elem, std::uint64_t count) {
    if (count < 15) {
      out_ += static_cast<char>(count << 4 | static_cast<std::uint64_t>(elem));
    } else {
      out_ += static_cast<char>(0xf0 | elem);
      Varint(count);
    }
    return *this;
  }
  CompactWriter& I(std::int64_t v) {
    Varint(ZigZag(v));
    return *this;
  }
  CompactWriter& Binary(const std::string& s) {
    Varint(s.size());
    out_ += s;
    return *this;
  }
  CompactWriter& Raw(const std::string& bytes) {
    out_ += bytes;
    return *this;
  }
  // An empty struct as a field: a union member such as STRING or MILLIS.
  CompactWriter& EmptyStruct(int id) { return Field(id, kStruct).BeginStruct().EndStruct(); }
  const std::string& bytes() const { return out_; }

 private:
  static std::uint64_t ZigZag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  }
  void Varint(std::uint64_t v) {
    while (v >= 0x80) {
      out_ += static_cast<char>(v | 0x80);
      v >>= 7;
    }
    out_ += static_cast<char>(v);
  }
  std::string out_;
  std::vector<int> last_{0};
};

// A LogicalType: the union member id and the parameters of those that have any.
struct LogicalSpec {
  int id = 0;  // 0: none written
  int bit_width = 0;
  bool is_signed = false;
  int unit = 0;  // TimeUnit member: 1 MILLIS, 2 MICROS, 3 NANOS
  bool utc = false;
  int scale = 0;
  int precision = 0;
};

struct ColumnSpec {
  std::vector<std::string> path;
  int type = 1;          // INT32
  int type_length = -1;  // -1: not written
  int converted = -1;    // -1: not written
  int scale = -1;        // SchemaElement.scale; -1: not written
  int precision = -1;
  LogicalSpec logical;
};

struct ChunkSpec {
  std::int64_t bloom_offset = -1;  // -1: absent, unless write_offset
  std::int32_t bloom_length = -1;  // -1: absent, unless write_length
  bool write_offset = false;       // write bloom_offset even if negative
  bool write_length = false;       // write bloom_length even if negative
  // The wire types bloom_offset and bloom_length are written as: kI64 / kI32
  // as parquet.thrift has them, or kList (a list<i32> holding the value), or
  // kBinary (the value's decimal text), as a confused writer might.
  int offset_type = kI64;
  int length_type = kI32;
  std::int64_t num_values = 100;
  bool meta_data = true;
  std::string file_path;  // empty: not written
};

inline void WriteLogical(CompactWriter& w, const LogicalSpec& l) {
  w.Field(10, kStruct).BeginStruct();
  w.Field(l.id, kStruct).BeginStruct();
  if (l.id == 5) w.Field(1, kI32).I(l.scale).Field(2, kI32).I(l.precision);
  if (l.id == 7 || l.id == 8) {
    w.Field(1, l.utc ? kBoolTrue : kBoolFalse);
    w.Field(2, kStruct).BeginStruct().EmptyStruct(l.unit).EndStruct();
  }
  if (l.id == 10) {
    w.Field(1, kByte).Raw(std::string(1, static_cast<char>(l.bit_width)));
    w.Field(2, l.is_signed ? kBoolTrue : kBoolFalse);
  }
  w.EndStruct().EndStruct();
}

// The schema elements below a group whose members are columns[begin, end),
// all sharing path[0 .. depth): one element per distinct path[depth], in
// order (the columns of a group must be contiguous). Returns how many
// elements it wrote.
inline std::size_t WriteSchemaLevel(CompactWriter& w, const std::vector<ColumnSpec>& columns,
                                    std::size_t begin, std::size_t end, std::size_t depth) {
  std::size_t written = 0;
  std::size_t i = begin;
  while (i < end) {
    std::size_t j = i + 1;
    while (j < end && columns[j].path[depth] == columns[i].path[depth]) ++j;
    const ColumnSpec& c = columns[i];
    w.BeginStruct();
    ++written;
    if (j == i + 1 && c.path.size() == depth + 1) {  // a leaf
      w.Field(1, kI32).I(c.type);
      if (c.type_length >= 0) w.Field(2, kI32).I(c.type_length);
      w.Field(3, kI32).I(1);  // OPTIONAL
      w.Field(4, kBinary).Binary(c.path[depth]);
      if (c.converted >= 0) w.Field(6, kI32).I(c.converted);
      if (c.scale >= 0) w.Field(7, kI32).I(c.scale);
      if (c.precision >= 0) w.Field(8, kI32).I(c.precision);
      if (c.logical.id != 0) WriteLogical(w, c.logical);
      w.EndStruct();
    } else {
      std::size_t children = 0;
      for (std::size_t k = i; k < j; ++k) {
        if (k == i || columns[k].path[depth + 1] != columns[k - 1].path[depth + 1]) ++children;
      }
      w.Field(3, kI32).I(1).Field(4, kBinary).Binary(c.path[depth]);
      w.Field(5, kI32).I(static_cast<std::int64_t>(children)).EndStruct();
      written += WriteSchemaLevel(w, columns, i, j, depth + 1);
    }
    i = j;
  }
  return written;
}

// The list of SchemaElements for columns: the root "schema", then the tree.
inline void WriteSchema(CompactWriter& c, const std::vector<ColumnSpec>& columns) {
  std::size_t top = 0;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i == 0 || columns[i].path[0] != columns[i - 1].path[0]) ++top;
  }
  // List elements are structs that start their own field numbering, so they
  // can be written apart and counted before the list header is.
  CompactWriter elements;
  elements.BeginStruct().Field(4, kBinary).Binary("schema");
  elements.Field(5, kI32).I(static_cast<std::int64_t>(top)).EndStruct();
  const std::size_t n = 1 + WriteSchemaLevel(elements, columns, 0, columns.size(), 0);
  c.ListHeader(kStruct, n).Raw(elements.bytes());
}

// An integer field's value written as type: the integer itself (kI32, kI64),
// a list<i32> holding it (kList), or its decimal text (kBinary).
inline void WriteTyped(CompactWriter& w, int type, std::int64_t v) {
  if (type == kList) {
    w.ListHeader(kI32, 1).I(v);
  } else if (type == kBinary) {
    w.Binary(std::to_string(v));
  } else {
    w.I(v);
  }
}

// FileMetaData: version, the schema of columns, num_rows, one row group per
// entry of row_groups (each with one chunk per column), key/value metadata
// and created_by, with unrelated fields (a statistics struct, encodings, a
// field from the future) around the ones the library reads.
inline std::string FileMetaData(const std::vector<ColumnSpec>& columns,
                                const std::vector<std::vector<ChunkSpec>>& row_groups) {
  CompactWriter c;
  c.BeginStruct();
  c.Field(1, kI32).I(2);  // version
  c.Field(2, kList);
  WriteSchema(c, columns);
  c.Field(3, kI64).I(1000);  // num_rows
  c.Field(4, kList).ListHeader(kStruct, row_groups.size());
  for (const auto& group : row_groups) {
    c.BeginStruct();
    c.Field(1, kList).ListHeader(kStruct, group.size());
    for (std::size_t i = 0; i < group.size(); ++i) {
      const ChunkSpec& chunk = group[i];
      const ColumnSpec& column = columns[i < columns.size() ? i : columns.size() - 1];
      c.BeginStruct();
      if (!chunk.file_path.empty()) c.Field(1, kBinary).Binary(chunk.file_path);
      c.Field(2, kI64).I(4);  // file_offset
      if (chunk.meta_data) {
        c.Field(3, kStruct).BeginStruct();
        c.Field(1, kI32).I(column.type);
        c.Field(2, kList).ListHeader(kI32, 2).I(0).I(3);  // encodings
        c.Field(3, kList).ListHeader(kBinary, column.path.size());
        for (const std::string& part : column.path) c.Binary(part);
        c.Field(4, kI32).I(0);  // codec
        c.Field(5, kI64).I(chunk.num_values);
        c.Field(8, kList).ListHeader(kStruct, 0);  // key_value_metadata
        c.Field(12, kStruct).BeginStruct().Field(1, kBinary).Binary("max").Field(5, kBoolTrue).EndStruct();
        if (chunk.bloom_offset >= 0 || chunk.write_offset) {
          WriteTyped(c.Field(14, chunk.offset_type), chunk.offset_type, chunk.bloom_offset);
        }
        if (chunk.bloom_length >= 0 || chunk.write_length) {
          WriteTyped(c.Field(15, chunk.length_type), chunk.length_type, chunk.bloom_length);
        }
        c.Field(16, kDouble).Raw(std::string(8, '\x01'));  // a field from the future
        c.EndStruct();                                     // ColumnMetaData
      }
      c.EndStruct();  // ColumnChunk
    }
    c.Field(2, kI64).I(123);  // total_byte_size
    c.Field(3, kI64).I(500);  // num_rows
    c.EndStruct();            // RowGroup
  }
  c.Field(5, kMap).Raw(std::string("\x01\x88", 2)).Binary("k").Binary("v");  // map<string,string>
  c.Field(6, kBinary).Binary("created by a test");
  c.EndStruct();
  return c.bytes();
}

inline std::string LittleEndian32(std::uint32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i) s += static_cast<char>(v >> (8 * i));
  return s;
}

// "PAR1" + body + metadata + its length + "PAR1": body starts at offset 4.
inline std::string ParquetBytes(const std::string& body, const std::string& metadata) {
  return "PAR1" + body + metadata + LittleEndian32(static_cast<std::uint32_t>(metadata.size())) +
         "PAR1";
}

// A BloomFilterHeader for a bitset of num_bytes, as the library writes it
// (any size a header holds: the readers under test accept them all).
inline std::string HeaderFor(std::size_t num_bytes) {
  std::uint8_t header[BB_PARQUET_HEADER_MAX_BYTES];
  std::size_t n = 0;
  if (bb_parquet_header_write_any_size(num_bytes, header, sizeof header, &n) != BB_OK) return "";
  return std::string(reinterpret_cast<const char*>(header), n);
}

}  // namespace bbtest

#endif  // BLOCKBLOOM_TESTS_PARQUET_TEST_FILE_H_
