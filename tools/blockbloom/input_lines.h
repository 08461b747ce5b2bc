// SPDX-License-Identifier: Apache-2.0
// Reading an input file ("-" for standard input) line by line, in bounded
// memory: /dev/zero or a multi-gigabyte file must not be held whole.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_INPUT_LINES_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_INPUT_LINES_H_

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace blockbloom_tools {

// The longest line accepted (without its '\n'): far beyond any number or
// value a line holds, small enough that a file without newlines (/dev/zero)
// fails fast instead of filling memory.
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

// The lines of one input. A line is the bytes before its '\n', without one
// '\r' that ends them: "\r\n" is a line end as "\n" is, so a file written
// with CRLF line ends gives the same lines (and the same values, of every
// type, strings too) as one written with LF. Any other '\r' is kept. A last
// line without '\n' counts (a '\r' ending it dropped too); nothing follows a
// final '\n'. Lines are numbered from 1.
class LineReader {
 public:
  // Opens path; throws CliError naming the file if it cannot.
  explicit LineReader(const std::string& path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line, valid until the next call; false at the end of the input.
  // Throws CliError naming the file (and the line) on a read error or a line
  // longer than kMaxLineBytes.
  bool Next(std::string_view* line);

  // The number of the line Next returned last.
  std::size_t line_number() const { return line_number_; }
  // The path, or "<stdin>".
  const std::string& shown_name() const { return shown_name_; }

 private:
  // Moves the unread bytes to the front and reads more after them; false
  // once the input is exhausted.
  bool Refill();
  [[noreturn]] void ThrowTooLong() const;
  std::string_view Line(std::size_t first, std::size_t end) const;

  std::string shown_name_;
  std::FILE* file_ = nullptr;
  bool owns_file_ = false;
  bool at_eof_ = false;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // unread bytes are buffer_[begin_ .. end_)
  std::size_t end_ = 0;
  std::size_t line_number_ = 0;
};

// "name:line: ", the prefix of every message about one line.
std::string LineLocation(const std::string& shown_name, std::size_t line_number);

// The offending text as it is shown in messages: in double quotes, at most
// 40 bytes of it (Shortened), its bytes as they are: a message is escaped
// as a whole (Printable) where it is printed, by the one rule of stdout too.
std::string Quote(std::string_view text);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_INPUT_LINES_H_
