// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/parquet/dataset_probe.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "blockbloom/parquet_file.hpp"
#include "tools/blockbloom/input_lines.h"
#include "tools/blockbloom/parquet/column_choice.h"
#include "tools/blockbloom/parquet/dataset_paths.h"
#include "tools/blockbloom/parquet/parquet_commands.h"
#include "tools/blockbloom/parquet/value_encoding.h"
#include "tools/common/cli_error.h"
#include "tools/common/json_writer.h"
#include "tools/common/number_flags.h"
#include "tools/common/ordered_pool.h"
#include "tools/common/printable_text.h"
#include "tools/common/progress.h"

namespace blockbloom_tools {
namespace {

// The answers of files probed ahead of the one being written out wait in
// memory up to this many bytes (a million values over a hundred row groups
// is 12.5 MB a file): the threads then wait for the writer.
constexpr std::size_t kMaxWaitingAnswerBytes = std::size_t{32} << 20;

// More threads than this only wait on the disk and each other; the bound
// also keeps a typo such as --jobs 100000 from exhausting the process's threads.
constexpr std::size_t kMaxJobs = 1024;

// The values asked about, as typed (held whole: every file is asked about
// every value), and where each came from for messages.
struct Values {
  std::vector<std::string> texts;
  std::vector<std::string> where;  // "" for VALUE arguments, "FILE:LINE: " for --input
};

Values ReadValues(const ParsedFlags& flags, const std::vector<std::string>& operands) {
  Values values;
  if (!flags.Has("--input")) {
    values.texts = operands;
    values.where.assign(operands.size(), "");
    return values;
  }
  LineReader lines(flags.Required("--input"));
  std::string_view text;
  while (lines.Next(&text)) {
    values.texts.emplace_back(text);
    values.where.push_back(LineLocation(lines.shown_name(), lines.line_number()));
  }
  return values;
}

// The values hashed for one column type, or why they cannot be.
struct HashedValues {
  std::vector<std::uint64_t> hashes;
  std::string physical_type;
  std::string error;  // non-empty: a value is not of this type, or the type has no text form
};

// Values hashed once per column type met in the dataset (usually one), so
// that a million values over ten thousand files are hashed once, not ten
// thousand times. Shared by the worker threads.
class HashCache {
 public:
  HashCache(const Values& values, bool hex, bool physical)
      : values_(values), hex_(hex), physical_(physical) {}

  std::shared_ptr<const HashedValues> For(const bb_parquet_column& column,
                                          const std::string& column_name) {
    const Key key = {column.physical_type, column.type_length,       column.logical_type,
                     column.converted_type, column.bit_width,        column.is_signed,
                     column.time_unit,      column.is_adjusted_to_utc, column.scale,
                     column.precision};
    std::lock_guard<std::mutex> lock(mutex_);  // hashing under it: others need the same answer
    std::shared_ptr<const HashedValues>& entry = cache_[key];
    if (!entry) entry = Hash(column, column_name);
    return entry;
  }

 private:
  using Key = std::array<std::int32_t, 10>;

  std::shared_ptr<const HashedValues> Hash(const bb_parquet_column& column,
                                           const std::string& column_name) const {
    auto hashed = std::make_shared<HashedValues>();
    try {
      const ValueRules rules = RulesFor(column, column_name, hex_, physical_);
      hashed->physical_type = rules.physical_type;
      hashed->hashes.reserve(values_.texts.size());
      for (std::size_t i = 0; i < values_.texts.size(); ++i) {
        hashed->hashes.push_back(HashValue(rules, values_.texts[i], values_.where[i]));
      }
    } catch (const CliError& e) {
      hashed->hashes.clear();
      hashed->error = e.what();
    }
    return hashed;
  }

