// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/input_lines.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "tools/common/cli_error.h"
#include "tools/common/printable_text.h"

namespace blockbloom_tools {

LineReader::LineReader(const std::string& path)
    // Room for the longest line and its "\r\n" (a CRLF file takes the same
    // lines as an LF one): a full buffer without a '\n' is a line too long.
    : buffer_(kMaxLineBytes + 2) {
  const bool use_stdin = path == "-";
  shown_name_ = use_stdin ? "<stdin>" : path;
  file_ = use_stdin ? stdin : std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    throw CliError(shown_name_ + ": cannot open: " + std::strerror(errno));
  }
  owns_file_ = !use_stdin;
}

LineReader::~LineReader() {
  if (owns_file_) std::fclose(file_);
}

bool LineReader::Refill() {
  if (at_eof_) return false;
  const std::size_t unread = end_ - begin_;
  if (begin_ > 0) std::memmove(buffer_.data(), buffer_.data() + begin_, unread);
  begin_ = 0;
  end_ = unread;
  if (end_ == buffer_.size()) ThrowTooLong();
  const std::size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
  end_ += got;
  if (got == 0) {
    if (std::ferror(file_)) {
      throw CliError(shown_name_ + ": cannot read: " + std::strerror(errno));
    }
    at_eof_ = true;
    return false;
  }
  return true;
}

void LineReader::ThrowTooLong() const {
  throw CliError(LineLocation(shown_name_, line_number_ + 1) + "line longer than " +
                 std::to_string(kMaxLineBytes) + " bytes (is this a text file?)");
}

// The line without the '\r' of a CRLF line end (input_lines.h), measured
// after it is dropped.
std::string_view LineReader::Line(std::size_t first, std::size_t end) const {
  std::string_view line(buffer_.data() + first, end - first);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > kMaxLineBytes) ThrowTooLong();
  return line;
}

bool LineReader::Next(std::string_view* line) {
  std::size_t searched = begin_;  // bytes before this hold no '\n'
  for (;;) {
    const void* newline = std::memchr(buffer_.data() + searched, '\n', end_ - searched);
    if (newline != nullptr) {
      const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(newline) -
                                                      buffer_.data());
      *line = Line(begin_, at);
      begin_ = at + 1;
      ++line_number_;
      return true;
    }
    const std::size_t scanned = end_ - begin_;
    if (!Refill()) break;
    searched = scanned;  // Refill moved the unread bytes to the front
  }
  if (begin_ == end_) return false;
  // The last line, no '\n' after it.
  *line = Line(begin_, end_);
  begin_ = end_;
  ++line_number_;
  return true;
}

std::string LineLocation(const std::string& shown_name, std::size_t line_number) {
  return shown_name + ":" + std::to_string(line_number) + ": ";
}

std::string Quote(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;
  return "\"" + Shortened(text, kMaxShown) + "\"";
}

}  // namespace blockbloom_tools
