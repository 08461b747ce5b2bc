#include "hash_input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "cli_error.h"
#include "number_parse.h"

namespace blockbloom_cli {
namespace {

// The offending line as it is shown in messages: printable ASCII only, short.
std::string Quote(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == kMaxShown) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(c));
      out += escaped;
    }
  }
  return out + "\"";
}

std::string ReadAll(const std::string& path, const std::string& shown_name) {
  const bool use_stdin = path == "-";
  std::FILE* file = use_stdin ? stdin : std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw CliError(shown_name + ": cannot open: " + std::strerror(errno));
  }
  std::string content;
  char buffer[1 << 16];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0) content.append(buffer, got);
  const int read_errno = std::ferror(file) ? errno : 0;
  if (!use_stdin) std::fclose(file);
  if (read_errno != 0) {
    throw CliError(shown_name + ": cannot read: " + std::strerror(read_errno));
  }
  return content;
}

}  // namespace

std::vector<std::uint64_t> ReadHashFile(const std::string& path) {
  const std::string shown_name = path == "-" ? "<stdin>" : path;
  const std::string content = ReadAll(path, shown_name);

  std::vector<std::uint64_t> hashes;
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < content.size()) {
    std::size_t end = content.find('\n', start);
    if (end == std::string::npos) end = content.size();
    const std::string_view line(content.data() + start, end - start);
    start = end + 1;
    ++line_number;

    std::uint64_t hash = 0;
    const auto where = [&] { return shown_name + ":" + std::to_string(line_number) + ": "; };
    switch (ParseUint64(line, &hash)) {
      case ParseStatus::kOk:
        hashes.push_back(hash);
        break;
      case ParseStatus::kEmpty:
        throw CliError(where() + "empty line (expected an unsigned 64-bit number)");
      case ParseStatus::kInvalid:
        throw CliError(where() + "not an unsigned 64-bit number: " + Quote(TrimLine(line)));
      case ParseStatus::kOverflow:
        throw CliError(where() + "not an unsigned 64-bit number (larger than 2^64-1): " +
                       Quote(TrimLine(line)));
    }
  }
  return hashes;
}

}  // namespace blockbloom_cli
