// Replaces a file all at once: readers see the old content or the new one,
// and a failure leaves the old file (or its absence) untouched.
#ifndef BLOCKBLOOM_TOOLS_ATOMIC_FILE_H_
#define BLOCKBLOOM_TOOLS_ATOMIC_FILE_H_

#include <cstddef>
#include <initializer_list>
#include <string>

namespace blockbloom_cli {

// Writes data to a temporary file in path's directory, then renames it over
// path. On failure the temporary file is removed and CliError is thrown.
void WriteFileAtomically(const std::string& path, const void* data, std::size_t size);

// A piece of the content, written in order (e.g. a Parquet header, then a bitset).
struct ByteSpan {
  const void* data;
  std::size_t size;
};

// As above, with the content given as consecutive pieces.
void WriteFileAtomically(const std::string& path, std::initializer_list<ByteSpan> pieces);

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_ATOMIC_FILE_H_
