// SPDX-License-Identifier: Apache-2.0
// blockbloom parquet probe FILE (--column PATH | --column-path JSON) [--row-group N] [--hex]
//                          [--physical] [--json]
//                          (VALUE... | --input FILE)
// (A directory, a glob pattern, or several paths with --input: the dataset
// probe of dataset_probe.h; this file answers for one file.)
// Might row group R of FILE hold VALUE in column PATH? Each value is typed
// as the column's values are (the library's bb_parquet_hash_text), hashed as Parquet hashes
// it, and tested against each row group's filter. The values are streamed
// in chunks, in bounded memory whatever the input (kChunkValues,
// kChunkTextBytes, kChunkAnswers): each chunk is read and every value of it
// checked before any of its answers is printed, so a refusal prints nothing
// of its own chunk, but the answers of earlier chunks may already be out.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>
#include <sys/stat.h>

#include "tools/common/cli_args.h"
#include "tools/common/cli_error.h"
#include "tools/common/json_writer.h"
#include "tools/common/number_flags.h"
#include "tools/common/printable_text.h"
#include "tools/common/progress.h"
#include "tools/blockbloom/input_lines.h"
#include "tools/blockbloom/commands.h"
#include "tools/blockbloom/parquet/column_choice.h"
#include "tools/blockbloom/parquet/dataset_paths.h"
#include "tools/blockbloom/parquet/dataset_probe.h"
#include "tools/blockbloom/parquet/parquet_commands.h"
#include "tools/blockbloom/parquet/value_encoding.h"

namespace blockbloom_tools {
namespace {

const std::vector<FlagSpec> kFlags = {{"--column", true, ""},   {"--column-path", true, ""},
                                      {"--row-group", true, ""}, {"--input", true, ""},
                                      {"--hex", false, ""},      {"--physical", false, ""},
                                      {"--json", false, ""},     {"--jobs", true, ""},
                                      kNoProgressFlag};

// A chunk's bounds: values, bytes of their text kept, and answers (values
// times row groups probed, one bit each). A small input is one chunk, read
// whole before anything is printed, as before the streaming.
constexpr std::size_t kChunkValues = std::size_t{1} << 16;
constexpr std::size_t kChunkTextBytes = std::size_t{4} << 20;
constexpr std::size_t kChunkAnswers = std::size_t{8} << 20;
// Filters kept loaded from one chunk to the next, in bitset bytes (the
// first one whatever its size: probing holds it anyway); others are loaded
// again for each chunk.
constexpr std::size_t kKeptFilterBytes = std::size_t{4} << 20;
// What a kept filter takes beside its bitset, counted in kKeptFilterBytes:
// its handle, its 64-byte-aligned allocation and its map node (10^5 filters
// of 32 bytes would otherwise keep 20 MB in overheads).
constexpr std::size_t kKeptFilterOverhead = 256;
// Output is written whenever this much is buffered.
constexpr std::size_t kOutputFlushBytes = std::size_t{1} << 16;

// The values, from VALUE arguments or --input, a chunk at a time.
class ValueSource {
 public:
  ValueSource(const ParsedFlags& flags, const std::vector<std::string>& operands)
      : operands_(operands) {
    if (flags.Has("--input")) lines_.emplace(flags.Required("--input"));
  }

  // Replaces texts and hashes with the next chunk of at most max_values
  // values (none at the end), each typed and hashed; throws CliError for a
  // value that is not one of the column's.
  void NextChunk(const ValueRules& rules, std::size_t max_values, std::vector<std::string>* texts,
                 std::vector<std::uint64_t>* hashes) {
    texts->clear();
    hashes->clear();
    std::size_t bytes = 0;
    while (texts->size() < max_values && bytes < kChunkTextBytes) {
      std::string_view text;
      std::string where;
      if (lines_) {
        if (!lines_->Next(&text)) break;
        where = LineLocation(lines_->shown_name(), lines_->line_number());
      } else {
        if (next_operand_ >= operands_.size()) break;
        text = operands_[next_operand_++];
      }
      hashes->push_back(HashValue(rules, text, where));
      texts->emplace_back(text);
      bytes += text.size();
    }
  }

