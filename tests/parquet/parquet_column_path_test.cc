// SPDX-License-Identifier: Apache-2.0
// Column paths of the Parquet file layer (blockbloom/parquet_file.h) through
// the public API: a dotted path two columns share (a top-level column named
// "a.b" beside field b of group a) is ambiguous, and each is found by its
// names; every column's names; the messages of bb_parquet_file_lookup_column
// for a missing path, a group, an ambiguous path, and one too long for the
// buffer; the C++ layer (parquet_file.hpp) over them.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "blockbloom/parquet_file.h"
#include "blockbloom/parquet_file.hpp"
#include "support/parquet_test_file.h"

namespace {

using bbtest::ChunkSpec;
using bbtest::ColumnSpec;

ColumnSpec Col(std::vector<std::string> path) {
  ColumnSpec c;
  c.path = std::move(path);
  c.type = BB_PARQUET_INT32;
  return c;
}

// A handle on the FileMetaData of columns (one row group, no filters).
struct Footer {
  bb_parquet_file* f = nullptr;
  explicit Footer(const std::vector<ColumnSpec>& columns) {
    const std::string meta =
        bbtest::FileMetaData(columns, {std::vector<ChunkSpec>(columns.size())});
    char why[256] = "";
    EXPECT_EQ(bb_parquet_file_open_footer(&f, reinterpret_cast<const uint8_t*>(meta.data()),
                                          meta.size(), why, sizeof why),
              BB_OK)
        << why;
  }
  ~Footer() { bb_parquet_file_close(f); }

