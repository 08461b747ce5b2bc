// SPDX-License-Identifier: Apache-2.0
#include "tools/common/cli_args.h"

#include "tools/common/cli_error.h"

namespace blockbloom_tools {
namespace {

const FlagSpec* FindSpec(const std::vector<FlagSpec>& specs, const std::string& word) {
  for (const FlagSpec& spec : specs) {
    if (word == spec.name || (!spec.short_name.empty() && word == spec.short_name)) return &spec;
  }
  return nullptr;
}

bool LooksLikeLongFlag(const std::string& word) {
  return word.size() > 2 && word.compare(0, 2, "--") == 0;
}

}  // namespace

const std::string& ParsedFlags::Required(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw UsageError("missing " + name);
  return it->second;
}

std::string ParsedFlags::Optional(const std::string& name, const std::string& fallback) const {
  const auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

ParsedFlags ParseFlags(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs) {
  return ParseFlagsAndOperands(args, specs, 0);
}

ParsedFlags ParseFlagsAndOperands(const std::vector<std::string>& args,
                                  const std::vector<FlagSpec>& specs, std::size_t max_operands) {
  ParsedFlags parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--help" || word == "-h") {
      parsed.help_ = true;
      return parsed;
    }

    // "--name=value" carries its value inline.
    std::string key = word;
    std::string value;
    bool inline_value = false;
    const std::size_t equals = word.find('=');
    if (LooksLikeLongFlag(word) && equals != std::string::npos) {
      key = word.substr(0, equals);
      value = word.substr(equals + 1);
      inline_value = true;
    }

    const FlagSpec* spec = FindSpec(specs, key);
    if (spec == nullptr) {
      if (!key.empty() && key[0] == '-' && key != "-") throw UsageError("unknown flag " + key);
      if (parsed.operands_.size() >= max_operands) {
        throw UsageError("unexpected argument \"" + word + "\"");
      }
      parsed.operands_.push_back(word);
      continue;
    }
    if (parsed.values_.count(spec->name) != 0) throw UsageError(spec->name + " given twice");

    if (!spec->takes_value) {
      if (inline_value) throw UsageError(spec->name + " takes no value");
    } else if (!inline_value) {
      // The next word is the value, unless there is none or it is another flag.
      if (i + 1 >= args.size() || LooksLikeLongFlag(args[i + 1])) {
        throw UsageError("missing value for " + spec->name);
      }
      value = args[++i];
    }
    if (spec->takes_value && value.empty()) throw UsageError("missing value for " + spec->name);
    parsed.values_[spec->name] = value;
  }
  return parsed;
}

}  // namespace blockbloom_tools
