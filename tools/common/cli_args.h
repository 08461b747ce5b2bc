// SPDX-License-Identifier: Apache-2.0
// Flag parsing shared by the subcommands: "--name VALUE", "--name=VALUE",
// switches without a value, short aliases such as "-o", and (for commands
// that take them, such as union) plain operands, or values that may be
// negative numbers (parquet probe).
#ifndef BLOCKBLOOM_TOOLS_COMMON_CLI_ARGS_H_
#define BLOCKBLOOM_TOOLS_COMMON_CLI_ARGS_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace blockbloom_tools {

struct FlagSpec {
  std::string name;        // "--bytes"
  bool takes_value;        // false for switches such as "--count"
  std::string short_name;  // "-o", or empty
};

class ParsedFlags {
 public:
  bool help_requested() const { return help_; }
  bool Has(const std::string& name) const { return values_.count(name) != 0; }
  // The value of a flag that must be present; throws a usage error if absent.
  const std::string& Required(const std::string& name) const;
  // The value of a flag, or fallback when it is absent.
  std::string Optional(const std::string& name, const std::string& fallback) const;
  // The words that are not flags, in order (only with ParseFlagsAndOperands).
  const std::vector<std::string>& operands() const { return operands_; }

 private:
  friend ParsedFlags ParseFlagsAndOperands(const std::vector<std::string>&,
                                           const std::vector<FlagSpec>&, std::size_t);
  friend ParsedFlags ParseFlagsAndValues(const std::vector<std::string>&,
                                         const std::vector<FlagSpec>&);
  // values: "--" ends the flags and a negative number is an operand.
  void Parse(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs,
             std::size_t max_operands, bool values);
  bool help_ = false;
  std::map<std::string, std::string> values_;  // switches map to ""
  std::vector<std::string> operands_;
};

// Parses args (the words after the subcommand) against specs. "--help" or
// "-h" stops parsing and sets help_requested(). Throws a usage error for an
// unknown flag, a flag given twice, a missing or empty value, or a stray word.
ParsedFlags ParseFlags(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs);

// As ParseFlags, but words that are not flags (including a lone "-") are
// collected as operands; more than max_operands of them is a usage error.
ParsedFlags ParseFlagsAndOperands(const std::vector<std::string>& args,
                                  const std::vector<FlagSpec>& specs, std::size_t max_operands);

// As ParseFlagsAndOperands with no limit on operands, for commands whose
// operands are values (parquet probe FILE VALUE...): "--" ends the flags
// (every word after it is an operand), and a negative number ("-5", "-.5",
// "-inf", "-nan") is an operand, not a flag. A flag's value is the next word
// whatever it looks like, unless that is a long flag.
ParsedFlags ParseFlagsAndValues(const std::vector<std::string>& args,
                                const std::vector<FlagSpec>& specs);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_CLI_ARGS_H_
