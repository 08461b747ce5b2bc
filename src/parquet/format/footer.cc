// SPDX-License-Identifier: Apache-2.0
// The FileMetaData walk (see src/parquet/format/footer.h). Every failure is a
// FooterError carrying the reason, thrown where it is found and turned into
// BB_ERR_PARQUET_FOOTER_MALFORMED at the top: the walk itself reads like the
// Thrift definitions. Bounds: every byte goes through CompactReader::Byte();
// containers nest at most thrift::kMaxDepth deep; the schema tree is walked
// with an explicit stack, so a hostile nesting depth cannot overflow the
// machine's; and the column paths a schema may spell out are capped relative
// to the footer's size (a deep group with many leaves would otherwise repeat
// its long name once per leaf).
#include "src/parquet/format/footer.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "src/parquet/format/thrift_compact_reader.h"

namespace blockbloom::internal {
namespace parquet {
namespace {

using thrift::CompactReader;

struct FooterError {
  int status;
  std::string reason;
};

[[noreturn]] void Fail(const std::string& reason) {
  throw FooterError{BB_ERR_PARQUET_FOOTER_MALFORMED, "corrupt footer: " + reason};
}

[[noreturn]] void FailLimit(const std::string& reason) {
  throw FooterError{BB_ERR_PARQUET_LIMIT, "footer limit: " + reason};
}

// A SchemaElement as written, before the tree is built: its name stays in
// the FileMetaData bytes, so that a schema of millions of elements costs
// tens of bytes each, not hundreds.
struct Element {  // 48 bytes
  std::uint32_t name_pos = 0;
  std::uint32_t name_len = 0;
  std::int32_t type = 0;
  std::int32_t type_length = 0;
  std::int32_t num_children = 0;
  std::int32_t converted_type = 0;
  // Its LogicalType's fields, scale and precision those of the element
  // (fields 7, 8) when it is no DECIMAL: older writers give a decimal's there.
  LogicalFields logical;
  bool has_type = false;
  bool has_type_length = false;
  bool has_num_children = false;
  bool has_converted_type = false;
};

// What a chunk says of its column, checked against the schema once the
// walk is done (the schema may follow the row groups): path_in_schema is
// read again from where it lies.
struct ChunkCheck {
  std::uint32_t path_pos = 0;  // has_path: where the list header is
  std::int32_t type = 0;
  bool has_type = false;
  bool has_path = false;
};

// Estimated heap bytes per kept structure, counted against max_memory.
// A vector grown element by element (a row group's chunks: their number is
// known only at the end of the walk) has up to three times its elements'
// bytes allocated when it grows: the old block, and the new one of twice
// its size.
constexpr std::uint64_t kGrowth = 3;
constexpr std::uint64_t kChunkCost = kGrowth * (sizeof(Chunk) + sizeof(ChunkCheck));
constexpr std::uint64_t kStringCost = sizeof(std::string) + 16;  // + its bytes

// Column paths may add up to this many bytes beyond 16 times the footer.
constexpr std::size_t kPathBytesAllowance = std::size_t{1} << 20;

static_assert(sizeof(Element) <= 48, "a schema element is kept per element");
static_assert(sizeof(Column) <= 48, "a column is kept per column");

class Walker {
 public:
  Walker(const std::uint8_t* data, std::size_t len, const FooterLimits& limits,
         MemoryBudget* budget)
      : r_(data, len), data_(data), len_(len), limits_(limits), budget_(budget) {}

