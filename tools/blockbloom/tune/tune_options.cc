// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/tune/tune_options.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "src/tools_interface.h"
#include "blockbloom/blockbloom.h"
#include "tools/common/cli_error.h"
#include "tools/common/filter_options.h"
#include "tools/common/number_flags.h"
#include "tools/common/progress.h"
#include "tools/common/value_parse.h"

namespace blockbloom_tools::tune {
namespace {

// The kernels' own threshold on this CPU (its L2, src/kernels/prefetch.h):
// below it they never prefetch, so there would be nothing to tune.
std::uint64_t MinBytes() { return blockbloom::internal::PrefetchMinBytes(); }
// Enough for any sweep; more is a typo, not a wish.
constexpr double kMaxSeconds = 3600.0;

std::size_t BytesFlag(const ParsedFlags& flags) {
  const std::uint64_t bytes = ByteSizeFlag(flags, "--bytes");
  const std::string what = "--bytes " + std::to_string(bytes);
  // Every problem at once: "100" is both too small and not whole blocks.
  std::string problems;
  if (bytes < MinBytes()) {
    problems = "less than " + std::to_string(MinBytes()) +
               " bytes (this CPU's L2), below which the batch kernels do not prefetch";
  }
  if (bytes % 32 != 0) {
    problems += std::string(problems.empty() ? "" : "; ") +
                "not a multiple of 32 (a filter is whole 32-byte blocks)";
  }
  if (!problems.empty()) throw CliError(what + ": " + problems);
  CheckFilterBytes(Layout::kParquet, bytes, what);  // the library's upper bound
  return static_cast<std::size_t>(bytes);
}

double SecondsFlag(const ParsedFlags& flags) {
  const std::string& text = flags.Required("--seconds");
  double value = 0.0;
  if (ParseDouble(text, &value) != ValueStatus::kOk || std::isnan(value)) {
    throw UsageError("--seconds " + text + ": not a number");
  }
  if (!(value > 0.0 && value <= kMaxSeconds)) {
    throw CliError("--seconds " + text + ": must be more than 0 and at most 3600");
  }
  return value;
}

}  // namespace

const std::vector<FlagSpec>& TuneFlagSpecs() {
  static const std::vector<FlagSpec> specs = {
      {"--bytes", true, ""}, {"--seconds", true, ""}, {"--json", false, ""}, kNoProgressFlag};
  return specs;
}

TuneOptions TuneOptionsFromFlags(const ParsedFlags& flags) {
  TuneOptions options;
  if (flags.Has("--bytes")) options.bytes = BytesFlag(flags);
  if (flags.Has("--seconds")) options.seconds = SecondsFlag(flags);
  options.json = flags.Has("--json");
  return options;
}

}  // namespace blockbloom_tools::tune