 private:
  const std::vector<std::string>& operands_;
  std::size_t next_operand_ = 1;  // operands_[0] is FILE
  std::optional<LineReader> lines_;
};

// A row group whose chunk of the column cannot answer, and why: the
// library's text (owned by the open file), quoted only when printed, so
// that 10^5 row groups sharing one bad filter keep no copy of it each.
struct Unusable {
  std::size_t row_group = 0;
  const char* malformed = nullptr;  // why its filter is malformed; nullptr: it has none
  std::string Why() const {
    return malformed == nullptr ? "has no Bloom filter"
                                : std::string("has a malformed Bloom filter: ") + malformed;
  }
};

// The column's filter in each selected row group, loaded when first needed
// and kept while the kept ones fit in kKeptFilterBytes.
class RowGroupFilters {
 public:
  RowGroupFilters(const blockbloom::ParquetFile& file, std::size_t column)
      : file_(file), column_(column) {}

  // The answers of row group g for hashes, one bit per hash (LSB first).
  void Probe(std::size_t g, const std::vector<std::uint64_t>& hashes, std::uint8_t* bitmap) {
    if (hashes.empty()) return;
    const auto kept = kept_.find(g);
    if (kept != kept_.end()) {
      kept->second.find_batch_bitmap(hashes.data(), hashes.size(), bitmap);
      return;
    }
    blockbloom::Filter filter = file_.load_filter(g, column_);
    filter.find_batch_bitmap(hashes.data(), hashes.size(), bitmap);
    const std::size_t cost = filter.num_bytes() + kKeptFilterOverhead;
    if (kept_bytes_ == 0 || kept_bytes_ + cost <= kKeptFilterBytes) {
      kept_bytes_ += cost;
      kept_.emplace(g, std::move(filter));
    }
  }

 private:
  const blockbloom::ParquetFile& file_;
  std::size_t column_;
  std::unordered_map<std::size_t, blockbloom::Filter> kept_;  // by row group
  std::size_t kept_bytes_ = 0;
};

// Buffered standard output, written a piece at a time.
class Output {
 public:
  ~Output() { Flush(); }
  std::string& text() { return text_; }
  void MaybeFlush() {
    if (text_.size() >= kOutputFlushBytes) Flush();
  }
  void Flush() {
    std::fwrite(text_.data(), 1, text_.size(), stdout);
    text_.clear();
  }

