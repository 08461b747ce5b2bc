// SPDX-License-Identifier: Apache-2.0
// blockbloom parquet probe FILE (--column PATH | --column-path JSON) [--row-group N] [--hex]
//                          [--physical] [--json]
//                          (VALUE... | --input FILE)
// Might row group R of FILE hold VALUE in column PATH? Each value is typed
// as the column's values are (the library's bb_parquet_hash_text), hashed as Parquet hashes
// it, and tested against each row group's filter. Everything is read and
// checked before anything is printed.
#include <cctype>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/cli_args.h"
#include "common/cli_error.h"
#include "common/json_writer.h"
#include "common/number_parse.h"
#include "common/printable_text.h"
#include "input_lines.h"
#include "commands.h"
#include "parquet/column_choice.h"
#include "parquet/parquet_commands.h"
#include "parquet/type_names.h"
#include "parquet/value_encoding.h"

namespace blockbloom_cli {
namespace {

const std::vector<FlagSpec> kFlags = {{"--column", true, ""},   {"--column-path", true, ""},
                                      {"--row-group", true, ""}, {"--input", true, ""},
                                      {"--hex", false, ""},      {"--physical", false, ""},
                                      {"--json", false, ""}};

// "-5", "-.5", "-inf", "-nan": a negative number, a value, not a flag.
bool IsNegativeNumber(const std::string& word) {
  if (word.size() < 2 || word[0] != '-') return false;
  if (std::isdigit(static_cast<unsigned char>(word[1])) || word[1] == '.') return true;
  std::string rest;
  for (char c : word.substr(1)) rest += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return rest == "inf" || rest == "infinity" || rest == "nan";
}

// Splits the words into flags (with their values) and operands (FILE, then
// the values): after "--" every word is an operand, and so is a negative
// number anywhere that is not a flag's value.
void SplitWords(const std::vector<std::string>& args, std::vector<std::string>* flag_words,
                std::vector<std::string>* operands) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") {
      operands->insert(operands->end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                       args.end());
      return;
    }
    const bool flag = word.size() > 1 && word[0] == '-' && !IsNegativeNumber(word);
    if (!flag) {
      operands->push_back(word);
      continue;
    }
    flag_words->push_back(word);
    for (const FlagSpec& spec : kFlags) {
      if (spec.takes_value && word == spec.name && i + 1 < args.size()) {
        flag_words->push_back(args[++i]);  // its value, whatever it looks like
        break;
      }
    }
  }
}

struct Value {
  std::string text;    // as given
  std::uint64_t hash;  // of its plain encoding
};

// Types and hashes one value; where says where it came from in messages.
Value TypedValue(const ValueRules& rules, std::string_view text, const std::string& where) {
  return Value{std::string(text), HashValue(rules, text, where)};
}

std::vector<Value> ReadValues(const ParsedFlags& flags, const std::vector<std::string>& operands,
                              const ValueRules& rules) {
  std::vector<Value> values;
  if (flags.Has("--input")) {
    LineReader lines(flags.Required("--input"));
    std::string_view line;
    while (lines.Next(&line)) {
      values.push_back(TypedValue(rules, line, LineLocation(lines.shown_name(), lines.line_number())));
    }
    return values;
  }
  for (std::size_t i = 1; i < operands.size(); ++i) {
    values.push_back(TypedValue(rules, operands[i], ""));
  }
  return values;
}

// The column's filter in one row group, tested against every value: one
// bit per value (LSB first), all set when the chunk has no usable filter.
std::vector<std::uint8_t> ProbeRowGroup(const blockbloom::ParquetFile& file, std::size_t row_group,
                                        std::size_t column, const std::vector<std::uint64_t>& hashes) {
  std::vector<std::uint8_t> bitmap((hashes.size() + 7) / 8, 0);
  const blockbloom::Filter filter = file.load_filter(row_group, column);
  if (!hashes.empty()) filter.find_batch_bitmap(hashes.data(), hashes.size(), bitmap.data());
  return bitmap;
}

}  // namespace

