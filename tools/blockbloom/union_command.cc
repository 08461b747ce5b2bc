// SPDX-License-Identifier: Apache-2.0
// blockbloom union A B -o C: the bitwise OR of two filters of the same layout
// and size, i.e. a filter that answers yes for anything either one held.
#include <cstdint>
#include <string>
#include <vector>

#include "tools/blockbloom/atomic_file.h"
#include "tools/common/cli_args.h"
#include "tools/common/cli_error.h"
#include "tools/blockbloom/commands.h"
#include "tools/common/filter_options.h"
#include "tools/blockbloom/layout_filter.h"
#include "tools/common/file_range.h"
#include "tools/blockbloom/output_name.h"
#include "tools/blockbloom/parquet_header.h"

namespace blockbloom_tools {
namespace {

// The bitset of one input file, which holds that bitset and nothing else
// (after its BloomFilterHeader with --parquet-header).
struct InputBitset {
  const std::uint8_t* data;
  std::size_t num_bytes;
};

InputBitset LocateBitset(const FileRange& file, const std::string& path, Layout layout,
                         bool with_header) {
  if (!with_header) {
    CheckFilterBytes(layout, file.size(),
                     path + ": a file of " + std::to_string(file.size()) + " bytes");
    return {file.data(), file.size()};
  }
  const HeaderedBitset found =
      ReadParquetHeader(file.data(), file.size(), path + ": BloomFilterHeader");
  const std::size_t end = found.header_bytes + found.num_bytes;
  if (end != file.size()) {
    throw CliError(path + ": " + std::to_string(file.size() - end) +
                   " bytes follow the bitset (expected a BloomFilterHeader and its bitset only)");
  }
  return {file.data() + found.header_bytes, found.num_bytes};
}

}  // namespace

int RunUnion(const std::vector<std::string>& args) {
  const ParsedFlags flags = ParseFlagsAndOperands(args, {{"--layout", true, ""},
                                                         {"--parquet-header", false, ""},
                                                         {"--any-size", false, ""},
                                                         {"--output", true, "-o"}},
                                                  2);
  if (flags.help_requested()) return PrintHelp("union");

  // Check every flag before opening anything.
  if (flags.operands().size() != 2) {
    throw UsageError("union needs two filter files (got " +
                     std::to_string(flags.operands().size()) + ")");
  }
  const std::string& path_a = flags.operands()[0];
  const std::string& path_b = flags.operands()[1];
  const Layout layout = LayoutFlagOr(flags, Layout::kParquet);
  const bool with_header = ParquetHeaderFlag(flags, layout);
  const bool any_size = AnySizeFlag(flags, with_header);
  const std::string& output = flags.Required("--output");
  // Inputs are whole regular files (their size is the filter's size); say so
  // rather than look for a file named "-".
  for (const std::string* path : {&path_a, &path_b}) {
    if (*path == "-") {
      throw UsageError("union - : filters are read from regular files, not standard input");
    }
  }
  CheckOutputName(output);

  const FileRange file_a(path_a, 0);
  const FileRange file_b(path_b, 0);
  const InputBitset a = LocateBitset(file_a, path_a, layout, with_header);
  const InputBitset b = LocateBitset(file_b, path_b, layout, with_header);
  if (a.num_bytes != b.num_bytes) {
    throw CliError("cannot unite filters of different sizes: " + path_a + " has " +
                   std::to_string(a.num_bytes) + " bytes, " + path_b + " has " +
                   std::to_string(b.num_bytes));
  }
  // The inputs were read whatever their size; the header written must suit
  // the readers too.
  if (with_header) {
    CheckHeaderSize(a.num_bytes, any_size,
                    "the union of " + path_a + " and " + path_b + " (" +
                        std::to_string(a.num_bytes) + " bytes)");
  }

  std::vector<std::uint8_t> result(a.data, a.data + a.num_bytes);
  UnionBitsets(layout, result.data(), b.data, b.num_bytes, output);
  if (with_header) {
    const EncodedHeader header = EncodeParquetHeader(result.size(), any_size);
    WriteFileAtomically(output, {ByteSpan{header.bytes, header.size},
                                 ByteSpan{result.data(), result.size()}});
  } else {
    WriteFileAtomically(output, result.data(), result.size());
  }
  return 0;
}

}  // namespace blockbloom_tools
