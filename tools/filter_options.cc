#include "filter_options.h"

#include <limits>

#include "blockbloom/blockbloom.h"
#include "cli_error.h"
#include "number_parse.h"

namespace blockbloom_cli {

void CheckLayout(const ParsedFlags& flags) {
  const std::string& layout = flags.Required("--layout");
  if (layout != "parquet") throw CliError("unknown layout \"" + layout + "\" (known: parquet)");
}

std::uint64_t NumberFlag(const ParsedFlags& flags, const std::string& name) {
  const std::string& text = flags.Required(name);
  std::uint64_t value = 0;
  if (ParseUint64(text, &value) != ParseStatus::kOk) {
    throw UsageError(name + " " + text + ": not an unsigned 64-bit number");
  }
  return value;
}

std::size_t FilterBytesFlag(const ParsedFlags& flags) {
  const std::uint64_t bytes = NumberFlag(flags, "--bytes");
  if (bytes > std::numeric_limits<std::size_t>::max()) {
    throw CliError("--bytes " + std::to_string(bytes) + ": " +
                   bb_status_message(BB_ERR_TOO_MANY_BLOCKS));
  }
  const int status = bb_filter_check_size(static_cast<std::size_t>(bytes));
  if (status != BB_OK) {
    throw CliError("--bytes " + std::to_string(bytes) + ": " + bb_status_message(status));
  }
  return static_cast<std::size_t>(bytes);
}

}  // namespace blockbloom_cli