  void Walk(FileMetaData* out) {
    bool seen[kRequired] = {};
    bool mistyped[kRequired] = {};  // present, but of another wire type: skipped
    std::vector<Element> elements;
    std::vector<std::uint32_t> group_chunks;  // chunks per row group, as written
    std::vector<ChunkCheck> checks;           // per chunk, as out->chunks
    Struct(0, [&](int id, std::uint8_t type) {
      if (id == 6) {
        if (!Typed(type, thrift::kBinary)) return false;
        out->created_by = Binary();
        Charge(kStringCost + out->created_by.size(), "FileMetaData.created_by");
        return true;
      }
      if (id < 1 || id > kRequired) return false;
      const RequiredField& field = kRequiredFields[id - 1];
      if (!Typed(type, field.type)) {
        mistyped[id - 1] = true;
        return false;
      }
      seen[id - 1] = true;
      switch (id) {
        case 1:
          Check(r_.I32(&out->version));
          return true;
        case 2: {
          const std::uint64_t n = ListOfStructs("FileMetaData.schema");
          // What is reserved is allocated: counted before it is.
          const std::size_t reserved = Reservable(n);
          Charge(std::uint64_t{reserved} * sizeof(Element), "FileMetaData.schema");
          elements.clear();
          elements.reserve(reserved);
          for (std::uint64_t i = 0; i < n; ++i) {
            if (i >= reserved) Charge(kGrowth * sizeof(Element), "FileMetaData.schema");
            elements.push_back(SchemaElement());
          }
          return true;
        }
        case 3:
          Check(r_.I64(&out->num_rows));
          return true;
        default: {
          const std::uint64_t n = ListOfStructs("FileMetaData.row_groups");
          // A second row_groups field replaces the first.
          out->row_group_rows.clear();
          out->chunks.clear();
          group_chunks.clear();
          checks.clear();
          const std::size_t reserved = Reservable(n);
          constexpr std::uint64_t kGroupCost = sizeof(std::int64_t) + sizeof(std::uint32_t);
          Charge(std::uint64_t{reserved} * kGroupCost, "FileMetaData.row_groups");
          out->row_group_rows.reserve(reserved);
          group_chunks.reserve(reserved);
          for (std::uint64_t g = 0; g < n; ++g) {
            if (g >= reserved) Charge(kGrowth * kGroupCost, "FileMetaData.row_groups");
            RowGroup(out, &group_chunks, &checks);
          }
          return true;
        }
      }
    });
    ExpectRequiredFields(seen, mistyped);
    BuildColumns(elements, out);
    elements = std::vector<Element>();
    CheckChunks(group_chunks, checks, out);
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

  void ExpectRequiredFields(const bool (&seen)[kRequired], const bool (&mistyped)[kRequired]) {
    std::string missing;
    for (int i = 0; i < kRequired; ++i) {
      if (seen[i]) continue;
      missing += std::string(missing.empty() ? "" : ", ") + kRequiredFields[i].name +
                 " (field " + std::to_string(i + 1) +
                 (mistyped[i] ? std::string(", present but not ") + kRequiredFields[i].type_name
                              : std::string()) +
                 ")";
    }
    if (!missing.empty()) Fail("the FileMetaData lacks required " + missing);
  }

  // Reads a struct's fields; on_field(id, type) reads the value and returns
  // true, or returns false to have it skipped: an unknown field, or a known
  // one of another wire type (Typed()).
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
    const std::size_t at = r_.pos();
    Check(r_.ListHeader(&elem, &count));
    Expect(elem == thrift::kStruct, std::string(what) + " is not a list of structs");
    CheckCount(what, count, at);
    return count;
  }

  // A list the walk keeps, refused past max_elements before any of it is.
  void CheckCount(const char* what, std::uint64_t count, std::size_t at) const {
    if (count <= limits_.max_elements) return;
    FailLimit(std::string(what) + " holds " + std::to_string(count) +
              " elements, more than max_container_elements " +
              std::to_string(limits_.max_elements) + " (bb_parquet_limits; at byte " +
              std::to_string(at) + " of the FileMetaData)");
  }

  void Charge(std::uint64_t bytes, const char* what) {
    if (budget_->Charge(bytes)) return;
    FailLimit(budget_->Exceeded(std::string("the FileMetaData's ") + what + " (at byte " +
                                std::to_string(r_.pos()) + " of " + std::to_string(len_) + ")"));
  }

