// SPDX-License-Identifier: Apache-2.0
// blockbloom parquet list FILE [--json]: every column chunk's Bloom filter.
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/cli_args.h"
#include "common/cli_error.h"
#include "common/json_writer.h"
#include "common/printable_text.h"
#include "parquet/filter_density.h"
#include "commands.h"
#include "parquet/parquet_commands.h"
#include "parquet/type_names.h"

namespace blockbloom_cli {
namespace {

struct Row {
  std::size_t row_group = 0;
  std::string column;               // the dotted path
  std::vector<std::string> names;   // the path as names
  bool shared = false;              // another column has the same dotted path
  std::string physical_type;
  std::string logical_type;  // "" when the column has none
  std::int64_t header_offset = 0;
  bool ok = false;
  std::string error;  // when not ok
  // ok only:
  std::uint64_t bitset_offset = 0;
  std::uint64_t num_bytes = 0;
  FilterDensity density;
};

std::vector<Row> ListFilters(const blockbloom::ParquetFile& file) {
  std::vector<Row> rows;
  const std::size_t columns = file.num_columns();
  std::map<std::string, std::size_t> dotted;  // how many columns have each dotted path
  // Each distinct filter's density, by where its bitset lies: a footer may
  // point every row group at one large filter, read once here.
  std::map<std::pair<std::uint64_t, std::uint64_t>, FilterDensity> densities;
  for (std::size_t c = 0; c < columns; ++c) ++dotted[ColumnName(file.column(c))];
  for (std::size_t g = 0; g < file.num_row_groups(); ++g) {
    for (std::size_t c = 0; c < columns; ++c) {
      const bb_parquet_chunk chunk = file.chunk(g, c);
      if (chunk.has_filter == 0) continue;
      const bb_parquet_column column = file.column(c);
      Row row;
      row.row_group = g;
      row.column = ColumnName(column);
      row.names = file.column_names(c);
      row.shared = dotted[row.column] > 1;
      row.physical_type = PhysicalTypeName(column);
      row.logical_type = LogicalTypeName(column);
      row.header_offset = chunk.filter_offset;
      row.ok = chunk.filter_status == BB_OK;
      if (!row.ok) {
        row.error = chunk.filter_error != nullptr ? chunk.filter_error : "";
      } else {
        row.bitset_offset = chunk.bitset_offset;
        row.num_bytes = chunk.bitset_bytes;
        // One filter in memory at a time, however many the file has.
        const auto where = std::make_pair(row.bitset_offset, row.num_bytes);
        auto known = densities.find(where);
        if (known == densities.end()) {
          known = densities.emplace(where, DensityOf(*file.load_filter(g, c).c_filter())).first;
        }
        row.density = known->second;
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string Json(const std::string& path, std::size_t row_groups, const std::vector<Row>& rows) {
  std::string out = "{\"file\": " + JsonString(path) +
                    ", \"row_groups\": " + std::to_string(row_groups) + ", \"filters\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    out += i == 0 ? "\n  " : ",\n  ";
    out += "{\"row_group\": " + std::to_string(r.row_group);
    out += ", \"column\": " + JsonString(r.column);
    out += ", \"path\": " + JsonStringArray(r.names);
    out += ", \"physical_type\": " + JsonString(r.physical_type);
    out += ", \"logical_type\": " + (r.logical_type.empty() ? "null" : JsonString(r.logical_type));
    out += ", \"header_offset\": " + std::to_string(r.header_offset);
    if (r.ok) {
      out += ", \"bitset_offset\": " + std::to_string(r.bitset_offset);
      out += ", \"num_bytes\": " + std::to_string(r.num_bytes);
      out += ", \"bits_set_fraction\": " + Format("%.9g", r.density.fraction);
      out += ", \"estimated_ndv\": " +
             (r.density.estimated_ndv ? Format("%.9g", *r.density.estimated_ndv) : "null");
      out += ", \"status\": \"ok\", \"error\": null}";
    } else {
      out += ", \"bitset_offset\": null, \"num_bytes\": null, \"bits_set_fraction\": null";
      out += ", \"estimated_ndv\": null, \"status\": \"malformed\", \"error\": " +
             JsonString(r.error) + "}";
    }
  }
  return out + (rows.empty() ? "]}\n" : "\n]}\n");
}

std::string Text(const std::string& path, std::size_t row_groups, std::size_t columns,
                 const std::vector<Row>& rows) {
  std::size_t malformed = 0;
  std::vector<std::vector<std::string>> cells = {
      {"row_group", "column", "physical_type", "logical_type", "header_offset", "bitset_offset",
       "num_bytes", "bits_set", "estimated_ndv", "status"}};
  for (const Row& r : rows) {
    // A dotted path that another column shares is shown as its names.
    const std::string column = r.shared ? JsonStringArray(r.names) : r.column;
    std::vector<std::string> line = {std::to_string(r.row_group), Printable(column),
                                     r.physical_type,
                                     r.logical_type.empty() ? "-" : Printable(r.logical_type),
                                     std::to_string(r.header_offset)};
    if (r.ok) {
      line.push_back(std::to_string(r.bitset_offset));
      line.push_back(std::to_string(r.num_bytes));
      line.push_back(Format("%.4f", r.density.fraction));
      line.push_back(r.density.estimated_ndv ? Format("%.1f", *r.density.estimated_ndv) : "-");
      line.push_back("ok");
    } else {
      ++malformed;
      line.insert(line.end(), {"-", "-", "-", "-", "malformed: " + Printable(r.error)});
    }
    cells.push_back(std::move(line));
  }
  std::vector<std::size_t> widths(cells[0].size(), 0);
  for (const auto& line : cells) {
    for (std::size_t k = 0; k < line.size(); ++k) widths[k] = std::max(widths[k], line[k].size());
  }
  std::string out = Printable(path) + ": " + std::to_string(row_groups) + " row groups, " +
                    std::to_string(columns) + " columns, " + std::to_string(rows.size()) +
                    " Bloom filters (" + std::to_string(malformed) + " malformed)\n";
  for (const auto& line : cells) {
    for (std::size_t k = 0; k < line.size(); ++k) {
      out += line[k];
      if (k + 1 < line.size()) out += std::string(widths[k] - line[k].size() + 2, ' ');
    }
    out += '\n';
  }
  return out;
}

}  // namespace

int RunParquetList(const std::vector<std::string>& args) {
  const ParsedFlags flags = ParseFlagsAndOperands(args, {{"--json", false, ""}}, 1);
  if (flags.help_requested()) return PrintHelp("parquet");
  if (flags.operands().empty()) throw UsageError("parquet list: missing FILE");
  const std::string& path = flags.operands()[0];
  const blockbloom::ParquetFile file = OpenParquetFile(path);
  std::vector<Row> rows;
  try {
    rows = ListFilters(file);
  } catch (const blockbloom::Error& e) {
    throw CliError(path + ": " + e.what());  // a read that failed: the file changed
  }
  const std::string out = flags.Has("--json") ? Json(path, file.num_row_groups(), rows)
                                              : Text(path, file.num_row_groups(),
                                                     file.num_columns(), rows);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace blockbloom_cli
