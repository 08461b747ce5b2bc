#include "input_lines.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli_error.h"

namespace blockbloom_cli {

InputFile ReadInputFile(const std::string& path) {
  InputFile input;
  const bool use_stdin = path == "-";
  input.shown_name = use_stdin ? "<stdin>" : path;
  std::FILE* file = use_stdin ? stdin : std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw CliError(input.shown_name + ": cannot open: " + std::strerror(errno));
  }
  char buffer[1 << 16];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0) input.content.append(buffer, got);
  const int read_errno = std::ferror(file) ? errno : 0;
  if (!use_stdin) std::fclose(file);
  if (read_errno != 0) {
    throw CliError(input.shown_name + ": cannot read: " + std::strerror(read_errno));
  }
  return input;
}

std::string LineLocation(const InputFile& file, std::size_t line_number) {
  return file.shown_name + ":" + std::to_string(line_number) + ": ";
}

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

}  // namespace blockbloom_cli