  // What to reserve for a list of count elements: each takes at least a
  // byte, so no more than the bytes left can be there.
  std::size_t Reservable(std::uint64_t count) const {
    return static_cast<std::size_t>(std::min<std::uint64_t>(count, len_ - r_.pos()));
  }

  std::string Binary() {
    const std::uint8_t* bytes = nullptr;
    std::size_t size = 0;
    Check(r_.Binary(&bytes, &size));
    return std::string(reinterpret_cast<const char*>(bytes), size);
  }

  // Whether a field's wire type is the one its definition gives (a bool's
  // type nibble is its value: either one is a bool). The rule for one that
  // is not, as Thrift's own readers have it: the field is skipped like an
  // unknown one, and the struct reads as if it were absent (a required one
  // is then missing). Every typed read of the walk asks here first, and
  // returns false to Struct, nothing read, when the answer is no.
  static bool Typed(std::uint8_t type, std::uint8_t expected) {
    if (expected == thrift::kBoolTrue || expected == thrift::kBoolFalse) {
      return type == thrift::kBoolTrue || type == thrift::kBoolFalse;
    }
    return type == expected;
  }

  // The typed fields: false (for Struct to skip it) when the field is not of
  // the type; else the value into *value and true into *has (when given).
  bool I32Field(std::uint8_t type, std::int32_t* value, bool* has = nullptr) {
    if (!Typed(type, thrift::kI32)) return false;  // enums are i32s too
    Check(r_.I32(value));
    if (has != nullptr) *has = true;
    return true;
  }

  bool I64Field(std::uint8_t type, std::int64_t* value, bool* has = nullptr) {
    if (!Typed(type, thrift::kI64)) return false;
    Check(r_.I64(value));
    if (has != nullptr) *has = true;
    return true;
  }

  // A struct field's boolean: the value is the type nibble itself.
  bool BoolField(std::uint8_t type, std::int8_t* value, bool* has) {
    if (!Typed(type, thrift::kBoolTrue)) return false;
    *value = type == thrift::kBoolTrue ? 1 : 0;
    *has = true;
    return true;
  }

  // ------------------------------------------------------------ the schema

  Element SchemaElement() {
    Element e;
    bool has_name = false;
    std::int32_t scale = 0;
    std::int32_t precision = 0;
    bool has_scale = false;
    bool has_precision = false;
    Struct(2, [&](int id, std::uint8_t type) {
      switch (id) {
        case 1:
          return I32Field(type, &e.type, &e.has_type);
        case 2:
          return I32Field(type, &e.type_length, &e.has_type_length);
        case 4: {
          if (!Typed(type, thrift::kBinary)) return false;
          const std::uint8_t* bytes = nullptr;
          std::size_t size = 0;
          Check(r_.Binary(&bytes, &size));
          e.name_pos = static_cast<std::uint32_t>(bytes - data_);
          e.name_len = static_cast<std::uint32_t>(size);
          has_name = true;
          return true;
        }
        case 5:
          return I32Field(type, &e.num_children, &e.has_num_children);
        case 6:
          return I32Field(type, &e.converted_type, &e.has_converted_type);
        case 7:
          return I32Field(type, &scale, &has_scale);
        case 8:
          return I32Field(type, &precision, &has_precision);
        case 10:
          if (!Typed(type, thrift::kStruct)) return false;
          LogicalType(&e.logical);
          return true;
        default:
          return false;
      }
    });
    Expect(has_name, "a SchemaElement lacks its required name (field 4)");
    // Older writers give a decimal's scale and precision in the element.
    if (e.logical.logical_type != BB_PARQUET_LOGICAL_DECIMAL) {
      if (has_scale) e.logical.scale = scale;
      if (has_precision) e.logical.precision = precision;
      // A legacy DECIMAL whose scale is absent (or skipped as another wire
      // type) has no meaning: reading it as scale 0 would hash 1.23 as 123,
      // a silent miss. -1 makes the value rules refuse the column instead.
      if (e.has_converted_type && e.converted_type == BB_PARQUET_CONVERTED_DECIMAL && !has_scale) {
        e.logical.scale = -1;
      }
    }
    return e;
  }

