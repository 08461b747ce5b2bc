// SPDX-License-Identifier: Apache-2.0
// Filter files (blockbloom/filter_file.h) on disk: which format a command
// reads or writes (--format), reading one whole and checked, writing one
// atomically, and refusing to overwrite a command's own input.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_FILTER_FILE_IO_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_FILTER_FILE_IO_H_

#include <string>

#include "blockbloom/filter_file.h"
#include "tools/blockbloom/layout_filter.h"
#include "tools/common/cli_args.h"
#include "tools/common/filter_options.h"

namespace blockbloom_tools {

enum class FilterFormat {
  kFile,     // a filter file: layout, type, seed, sizing, bitset, checksum (the default)
  kRaw,      // the bitset alone (export / import)
  kParquet,  // Parquet's BloomFilterHeader and the bitset (export / import)
};

// --format file|raw|parquet (default file); --parquet-header is --format
// parquet. Usage errors: an unknown name, --parquet-header with another
// --format, parquet with --layout kudu (layout_given: --layout was given).
FilterFormat FilterFormatFlag(const ParsedFlags& flags, Layout layout, bool layout_given);

// A filter file read whole and checked by the library.
struct LoadedFilterFile {
  OwnedFilter filter;
  Layout layout = Layout::kParquet;
  bool raw = true;              // the values are raw hashes
  bb_parquet_column type{};     // unless raw
  bb_filter_file_sizing sizing{};
};

// Reads path (a regular file) into *out. Throws CliError naming the file and
// what is wrong with it (the library's check, each field its own message;
// for a file that is no filter file, how to read a raw or Parquet bitset).
void ReadFilterFile(const std::string& path, LoadedFilterFile* out);

// Writes filter as a filter file to path, atomically (atomic_file.h).
void WriteFilterFile(const std::string& path, const bb_filter& filter, bool raw,
                     const bb_parquet_column& type, const bb_filter_file_sizing& sizing);

// Throws CliError if output names the same file as input (same device and
// inode: another path, a symbolic or a hard link to it): writing it would
// replace the input the command reads.
void RefuseOutputThatIsInput(const std::string& input, const std::string& output,
                             const std::string& input_flag);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_FILTER_FILE_IO_H_
