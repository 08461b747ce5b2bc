// SPDX-License-Identifier: Apache-2.0
#include "aligncheck/footer.h"

#include <cstring>

#include "api/thrift_compact_reader.h"
#include "blockbloom/parquet_format.h"
#include "common/cli_error.h"

namespace blockbloom_aligncheck {
namespace {

using blockbloom::thrift::CompactReader;
using blockbloom_cli::CliError;
namespace thrift = blockbloom::thrift;

constexpr char kMagic[] = "PAR1";
constexpr std::size_t kMagicBytes = 4;
constexpr std::size_t kTailBytes = 8;  // footer length + magic

// Walks the FileMetaData; every failure throws with the footer position.
class FooterWalker {
 public:
  FooterWalker(const std::uint8_t* data, std::size_t len) : r_(data, len) {}

  std::vector<ColumnChunkInfo> Walk() {
    bool seen[kRequired] = {};
    Struct(0, [&](int id, std::uint8_t type) {
      if (id < 1 || id > kRequired) return false;
      const RequiredField& field = kRequiredFields[id - 1];
      Expect(type == field.type, std::string("FileMetaData.") + field.name + " (field " +
                                     std::to_string(id) + ") is not " + field.type_name);
      seen[id - 1] = true;
      if (id != 4) return false;  // checked for presence and type only
      const std::uint64_t groups = ListOfStructs("FileMetaData.row_groups");
      for (std::uint64_t g = 0; g < groups; ++g) RowGroup(static_cast<std::uint32_t>(g));
      return true;
    });
    ExpectRequiredFields(seen);
    return std::move(chunks_);
  }

 private:
  // FileMetaData fields 1 .. 4, all required by parquet.thrift. Without them
  // the bytes are no Parquet footer, however well-formed as Thrift: a lone
  // stop byte must not pass as a file with no column chunks.
  struct RequiredField {
    const char* name;
    std::uint8_t type;
    const char* type_name;
  };
  static constexpr int kRequired = 4;
  static constexpr RequiredField kRequiredFields[kRequired] = {
      {"version", thrift::kI32, "an i32"},
      {"schema", thrift::kList, "a list"},
      {"num_rows", thrift::kI64, "an i64"},
      {"row_groups", thrift::kList, "a list"},
  };

  void ExpectRequiredFields(const bool (&seen)[kRequired]) {
    std::string missing;
    for (int i = 0; i < kRequired; ++i) {
      if (seen[i]) continue;
      missing += std::string(missing.empty() ? "" : ", ") + kRequiredFields[i].name +
                 " (field " + std::to_string(i + 1) + ")";
    }
    if (!missing.empty()) {
      throw CliError("corrupt footer: the FileMetaData lacks required " + missing);
    }
  }

  // Reads a struct's fields; on_field(id, type) reads the value and returns
  // true, or returns false to have it skipped.
  template <typename OnField>
  void Struct(int depth, OnField on_field) {
    Expect(depth < thrift::kMaxDepth, "nested too deeply");
    int last_id = 0;
    for (;;) {
      std::uint8_t type = 0;
      int id = 0;
      Check(r_.FieldHeader(&last_id, &type, &id));
      if (type == thrift::kStop) return;
      if (!on_field(id, type)) Check(r_.Skip(type, depth + 1, false));
    }
  }

  std::uint64_t ListOfStructs(const char* what) {
    std::uint8_t elem = 0;
    std::uint64_t count = 0;
    Check(r_.ListHeader(&elem, &count));
    Expect(elem == thrift::kStruct, std::string(what) + " is not a list of structs");
    return count;
  }

  void RowGroup(std::uint32_t group) {
    Struct(2, [&](int id, std::uint8_t type) {
      if (id != 1) return false;
      Expect(type == thrift::kList, "RowGroup.columns (field 1) is not a list");
      const std::uint64_t columns = ListOfStructs("RowGroup.columns");
      for (std::uint64_t c = 0; c < columns; ++c) {
        ColumnChunkInfo chunk;
        chunk.row_group = group;
        chunk.column = static_cast<std::uint32_t>(c);
        ColumnChunk(&chunk);
        chunks_.push_back(std::move(chunk));
      }
      return true;
    });
  }

  void ColumnChunk(ColumnChunkInfo* chunk) {
    Struct(4, [&](int id, std::uint8_t type) {
      if (id != 3) return false;
      Expect(type == thrift::kStruct, "ColumnChunk.meta_data (field 3) is not a struct");
      ColumnMetaData(chunk);
      return true;
    });
  }

  void ColumnMetaData(ColumnChunkInfo* chunk) {
    Struct(5, [&](int id, std::uint8_t type) {
      switch (id) {
        case 3: {
          Expect(type == thrift::kList, "ColumnMetaData.path_in_schema (field 3) is not a list");
          std::uint8_t elem = 0;
          std::uint64_t count = 0;
          Check(r_.ListHeader(&elem, &count));
          Expect(elem == thrift::kBinary,
                 "ColumnMetaData.path_in_schema (field 3) is not a list of strings");
          chunk->path.clear();
          for (std::uint64_t i = 0; i < count; ++i) {
            const std::uint8_t* bytes = nullptr;
            std::size_t size = 0;
            Check(r_.Binary(&bytes, &size));
            if (i > 0) chunk->path += '.';
            chunk->path.append(reinterpret_cast<const char*>(bytes), size);
          }
          return true;
        }
        case 14:
          Expect(type == thrift::kI64, "ColumnMetaData.bloom_filter_offset (field 14) is not an i64");
          Check(r_.I64(&chunk->bloom_filter_offset));
          chunk->has_bloom_filter_offset = true;
          return true;
        case 15:
          Expect(type == thrift::kI32, "ColumnMetaData.bloom_filter_length (field 15) is not an i32");
          Check(r_.I32(&chunk->bloom_filter_length));
          chunk->has_bloom_filter_length = true;
          return true;
        default:
          return false;
      }
    });
  }