  // The LogicalType union (depth 3): one member, an empty struct or the
  // parameters of DECIMAL, TIME, TIMESTAMP, INTEGER.
  void LogicalType(LogicalFields* t) {
    int members = 0;
    Struct(3, [&](int id, std::uint8_t type) {
      if (!Typed(type, thrift::kStruct)) return false;  // every member is a struct
      ++members;
      Expect(id > 0, "LogicalType member id " + std::to_string(id) + " is not positive");
      t->logical_type = id;
      switch (id) {
        case BB_PARQUET_LOGICAL_DECIMAL:
          DecimalType(t);
          return true;
        case BB_PARQUET_LOGICAL_TIME:
        case BB_PARQUET_LOGICAL_TIMESTAMP:
          TimeType(t, id == BB_PARQUET_LOGICAL_TIME ? "TimeType" : "TimestampType");
          return true;
        case BB_PARQUET_LOGICAL_INTEGER:
          IntType(t);
          return true;
        default:
          return false;  // no parameters that matter here: skipped
      }
    });
    Expect(members <= 1, "the LogicalType union holds " + std::to_string(members) + " members");
  }

  void DecimalType(LogicalFields* t) {
    bool scale = false;
    bool precision = false;
    Struct(4, [&](int id, std::uint8_t type) {
      if (id == 1) return I32Field(type, &t->scale, &scale);
      if (id == 2) return I32Field(type, &t->precision, &precision);
      return false;
    });
    Expect(scale && precision, "a DecimalType lacks its required scale or precision");
  }

  void TimeType(LogicalFields* t, const std::string& name) {
    bool utc = false;
    bool unit = false;
    Struct(4, [&](int id, std::uint8_t type) {
      if (id == 1) return BoolField(type, &t->is_adjusted_to_utc, &utc);
      if (id == 2) {
        if (!Typed(type, thrift::kStruct)) return false;
        TimeUnit(t);
        unit = true;
        return true;
      }
      return false;
    });
    Expect(utc && unit, "a " + name + " lacks its required isAdjustedToUTC or unit");
  }

  void TimeUnit(LogicalFields* t) {
    int members = 0;
    Struct(5, [&](int id, std::uint8_t type) {
      if (!Typed(type, thrift::kStruct)) return false;  // every member is a struct
      ++members;
      Expect(id >= BB_PARQUET_UNIT_MILLIS && id <= BB_PARQUET_UNIT_NANOS,
             "TimeUnit member " + std::to_string(id) + " is not MILLIS, MICROS or NANOS");
      t->time_unit = id;
      return false;  // an empty struct: skipped
    });
    Expect(members == 1, "the TimeUnit union holds " + std::to_string(members) + " members");
  }

  void IntType(LogicalFields* t) {
    bool width = false;
    bool sign = false;
    Struct(4, [&](int id, std::uint8_t type) {
      if (id == 1) {
        if (!Typed(type, thrift::kByte)) return false;  // an i8
        std::uint8_t b = 0;
        Check(r_.Byte(&b));
        t->bit_width = static_cast<std::int8_t>(b);
        width = true;
        return true;
      }
      if (id == 2) return BoolField(type, &t->is_signed, &sign);
      return false;
    });
    Expect(width && sign, "an IntType lacks its required bitWidth or isSigned");
  }

  // What the columns' pool takes, counted by the first walk of the schema
  // tree so that the second fills storage of exactly that size.
  struct ColumnSizes {
    std::size_t columns = 0;
    std::size_t text = 0;   // column_text bytes
    std::size_t starts = 0;  // name_starts entries
  };

