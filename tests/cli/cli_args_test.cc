// SPDX-License-Identifier: Apache-2.0
// tools/common/cli_args: the tools' one argument parser. ParseFlagsAndValues
// (parquet probe FILE VALUE...) takes negative numbers and the words after
// "--" as values; ParseFlagsAndOperands (union's files) still refuses both as
// unknown flags, so neither command's messages changed when probe moved onto
// the shared parser.
#include "tools/common/cli_args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/common/cli_error.h"

namespace blockbloom_tools {
namespace {

const std::vector<FlagSpec> kSpecs = {{"--column", true, ""}, {"--hex", false, ""}};

std::string UsageMessage(const std::vector<std::string>& args, bool values) {
  try {
    if (values) {
      ParseFlagsAndValues(args, kSpecs);
    } else {
      ParseFlagsAndOperands(args, kSpecs, 8);
    }
  } catch (const CliError& e) {
    return e.show_usage() ? e.what() : std::string("(not a usage error) ") + e.what();
  }
  return "(accepted)";
}

TEST(ParseFlagsAndValues, NegativeNumbersAreValuesWherePlacedAmongFlags) {
  const ParsedFlags flags = ParseFlagsAndValues(
      {"f.parquet", "-5", "--column", "x", "-.5", "-inf", "-NaN", "-Infinity", "--hex"}, kSpecs);
  EXPECT_EQ(flags.operands(),
            (std::vector<std::string>{"f.parquet", "-5", "-.5", "-inf", "-NaN", "-Infinity"}));
  EXPECT_EQ(flags.Required("--column"), "x");
  EXPECT_TRUE(flags.Has("--hex"));
}

TEST(ParseFlagsAndValues, DoubleDashEndsTheFlags) {
  const ParsedFlags flags =
      ParseFlagsAndValues({"f.parquet", "--column", "x", "--", "--hex", "-h", "--", "-x"}, kSpecs);
  EXPECT_EQ(flags.operands(), (std::vector<std::string>{"f.parquet", "--hex", "-h", "--", "-x"}));
  EXPECT_FALSE(flags.Has("--hex"));
  EXPECT_FALSE(flags.help_requested());
}

TEST(ParseFlagsAndValues, AFlagsValueMayLookLikeAValueOrTheEndOfFlags) {
  EXPECT_EQ(ParseFlagsAndValues({"--column", "-5"}, kSpecs).Required("--column"), "-5");
  const ParsedFlags flags = ParseFlagsAndValues({"--column", "--", "v"}, kSpecs);
  EXPECT_EQ(flags.Required("--column"), "--");
  EXPECT_EQ(flags.operands(), (std::vector<std::string>{"v"}));
}

TEST(ParseFlagsAndValues, OtherDashWordsAreStillUnknownFlags) {
  EXPECT_EQ(UsageMessage({"f", "-x"}, true), "unknown flag -x");
  EXPECT_EQ(UsageMessage({"f", "--5"}, true), "unknown flag --5");
  EXPECT_EQ(UsageMessage({"f", "-infx"}, true), "unknown flag -infx");
  EXPECT_EQ(UsageMessage({"f", "--column"}, true), "missing value for --column");
  EXPECT_EQ(UsageMessage({"--column", "--help"}, true), "missing value for --column");
  EXPECT_TRUE(ParseFlagsAndValues({"f", "-1", "--help"}, kSpecs).help_requested());
}

TEST(ParseFlagsAndOperands, StillRefusesNegativeNumbersAndDoubleDash) {
  EXPECT_EQ(UsageMessage({"a", "-5"}, false), "unknown flag -5");
  EXPECT_EQ(UsageMessage({"a", "--", "b"}, false), "unknown flag --");
  EXPECT_EQ(UsageMessage({"a", "-"}, false), "(accepted)");
}

}  // namespace
}  // namespace blockbloom_tools
