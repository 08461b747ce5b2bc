// SPDX-License-Identifier: Apache-2.0
#include "tools/common/number_flags.h"

#include "tools/common/cli_error.h"
#include "tools/common/number_parse.h"

namespace blockbloom_tools {
namespace {

std::uint64_t WholeNumberFlag(const ParsedFlags& flags, const std::string& name, bool size) {
  const std::string& text = flags.Required(name);
  std::uint64_t value = 0;
  const CountStatus status = size ? ParseByteSize(text, &value) : ParseCount(text, &value);
  std::string problem;
  switch (status) {
    case CountStatus::kOk:
      return value;
    case CountStatus::kNotWhole:
      problem = "not a whole number";
      break;
    case CountStatus::kOverflow:
      problem = "larger than 2^64-1";
      break;
    case CountStatus::kAmbiguousUnit:
      problem = "ambiguous unit: K, M, G and T may mean powers of 2 or of 10";
      break;
    case CountStatus::kInvalid:
      problem = size ? "not a size in bytes" : "not a count";
      break;
  }
  throw UsageError(name + " " + text + ": " + problem + " (" +
                   (size ? std::string("a size is written ") + kByteSizeForms
                         : std::string("a count is written ") + kCountForms) +
                   ")");
}

}  // namespace

std::uint64_t CountFlag(const ParsedFlags& flags, const std::string& name) {
  return WholeNumberFlag(flags, name, false);
}

std::uint64_t ByteSizeFlag(const ParsedFlags& flags, const std::string& name) {
  return WholeNumberFlag(flags, name, true);
}

}  // namespace blockbloom_tools
