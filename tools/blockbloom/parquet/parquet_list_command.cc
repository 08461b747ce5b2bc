// SPDX-License-Identifier: Apache-2.0
// blockbloom parquet list FILE [--json]: every column chunk's Bloom filter.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/common/cli_args.h"
#include "tools/common/cli_error.h"
#include "tools/common/json_writer.h"
#include "tools/common/printable_text.h"
#include "blockbloom/sizing.h"
#include "tools/blockbloom/commands.h"
#include "tools/blockbloom/parquet/parquet_commands.h"

namespace blockbloom_tools {
namespace {

// What a listed column says, made when its rows are printed, from the open
// file's own copy of the path: no listed column is kept as copies of its
// path (a schema may give 10^5 columns paths of hundreds of bytes that its
// footer spells once), so that what the listing keeps stays within a
// fraction of what the library keeps for the footer (docs/reliability.md
// states the bound).
struct ColumnText {
  std::string column;      // the dotted path
  std::string json_names;  // the path as a JSON array of names
  std::string shown;       // text mode: the dotted path, or the names when another column shares it
  std::string physical_type;
  std::string logical_type;  // "" when the column has none
};

// One listed chunk, compact (a few words), so that memory stays a small
// multiple of the footer however many filters it lists; its text is made
// only when it is printed.
struct Row {
  std::size_t row_group = 0;
  std::size_t column = 0;  // the file's
  std::int64_t header_offset = 0;
  const char* error = nullptr;  // not ok: why (owned by the open file)
  // ok only:
  std::uint64_t bitset_offset = 0;
  std::uint64_t num_bytes = 0;
  std::size_t density = 0;  // into Listing::densities
  bool ok() const { return error == nullptr; }
};

// How full a filter is: the fraction of its bits set, and the number of
// distinct values that implies (bb_filter_estimate_ndv, sizing.h: +infinity,
// listed as none, when every bit is set).
struct Density {
  double fraction = 0;
  double estimated_ndv = 0;
};

struct Listing {
  std::size_t num_columns = 0;     // the file's
  std::vector<bool> shared_path;   // per column: another column has its dotted path
  std::vector<Row> rows;
  std::vector<Density> densities;  // one per distinct filter
};

// Column c's dotted path: the library's, which stays put while the file is open.
std::string_view DottedPath(const blockbloom::ParquetFile& file, std::size_t c) {
  const bb_parquet_column column = file.column(c);
  return std::string_view(column.path, column.path_len);
}

// Which columns share their dotted path with another (shown as their names):
// the columns sorted by path, 4 bytes each while it is worked out, a bit
// each after.
std::vector<bool> SharedPaths(const blockbloom::ParquetFile& file) {
  const std::size_t n = file.num_columns();
  std::vector<std::uint32_t> order(n);  // a footer's columns are far fewer than 2^32
  for (std::size_t c = 0; c < n; ++c) order[c] = static_cast<std::uint32_t>(c);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return DottedPath(file, a) < DottedPath(file, b);
  });
  std::vector<bool> shared(n);
  for (std::size_t i = 1; i < n; ++i) {
    if (DottedPath(file, order[i - 1]) == DottedPath(file, order[i])) {
      shared[order[i - 1]] = shared[order[i]] = true;
    }
  }
  return shared;
}

// A listed column's text, made from the file when a row is printed.
ColumnText TextOf(const blockbloom::ParquetFile& file, std::size_t c, bool shared_path) {
  const bb_parquet_column column = file.column(c);
  ColumnText t;
  t.column = ColumnName(column);
  t.json_names = JsonStringArray(file.column_names(c));
  // The library names the types; a call that fails writes nothing, leaving "?".
  char physical_name[BB_PARQUET_TYPE_NAME_MAX] = "?";
  char logical_name[BB_PARQUET_TYPE_NAME_MAX] = "?";
  bb_parquet_physical_type_name(&column, physical_name, sizeof physical_name);
  bb_parquet_logical_type_name(&column, logical_name, sizeof logical_name);
  t.physical_type = physical_name;
  t.logical_type = logical_name;
  t.shown = Printable(shared_path ? t.json_names : t.column);
  return t;
}