  void BuildColumns(const std::vector<Element>& elements, FileMetaData* out) {
    // First every check and charge, then the columns into reserved storage:
    // no vector grows past what was counted.
    ColumnSizes sizes;
    WalkSchema(elements, [&](const Element& e, std::size_t index, const std::string& path,
                             const ColumnNames& names) {
      // The path and its NUL; deeper names again (the path's bytes, NULs for
      // the dots) and where each starts.
      const std::size_t deeper = names.size() > 1 ? path.size() + 1 : 0;
      const std::size_t starts = names.size() > 1 ? names.size() : 0;
      Charge(sizeof(Column) + path.size() + 1 + deeper + starts * sizeof(std::uint32_t),
             "schema's columns");
      static_cast<void>(LeafColumn(e, index));  // its type checked in schema order
      ++sizes.columns;
      sizes.text += path.size() + 1 + deeper;
      sizes.starts += starts;
      if (sizes.text > UINT32_MAX) {
        Fail("the schema's column paths and names add up to more than 4 GiB");
      }
    });
    out->columns.reserve(sizes.columns);
    out->column_text.reserve(sizes.text);
    out->name_starts.reserve(sizes.starts);
    WalkSchema(elements, [&](const Element& e, std::size_t index, const std::string& path,
                             const ColumnNames& names) {
      Column c = LeafColumn(e, index);
      std::vector<char>& text = out->column_text;
      c.path_pos = static_cast<std::uint32_t>(text.size());
      c.path_len = static_cast<std::uint32_t>(path.size());
      c.depth = static_cast<std::uint32_t>(names.size());
      text.insert(text.end(), path.begin(), path.end());
      text.push_back('\0');
      if (names.size() > 1) {
        c.names_at = static_cast<std::uint32_t>(out->name_starts.size());
        const ColumnNamesView view = names.view();
        const auto first = static_cast<std::uint32_t>(text.size());
        for (std::size_t i = 0; i < view.size(); ++i) {
          const auto at = static_cast<std::uint32_t>(view.name(i) - view.name(0));
          out->name_starts.push_back(first + at);
        }
        text.insert(text.end(), names.bytes().begin(), names.bytes().end());
      }
      out->columns.push_back(c);
    });
  }

  // Walks the schema tree of the depth-first element list, checking it, and
  // calls leaf(element, index, dotted path, names) for each column.
  template <typename Leaf>
  void WalkSchema(const std::vector<Element>& elements, Leaf leaf) {
    if (elements.empty()) return;  // no schema at all: no columns (checked against the chunks)
    const Element& root = elements[0];
    if (root.has_type && !root.has_num_children) {
      Fail("the schema's root (element 0) is a column, not a group");
    }
    struct Frame {
      std::int64_t remaining;  // children still to visit
      std::size_t path_len;    // the length of this group's path
      std::size_t depth;       // the number of names in it
    };
    if (root.num_children < 0) {
      Fail("SchemaElement 0 has " + std::to_string(root.num_children) + " children");
    }
    std::vector<Frame> stack{{root.num_children, 0, 0}};
    std::string path;   // the path of the element being visited
    ColumnNames names;  // and its names
    std::size_t next = 1;
    std::size_t path_bytes = 0;
    const std::size_t max_path_bytes = 16 * len_ + kPathBytesAllowance;
    while (!stack.empty()) {
      Frame& parent = stack.back();
      if (parent.remaining == 0) {
        stack.pop_back();
        continue;
      }
      --parent.remaining;
      if (next >= elements.size()) {
        Fail("the schema ends inside a group: its elements announce more children than the " +
             std::to_string(elements.size()) + " elements hold");
      }
      const std::size_t index = next++;
      const Element& e = elements[index];
      path.resize(parent.path_len);
      if (!path.empty()) path += '.';
      const char* name = reinterpret_cast<const char*>(data_) + e.name_pos;
      path.append(name, e.name_len);
      names.Truncate(parent.depth);
      names.Add(name, e.name_len);
      if (e.has_num_children && e.num_children < 0) {
        Fail("SchemaElement " + std::to_string(index) + " has " +
             std::to_string(e.num_children) + " children");
      }
      if (e.has_num_children && e.num_children > 0) {
        stack.push_back(Frame{e.num_children, path.size(), names.size()});
        continue;
      }
      if (!e.has_type) continue;  // an empty group: no column
      path_bytes += path.size();
      if (path_bytes > max_path_bytes) {
        Fail("the schema's column paths add up to more than " + std::to_string(max_path_bytes) +
             " bytes");
      }
      leaf(e, index, path, names);
    }
    if (next != elements.size()) {
      Fail("the schema has " + std::to_string(elements.size() - next) +
           " elements after the root's last descendant");
    }
  }

