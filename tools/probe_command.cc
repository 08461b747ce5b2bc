// blockbloom probe: test hashes against a bitset at any offset of a file.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.hpp"
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "filter_options.h"
#include "hash_input.h"
#include "mapped_range.h"

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
                                              {"--input", true, ""},
                                              {"--count", false, ""}});
  if (flags.help_requested()) return PrintHelp();

  // Check every flag before opening anything.
  CheckLayout(flags);
  const std::size_t bytes = FilterBytesFlag(flags);
  const std::string& filter_path = flags.Required("--filter");
  const std::uint64_t offset = flags.Has("--offset") ? NumberFlag(flags, "--offset") : 0;
  const std::string& input = flags.Required("--input");

  const MappedRange range(filter_path, offset, bytes);
  const std::vector<std::uint64_t> hashes = ReadHashFile(input);
  std::vector<std::uint8_t> bitmap((hashes.size() + 7) / 8);
  std::size_t hits = 0;
  try {
    const blockbloom::ConstView view(range.data(), range.size());
    hits = view.find_batch_bitmap(hashes.data(), hashes.size(), bitmap.data());
  } catch (const blockbloom::Error& e) {
    throw CliError(filter_path + ": " + e.what());
  }

  if (flags.Has("--count")) {
    std::printf("%zu\n", hits);
  } else {
    PrintBitmapLines(bitmap, hashes.size());
  }
  return 0;
}

}  // namespace blockbloom_cli
