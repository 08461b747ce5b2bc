// SPDX-License-Identifier: Apache-2.0
// An up-front check of the -o name of build and union, before any input is
// read, so that a name the output cannot get fails at once and says why.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_OUTPUT_NAME_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_OUTPUT_NAME_H_

#include <string>

namespace blockbloom_tools {

// Throws CliError when the last component of path is too long for its file
// system, or too long for the temporary file written beside it (which adds
// 12 bytes: ".NAME.tmp.XXXXXX", see atomic_file.cc) while it would be created.
// "-" and an existing file that is not a regular file are written in place,
// not through a temporary file, and pass.
void CheckOutputName(const std::string& path);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_OUTPUT_NAME_H_
