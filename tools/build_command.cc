// blockbloom build: hashes in, raw Parquet bitset out.
#include <cstdint>
#include <string>
#include <vector>

#include "atomic_file.h"
#include "blockbloom/blockbloom.hpp"
#include "cli_args.h"
#include "cli_error.h"
#include "commands.h"
#include "filter_options.h"
#include "hash_input.h"

namespace blockbloom_cli {

int RunBuild(const std::vector<std::string>& args) {
  const ParsedFlags flags = ParseFlags(args, {{"--layout", true, ""},
                                              {"--bytes", true, ""},
                                              {"--input", true, ""},
                                              {"--output", true, "-o"}});
  if (flags.help_requested()) return PrintHelp();

  // Check every flag before reading or writing anything.
  CheckLayout(flags);
  const std::size_t bytes = FilterBytesFlag(flags);
  const std::string& input = flags.Required("--input");
  const std::string& output = flags.Required("--output");

  const std::vector<std::uint64_t> hashes = ReadHashFile(input);
  try {
    blockbloom::Filter filter(bytes);
    filter.insert_batch(hashes.data(), hashes.size());
    WriteFileAtomically(output, filter.data(), filter.num_bytes());
  } catch (const blockbloom::Error& e) {
    throw CliError("--bytes " + std::to_string(bytes) + ": " + e.what());
  }
  return 0;
}

}  // namespace blockbloom_cli
