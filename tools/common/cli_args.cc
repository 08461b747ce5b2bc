// SPDX-License-Identifier: Apache-2.0
#include "tools/common/cli_args.h"

#include <cctype>
#include <cstddef>
#include <cstdint>

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

// "-5", "-.5", "-inf", "-nan": a negative number, a value, not a flag.
bool IsNegativeNumber(const std::string& word) {
  if (word.size() < 2 || word[0] != '-') return false;
  if (std::isdigit(static_cast<unsigned char>(word[1])) || word[1] == '.') return true;
  std::string rest;
  for (char c : word.substr(1)) rest += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return rest == "inf" || rest == "infinity" || rest == "nan";
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
  parsed.Parse(args, specs, max_operands, false);
  return parsed;
}

ParsedFlags ParseFlagsAndValues(const std::vector<std::string>& args,
                                const std::vector<FlagSpec>& specs) {
  ParsedFlags parsed;
  parsed.Parse(args, specs, SIZE_MAX, true);
  return parsed;
}

void ParsedFlags::Parse(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs,
                        std::size_t max_operands, bool values) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (values && word == "--") {
      operands_.insert(operands_.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                       args.end());
      return;
    }
    if (word == "--help" || word == "-h") {
      help_ = true;
      return;
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
      const bool flag = !key.empty() && key[0] == '-' && key != "-";
      if (flag && !(values && IsNegativeNumber(word))) throw UsageError("unknown flag " + key);
      if (operands_.size() >= max_operands) {
        throw UsageError("unexpected argument \"" + word + "\"");
      }
      operands_.push_back(word);
      continue;
    }
    if (values_.count(spec->name) != 0) throw UsageError(spec->name + " given twice");

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
    values_[spec->name] = value;
  }
}

}  // namespace blockbloom_tools