int RunParquetProbe(const std::vector<std::string>& args) {
  std::vector<std::string> flag_words;
  std::vector<std::string> operands;
  SplitWords(args, &flag_words, &operands);
  const ParsedFlags flags = ParseFlags(flag_words, kFlags);
  if (flags.help_requested()) return PrintHelp("parquet");
  if (operands.empty()) throw UsageError("parquet probe: missing FILE");
  const std::string& path = operands[0];
  CheckColumnFlags(flags);
  if (flags.Has("--input") && operands.size() > 1) {
    throw UsageError("parquet probe: values come from VALUE arguments or --input FILE, not both");
  }
  if (!flags.Has("--input") && operands.size() == 1) {
    throw UsageError("parquet probe: no values: give VALUE... or --input FILE");
  }
  std::optional<std::size_t> only_row_group;
  if (flags.Has("--row-group")) {
    std::uint64_t n = 0;
    if (ParseUint64(flags.Required("--row-group"), &n) != ParseStatus::kOk) {
      throw UsageError("--row-group " + flags.Required("--row-group") +
                       ": not an unsigned integer");
    }
    only_row_group = static_cast<std::size_t>(n);
  }

  const blockbloom::ParquetFile file = OpenParquetFile(path);
  const std::size_t column = ChooseColumn(file, flags, path);
  const std::string column_name = ColumnName(file.column(column));
  const bb_parquet_column info = file.column(column);
  const std::size_t row_groups = file.num_row_groups();
  if (only_row_group && *only_row_group >= row_groups) {
    throw CliError("--row-group " + std::to_string(*only_row_group) + ": " + path + " has " +
                   std::to_string(row_groups) + " row groups");
  }

  // Which row groups answer from a filter; the others cannot rule anything out.
  std::vector<std::size_t> selected;
  for (std::size_t g = 0; g < row_groups; ++g) {
    if (!only_row_group || g == *only_row_group) selected.push_back(g);
  }
  std::vector<std::string> unusable(row_groups);  // why not, per row group; "" usable
  std::size_t usable = 0;
  for (std::size_t g : selected) {
    const bb_parquet_chunk chunk = file.chunk(g, column);
    if (chunk.has_filter == 0) {
      unusable[g] = "has no Bloom filter";
    } else if (chunk.filter_status != BB_OK) {
      unusable[g] = std::string("has a malformed Bloom filter: ") +
                    (chunk.filter_error != nullptr ? chunk.filter_error : "");
    } else {
      ++usable;
    }
  }
  if (selected.empty()) throw CliError(path + ": the file has no row groups: nothing to probe");
  if (usable == 0) {
    const std::size_t g = selected[0];
    if (only_row_group) {
      throw CliError(path + ": column " + column_name + " in row group " + std::to_string(g) +
                     " " + unusable[g]);
    }
    throw CliError(path + ": column " + column_name + " has no usable Bloom filter in any of its " +
                   std::to_string(selected.size()) + " row groups (row group " +
                   std::to_string(g) + " " + unusable[g] + ")");
  }

  const ValueRules rules =
      RulesFor(info, column_name, flags.Has("--hex"), flags.Has("--physical"));
  const std::vector<Value> values = ReadValues(flags, operands, rules);
  std::vector<std::uint64_t> hashes;
  hashes.reserve(values.size());
  for (const Value& v : values) hashes.push_back(v.hash);

  std::vector<std::vector<std::uint8_t>> bitmaps;
  try {
    for (std::size_t g : selected) {
      if (unusable[g].empty()) {
        bitmaps.push_back(ProbeRowGroup(file, g, column, hashes));
      } else {
        bitmaps.emplace_back((hashes.size() + 7) / 8, 0xff);
      }
    }
  } catch (const blockbloom::Error& e) {
    throw CliError(path + ": " + e.what());  // a read that failed: the file changed
  }
  for (std::size_t g : selected) {
    if (!unusable[g].empty()) {
      std::fprintf(stderr, "blockbloom: warning: %s: column %s in row group %zu %s: answered maybe\n",
                   Printable(path).c_str(), Printable(column_name).c_str(), g,
                   Printable(unusable[g]).c_str());
    }
  }

  std::string out;
  const bool json = flags.Has("--json");
  if (json) {
    out = "{\"column\": " + JsonString(column_name) + ", \"physical_type\": " +
          JsonString(PhysicalTypeName(info)) + ", \"results\": [";
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (json) {
      out += (i == 0 ? "\n  " : ",\n  ") + std::string("{\"value\": ") +
             JsonString(values[i].text) + ", \"row_groups\": [";
    }
    const std::string shown = json ? "" : Printable(values[i].text);
    for (std::size_t k = 0; k < selected.size(); ++k) {
      const bool maybe = (bitmaps[k][i / 8] >> (i % 8)) & 1u;
      if (json) {
        out += (k == 0 ? "" : ", ") + std::string("{\"row_group\": ") +
               std::to_string(selected[k]) + ", \"maybe\": " + (maybe ? "true" : "false") + "}";
      } else {
        out += shown + "\trow_group=" + std::to_string(selected[k]) + "\t" +
               (maybe ? "maybe" : "absent") + "\n";
      }
    }
    if (json) out += "]}";
  }
  if (json) out += values.empty() ? "]}\n" : "\n]}\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace blockbloom_cli