  static Column LeafColumn(const Element& e, std::size_t index) {
    Column c;
    static_cast<LogicalFields&>(c) = e.logical;  // logical_type and its parameters
    if (e.type < BB_PARQUET_BOOLEAN || e.type > BB_PARQUET_FIXED_LEN_BYTE_ARRAY) {
      Fail("SchemaElement " + std::to_string(index) + " has the unknown type " +
           std::to_string(e.type));
    }
    c.physical_type = e.type;
    if (e.type == BB_PARQUET_FIXED_LEN_BYTE_ARRAY) {
      if (!e.has_type_length || e.type_length <= 0) {
        Fail("SchemaElement " + std::to_string(index) +
             " is a FIXED_LEN_BYTE_ARRAY without a positive type_length");
      }
      c.type_length = e.type_length;
    }
    if (e.has_converted_type) c.converted_type = e.converted_type;
    return c;
  }

  // ------------------------------------------------------------ row groups

  // A row group's chunks go straight to out->chunks, what they say of their
  // columns to *checks; its row count to out->row_group_rows.
  void RowGroup(FileMetaData* out, std::vector<std::uint32_t>* group_chunks,
                std::vector<ChunkCheck>* checks) {
    std::int64_t num_rows = -1;
    const std::size_t first = out->chunks.size();
    Struct(2, [&](int id, std::uint8_t type) {
      if (id == 3) return I64Field(type, &num_rows);
      if (id != 1 || !Typed(type, thrift::kList)) return false;
      const std::uint64_t columns = ListOfStructs("RowGroup.columns");
      out->chunks.resize(first);  // a second columns field replaces the first
      checks->resize(first);
      for (std::uint64_t c = 0; c < columns; ++c) {
        Charge(kChunkCost, "column chunks");
        out->chunks.emplace_back();
        checks->emplace_back();
        ColumnChunk(&out->chunks.back(), &checks->back());
      }
      return true;
    });
    out->row_group_rows.push_back(num_rows);
    group_chunks->push_back(static_cast<std::uint32_t>(out->chunks.size() - first));
  }

  void ColumnChunk(Chunk* chunk, ChunkCheck* check) {
    Struct(4, [&](int id, std::uint8_t type) {
      if (id == 1) {
        if (!Typed(type, thrift::kBinary)) return false;
        const std::uint8_t* bytes = nullptr;
        std::size_t size = 0;
        Check(r_.Binary(&bytes, &size));
        chunk->file_path_pos = static_cast<std::uint32_t>(bytes - data_);
        chunk->file_path_len = static_cast<std::uint32_t>(size);
        chunk->has_file_path = true;
        return true;
      }
      if (id != 3 || !Typed(type, thrift::kStruct)) return false;
      chunk->has_meta_data = true;
      ColumnMetaData(chunk, check);
      return true;
    });
  }

  void ColumnMetaData(Chunk* chunk, ChunkCheck* check) {
    Struct(5, [&](int id, std::uint8_t type) {
      switch (id) {
        case 1:
          return I32Field(type, &check->type, &check->has_type);
        case 3: {
          if (!Typed(type, thrift::kList)) return false;
          check->path_pos = static_cast<std::uint32_t>(r_.pos());
          check->has_path = true;
          PathInSchema(&r_, nullptr);  // checked here, compared with the schema later
          return true;
        }
        case 5:
          return I64Field(type, &chunk->num_values);
        case 14:
          return I64Field(type, &chunk->bloom_filter_offset, &chunk->has_bloom_filter_offset);
        case 15:
          return I32Field(type, &chunk->bloom_filter_length, &chunk->has_bloom_filter_length);
        default:
          return false;
      }
    });
  }

