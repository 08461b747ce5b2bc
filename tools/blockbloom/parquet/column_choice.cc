// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/parquet/column_choice.h"

#include "tools/common/cli_error.h"
#include "tools/common/json_writer.h"

namespace blockbloom_tools {
namespace {

// A strict reader of one JSON array of strings.
class NameArrayReader {
 public:
  explicit NameArrayReader(std::string_view text) : text_(text) {}

  bool Read(std::vector<std::string>* names) {
    Space();
    if (!Take('[')) return Fail("expected '[' to begin the array");
    Space();
    if (Take(']')) return Fail("the array is empty: a column's path has at least one name");
    for (;;) {
      std::string name;
      if (!String(&name)) return false;
      names->push_back(std::move(name));
      Space();
      if (Take(']')) break;
      if (!Take(',')) return Fail("expected ',' or ']' after a string");
      Space();
    }
    Space();
    if (pos_ != text_.size()) return Fail("unexpected text after the array");
    return true;
  }
  const std::string& problem() const { return problem_; }

 private:
  bool Fail(const std::string& what) {
    problem_ = what + " (at byte " + std::to_string(pos_) + ")";
    return false;
  }
  void Space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Take(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Hex4(unsigned* out) {
    if (text_.size() - pos_ < 4) return Fail("\\u takes 4 hex digits");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_ + i];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return Fail("\\u takes 4 hex digits");
      v = v * 16 + static_cast<unsigned>(d);
    }
    pos_ += 4;
    *out = v;
    return true;
  }
  static void Utf8(unsigned cp, std::string* out) {
    if (cp < 0x80) {
      *out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out += static_cast<char>(0xc0 | cp >> 6);
      *out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      *out += static_cast<char>(0xe0 | cp >> 12);
      *out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
      *out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      *out += static_cast<char>(0xf0 | cp >> 18);
      *out += static_cast<char>(0x80 | (cp >> 12 & 0x3f));
      *out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
      *out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }
  bool Escape(std::string* out) {
    if (pos_ >= text_.size()) return Fail("the string ends inside an escape");
    const char c = text_[pos_++];
    static const char kFrom[] = "\"\\/bfnrt";
    static const char kTo[] = "\"\\/\b\f\n\r\t";
    for (int i = 0; kFrom[i] != '\0'; ++i) {
      if (c == kFrom[i]) {
        *out += kTo[i];
        return true;
      }
    }
    if (c != 'u') {
      --pos_;
      return Fail(std::string("unknown escape \\") + c);
    }
    unsigned cp = 0;
    if (!Hex4(&cp)) return false;
    if (cp >= 0xdc80 && cp <= 0xdcff) {
      // The byte 0xXX as --json writes one that is not part of valid UTF-8
      // (surrogateescape): the names as list --json prints them.
      out->push_back(static_cast<char>(cp - 0xdc00));
      return true;
    }
    if (cp >= 0xdc00 && cp <= 0xdfff) return Fail("a lone low surrogate");
    if (cp >= 0xd800 && cp <= 0xdbff) {
      unsigned low = 0;
      if (!(Take('\\') && Take('u')) || !Hex4(&low) || low < 0xdc00 || low > 0xdfff) {
        return Fail("a high surrogate without its low surrogate");
      }
      cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
    }
    Utf8(cp, out);
    return true;
  }
  bool String(std::string* out) {
    if (!Take('"')) return Fail("expected a string in double quotes");
    for (;;) {
      if (pos_ >= text_.size()) return Fail("the string is not closed");
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (c == '\\') {
        if (!Escape(out)) return false;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        --pos_;
        return Fail("a control character in a string (escape it)");
      } else {
        *out += c;
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string problem_;
};

}  // namespace

bool ParseNameArray(std::string_view text, std::vector<std::string>* names,
                    std::string* problem) {
  NameArrayReader reader(text);
  names->clear();
  if (reader.Read(names)) return true;
  *problem = reader.problem();
  return false;
}

namespace {

std::vector<std::string> ColumnPathNames(const ParsedFlags& flags) {
  const std::string& text = flags.Required("--column-path");
  std::vector<std::string> names;
  std::string problem;
  if (!ParseNameArray(text, &names, &problem)) {
    throw CliError("--column-path " + text + ": not a JSON array of strings: " + problem);
  }
  return names;
}

}  // namespace

void CheckColumnFlags(const ParsedFlags& flags) {
  if (flags.Has("--column") == flags.Has("--column-path")) {
    throw UsageError(flags.Has("--column") ? "parquet probe: --column or --column-path, not both"
                                           : "parquet probe: missing --column");
  }
  if (flags.Has("--column-path")) ColumnPathNames(flags);
}

std::size_t ChooseColumn(const blockbloom::ParquetFile& file, const ParsedFlags& flags,
                         const std::string& file_path) {
  CheckColumnFlags(flags);
  if (flags.Has("--column")) {
    try {
      return file.lookup_column(flags.Required("--column"));
    } catch (const blockbloom::Error& e) {
      throw CliError(file_path + ": " + e.what());
    }
  }
  const std::string& text = flags.Required("--column-path");
  const std::vector<std::string> names = ColumnPathNames(flags);
  const auto found = file.find_column_names(names);
  if (found) return *found;
  std::string dotted;
  for (std::size_t i = 0; i < names.size(); ++i) dotted += (i == 0 ? "" : ".") + names[i];
  // The names as a dotted path: the library's closest columns.
  std::size_t other = 0;
  char why[1024];
  why[0] = '\0';
  const int status = bb_parquet_file_lookup_column(file.c_file(), dotted.data(), dotted.size(),
                                                   &other, why, sizeof why);
  std::string message = file_path + ": no column with the names " + text;
  if (status == BB_OK) {  // one column has that dotted path, from other names
    message += " (the column " + dotted + " has the names " +
               JsonStringArray(file.column_names(other)) + ")";
  } else if (why[0] != '\0') {
    message += std::string(" (as a dotted path: ") + why + ")";
  }
  throw CliError(message);
}

}  // namespace blockbloom_tools