  std::vector<std::string> Names(size_t c) const {
    size_t depth = 0;
    EXPECT_EQ(bb_parquet_file_column_depth(f, c, &depth), BB_OK);
    std::vector<std::string> names;
    for (size_t i = 0; i < depth; ++i) {
      const char* name = nullptr;
      size_t len = 0;
      EXPECT_EQ(bb_parquet_file_column_name(f, c, i, &name, &len), BB_OK);
      EXPECT_EQ(name[len], '\0');
      names.emplace_back(name, len);
    }
    return names;
  }
  int ByNames(const std::vector<std::string>& names, size_t* c) const {
    std::vector<const char*> p;
    std::vector<size_t> lens;
    for (const std::string& n : names) {
      p.push_back(n.data());
      lens.push_back(n.size());
    }
    return bb_parquet_file_find_column_names(f, p.data(), lens.data(), names.size(), c);
  }
  // The status and message of lookup_column with a buffer of capacity bytes.
  std::string Lookup(const std::string& path, int* status, size_t capacity = 512) const {
    std::vector<char> buf(capacity + 1, '#');
    size_t c = 77;
    *status = bb_parquet_file_lookup_column(f, path.data(), path.size(), &c, buf.data(), capacity);
    EXPECT_EQ(c, 77u);  // untouched on error
    EXPECT_EQ(buf[capacity], '#');  // nothing written past the capacity
    return std::string(buf.data());
  }
};

// The two columns of dotted path "a.b", each with a sibling.
std::vector<ColumnSpec> AmbiguousColumns() {
  return {Col({"a.b"}), Col({"a", "b"}), Col({"a", "c"}), Col({"x"})};
}

TEST(ParquetColumnPath, ASharedDottedPathIsAmbiguousAndEachIsFoundByItsNames) {
  const Footer file(AmbiguousColumns());
  size_t c = 99;
  EXPECT_EQ(bb_parquet_file_find_column(file.f, "a.b", 3, &c), BB_ERR_PARQUET_AMBIGUOUS_COLUMN);
  EXPECT_EQ(c, 99u);
  EXPECT_EQ(bb_parquet_file_find_column(file.f, "a.c", 3, &c), BB_OK);
  EXPECT_EQ(c, 2u);
  EXPECT_EQ(file.ByNames({"a.b"}, &c), BB_OK);
  EXPECT_EQ(c, 0u);
  EXPECT_EQ(file.ByNames({"a", "b"}, &c), BB_OK);
  EXPECT_EQ(c, 1u);
  EXPECT_EQ(file.ByNames({"x"}, &c), BB_OK);
  EXPECT_EQ(c, 3u);
  c = 99;
  EXPECT_EQ(file.ByNames({"a"}, &c), BB_ERR_PARQUET_NO_SUCH_CHUNK);  // a group
  EXPECT_EQ(file.ByNames({"a", "b", "c"}, &c), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(file.ByNames({"a.b", ""}, &c), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(file.ByNames({}, &c), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(bb_parquet_file_find_column_names(file.f, nullptr, nullptr, 0, &c),
            BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(c, 99u);
  // The bytes of each name, not a C string: "a" of length 1 out of "ab".
  const char* names[] = {"ab", "bc"};
  const size_t lens[] = {1, 1};
  EXPECT_EQ(bb_parquet_file_find_column_names(file.f, names, lens, 2, &c), BB_OK);
  EXPECT_EQ(c, 1u);
}

TEST(ParquetColumnPath, EveryColumnHasItsNamesAnyBytesIncluded) {
  const std::string nul("n\0l", 3);
  const Footer file({Col({"a.b"}), Col({"a", "b"}), Col({"g", "h", "i.j"}), Col({nul, ""})});
  EXPECT_EQ(file.Names(0), (std::vector<std::string>{"a.b"}));
  EXPECT_EQ(file.Names(1), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(file.Names(2), (std::vector<std::string>{"g", "h", "i.j"}));
  EXPECT_EQ(file.Names(3), (std::vector<std::string>{nul, ""}));
  size_t c = 0;
  EXPECT_EQ(file.ByNames({nul, ""}, &c), BB_OK);
  EXPECT_EQ(c, 3u);
  size_t depth = 5;
  const char* name = "untouched";
  size_t len = 9;
  EXPECT_EQ(bb_parquet_file_column_depth(file.f, 4, &depth), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(depth, 5u);
  EXPECT_EQ(bb_parquet_file_column_name(file.f, 2, 3, &name, &len), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(bb_parquet_file_column_name(file.f, 4, 0, &name, &len), BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_STREQ(name, "untouched");
  EXPECT_EQ(bb_parquet_file_column_depth(nullptr, 0, &depth), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_column_depth(file.f, 0, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_column_name(nullptr, 0, 0, &name, &len), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_column_name(file.f, 0, 0, nullptr, &len), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_column_name(file.f, 0, 0, &name, nullptr), BB_ERR_NULL_POINTER);
  const char* one[] = {nullptr};
  const size_t one_len[] = {1};
  EXPECT_EQ(bb_parquet_file_find_column_names(file.f, one, one_len, 1, &c), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_find_column_names(file.f, nullptr, one_len, 1, &c),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_find_column_names(nullptr, nullptr, nullptr, 0, &c),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_find_column_names(file.f, nullptr, nullptr, 0, nullptr),
            BB_ERR_NULL_POINTER);
}

TEST(ParquetColumnPath, APathInSchemaThatDiffersNameByNameIsMalformed) {
  // The schema says a / b; the chunk's path_in_schema says ["a.b"]: the
  // same dotted path, another column.
  bbtest::CompactWriter w;
  std::vector<ColumnSpec> schema = {Col({"a", "b"})};
  std::string meta = bbtest::FileMetaData(schema, {{ChunkSpec{}}});
  const std::string good = bbtest::FileMetaData({Col({"a.b"})}, {{ChunkSpec{}}});
  // Swap in the chunk of the other file: its row groups follow the schema.
  const std::string tail_marker("\x19\x1c", 2);  // field 4 (row_groups), list of structs, 1
  const size_t at_meta = meta.find(tail_marker);
  const size_t at_good = good.find(tail_marker);
  ASSERT_NE(at_meta, std::string::npos);
  ASSERT_NE(at_good, std::string::npos);
  meta = meta.substr(0, at_meta) + good.substr(at_good);
  bb_parquet_file* f = nullptr;
  char why[256] = "";
  EXPECT_EQ(bb_parquet_file_open_footer(&f, reinterpret_cast<const uint8_t*>(meta.data()),
                                        meta.size(), why, sizeof why),
            BB_ERR_PARQUET_FOOTER_MALFORMED);
  EXPECT_NE(std::string(why).find("column 0 (a.b): path_in_schema [\"a.b\"] is not the schema's "
                                  "[\"a\", \"b\"]"),
            std::string::npos)
      << why;
  bb_parquet_file_close(f);
}

TEST(ParquetColumnPath, LookupFindsOrSaysWhichColumnsWereMeant) {
  const Footer file({Col({"a.b"}), Col({"a", "b"}), Col({"st", "a"}), Col({"st", "b"}),
                     Col({"sta"}), Col({"id"}), Col({"name"})});
  size_t c = 0;
  char buf[64] = "untouched";
  EXPECT_EQ(bb_parquet_file_lookup_column(file.f, "sta", 3, &c, buf, sizeof buf), BB_OK);
  EXPECT_EQ(c, 4u);
  EXPECT_STREQ(buf, "untouched");
  int status = 0;
  // A group: its leaves.
  EXPECT_EQ(file.Lookup("st", &status), "no column st: st is a group: its columns are st.a, st.b");
  EXPECT_EQ(status, BB_ERR_PARQUET_NO_SUCH_CHUNK);
  // The group a holds a column whose dotted path another shares: its names.
  EXPECT_EQ(file.Lookup("a", &status), "no column a: a is a group: its columns are [\"a\", \"b\"]");
  // Ambiguous: each candidate as a JSON array of names.
  EXPECT_EQ(file.Lookup("a.b", &status),
            "column a.b is ambiguous: 2 columns have that dotted path: [\"a.b\"], [\"a\", \"b\"]");
  EXPECT_EQ(status, BB_ERR_PARQUET_AMBIGUOUS_COLUMN);
  // Missing: the closest by edit distance first.
  const std::string missing = file.Lookup("nme", &status);
  EXPECT_EQ(status, BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(missing.rfind("no column nme; the closest of its 7 columns by name: name, ", 0), 0u)
      << missing;
  EXPECT_NE(missing.find("[\"a.b\"]"), std::string::npos) << missing;
  // "st." is no group (a group's path has no trailing dot).
  EXPECT_EQ(file.Lookup("st.", &status).rfind("no column st.; the closest", 0), 0u);
  EXPECT_EQ(bb_parquet_file_lookup_column(file.f, "id", 2, &c, nullptr, 0), BB_OK);
  EXPECT_EQ(c, 5u);
  EXPECT_EQ(bb_parquet_file_lookup_column(file.f, "x", 1, &c, nullptr, 0),
            BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(bb_parquet_file_lookup_column(nullptr, "x", 1, &c, buf, sizeof buf),
            BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_file_lookup_column(file.f, nullptr, 1, &c, buf, sizeof buf),
            BB_ERR_NULL_POINTER);
  EXPECT_STREQ(buf, "untouched");
}

// Columns of a group whose name is longer than the bytes the hint compares:
// the prefix they share with the path asked for costs nothing, so the column
// that differs from it by one name's typo comes first, not the file's first.
TEST(ParquetColumnPath, TheClosestColumnUnderALongSharedPrefixComesFirst) {
  const std::string group(70, 'a');
  std::vector<ColumnSpec> columns;
  for (int i = 0; i < 20; ++i) columns.push_back(Col({group, "col" + std::string(i < 10 ? "0" : "") + std::to_string(i)}));
  columns.push_back(Col({"id"}));
  const Footer file(columns);
  int status = 0;
  const std::string missing = file.Lookup(group + ".col17x", &status, 1 << 16);
  EXPECT_EQ(status, BB_ERR_PARQUET_NO_SUCH_CHUNK);
  EXPECT_EQ(missing.rfind("no column " + group + ".col17x; the closest of its 21 columns by name: " + group + ".col17, ",
                          0),
            0u)
      << missing;
}

TEST(ParquetColumnPath, NamesInMessagesAreJsonEscapedOnlyWhereJsonNeedsIt) {
  const std::string a("q\"\\\n\x01", 5);
  const std::string b("\0z", 2);
  const Footer file({Col({a + "." + b}), Col({a, b}), Col({"\xc3\xa9t\xc3\xa9"})});
  int status = 0;
  EXPECT_EQ(file.Lookup(a + "." + b, &status),
            "column \"q\\\"\\\\\\u000a\\u0001.\\u0000z\""
            " is ambiguous: 2 columns have that dotted path: [\"q\\\"\\\\\\u000a\\u0001."
                "\\u0000z\"], [\"q\\\"\\\\\\u000a\\u0001\", \"\\u0000z\"]");
  EXPECT_EQ(file.Lookup("\xc3\xa9t\xc3\xa9.x", &status).rfind(
                "no column \xc3\xa9t\xc3\xa9.x; the closest of its 3 columns by name: \xc3\xa9t\xc3\xa9, ", 0),
            0u);
}

TEST(ParquetColumnPath, ALongMessageIsCutAtACharacterWithDots) {
  std::vector<ColumnSpec> columns;
  for (int i = 0; i < 300; ++i) columns.push_back(Col({"g", "\xc3\xa9l\xc3\xa9ment" + std::to_string(i)}));
  columns.push_back(Col({"solo"}));
  const Footer file(columns);
  int status = 0;
  const std::string whole = file.Lookup("g", &status, 1 << 16);
  EXPECT_EQ(whole.rfind("no column g: g is a group: its columns are g.\xc3\xa9l\xc3\xa9ment0, ", 0), 0u);
  EXPECT_EQ(whole.substr(whole.size() - 12), "\xc3\xa9l\xc3\xa9ment299");
  EXPECT_EQ(whole.find("..."), std::string::npos);
  for (size_t capacity = 1; capacity < 120; ++capacity) {
    const std::string cut = file.Lookup("g", &status, capacity);
    EXPECT_EQ(status, BB_ERR_PARQUET_NO_SUCH_CHUNK);
    ASSERT_LE(cut.size(), capacity - 1);
    const size_t dots = capacity - 1 < 3 ? capacity - 1 : 3;
    EXPECT_EQ(cut.substr(cut.size() - dots), std::string(dots, '.')) << capacity;
    const std::string kept = cut.substr(0, cut.size() - dots);
    EXPECT_EQ(whole.compare(0, kept.size(), kept), 0) << capacity;
    // Never half of the two bytes of an e with an acute accent.
    EXPECT_TRUE(kept.empty() || static_cast<unsigned char>(kept.back()) != 0xc3) << capacity;
    EXPECT_GE(kept.size() + dots + 1, capacity - 1) << capacity;  // at most a character short
  }
  // Exactly fitting: whole, no dots.
  EXPECT_EQ(file.Lookup("g", &status, whole.size() + 1), whole);
}

TEST(ParquetColumnPath, TheCppLayerLooksUpAndNamesColumns) {
  const std::string meta = bbtest::FileMetaData(AmbiguousColumns(), {std::vector<ChunkSpec>(4)});
  const auto file = blockbloom::ParquetFile::from_footer(meta.data(), meta.size());
  try {
    (void)file.find_column("a.b");
    ADD_FAILURE() << "an ambiguous path was found";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_PARQUET_AMBIGUOUS_COLUMN);
  }
  try {
    (void)file.lookup_column("a.b");
    ADD_FAILURE() << "an ambiguous path was looked up";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_PARQUET_AMBIGUOUS_COLUMN);
    EXPECT_NE(std::string(e.what()).find("[\"a.b\"], [\"a\", \"b\"]"), std::string::npos);
  }
  try {
    (void)file.lookup_column("a");
    ADD_FAILURE() << "a group was looked up";
  } catch (const blockbloom::Error& e) {
    EXPECT_EQ(e.status(), BB_ERR_PARQUET_NO_SUCH_CHUNK);
    EXPECT_STREQ(e.what(), "no column a: a is a group: its columns are [\"a\", \"b\"], a.c");
  }
  EXPECT_EQ(file.lookup_column("x"), 3u);
  EXPECT_EQ(file.find_column_names({"a", "b"}), std::optional<std::size_t>(1));
  EXPECT_EQ(file.find_column_names({"a.b"}), std::optional<std::size_t>(0));
  EXPECT_FALSE(file.find_column_names({"a"}).has_value());
  EXPECT_EQ(file.column_names(1), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(file.column_names(0), (std::vector<std::string>{"a.b"}));
}

}  // namespace
