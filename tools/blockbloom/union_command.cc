// SPDX-License-Identifier: Apache-2.0
// blockbloom union A B -o C: the bitwise OR of two filters of the same layout,
// size, seed and value type, i.e. a filter that answers yes for anything
// either one held: filter files by default, raw bitsets with --format raw|parquet.
#include <cstdint>
#include <string>
#include <vector>

#include "tools/blockbloom/atomic_file.h"
#include "tools/common/cli_args.h"
#include "tools/common/cli_error.h"
#include "tools/blockbloom/commands.h"
#include "tools/blockbloom/filter_file_io.h"
#include "tools/blockbloom/hash_options.h"
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
  if (!with_header && layout == Layout::kParquet) {
    // A file that starts with a BloomFilterHeader: --parquet-header was
    // forgotten (it would otherwise fail as "not a multiple of 32 bytes", or
    // worse, unite the header's bytes as bits).
    HeaderedBitset found{};
    if (bb_parquet_header_read(file.data(), file.size(), &found.header_bytes,
                               &found.num_bytes) == BB_OK) {
      throw CliError(path + ": " + ForgottenHeaderReason("its first bytes", 0, found) +
                     ", not a raw bitset: add --parquet-header (or --format parquet) to unite "
                     "such files");
    }
  }
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

// Why two filter files cannot be united, or "" if they can: a union of
// filters of different layout, size, seed or type would answer for neither.
std::string Mismatch(const LoadedFilterFile& a, const LoadedFilterFile& b) {
  const bb_filter& fa = *a.filter.c_filter();
  const bb_filter& fb = *b.filter.c_filter();
  if (a.layout != b.layout) {
    return std::string("layouts differ: ") + LayoutName(a.layout) + " and " + LayoutName(b.layout);
  }
  if (fa.num_bytes != fb.num_bytes) {
    return "sizes differ: " + std::to_string(fa.num_bytes) + " and " +
           std::to_string(fb.num_bytes) + " bytes";
  }
  if (fa.hash_seed != fb.hash_seed) {
    return "seeds differ: " + std::to_string(fa.hash_seed) + " and " +
           std::to_string(fb.hash_seed);
  }
  const std::string ta = DescribeValues(a.raw, a.type), tb = DescribeValues(b.raw, b.type);
  if (a.raw != b.raw || (!a.raw && !SameType(a.type, b.type))) {
    return "value types differ: " + ta + " and " + tb;
  }
  return "";
}

// The union of two filter files, written as one with their type; the sizing
// is kept when both were built for the same one.
void UniteFilterFiles(const std::string& path_a, const std::string& path_b,
                      const std::string& output) {
  LoadedFilterFile a, b;
  ReadFilterFile(path_a, &a);
  ReadFilterFile(path_b, &b);
  const std::string why = Mismatch(a, b);
  if (!why.empty()) {
    throw CliError("cannot unite " + path_a + " and " + path_b + ": their " + why +
                   " (a union answers only for filters built alike)");
  }
  const int status = bb_filter_union(a.filter.get(), b.filter.c_filter());
  if (status != BB_OK) throw CliError(output + ": " + bb_status_message(status));
  bb_filter_file_sizing sizing = a.sizing;
  if (a.sizing.kind != b.sizing.kind || a.sizing.ndv != b.sizing.ndv ||
      a.sizing.fpp != b.sizing.fpp) {
    sizing = bb_filter_file_sizing{};
    sizing.struct_size = sizeof sizing;
    sizing.kind = BB_FILTER_SIZING_UNKNOWN;
  }
  WriteFilterFile(output, *a.filter.c_filter(), a.raw, a.type, sizing);
}

}  // namespace

int RunUnion(const std::vector<std::string>& args) {
  const ParsedFlags flags = ParseFlagsAndOperands(args, {{"--layout", true, ""},
                                                         {"--format", true, ""},
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
  const FilterFormat format = FilterFormatFlag(flags, layout, flags.Has("--layout"));
  const bool with_header = format == FilterFormat::kParquet;
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
  if (format == FilterFormat::kFile) {
    if (flags.Has("--layout")) {
      throw UsageError("--layout is for --format raw: a filter file says its layout");
    }
    UniteFilterFiles(path_a, path_b, output);
    return 0;
  }

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
