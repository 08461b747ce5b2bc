// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/output_name.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstddef>

#include "tools/common/cli_error.h"

namespace blockbloom_tools {
namespace {

// ".NAME.tmp.XXXXXX" is NAME plus this many bytes (atomic_file.cc).
constexpr std::size_t kTempNameExtra = 12;

// The longest file name the directory's file system takes (NAME_MAX when it
// does not say: pathconf fails for a directory that does not exist, which the
// write then reports itself).
std::size_t NameMax(const std::string& dir) {
  const long limit = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  return limit > 0 ? static_cast<std::size_t>(limit) : std::size_t{NAME_MAX};
}

bool IsExistingNonRegularFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

}  // namespace

void CheckOutputName(const std::string& path) {
  if (path == "-" || IsExistingNonRegularFile(path)) return;
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const std::size_t name_bytes = path.size() - (slash == std::string::npos ? 0 : slash + 1);
  const std::size_t name_max = NameMax(dir);
  const std::string prefix = "-o: the file name is " + std::to_string(name_bytes) + " bytes";
  if (name_bytes > name_max) {
    throw CliError(prefix + ", more than the " + std::to_string(name_max) +
                   " bytes this file system allows");
  }
  if (name_bytes + kTempNameExtra > name_max) {
    throw CliError(prefix + "; at most " + std::to_string(name_max - kTempNameExtra) +
                   " are possible here: OUT is written as a temporary file beside it, whose "
                   "name is " + std::to_string(kTempNameExtra) +
                   " bytes longer, and this file system allows " + std::to_string(name_max));
  }
}

}  // namespace blockbloom_tools
