// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/join_demo/options.h"

#include <cmath>
#include <string>

#include "blockbloom/blockbloom.h"
#include "tools/common/cli_error.h"
#include "tools/common/filter_options.h"
#include "tools/common/number_flags.h"
#include "tools/common/progress.h"
#include "tools/common/value_parse.h"

namespace blockbloom_tools::join_demo {
namespace {

double FractionFlag(const ParsedFlags& flags, const std::string& name) {
  const std::string& text = flags.Required(name);
  double value = 0.0;
  if (ParseDouble(text, &value) != ValueStatus::kOk || std::isnan(value)) {
    throw UsageError(name + " " + text + ": not a number");
  }
  return value;
}

}  // namespace

const char* ScenarioName(Scenario scenario) {
  return scenario == Scenario::kUnselective ? "unselective" : "selective";
}

const std::vector<FlagSpec>& OptionFlagSpecs() {
  static const std::vector<FlagSpec> specs = {
      {"--rows", true, ""},        {"--small", true, ""},       {"--seed", true, ""},
      {"--fpp", true, ""},         {"--scenario", true, ""},    {"--sample-rows", true, ""},
      {"--min-reject", true, ""},  {"--json", false, ""},
      kNoProgressFlag};
  return specs;
}

Options OptionsFromFlags(const ParsedFlags& flags) {
  Options options;
  if (flags.Has("--rows")) options.rows = CountFlag(flags, "--rows");
  if (options.rows == 0) throw CliError("--rows 0: the big table needs at least one row");

  if (flags.Has("--small")) options.small = CountFlag(flags, "--small");
  const std::string small_text = "--small " + std::to_string(options.small);
  if (options.small == 0) throw CliError(small_text + ": the small table needs at least 2 keys");
  if (options.small % 2 != 0) {
    throw CliError(small_text + ": must be even (half the smallest keys, half the largest)");
  }

  if (flags.Has("--seed")) options.seed = NumberFlag(flags, "--seed");

  if (flags.Has("--fpp")) {
    options.fpp = FractionFlag(flags, "--fpp");
    if (!(options.fpp > 0.0 && options.fpp < 1.0)) {
      throw CliError("--fpp " + flags.Required("--fpp") + ": " +
                     bb_status_message(BB_ERR_INVALID_FPP));
    }
  }

  if (flags.Has("--scenario")) {
    const std::string& name = flags.Required("--scenario");
    if (name == "selective") {
      options.scenario = Scenario::kSelective;
    } else if (name == "unselective") {
      options.scenario = Scenario::kUnselective;
    } else {
      throw CliError("unknown scenario \"" + name + "\" (known: selective, unselective)");
    }
  }
  if (options.scenario == Scenario::kSelective && options.small > options.rows) {
    throw CliError(small_text + ": the small table's keys come from the big table, and --rows is " +
                   std::to_string(options.rows));
  }

  if (flags.Has("--sample-rows")) {
    options.sample_rows = CountFlag(flags, "--sample-rows");
    if (options.sample_rows == 0) {
      throw CliError("--sample-rows 0: the sample needs at least one row");
    }
  }
  if (options.sample_rows > options.rows) options.sample_rows = options.rows;

  if (flags.Has("--min-reject")) {
    options.min_reject = FractionFlag(flags, "--min-reject");
    if (!(options.min_reject >= 0.0 && options.min_reject <= 1.0)) {
      throw CliError("--min-reject " + flags.Required("--min-reject") +
                     ": must be a fraction of the sampled rows, from 0 to 1");
    }
  }

  options.json = flags.Has("--json");
  return options;
}

}  // namespace blockbloom_tools::join_demo
