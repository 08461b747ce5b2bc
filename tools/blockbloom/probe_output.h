// SPDX-License-Identifier: Apache-2.0
// What `blockbloom probe` prints: each value beside its answer (as `parquet
// probe` does), as JSON, as bare 1/0 lines (--bits), or the count of maybes.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_PROBE_OUTPUT_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_PROBE_OUTPUT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/common/cli_args.h"
#include "tools/common/filter_options.h"
#include "tools/common/json_writer.h"

namespace blockbloom_tools {

struct ProbeOutputForm {
  bool values;  // VALUE<TAB>maybe|absent per line, or --json's results: the lines are kept
  bool json;    // --json
  bool bits;    // --bits: 1 or 0 per line
  bool count;   // --count: the number of maybes
};

// --json, --bits and --count; a usage error for --bits with either other.
ProbeOutputForm ProbeOutputFlags(const ParsedFlags& flags);

// The answers of a probe that shows its values, written a batch at a time
// (each batch once all of its lines were read and checked), so that memory
// stays bounded: after a refusal the answers of earlier batches may be out.
class ValueAnswers {
 public:
  ValueAnswers(bool json, const std::string& filter_path, Layout layout);
  // lines[i]'s answer is bit i of bitmap (LSB first).
  void Write(const std::vector<std::string>& lines, const std::uint8_t* bitmap);
  // Closes the JSON document (or writes all of it, for no lines at all).
  void Finish();

 private:
  void WriteHead(std::string* out);
  bool json_;
  std::string filter_path_;
  Layout layout_;
  bool head_written_ = false;
  JsonArrayStream results_ = JsonArrayStream::OnePerLine(0);
};

// --count: "N\n", or with --json {"filter", "layout", "values", "maybe"}.
void PrintCount(const ProbeOutputForm& form, const std::string& filter_path, Layout layout,
                std::size_t lines, std::size_t maybe);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_PROBE_OUTPUT_H_