  void Check(int status) {
    if (status == BB_OK) return;
    const char* what = status == BB_ERR_HEADER_TRUNCATED ? "the FileMetaData ends inside a value"
                                                         : "malformed Thrift compact data";
    throw CliError("corrupt footer: " + std::string(what) + " (at byte " +
                   std::to_string(r_.pos()) + " of the FileMetaData)");
  }

  void Expect(bool ok, const std::string& what) {
    if (!ok) {
      throw CliError("corrupt footer: " + what + " (at byte " + std::to_string(r_.pos()) +
                     " of the FileMetaData)");
    }
  }

  CompactReader r_;
  std::vector<ColumnChunkInfo> chunks_;
};

std::string ChunkName(const ColumnChunkInfo& c) {
  return "row group " + std::to_string(c.row_group) + " column " + std::to_string(c.column) +
         " (" + (c.path.empty() ? "unnamed" : c.path) + ")";
}

}  // namespace

ParquetFooter ReadParquetFooter(const std::uint8_t* file, std::size_t size) {
  if (size < kMagicBytes + kTailBytes) {
    throw CliError("not a Parquet file: " + std::to_string(size) +
                   " bytes is too short for \"PAR1\" + footer length + \"PAR1\" (12 bytes)");
  }
  const std::uint8_t* tail = file + size - kMagicBytes;
  if (std::memcmp(tail, "PARE", kMagicBytes) == 0) {
    throw CliError("encrypted Parquet footer (\"PARE\") is not supported");
  }
  if (std::memcmp(tail, kMagic, kMagicBytes) != 0) {
    throw CliError("not a Parquet file: bad magic, the last 4 bytes are not \"PAR1\"");
  }
  if (std::memcmp(file, kMagic, kMagicBytes) != 0) {
    throw CliError("not a Parquet file: bad magic, the first 4 bytes are not \"PAR1\"");
  }
  const std::uint8_t* length_bytes = file + size - kTailBytes;
  const std::uint32_t length = static_cast<std::uint32_t>(length_bytes[0]) |
                               static_cast<std::uint32_t>(length_bytes[1]) << 8 |
                               static_cast<std::uint32_t>(length_bytes[2]) << 16 |
                               static_cast<std::uint32_t>(length_bytes[3]) << 24;
  if (length > size - kTailBytes - kMagicBytes) {
    throw CliError("corrupt footer: footer length " + std::to_string(length) +
                   " runs past the start of the file (" + std::to_string(size) + " bytes)");
  }
  if (length == 0) throw CliError("corrupt footer: footer length is 0");
  ParquetFooter footer;
  footer.metadata_length = length;
  footer.metadata_offset = size - kTailBytes - length;
  FooterWalker walker(file + footer.metadata_offset, length);
  footer.chunks = walker.Walk();
  return footer;
}

std::vector<LocatedFilter> LocateBloomFilters(const ParquetFooter& footer,
                                              const std::uint8_t* file, std::size_t size) {
  std::vector<LocatedFilter> filters;
  for (const ColumnChunkInfo& chunk : footer.chunks) {
    if (!chunk.has_bloom_filter_offset) continue;
    const std::string where = ChunkName(chunk);
    if (chunk.bloom_filter_offset < 0 ||
        static_cast<std::uint64_t>(chunk.bloom_filter_offset) >= size) {
      throw CliError("corrupt footer: " + where + ": bloom_filter_offset " +
                     std::to_string(chunk.bloom_filter_offset) + " is outside the file (" +
                     std::to_string(size) + " bytes)");
    }
    const auto offset = static_cast<std::size_t>(chunk.bloom_filter_offset);
    std::size_t available = size - offset;
    if (chunk.has_bloom_filter_length) {
      // A length of 0 or less describes no filter at all: that is the fault,
      // not where the filter would end.
      if (chunk.bloom_filter_length <= 0) {
        throw CliError("corrupt footer: " + where + ": bloom_filter_length " +
                       std::to_string(chunk.bloom_filter_length) +
                       " is invalid (a filter's header and bitset take at least 1 byte)");
      }
      if (static_cast<std::uint64_t>(chunk.bloom_filter_length) > available) {
        throw CliError("corrupt footer: " + where + ": bloom_filter_length " +
                       std::to_string(chunk.bloom_filter_length) + " at offset " +
                       std::to_string(offset) + " runs past the end of the file (" +
                       std::to_string(size) + " bytes)");
      }
      available = static_cast<std::size_t>(chunk.bloom_filter_length);
    }
    std::size_t header_bytes = 0;
    std::size_t num_bytes = 0;
    const int status = bb_parquet_header_read(file + offset, available, &header_bytes, &num_bytes);
    if (status != BB_OK) {
      throw CliError("corrupt BloomFilterHeader of " + where + " at offset " +
                     std::to_string(offset) + ": " + bb_status_message(status));
    }
    LocatedFilter f;
    f.chunk = chunk;
    f.header_offset = offset;
    f.header_bytes = header_bytes;
    f.bitset_offset = offset + header_bytes;
    f.bitset_bytes = num_bytes;
    filters.push_back(std::move(f));
  }
  return filters;
}

}  // namespace blockbloom_aligncheck
