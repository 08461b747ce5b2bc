// Reading an input file ("-" for standard input) and walking its lines.
#ifndef BLOCKBLOOM_TOOLS_INPUT_LINES_H_
#define BLOCKBLOOM_TOOLS_INPUT_LINES_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace blockbloom_cli {

struct InputFile {
  std::string shown_name;  // the path, or "<stdin>"
  std::string content;
};

// Reads all of path; throws CliError naming the file if it cannot.
InputFile ReadInputFile(const std::string& path);

// Calls fn(line, line_number) for every line of content, numbered from 1. A
// line is the bytes before its '\n' (the '\n' excluded, anything else such as
// a '\r' kept). A last line without '\n' counts; nothing follows a final '\n'.
template <typename Fn>
void ForEachLine(std::string_view content, Fn&& fn) {
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < content.size()) {
    std::size_t end = content.find('\n', start);
    if (end == std::string_view::npos) end = content.size();
    fn(content.substr(start, end - start), ++line_number);
    start = end + 1;
  }
}

// "name:line: ", the prefix of every message about one line.
std::string LineLocation(const InputFile& file, std::size_t line_number);

// The offending text as it is shown in messages: quoted, printable ASCII
// only (other bytes as \xNN), at most 40 characters.
std::string Quote(std::string_view text);

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_INPUT_LINES_H_
