// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/parquet/dataset_paths.h"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <utility>
#include <system_error>

namespace blockbloom_tools {
namespace {

namespace fs = std::filesystem;

bool HasPatternCharacter(const std::string& text) {
  return text.find_first_of("*?[") != std::string::npos;
}

bool EndsWithParquet(const std::string& name) {
  static const std::string kSuffix = ".parquet";
  return name.size() >= kSuffix.size() &&
         name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
}

// glob's error callback has no context argument: the errors of the pattern
// being expanded go here (expansion runs on one thread at a time).
thread_local std::vector<PathError>* glob_errors = nullptr;

// A directory the pattern met that cannot be listed: reported as skipped, as
// the walk reports one, and the expansion goes on with the rest.
int OnGlobError(const char* path, int error) {
  glob_errors->push_back(
      {path, "the directory cannot be listed: " + std::generic_category().message(error)});
  return 0;
}

class Expander {
 public:
  explicit Expander(DatasetPaths* out) : out_(out) {}

  void Operand(const std::string& path) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);  // follows a symlink
    if (!fs::exists(status)) {
      if (HasPatternCharacter(path)) return Pattern(path);
      return Error(path, ec ? ec.message() : "no such file or directory");
    }
    if (fs::is_directory(status)) return Directory(path);
    Entry(path, status);
  }

 private:
  void Error(const std::string& path, const std::string& why) {
    out_->errors.push_back({path, why});
  }

  void Entry(const std::string& path, const fs::file_status& status) {
    if (fs::is_regular_file(status)) {
      out_->files.push_back(path);
    } else {
      Error(path, "not a regular file (a Parquet file's footer is read from its end)");
    }
  }

  void Pattern(const std::string& pattern) {
    glob_t matches{};
    glob_errors = &out_->errors;
    const int status = ::glob(pattern.c_str(), 0, OnGlobError, &matches);
    glob_errors = nullptr;
    if (status == GLOB_NOMATCH) {
      Error(pattern, "no file matches the pattern");
    } else if (status != 0) {
      Error(pattern, "the pattern cannot be expanded (a directory could not be read)");
    } else {
      for (std::size_t i = 0; i < matches.gl_pathc; ++i) {
        const std::string match = matches.gl_pathv[i];
        std::error_code ec;
        const fs::file_status s = fs::status(match, ec);
        if (fs::is_directory(s)) {
          Directory(match);
        } else if (!fs::exists(s)) {
          Error(match, ec ? ec.message() : "no such file or directory");  // a dangling symlink
        } else {
          Entry(match, s);
        }
      }
    }
    ::globfree(&matches);
  }

  // Subdirectories are walked whatever their names (Hive-style "key=value"
  // partitions, Spark's "table.parquet/"); symlinks to directories are not
  // followed, so a link back up cannot loop.
  void Directory(const std::string& dir) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) return Error(dir, "the directory cannot be listed: " + ec.message());
    std::vector<fs::directory_entry> entries;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      entries.push_back(*it);
    }
    if (ec) Error(dir, "the directory cannot be listed whole: " + ec.message());
    for (const fs::directory_entry& entry : entries) {
      const std::string path = entry.path().string();
      std::error_code link_ec;
      const fs::file_status link = entry.symlink_status(link_ec);
      if (fs::is_directory(link)) {
        Directory(path);
        continue;
      }
      if (!EndsWithParquet(entry.path().filename().string())) continue;
      std::error_code target_ec;
      const fs::file_status target = entry.status(target_ec);
      if (fs::is_directory(target)) continue;  // a symlink to a directory: not followed
      if (!fs::exists(target)) {
        Error(path, target_ec ? target_ec.message() : "no such file or directory");
      } else {
        Entry(path, target);
      }
    }
  }

  DatasetPaths* out_;
};

}  // namespace

bool NamesManyFiles(const std::string& operand) {
  std::error_code ec;
  const fs::file_status status = fs::status(operand, ec);
  if (fs::is_directory(status)) return true;
  return !fs::exists(status) && HasPatternCharacter(operand);
}

DatasetPaths ExpandDatasetPaths(const std::vector<std::string>& operands) {
  DatasetPaths out;
  Expander expander(&out);
  for (const std::string& operand : operands) expander.Operand(operand);
  std::sort(out.files.begin(), out.files.end());
  out.files.erase(std::unique(out.files.begin(), out.files.end()), out.files.end());
  // One file named two ways (d1 and ./d1, a symlink) is probed once: the
  // first of its names in path order is kept.
  std::set<std::pair<dev_t, ino_t>> seen;
  std::vector<std::string> distinct;
  for (std::string& path : out.files) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || seen.insert({st.st_dev, st.st_ino}).second) {
      distinct.push_back(std::move(path));
    }
  }
  out.files = std::move(distinct);
  std::sort(out.errors.begin(), out.errors.end(),
            [](const PathError& a, const PathError& b) { return a.path < b.path; });
  return out;
}

}  // namespace blockbloom_tools
