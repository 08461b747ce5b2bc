// SPDX-License-Identifier: Apache-2.0
// Replaces a file all at once: readers see the old content or the new one,
// and a failure leaves the old file (or its absence) untouched.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_ATOMIC_FILE_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_ATOMIC_FILE_H_

#include <cstddef>
#include <initializer_list>
#include <string>

namespace blockbloom_tools {

// Writes data to a temporary file in path's directory, then renames it over
// path. On failure the temporary file is removed and CliError is thrown.
// The replacement keeps the replaced file's mode (and owner where permitted).
// A symbolic link is followed: its final target is replaced, the link kept.
// An existing path that is no regular file (a device, a FIFO, /dev/stdout on a
// pipe) is written in place instead, and "-" means standard output; a write
// error there (ENOSPC from /dev/full) throws CliError.
void WriteFileAtomically(const std::string& path, const void* data, std::size_t size);

// A piece of the content, written in order (e.g. a Parquet header, then a bitset).
struct ByteSpan {
  const void* data;
  std::size_t size;
};

// As above, with the content given as consecutive pieces.
void WriteFileAtomically(const std::string& path, std::initializer_list<ByteSpan> pieces);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_ATOMIC_FILE_H_
