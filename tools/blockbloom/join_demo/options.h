// SPDX-License-Identifier: Apache-2.0
// join-demo's flags, checked: every nonsensical value is a CliError naming
// the flag and the problem (exit status 2).
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_OPTIONS_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_OPTIONS_H_

#include <cstdint>
#include <vector>

#include "tools/common/cli_args.h"

namespace blockbloom_tools::join_demo {

enum class Scenario {
  kSelective,    // the small table: the --small/2 smallest and largest keys, about half kept
  kUnselective,  // the keys of every big row whose index % 20 != 0 (95% of the rows)
};

const char* ScenarioName(Scenario scenario);

struct Options {
  std::uint64_t rows = 50000000;
  std::uint64_t small = 2000;
  std::uint64_t seed = 42;
  double fpp = 0.01;
  Scenario scenario = Scenario::kSelective;
  std::uint64_t sample_rows = 1000000;  // at most rows
  double min_reject = 0.10;
  bool json = false;
};

const std::vector<FlagSpec>& OptionFlagSpecs();

// The options from parsed flags, defaults for those absent.
Options OptionsFromFlags(const ParsedFlags& flags);

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_OPTIONS_H_
