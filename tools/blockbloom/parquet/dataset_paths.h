// SPDX-License-Identifier: Apache-2.0
// The files of a dataset as `blockbloom parquet probe` is given them: file
// paths, directories (walked recursively for names ending ".parquet") and
// glob patterns (expanded by the tool, so that a quoted pattern reaches past
// the shell's argument limit), sorted by path so that the output does not
// depend on the order the file system lists them in.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_DATASET_PATHS_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_DATASET_PATHS_H_

#include <cstddef>
#include <string>
#include <vector>

namespace blockbloom_tools {

// A path that was named or found but cannot be probed, and why.
struct PathError {
  std::string path;
  std::string why;
};

struct DatasetPaths {
  // Regular files, sorted by their bytes, each once: a file named by two
  // operands or through a symlink is kept under its first name (hard links
  // are names of their own, as `find` lists them).
  std::vector<std::string> files;
  std::vector<PathError> errors;    // sorted by path
};

// True if operand names more than one file: a directory, or a pattern
// with *, ? or [ that is not the name of an existing file.
bool NamesManyFiles(const std::string& operand);

// The files the operands name. An explicit file is taken whatever its name;
// in a directory, the entries whose name ends ".parquet" (hidden ones too);
// a pattern's matches as if each were an operand. Reported in errors, never
// thrown: a path that does not exist, a pattern that matches nothing, an
// entry that is not a regular file (a FIFO is never opened: reading it
// would wait for a writer), a directory that cannot be listed.
// Directories are listed on `jobs` threads (1: the calling thread alone).
DatasetPaths ExpandDatasetPaths(const std::vector<std::string>& operands, std::size_t jobs);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_PARQUET_DATASET_PATHS_H_