// The text of the rows' columns as they are printed in order: consecutive
// rows of one column (a file's many row groups of few columns, or one row
// group of many) make it once.
class RowTexts {
 public:
  RowTexts(const blockbloom::ParquetFile& file, const Listing& listing)
      : file_(file), listing_(listing) {}
  const ColumnText& Of(const Row& r) {
    if (!made_ || r.column != column_) {
      text_ = TextOf(file_, r.column, listing_.shared_path[r.column]);
      column_ = r.column;
      made_ = true;
    }
    return text_;
  }

 private:
  const blockbloom::ParquetFile& file_;
  const Listing& listing_;
  ColumnText text_;
  std::size_t column_ = 0;
  bool made_ = false;
};

// Every filter read (and its density computed) before anything is printed,
// so that a read that fails leaves no half-written listing.
Listing ListFilters(const blockbloom::ParquetFile& file) {
  Listing listing;
  listing.num_columns = file.num_columns();
  // The rows' storage at its final size: a vector grown row by row holds
  // up to twice its rows while it grows.
  std::size_t listed = 0;
  for (std::size_t g = 0; g < file.num_row_groups(); ++g) {
    for (std::size_t c = 0; c < listing.num_columns; ++c) {
      listed += file.chunk(g, c).has_filter != 0;
    }
  }
  listing.rows.reserve(listed);
  if (listed > 0) listing.shared_path = SharedPaths(file);
  // Each distinct filter's density, by where its bitset lies: a footer may
  // point every row group at one large filter, read once here.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::size_t> known;
  for (std::size_t g = 0; g < file.num_row_groups(); ++g) {
    for (std::size_t c = 0; c < listing.num_columns; ++c) {
      const bb_parquet_chunk chunk = file.chunk(g, c);
      if (chunk.has_filter == 0) continue;
      Row row;
      row.row_group = g;
      row.column = c;
      row.header_offset = chunk.filter_offset;
      if (chunk.filter_status != BB_OK) {
        row.error = chunk.filter_error != nullptr ? chunk.filter_error : "";
      } else {
        row.bitset_offset = chunk.bitset_offset;
        row.num_bytes = chunk.bitset_bytes;
        // One filter in memory at a time, however many the file has.
        const auto where = std::make_pair(row.bitset_offset, row.num_bytes);
        auto it = known.find(where);
        if (it == known.end()) {
          const blockbloom::Filter filter = file.load_filter(g, c);
          std::uint64_t bits_set = 0;
          Density d;
          if (bb_filter_estimate_ndv(filter.c_filter(), &bits_set, &d.estimated_ndv) == BB_OK) {
            d.fraction = static_cast<double>(bits_set) /
                         static_cast<double>(8 * static_cast<std::uint64_t>(filter.num_bytes()));
          } else {
            d.estimated_ndv = HUGE_VAL;  // no estimate
          }
          listing.densities.push_back(d);
          it = known.emplace(where, listing.densities.size() - 1).first;
        }
        row.density = it->second;
      }
      listing.rows.push_back(row);
    }
  }
  return listing;
}

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// Output through stdio's buffer, a row at a time: never the whole listing in memory.
void Write(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

// The significant digits of --json's fractions and estimates.
constexpr int kJsonDigits = 9;

void WriteJson(const blockbloom::ParquetFile& file, const std::string& path,
               const Listing& listing) {
  RowTexts texts(file, listing);
  Write(JsonObjectWriter::OnOneLine()
            .Add("file", JsonString(path))
            .Add("row_groups", JsonInteger(file.num_row_groups()))
            .FinishBeforeLast("filters"));
  JsonArrayStream filters = JsonArrayStream::OnePerLine(0);
  for (const Row& r : listing.rows) {
    const ColumnText& t = texts.Of(r);
    JsonObjectWriter row = JsonObjectWriter::OnOneLine();
    row.Add("row_group", JsonInteger(r.row_group))
        .Add("column", JsonString(t.column))
        .Add("path", t.json_names)
        .Add("physical_type", JsonString(t.physical_type))
        .Add("logical_type", t.logical_type.empty() ? kJsonNull : JsonString(t.logical_type))
        .Add("header_offset", JsonInteger(r.header_offset));
    if (r.ok()) {
      const Density& d = listing.densities[r.density];
      row.Add("bitset_offset", JsonInteger(r.bitset_offset))
          .Add("num_bytes", JsonInteger(r.num_bytes))
          .Add("bits_set_fraction", JsonFloat(d.fraction, kJsonDigits))
          .Add("estimated_ndv", JsonFloat(d.estimated_ndv, kJsonDigits))  // null when full
          .Add("status", JsonString("ok"))
          .Add("error", kJsonNull);
    } else {
      for (const char* none :
           {"bitset_offset", "num_bytes", "bits_set_fraction", "estimated_ndv"}) {
        row.Add(none, kJsonNull);
      }
      row.Add("status", JsonString("malformed")).Add("error", JsonString(r.error));
    }
    Write(filters.Next() + row.Finish());
  }
  Write(filters.Close() + "}\n");
}

constexpr std::size_t kTextCells = 10;
using TextLine = std::array<std::string, kTextCells>;

TextLine TextCells(const Listing& listing, const Row& r, RowTexts* texts) {
  const ColumnText& t = texts->Of(r);
  TextLine line = {std::to_string(r.row_group), t.shown, t.physical_type,
                   t.logical_type.empty() ? "-" : Printable(t.logical_type),
                   std::to_string(r.header_offset)};
  if (r.ok()) {
    const Density& d = listing.densities[r.density];
    line[5] = std::to_string(r.bitset_offset);
    line[6] = std::to_string(r.num_bytes);
    line[7] = Format("%.4f", d.fraction);
    line[8] = std::isfinite(d.estimated_ndv) ? Format("%.1f", d.estimated_ndv) : "-";
    line[9] = "ok";
  } else {
    line[5] = line[6] = line[7] = line[8] = "-";
    line[9] = "malformed: " + Printable(r.error);
  }
  return line;
}

// Two passes over the compact rows: the column widths, then the lines.
void WriteText(const blockbloom::ParquetFile& file, const std::string& path,
               const Listing& listing) {
  const std::size_t row_groups = file.num_row_groups();
  RowTexts texts(file, listing);
  const TextLine heading = {"row_group", "column", "physical_type", "logical_type",
                            "header_offset", "bitset_offset", "num_bytes", "bits_set",
                            "estimated_ndv", "status"};
  std::array<std::size_t, kTextCells> widths{};
  std::size_t malformed = 0;
  const auto widen = [&](const TextLine& line) {
    for (std::size_t k = 0; k < kTextCells; ++k) widths[k] = std::max(widths[k], line[k].size());
  };
  widen(heading);
  for (const Row& r : listing.rows) {
    widen(TextCells(listing, r, &texts));
    malformed += !r.ok();
  }
  Write(Printable(path) + ": " + std::to_string(row_groups) + " row groups, " +
        std::to_string(listing.num_columns) + " columns, " +
        std::to_string(listing.rows.size()) + " Bloom filters (" + std::to_string(malformed) +
        " malformed)\n");
  std::string out;
  const auto write_line = [&](const TextLine& line) {
    out.clear();
    for (std::size_t k = 0; k < kTextCells; ++k) {
      out += line[k];
      if (k + 1 < kTextCells) out += std::string(widths[k] - line[k].size() + 2, ' ');
    }
    out += '\n';
    Write(out);
  };
  write_line(heading);
  for (const Row& r : listing.rows) write_line(TextCells(listing, r, &texts));
}

}  // namespace

int RunParquetList(const std::vector<std::string>& args) {
  const ParsedFlags flags = ParseFlagsAndOperands(args, {{"--json", false, ""}}, 1);
  if (flags.help_requested()) return PrintHelp("parquet");
  if (flags.operands().empty()) throw UsageError("parquet list: missing FILE");
  const std::string& path = flags.operands()[0];
  const blockbloom::ParquetFile file = OpenParquetFile(path);
  Listing listing;
  try {
    listing = ListFilters(file);
  } catch (const blockbloom::Error& e) {
    throw CliError(path + ": " + e.what());  // a read that failed: the file changed
  }
  if (flags.Has("--json")) {
    WriteJson(file, path, listing);
  } else {
    WriteText(file, path, listing);
  }
  return 0;
}

}  // namespace blockbloom_tools