  // A path_in_schema list read with r (names, when not null, gets it). The
  // walk reads it once to check it and again, from where it lies, to compare
  // it with its column, so that no chunk keeps a copy of its path.
  void PathInSchema(CompactReader* r, ColumnNames* names) {
    std::uint8_t elem = 0;
    std::uint64_t count = 0;
    const std::size_t at = r->pos();
    Check(r->ListHeader(&elem, &count));
    Expect(elem == thrift::kBinary,
           "ColumnMetaData.path_in_schema (field 3) is not a list of strings");
    CheckCount("ColumnMetaData.path_in_schema", count, at);
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint8_t* bytes = nullptr;
      std::size_t size = 0;
      Check(r->Binary(&bytes, &size));
      if (names != nullptr) names->Add(reinterpret_cast<const char*>(bytes), size);
    }
  }

  static std::string Joined(ColumnNamesView names) {
    std::string path;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i > 0) path += '.';
      path.append(names.name(i), names.length(i));
    }
    return path;
  }

  // Every row group has one chunk per column, in schema order; what a chunk
  // says of its column must agree with the schema.
  void CheckChunks(const std::vector<std::uint32_t>& group_chunks,
                   const std::vector<ChunkCheck>& checks, FileMetaData* out) {
    const std::size_t columns = out->columns.size();
    std::size_t next = 0;
    for (std::size_t g = 0; g < group_chunks.size(); ++g) {
      if (group_chunks[g] != columns) {
        Fail("row group " + std::to_string(g) + " has " + std::to_string(group_chunks[g]) +
             " column chunks, but the schema has " + std::to_string(columns) + " columns");
      }
      for (std::size_t c = 0; c < columns; ++c) {
        const ChunkCheck& raw = checks[next++];
        const Column& column = out->columns[c];
        const auto where = [&] {
          return "row group " + std::to_string(g) + " column " + std::to_string(c) + " (" +
                 std::string(out->path(column)) + ")";
        };
        if (raw.has_path) {
          CompactReader again(data_, len_);
          Check(again.SkipBytes(raw.path_pos));
          ColumnNames names;
          PathInSchema(&again, &names);
          const ColumnNamesView schema = out->names(column);
          if (names.view() != schema) {
            // The same dotted path from other names: say them.
            const std::string path = Joined(names);
            Fail(where() + ": path_in_schema " +
                 (path == out->path(column)
                      ? NamesAsJson(names) + " is not the schema's " + NamesAsJson(schema)
                      : path + " is not the schema's"));
          }
        }
        if (raw.has_type && raw.type != column.physical_type) {
          Fail(where() + ": ColumnMetaData.type " + std::to_string(raw.type) +
               " is not the schema's " + std::to_string(column.physical_type));
        }
      }
    }
  }

  void Check(int status) {
    if (status == BB_OK) return;
    const char* what = status == BB_ERR_HEADER_TRUNCATED ? "the FileMetaData ends inside a value"
                                                         : "malformed Thrift compact data";
    Fail(std::string(what) + " (at byte " + std::to_string(r_.pos()) + " of the FileMetaData)");
  }

  void Expect(bool ok, const std::string& what) {
    if (!ok) Fail(what + " (at byte " + std::to_string(r_.pos()) + " of the FileMetaData)");
  }

  CompactReader r_;
  const std::uint8_t* data_;
  std::size_t len_;
  FooterLimits limits_;
  MemoryBudget* budget_;
};

std::uint32_t LittleEndian32(const std::uint8_t* b) {
  return static_cast<std::uint32_t>(b[0]) | static_cast<std::uint32_t>(b[1]) << 8 |
         static_cast<std::uint32_t>(b[2]) << 16 | static_cast<std::uint32_t>(b[3]) << 24;
}

}  // namespace

