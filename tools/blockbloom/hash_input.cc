// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/hash_input.h"

#include <optional>
#include <string_view>

#include "tools/common/cli_error.h"
#include "tools/blockbloom/input_lines.h"
#include "tools/common/number_parse.h"
#include "tools/blockbloom/value_hashing.h"

namespace blockbloom_tools {
namespace {

// Where a line is, for messages; the text is built only when one is thrown.
struct LinePlace {
  const LineReader& reader;
  std::string Prefix() const { return LineLocation(reader.shown_name(), reader.line_number()); }
};

// A line that is a hash already.
std::uint64_t ParseHashLine(std::string_view line, bool kudu, const LinePlace& where) {
  std::uint64_t hash = 0;
  switch (ParseUint64(line, &hash)) {
    case ParseStatus::kOk:
      break;
    case ParseStatus::kEmpty:
      throw CliError(where.Prefix() + "empty line (expected an unsigned 64-bit number)");
    case ParseStatus::kInvalid:
      throw CliError(where.Prefix() + "not an unsigned 64-bit number: " + Quote(TrimLine(line)));
    case ParseStatus::kOverflow:
      throw CliError(where.Prefix() + "not an unsigned 64-bit number (larger than 2^64-1): " +
                     Quote(TrimLine(line)));
  }
  if (kudu && hash > 0xffffffffu) {
    throw CliError(where.Prefix() + "larger than 2^32-1 (--layout kudu takes 32-bit hashes): " +
                   Quote(TrimLine(line)));
  }
  return hash;
}

using BatchWithLines =
    std::function<void(const std::vector<std::uint64_t>&, const std::vector<std::string>&)>;

// Both entry points: lines are kept (and bound the batch) only when asked.
void ForEachBatch(const std::string& path, const HashOptions& options, Layout layout,
                  bool keep_lines, const BatchWithLines& on_batch) {
  LineReader reader(path);
  std::optional<ValueHasher> hasher;
  if (!options.raw) hasher.emplace(layout, options.type, options.seed);
  const LinePlace where{reader};
  std::vector<std::uint64_t> hashes;
  hashes.reserve(kHashBatch);
  std::vector<std::string> lines;
  std::size_t line_bytes = 0;
  std::string_view line;
  while (reader.Next(&line)) {
    if (options.raw) {
      hashes.push_back(ParseHashLine(line, layout == Layout::kKudu, where));
    } else {
      hashes.push_back(hasher->Hash(line, reader));
    }
    if (keep_lines) {
      lines.emplace_back(line);
      line_bytes += line.size();
    }
    if (hashes.size() == kHashBatch || line_bytes >= kLineBatchBytes) {
      on_batch(hashes, lines);
      hashes.clear();
      lines.clear();
      line_bytes = 0;
    }
  }
  if (!hashes.empty()) on_batch(hashes, lines);
}

}  // namespace

void ForEachHashBatch(const std::string& path, const HashOptions& options, Layout layout,
                      const std::function<void(const std::vector<std::uint64_t>&)>& on_batch) {
  ForEachBatch(path, options, layout, false,
               [&](const std::vector<std::uint64_t>& hashes, const std::vector<std::string>&) {
                 on_batch(hashes);
               });
}

void ForEachHashBatchWithLines(const std::string& path, const HashOptions& options, Layout layout,
                               const BatchWithLines& on_batch) {
  ForEachBatch(path, options, layout, true, on_batch);
}

}  // namespace blockbloom_tools