  const Values& values_;
  bool hex_;
  bool physical_;
  std::mutex mutex_;
  std::map<Key, std::shared_ptr<const HashedValues>> cache_;
};

// One file's answers: row group g's in bitmaps[g * bitmap_bytes ...], one
// bit per value (set: maybe), or why the file was skipped.
struct FileAnswers {
  std::string error;  // non-empty: skipped
  std::string column_name;
  std::string physical_type;
  std::size_t row_groups = 0;
  std::size_t unusable = 0;  // row groups whose chunk has no usable filter (they answer maybe)
  std::string first_unusable;  // "row group R has ...", for the warning
  std::vector<std::uint8_t> bitmaps;
};

// why without a leading "PATH: ": the library's and ChooseColumn's messages
// name the file, and the report names it already.
std::string WithoutPath(const std::string& why, const std::string& path) {
  const std::string prefix = path + ": ";
  return why.compare(0, prefix.size(), prefix) == 0 ? why.substr(prefix.size()) : why;
}

FileAnswers ProbeFile(const std::string& path, const ParsedFlags& flags, HashCache* cache,
                      std::size_t bitmap_bytes) {
  FileAnswers answers;
  try {
    const blockbloom::ParquetFile file = blockbloom::ParquetFile::open(path);  // one open a file
    const std::size_t column = ChooseColumn(file, flags, path);
    answers.column_name = ColumnName(file.column(column));
    const std::shared_ptr<const HashedValues> hashed =
        cache->For(file.column(column), answers.column_name);
    if (!hashed->error.empty()) {
      answers.error = hashed->error;
      return answers;
    }
    answers.physical_type = hashed->physical_type;
    answers.row_groups = file.num_row_groups();
    answers.bitmaps.assign(answers.row_groups * bitmap_bytes, 0xff);  // no usable filter: maybe
    for (std::size_t g = 0; g < answers.row_groups; ++g) {
      const bb_parquet_chunk chunk = file.chunk(g, column);
      if (chunk.has_filter == 0 || chunk.filter_status != BB_OK) {
        if (answers.unusable++ == 0) {
          answers.first_unusable =
              "row group " + std::to_string(g) +
              (chunk.has_filter == 0 ? std::string(" has no Bloom filter")
                                     : std::string(" has a malformed Bloom filter: ") +
                                           (chunk.filter_error ? chunk.filter_error : ""));
        }
        continue;
      }
      if (hashed->hashes.empty()) continue;
      file.load_filter(g, column)
          .find_batch_bitmap(hashed->hashes.data(), hashed->hashes.size(),
                             answers.bitmaps.data() + g * bitmap_bytes);
    }
  } catch (const std::exception& e) {  // the library's Error, a CliError, bad_alloc
    answers = FileAnswers();
    answers.error = WithoutPath(e.what(), path);
  }
  return answers;
}

bool Maybe(const FileAnswers& a, std::size_t bitmap_bytes, std::size_t g, std::size_t i) {
  return (a.bitmaps[g * bitmap_bytes + i / 8] >> (i % 8)) & 1u;
}

// Row groups where every value is absent: the ones a reader can skip. With
// no values there is nothing to decide: none is counted.
std::size_t SkippableRowGroups(const FileAnswers& a, std::size_t values, std::size_t bitmap_bytes) {
  std::size_t skippable = 0;
  if (values == 0) return 0;
  for (std::size_t g = 0; g < a.row_groups; ++g) {
    bool any_maybe = false;
    for (std::size_t i = 0; i < values && !any_maybe; ++i) any_maybe = Maybe(a, bitmap_bytes, g, i);
    if (!any_maybe) ++skippable;
  }
  return skippable;
}

// Output is written in pieces of about this many bytes, so that a file's
// answers (values x row groups lines) are never held whole as text.
constexpr std::size_t kOutputFlushBytes = std::size_t{1} << 16;

void FlushIfFull(std::string* out) {
  if (out->size() < kOutputFlushBytes) return;
  std::fwrite(out->data(), 1, out->size(), stdout);
  out->clear();
}

void WriteText(const std::string& path, const FileAnswers& a, const Values& values,
               std::size_t bitmap_bytes, std::string* out) {
  const std::string file = Printable(path);
  for (std::size_t i = 0; i < values.texts.size(); ++i) {
    const std::string value = Printable(values.texts[i]);
    for (std::size_t g = 0; g < a.row_groups; ++g) {
      *out += file + "\t" + value + "\trow_group=" + std::to_string(g) + "\t" +
              (Maybe(a, bitmap_bytes, g, i) ? "maybe" : "absent") + "\n";
      FlushIfFull(out);
    }
  }
}

void WriteFileJson(const std::string& path, const FileAnswers& a, const Values& values,
                   std::size_t bitmap_bytes, std::string* o) {
  *o += JsonObjectWriter::OnOneLine()
            .Add("file", JsonString(path))
            .Add("column", JsonString(a.column_name))
            .Add("physical_type", JsonString(a.physical_type))
            .Add("row_groups", JsonInteger(a.row_groups))
            .Add("unusable_row_groups", JsonInteger(a.unusable))
            .FinishBeforeLast("results");
  JsonArrayStream results = JsonArrayStream::OnOneLine();
  for (std::size_t i = 0; i < values.texts.size(); ++i) {
    *o += results.Next() + JsonObjectWriter::OnOneLine()
                               .Add("value", JsonString(values.texts[i]))
                               .FinishBeforeLast("row_groups");
    JsonArrayStream groups = JsonArrayStream::OnOneLine();
    for (std::size_t g = 0; g < a.row_groups; ++g) {
      *o += groups.Next() + JsonObjectWriter::OnOneLine()
                                .Add("row_group", JsonInteger(g))
                                .Add("maybe", JsonBool(Maybe(a, bitmap_bytes, g, i)))
                                .Finish();
      FlushIfFull(o);
    }
    *o += groups.Close() + "}";
  }
  *o += results.Close() + "}";
}

void ReportSkipped(const std::string& path, const std::string& why) {
  std::fprintf(stderr, "blockbloom: skipped %s: %s\n", Printable(path).c_str(),
               Printable(why).c_str());
}

struct Totals {
  std::size_t files_read = 0;
  std::size_t row_groups = 0;
  std::size_t skippable = 0;
};

std::string SummaryJson(const Totals& t, std::size_t skipped) {
  return JsonObjectWriter::OnOneLine()
      .Add("files", JsonInteger(t.files_read + skipped))
      .Add("files_read", JsonInteger(t.files_read))
      .Add("files_skipped", JsonInteger(skipped))
      .Add("row_groups", JsonInteger(t.row_groups))
      .Add("row_groups_skippable", JsonInteger(t.skippable))
      .Add("skippable_share",
           JsonFixed(t.row_groups == 0 ? 0.0 : double(t.skippable) / double(t.row_groups), 6))
      .Finish();
}

void PrintSummary(const Totals& t, std::size_t skipped, std::size_t values) {
  if (values == 0) {
    std::fprintf(stderr,
                 "blockbloom: %zu files (%zu read, %zu skipped), %zu row groups; 0 values: "
                 "nothing to decide\n",
                 t.files_read + skipped, t.files_read, skipped, t.row_groups);
    return;
  }
  const double share = t.row_groups == 0 ? 0.0 : 100.0 * double(t.skippable) / double(t.row_groups);
  std::fprintf(stderr,
               "blockbloom: %zu files (%zu read, %zu skipped), %zu row groups, %zu can be "
               "skipped (every value absent): %.1f%%\n",
               t.files_read + skipped, t.files_read, skipped, t.row_groups, t.skippable, share);
}

}  // namespace

std::size_t JobsFlag(const ParsedFlags& flags) {
  if (!flags.Has("--jobs")) return std::min(DefaultJobs(), kMaxJobs);
  const std::uint64_t jobs = CountFlag(flags, "--jobs");
  if (jobs == 0 || jobs > kMaxJobs) {
    throw UsageError("--jobs " + std::to_string(jobs) + ": give 1 to " + std::to_string(kMaxJobs) +
                     " threads");
  }
  return static_cast<std::size_t>(jobs);
}

int RunParquetDatasetProbe(const ParsedFlags& flags, const std::vector<std::string>& paths,
                           const std::vector<std::string>& value_operands) {
  if (flags.Has("--row-group")) {
    throw UsageError("parquet probe: --row-group asks one file; give one FILE, not a dataset");
  }
  const std::size_t jobs = JobsFlag(flags);
  const bool json = flags.Has("--json");
  const Values values = ReadValues(flags, value_operands);
  const std::size_t bitmap_bytes = (values.texts.size() + 7) / 8;
  const DatasetPaths dataset = ExpandDatasetPaths(paths, jobs);

  std::vector<PathError> errors = dataset.errors;
  for (const PathError& e : errors) ReportSkipped(e.path, e.why);
  HashCache cache(values, flags.Has("--hex"), flags.Has("--physical"));
  Totals totals;
  // Lines on stderr when it is not a terminal; no bar on a terminal: the
  // skipped-file and warning lines printed as files finish would cut it.
  ProgressSettings progress_settings = ProgressSettingsFromFlags(flags, "parquet probe");
  if (progress_settings.terminal) progress_settings.enabled = false;
  std::optional<Progress> progress(std::in_place, progress_settings,
                                   "probing " + std::to_string(dataset.files.size()) + " files",
                                   dataset.files.size(), "files");
  JsonArrayStream files_json = JsonArrayStream::OnePerLine(0);
  if (json) std::fputs("{\"files\": ", stdout);
  RunOrdered<FileAnswers>(
      dataset.files.size(), jobs, kMaxWaitingAnswerBytes,
      [&](std::size_t i) { return ProbeFile(dataset.files[i], flags, &cache, bitmap_bytes); },
      [&](std::size_t i, FileAnswers a) {
        progress->Update(i + 1);
        const std::string& path = dataset.files[i];
        if (!a.error.empty()) {
          ReportSkipped(path, a.error);
          errors.push_back({path, a.error});
          return;
        }
        if (a.unusable != 0) {
          std::fprintf(stderr,
                       "blockbloom: warning: %s: column %s: %zu of %zu row groups have no "
                       "usable Bloom filter (%s): they answer maybe\n",
                       Printable(path).c_str(), Printable(a.column_name).c_str(), a.unusable,
                       a.row_groups, Printable(a.first_unusable).c_str());
        }
        ++totals.files_read;
        totals.row_groups += a.row_groups;
        totals.skippable += SkippableRowGroups(a, values.texts.size(), bitmap_bytes);
        std::string out;
        if (json) {
          out = files_json.Next();
          WriteFileJson(path, a, values, bitmap_bytes, &out);
        } else {
          WriteText(path, a, values, bitmap_bytes, &out);
        }
        std::fwrite(out.data(), 1, out.size(), stdout);
      },
      [](const FileAnswers& a) { return a.bitmaps.capacity() + a.error.capacity(); });
  progress.reset();  // its "done" line before the summary
  std::sort(errors.begin(), errors.end(),
            [](const PathError& a, const PathError& b) { return a.path < b.path; });
  if (json) {
    JsonArrayStream errors_json = JsonArrayStream::OnePerLine(0);
    std::string out = files_json.Close() + ",\n\"errors\": ";
    for (const PathError& e : errors) {
      out += errors_json.Next() + JsonObjectWriter::OnOneLine()
                                      .Add("file", JsonString(e.path))
                                      .Add("error", JsonString(e.why))
                                      .Finish();
    }
    out += errors_json.Close() + ",\n\"summary\": " + SummaryJson(totals, errors.size()) + "}\n";
    std::fputs(out.c_str(), stdout);
  } else {
    std::fflush(stdout);
    PrintSummary(totals, errors.size(), values.texts.size());
  }
  if (totals.files_read == 0) {
    throw CliError(dataset.files.empty() && errors.empty()
                       ? "parquet probe: no .parquet file found in " + Printable(paths[0]) +
                             (paths.size() > 1 ? " and the other paths" : "")
                       : "parquet probe: no file could be probed (each is reported above)");
  }
  return errors.empty() ? 0 : 1;
}

}  // namespace blockbloom_tools