 private:
  std::string text_;
};

// --row-group N, if given.
std::optional<std::size_t> RowGroupFlag(const ParsedFlags& flags) {
  if (!flags.Has("--row-group")) return std::nullopt;
  const std::uint64_t n = CountFlag(flags, "--row-group");  // an index, spelt as counts are
  return static_cast<std::size_t>(n);
}

// FILE, the column, and values from exactly one place: with --input every
// operand is a path, without it the first one is and the rest are values.
void CheckProbeArgs(const ParsedFlags& flags) {
  const std::vector<std::string>& operands = flags.operands();
  if (operands.empty()) throw UsageError("parquet probe: missing FILE");
  CheckColumnFlags(flags);
  if (!flags.Has("--input") && operands.size() == 1) {
    throw UsageError("parquet probe: no values: give VALUE... or --input FILE");
  }
}

// An unquoted glob (s/*.parquet) reaches us expanded: the first file is
// probed and the others would be taken as values, each answering absent. A
// VALUE that names an existing .parquet file is that mistake, never a value
// anyone means, so it is refused.
void RefuseExpandedGlob(const ParsedFlags& flags) {
  if (flags.Has("--input")) return;
  const std::vector<std::string>& operands = flags.operands();
  for (std::size_t i = 1; i < operands.size(); ++i) {
    const std::string& v = operands[i];
    struct stat st;
    if (v.size() > 8 && v.compare(v.size() - 8, 8, ".parquet") == 0 && ::stat(v.c_str(), &st) == 0 &&
        S_ISREG(st.st_mode)) {
      throw UsageError("parquet probe: value \"" + Printable(v) + "\" names a Parquet file: the "
                       "shell expanded a glob; quote the pattern, or list the files and pass the "
                       "values with --input");
    }
  }
}

// The probed row groups of a column: every one, or --row-group's, and which
// of them answer from a filter (the others cannot rule anything out).
struct ProbedRowGroups {
  std::vector<std::size_t> selected;
  std::vector<bool> usable;        // per selected row group
  std::vector<Unusable> unusable;  // in row group order
};

// Throws CliError when no selected row group can answer.
ProbedRowGroups SelectRowGroups(const blockbloom::ParquetFile& file, std::size_t column,
                                std::optional<std::size_t> only_row_group,
                                const std::string& path, const std::string& column_name) {
  const std::size_t row_groups = file.num_row_groups();
  if (only_row_group && *only_row_group >= row_groups) {
    throw CliError("--row-group " + std::to_string(*only_row_group) + ": " + path + " has " +
                   std::to_string(row_groups) + " row groups");
  }
  ProbedRowGroups probed;
  probed.selected.reserve(only_row_group ? 1 : row_groups);
  for (std::size_t g = 0; g < row_groups; ++g) {
    if (!only_row_group || g == *only_row_group) probed.selected.push_back(g);
  }
  probed.usable.resize(probed.selected.size());
  for (std::size_t k = 0; k < probed.selected.size(); ++k) {
    const bb_parquet_chunk chunk = file.chunk(probed.selected[k], column);
    if (chunk.has_filter == 0) {
      probed.unusable.push_back({probed.selected[k], nullptr});
    } else if (chunk.filter_status != BB_OK) {
      probed.unusable.push_back(
          {probed.selected[k], chunk.filter_error != nullptr ? chunk.filter_error : ""});
    } else {
      probed.usable[k] = true;
    }
  }
  if (probed.selected.empty()) throw CliError(path + ": the file has no row groups: nothing to probe");
  if (probed.unusable.size() == probed.selected.size()) {
    const Unusable& first = probed.unusable[0];
    if (only_row_group) {
      throw CliError(path + ": column " + column_name + " in row group " +
                     std::to_string(first.row_group) + " " + first.Why());
    }
    throw CliError(path + ": column " + column_name + " has no usable Bloom filter in any of its " +
                   std::to_string(probed.selected.size()) + " row groups (row group " +
                   std::to_string(first.row_group) + " " + first.Why() + ")");
  }
  return probed;
}

// What a probe says once its first chunk of values is read and checked: a
// warning per row group that cannot answer, and (--json) the object's head.
void StartOutput(const std::string& path, const std::string& column_name, const ValueRules& rules,
                 const std::vector<Unusable>& unusable, bool json, Output* out) {
  for (const Unusable& u : unusable) {
    std::fprintf(stderr, "blockbloom: warning: %s: column %s in row group %zu %s: answered maybe\n",
                 Printable(path).c_str(), Printable(column_name).c_str(), u.row_group,
                 Printable(u.Why()).c_str());
  }
  if (json) {
    out->text() = JsonObjectWriter::OnOneLine()
                      .Add("column", JsonString(column_name))
                      .Add("physical_type", JsonString(rules.physical_type))
                      .FinishBeforeLast("results");
  }
}

// The answers of a chunk's values, row group k's in bitmaps[k * bitmap_bytes
// ...], one line (or, --json, one element of results) a value.
void WriteAnswers(const std::vector<std::string>& texts, const ProbedRowGroups& probed,
                  const std::vector<std::uint8_t>& bitmaps, std::size_t bitmap_bytes, bool json,
                  JsonArrayStream* results, Output* out) {
  for (std::size_t i = 0; i < texts.size(); ++i) {
    std::string& o = out->text();
    JsonArrayStream answers = JsonArrayStream::OnOneLine();  // this value's, by row group
    if (json) {
      o += results->Next() +
           JsonObjectWriter::OnOneLine().Add("value", JsonString(texts[i])).FinishBeforeLast(
               "row_groups");
    }
    const std::string shown = json ? "" : Printable(texts[i]);
    for (std::size_t k = 0; k < probed.selected.size(); ++k) {
      const bool maybe = (bitmaps[k * bitmap_bytes + i / 8] >> (i % 8)) & 1u;
      if (json) {
        o += answers.Next() + JsonObjectWriter::OnOneLine()
                                  .Add("row_group", JsonInteger(probed.selected[k]))
                                  .Add("maybe", JsonBool(maybe))
                                  .Finish();
      } else {
        o += shown + "\trow_group=" + std::to_string(probed.selected[k]) + "\t" +
             (maybe ? "maybe" : "absent") + "\n";
      }
      out->MaybeFlush();
    }
    if (json) out->text() += answers.Close() + "}";
  }
}

}  // namespace

int RunParquetProbe(const std::vector<std::string>& args) {
  const ParsedFlags flags = ParseFlagsAndValues(args, kFlags);
  if (flags.help_requested()) return PrintHelp("parquet");
  CheckProbeArgs(flags);
  const std::vector<std::string>& operands = flags.operands();
  if (operands.size() > 1 && flags.Has("--input")) {
    return RunParquetDatasetProbe(flags, operands, {});
  }
  if (NamesManyFiles(operands[0])) {
    return RunParquetDatasetProbe(flags, {operands[0]},
                                  std::vector<std::string>(operands.begin() + 1, operands.end()));
  }
  const std::string& path = operands[0];
  JobsFlag(flags);  // unused on one file, but a bad value is still refused
  RefuseExpandedGlob(flags);
  const std::optional<std::size_t> only_row_group = RowGroupFlag(flags);

  const blockbloom::ParquetFile file = OpenParquetFile(path);
  const std::size_t column = ChooseColumn(file, flags, path);
  const std::string column_name = ColumnName(file.column(column));
  const ProbedRowGroups probed = SelectRowGroups(file, column, only_row_group, path, column_name);
  const ValueRules rules =
      RulesFor(file.column(column), column_name, flags.Has("--hex"), flags.Has("--physical"));
  const bool json = flags.Has("--json");
  const std::size_t max_values =
      std::max<std::size_t>(8, std::min(kChunkValues, kChunkAnswers / probed.selected.size()));
  const std::size_t bitmap_bytes = (max_values + 7) / 8;
  ValueSource source(flags, flags.operands());
  RowGroupFilters filters(file, column);
  std::vector<std::string> texts;
  std::vector<std::uint64_t> hashes;
  std::vector<std::uint8_t> bitmaps;  // per selected row group, bitmap_bytes bytes
  Output out;
  JsonArrayStream results = JsonArrayStream::OnePerLine(0);  // --json: one value a line
  for (bool first = true;; first = false) {
    source.NextChunk(rules, max_values, &texts, &hashes);
    if (first) StartOutput(path, column_name, rules, probed.unusable, json, &out);
    if (texts.empty()) break;
    bitmaps.assign(probed.selected.size() * bitmap_bytes, 0xff);  // no usable filter: maybe
    try {
      for (std::size_t k = 0; k < probed.selected.size(); ++k) {
        if (probed.usable[k]) {
          filters.Probe(probed.selected[k], hashes, bitmaps.data() + k * bitmap_bytes);
        }
      }
    } catch (const blockbloom::Error& e) {
      throw CliError(path + ": " + e.what());  // a read that failed: the file changed
    }
    WriteAnswers(texts, probed, bitmaps, bitmap_bytes, json, &results, &out);
  }
  if (json) out.text() += results.Close() + "}\n";
  return 0;
}

}  // namespace blockbloom_tools
