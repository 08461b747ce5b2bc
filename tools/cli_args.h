// Flag parsing shared by the subcommands: "--name VALUE", "--name=VALUE",
// switches without a value, and short aliases such as "-o".
#ifndef BLOCKBLOOM_TOOLS_CLI_ARGS_H_
#define BLOCKBLOOM_TOOLS_CLI_ARGS_H_

#include <map>
#include <string>
#include <vector>

namespace blockbloom_cli {

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

 private:
  friend ParsedFlags ParseFlags(const std::vector<std::string>&, const std::vector<FlagSpec>&);
  bool help_ = false;
  std::map<std::string, std::string> values_;  // switches map to ""
};

// Parses args (the words after the subcommand) against specs. "--help" or
// "-h" stops parsing and sets help_requested(). Throws a usage error for an
// unknown flag, a flag given twice, a missing or empty value, or a stray word.
ParsedFlags ParseFlags(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs);

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_CLI_ARGS_H_
