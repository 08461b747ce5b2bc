// blockbloom probe: test hashes or typed values against a bitset at any
// offset of a file (read into memory placed as the file's pages would be
// mapped, so the bitset keeps its alignment; see file_range.h).
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "filter_options.h"
#include "hash_input.h"
#include "hash_options.h"
#include "layout_filter.h"
#include "file_range.h"
#include "parquet_header.h"

namespace blockbloom_cli {
namespace {

// One "1" or "0" line per hash, from the LSB-first bitmap.
void PrintBitmapLines(const std::vector<std::uint8_t>& bitmap, std::size_t n) {
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out += ((bitmap[i / 8] >> (i % 8)) & 1u) ? '1' : '0';
    out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

int RunProbe(const std::vector<std::string>& args) {
  const ParsedFlags flags = ParseFlags(args, {{"--layout", true, ""},
                                              {"--filter", true, ""},
                                              {"--offset", true, ""},
                                              {"--bytes", true, ""},
                                              {"--parquet-header", false, ""},
                                              {"--hash", true, ""},
                                              {"--type", true, ""},
                                              {"--seed", true, ""},
                                              {"--input", true, ""},
                                              {"--count", false, ""}});
  if (flags.help_requested()) return PrintHelp();

  // Check every flag before opening anything.
  const Layout layout = LayoutFlag(flags);
  const HashOptions hashing = HashOptionsFromFlags(flags, layout);
  const bool with_header = ParquetHeaderFlag(flags, layout);
  // With a header, the header gives the size; --bytes may only confirm it.
  std::optional<std::size_t> bytes_flag;
  if (!with_header || flags.Has("--bytes")) bytes_flag = FilterBytesFlag(flags, layout);
  const std::string& filter_path = flags.Required("--filter");
  // probe reads the filter at --offset of a file it may read more than once
  // (header, then bitset); a stream would have to be copied whole. Say so
  // rather than look for a file named "-".
  if (filter_path == "-") {
    throw UsageError("--filter -: a filter is read from a regular file, not standard input");
  }
  const std::uint64_t offset = flags.Has("--offset") ? NumberFlag(flags, "--offset") : 0;
  const std::string& input = flags.Required("--input");

  std::optional<FileRange> range;
  const std::uint8_t* bitset = nullptr;
  std::size_t bytes = 0;
  if (with_header) {
    range.emplace(filter_path, offset);
    const HeaderedBitset found = ReadParquetHeader(
        range->data(), range->size(),
        filter_path + ": BloomFilterHeader at --offset " + std::to_string(offset));
    if (bytes_flag && *bytes_flag != found.num_bytes) {
      throw CliError("--bytes " + std::to_string(*bytes_flag) + " does not match numBytes " +
                     std::to_string(found.num_bytes) + " of the BloomFilterHeader in " +
                     filter_path);
    }
    bitset = range->data() + found.header_bytes;
    bytes = found.num_bytes;
  } else {
    range.emplace(filter_path, offset, *bytes_flag);
    bitset = range->data();
    bytes = *bytes_flag;
  }

  const std::vector<std::uint64_t> hashes = ReadHashFile(input, hashing, layout);
  std::vector<std::uint8_t> bitmap((hashes.size() + 7) / 8);
  const std::size_t hits =
      ProbeBitset(layout, bitset, bytes, hashing.seed, hashes, bitmap.data(), filter_path);

  if (flags.Has("--count")) {
    std::printf("%zu\n", hits);
  } else {
    PrintBitmapLines(bitmap, hashes.size());
  }
  return 0;
}

}  // namespace blockbloom_cli