int LocateFileMetaData(std::uint64_t file_size, const std::uint8_t* head,
                       const std::uint8_t* tail, std::uint64_t* offset, std::uint32_t* length,
                       std::string* reason) {
  if (file_size < kMinFileBytes) {
    *reason = "not a Parquet file: " + std::to_string(file_size) +
              " bytes is too short for \"PAR1\" + footer length + \"PAR1\" (12 bytes)";
    return BB_ERR_PARQUET_NOT_PARQUET;
  }
  const std::uint8_t* magic = tail + kTailBytes - kMagicBytes;
  if (std::memcmp(magic, "PARE", kMagicBytes) == 0) {
    *reason = "encrypted Parquet footer (\"PARE\") is not supported";
    return BB_ERR_PARQUET_NOT_PARQUET;
  }
  if (std::memcmp(magic, "PAR1", kMagicBytes) != 0) {
    *reason = "not a Parquet file: bad magic, the last 4 bytes are not \"PAR1\"";
    return BB_ERR_PARQUET_NOT_PARQUET;
  }
  if (std::memcmp(head, "PAR1", kMagicBytes) != 0) {
    *reason = "not a Parquet file: bad magic, the first 4 bytes are not \"PAR1\"";
    return BB_ERR_PARQUET_NOT_PARQUET;
  }
  const std::uint32_t n = LittleEndian32(tail);
  if (n > file_size - kTailBytes - kMagicBytes) {
    *reason = "corrupt footer: footer length " + std::to_string(n) +
              " runs past the start of the file (" + std::to_string(file_size) + " bytes)";
    return BB_ERR_PARQUET_FOOTER_MALFORMED;
  }
  if (n == 0) {
    *reason = "corrupt footer: footer length is 0";
    return BB_ERR_PARQUET_FOOTER_MALFORMED;
  }
  *offset = file_size - kTailBytes - n;
  *length = n;
  return BB_OK;
}

int FooterLimits::Resolve(const bb_parquet_limits* limits, std::uint64_t footer_len,
                          FooterLimits* out) {
  *out = FooterLimits();
  // Relative to the footer, so that what an open keeps is bounded by the
  // file's size (docs/reliability.md states the bound).
  out->max_memory = BB_PARQUET_DEFAULT_MEMORY_BASE_BYTES +
                    BB_PARQUET_DEFAULT_MEMORY_FOOTER_MULTIPLE * footer_len;
  if (limits == nullptr) return BB_OK;
  if (limits->struct_size < sizeof(std::size_t)) return BB_ERR_BUFFER_TOO_SMALL;
  // Members past the caller's struct_size (an older caller) keep defaults.
  const auto given = [&](std::size_t end) { return limits->struct_size >= end; };
  if (given(offsetof(bb_parquet_limits, max_container_elements) + sizeof(std::uint64_t)) &&
      limits->max_container_elements != 0) {
    out->max_elements = limits->max_container_elements;
  }
  if (given(offsetof(bb_parquet_limits, max_memory_bytes) + sizeof(std::uint64_t)) &&
      limits->max_memory_bytes != 0) {
    out->max_memory = limits->max_memory_bytes;
  }
  return BB_OK;
}

std::string MemoryBudget::Exceeded(const std::string& what) const {
  return what + " would take more than max_memory_bytes " + std::to_string(limit_) +
         " bytes of memory (bb_parquet_limits)";
}

int ParseFileMetaData(const std::uint8_t* data, std::size_t len, const FooterLimits& limits,
                      MemoryBudget* budget, FileMetaData* out, std::string* reason) {
  // Offsets into the FileMetaData are kept as 32 bits: its length field is.
  if (len > UINT32_MAX) {
    *reason = "corrupt footer: a FileMetaData of " + std::to_string(len) +
              " bytes is longer than a Parquet footer can be (4 GiB)";
    return BB_ERR_PARQUET_FOOTER_MALFORMED;
  }
  try {
    Walker(data, len, limits, budget).Walk(out);
  } catch (const FooterError& e) {
    *reason = e.reason;
    return e.status;
  }
  return BB_OK;
}

}  // namespace parquet
}  // namespace blockbloom::internal
