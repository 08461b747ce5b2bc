// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/probe_output.h"

#include <cstdio>

#include "tools/common/cli_error.h"
#include "tools/common/printable_text.h"

namespace blockbloom_tools {
namespace {

void WriteOut(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

}  // namespace

ProbeOutputForm ProbeOutputFlags(const ParsedFlags& flags) {
  ProbeOutputForm form{};
  form.json = flags.Has("--json");
  form.bits = flags.Has("--bits");
  form.count = flags.Has("--count");
  if (form.bits && (form.json || form.count)) {
    throw UsageError(std::string("--bits (a bare 1 or 0 per line) and ") +
                     (form.json ? "--json (each value and its answer)" : "--count (the number of "
                                                                         "maybes)") +
                     " are two outputs: give one");
  }
  form.values = !form.bits && !form.count;
  return form;
}

ValueAnswers::ValueAnswers(bool json, const std::string& filter_path, Layout layout)
    : json_(json), filter_path_(filter_path), layout_(layout) {}

void ValueAnswers::WriteHead(std::string* out) {
  if (head_written_ || !json_) return;
  head_written_ = true;
  *out += JsonObjectWriter::OnOneLine()
              .Add("filter", JsonString(filter_path_))
              .Add("layout", JsonString(LayoutName(layout_)))
              .FinishBeforeLast("results");
}

void ValueAnswers::Write(const std::vector<std::string>& lines, const std::uint8_t* bitmap) {
  std::string out;
  WriteHead(&out);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const bool maybe = (bitmap[i / 8] >> (i % 8)) & 1u;
    if (json_) {
      out += results_.Next() + JsonObjectWriter::OnOneLine()
                                   .Add("value", JsonString(lines[i]))
                                   .Add("maybe", JsonBool(maybe))
                                   .Finish();
    } else {
      // The one escaping rule of text output: a tab or newline in a value
      // cannot forge a column or a line.
      ((out += Printable(lines[i])) += '\t') += maybe ? "maybe\n" : "absent\n";
    }
  }
  WriteOut(out);
}

void ValueAnswers::Finish() {
  std::string out;
  WriteHead(&out);
  if (json_) out += results_.Close() + "}\n";
  WriteOut(out);
}

void PrintCount(const ProbeOutputForm& form, const std::string& filter_path, Layout layout,
                std::size_t lines, std::size_t maybe) {
  if (!form.json) {
    std::printf("%zu\n", maybe);
    return;
  }
  WriteOut(JsonObjectWriter()
               .Add("filter", JsonString(filter_path))
               .Add("layout", JsonString(LayoutName(layout)))
               .Add("values", JsonInteger(lines))
               .Add("maybe", JsonInteger(maybe))
               .Finish() +
           "\n");
}

}  // namespace blockbloom_tools
