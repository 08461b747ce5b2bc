// SPDX-License-Identifier: Apache-2.0
// tools/common/number_parse: the one parser of the tool's counts (--ndv,
// --rows, --small, --sample-rows, --row-group) and sizes (--bytes, --offset).
// Every spelling it takes gives the exact value; everything else is refused
// with the reason the flag's message gives (number_flags.h).
#include "tools/common/number_parse.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "tools/common/cli_args.h"
#include "tools/common/cli_error.h"
#include "tools/common/number_flags.h"

namespace blockbloom_tools {
namespace {

constexpr std::uint64_t kMax = UINT64_MAX;

struct Accepted {
  const char* text;
  std::uint64_t value;
};

using Parser = CountStatus (*)(std::string_view, std::uint64_t*);

struct Refused {
  const char* text;
  CountStatus status;
};

void ExpectAccepted(Parser parse, const Accepted& a) {
  std::uint64_t value = 12345;
  EXPECT_EQ(parse(a.text, &value), CountStatus::kOk) << a.text;
  EXPECT_EQ(value, a.value) << a.text;
}

void ExpectRefused(Parser parse, const Refused& r) {
  std::uint64_t value = 12345;
  EXPECT_EQ(parse(r.text, &value), r.status) << r.text;
  EXPECT_EQ(value, 12345u) << r.text << ": written on a refusal";
}

// What counts and sizes alike take.
const Accepted kCounts[] = {
    {"0", 0},
    {"1000000", 1000000},
    {"1_000_000", 1000000},
    {"1_0_0", 100},
    {"1e6", 1000000},
    {"1E6", 1000000},
    {"1e+6", 1000000},
    {"1.5e3", 1500},
    {"2.5e6", 2500000},
    {"1.0", 1},
    {"1500.000", 1500},
    {"1000e-3", 1},
    {"0e999999999999", 0},
    {"0.0e-7", 0},
    {"007", 7},
    {"0xF4240", 1000000},
    {"0Xff_ff", 65535},
    {" 42\t", 42},
    {"18446744073709551615", kMax},
    {"18_446_744_073_709_551_615", kMax},
    {"1.8446744073709551615e19", kMax},
    {"0xFFFFFFFFFFFFFFFF", kMax},
    {"100000000000000000000e-1", 10000000000000000000u},
};

TEST(ParseCount, TakesEachSpellingExactly) {
  for (const Accepted& a : kCounts) {
    ExpectAccepted(ParseCount, a);
    ExpectAccepted(ParseByteSize, a);
  }
}

TEST(ParseCount, RefusesWhatIsNotWholeOrTooLargeOrNoForm) {
  const Refused refused[] = {
      {"1.5", CountStatus::kNotWhole},
      {"1e-3", CountStatus::kNotWhole},
      {"1.25e1", CountStatus::kNotWhole},
      {"1e-999999999999", CountStatus::kNotWhole},
      {"18446744073709551616", CountStatus::kOverflow},
      {"1.8446744073709551616e19", CountStatus::kOverflow},
      {"1e20", CountStatus::kOverflow},
      {"1e999999999999", CountStatus::kOverflow},
      {"0x1_0000_0000_0000_0000", CountStatus::kOverflow},
      {"", CountStatus::kInvalid},
      {"  ", CountStatus::kInvalid},
      {"-1", CountStatus::kInvalid},
      {"+1", CountStatus::kInvalid},
      {"_1", CountStatus::kInvalid},
      {"1_", CountStatus::kInvalid},
      {"1__0", CountStatus::kInvalid},
      {"1_.5e1", CountStatus::kInvalid},
      {"1.", CountStatus::kInvalid},
      {".5e1", CountStatus::kInvalid},
      {"1e", CountStatus::kInvalid},
      {"1e+", CountStatus::kInvalid},
      {"1e6.0", CountStatus::kInvalid},
      {"1,000", CountStatus::kInvalid},
      {"1 000", CountStatus::kInvalid},
      {"0x", CountStatus::kInvalid},
      {"0x1g", CountStatus::kInvalid},
      {"0x1.8p1", CountStatus::kInvalid},
      {"inf", CountStatus::kInvalid},
      {"nan", CountStatus::kInvalid},
      {"1KiB", CountStatus::kInvalid},  // a unit is for sizes only
      {"1M", CountStatus::kInvalid},
  };
  for (const Refused& r : refused) ExpectRefused(ParseCount, r);
}

TEST(ParseByteSize, TakesBinaryUnitsExactly) {
  const Accepted sizes[] = {
      {"16MiB", 16u << 20},       {"16mib", 16u << 20},  {"16MIB", 16u << 20},
      {"1KiB", 1024},             {"1.5KiB", 1536},      {"0.5MiB", 1u << 19},
      {"3GiB", 3ull << 30},       {"2TiB", 2ull << 40},  {"1_024KiB", 1u << 20},
      {"1e3KiB", 1024000},        {"0KiB", 0},           {"0.0009765625MiB", 1024},
      {"16777215TiB", 16777215ull << 40},  // the largest whole TiB below 2^64
  };
  for (const Accepted& a : sizes) ExpectAccepted(ParseByteSize, a);
}

TEST(ParseByteSize, RefusesAmbiguousUnitsAndFractionsOfAByte) {
  const Refused refused[] = {
      {"16M", CountStatus::kAmbiguousUnit},   {"16MB", CountStatus::kAmbiguousUnit},
      {"4k", CountStatus::kAmbiguousUnit},    {"4kB", CountStatus::kAmbiguousUnit},
      {"1G", CountStatus::kAmbiguousUnit},    {"1TB", CountStatus::kAmbiguousUnit},
      {"0.1KiB", CountStatus::kNotWhole},     {"1.0000000001KiB", CountStatus::kNotWhole},
      {"0.5e-20TiB", CountStatus::kNotWhole}, {"16777216TiB", CountStatus::kOverflow},
      {"1e19KiB", CountStatus::kOverflow},    {"16 MiB", CountStatus::kInvalid},
      {"16MiBs", CountStatus::kInvalid},      {"16B", CountStatus::kInvalid},
      {"16PiB", CountStatus::kInvalid},       {"0x10KiB", CountStatus::kInvalid},
      {"KiB", CountStatus::kInvalid},         {"-1KiB", CountStatus::kInvalid},
  };
  for (const Refused& r : refused) ExpectRefused(ParseByteSize, r);
}

// A fraction of 60 digits over a TiB is divided exactly, not rounded.
TEST(ParseByteSize, LongFractionsAreExact) {
  std::uint64_t value = 0;
  // 2^-40 TiB is one byte.
  EXPECT_EQ(ParseByteSize("0.0000000000009094947017729282379150390625TiB", &value),
            CountStatus::kOk);
  EXPECT_EQ(value, 1u);
  // One digit more at the end: not a whole number of bytes.
  EXPECT_EQ(ParseByteSize("0.00000000000090949470177292823791503906251TiB", &value),
            CountStatus::kNotWhole);
}

std::string FlagMessage(const std::string& flag, const std::string& text, bool size) {
  const ParsedFlags flags = ParseFlags({flag, text}, {{flag, true, ""}});
  try {
    size ? ByteSizeFlag(flags, flag) : CountFlag(flags, flag);
  } catch (const CliError& e) {
    EXPECT_TRUE(e.show_usage()) << e.what();
    return e.what();
  }
  return "(accepted)";
}

TEST(NumberFlags, MessagesNameTheFlagTheTextTheProblemAndTheForms) {
  EXPECT_EQ(FlagMessage("--ndv", "1.5", false),
            "--ndv 1.5: not a whole number (a count is written 1000000, 1_000_000, 1e6, 2.5e6 "
            "or 0xF4240)");
  EXPECT_EQ(FlagMessage("--rows", "1e20", false).substr(0, 30), "--rows 1e20: larger than 2^64-");
  EXPECT_EQ(FlagMessage("--rows", "many", false).substr(0, 24), "--rows many: not a count");
  const std::string ambiguous = FlagMessage("--bytes", "16M", true);
  EXPECT_NE(ambiguous.find("--bytes 16M: ambiguous unit"), std::string::npos) << ambiguous;
  EXPECT_NE(ambiguous.find("MiB"), std::string::npos) << ambiguous;
  const std::string bad_size = FlagMessage("--offset", "4x", true);
  EXPECT_NE(bad_size.find("--offset 4x: not a size in bytes (a size is written 16777216, "),
            std::string::npos)
      << bad_size;
  EXPECT_NE(bad_size.find("16MiB"), std::string::npos) << bad_size;
  EXPECT_EQ(FlagMessage("--bytes", "16MiB", true), "(accepted)");
  EXPECT_EQ(FlagMessage("--ndv", "1e6", false), "(accepted)");
}

}  // namespace
}  // namespace blockbloom_tools
