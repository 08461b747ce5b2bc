// SPDX-License-Identifier: Apache-2.0
// blockbloom-aligncheck: does a split block Bloom filter's bitset sit where
// its 32-byte blocks straddle cache lines or pages, on a Xeon E5-class core
// (or the running CPU)? See docs/alignment.md.
#include <cstdio>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "tools/aligncheck/cpu_detect.h"
#include "tools/aligncheck/footer.h"
#include "tools/aligncheck/measure.h"
#include "tools/aligncheck/report.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/parquet_format.h"
#include "tools/common/cli_args.h"
#include "tools/common/cli_error.h"
#include "tools/common/file_range.h"
#include "tools/common/number_parse.h"
#include "tools/common/printable_text.h"

namespace blockbloom_tools::aligncheck {
namespace {

using blockbloom_tools::CliError;
using blockbloom_tools::FileRange;
using blockbloom_tools::ParsedFlags;
using blockbloom_tools::UsageError;

constexpr const char kUsage[] =
    "usage: blockbloom-aligncheck [--cpu auto|e5-v1|e5-v2|e5-v3|e5-v4|generic] [--sku SKU]\n"
    "                             CHECK [--measure [--keys K]] [--json]\n"
    "       blockbloom-aligncheck --version   (prints \"blockbloom X.Y.Z\", the library's version)\n"
    "\n"
    "Checks whether a split block Bloom filter's 32-byte blocks straddle 64-byte cache\n"
    "lines or 4 KiB pages where the filter lies, for a Xeon E5 core profile.\n"
    "\n"
    "CHECK is one of:\n"
    "  --file F [--offset K] --bytes N   a bitset of N bytes at offset K of file F\n"
    "  --file F [--offset K] --parquet-header\n"
    "                                    a Parquet BloomFilterHeader at offset K, its bitset after it\n"
    "  --bytes N                         a bitset allocated by bb_filter_init (the real address)\n"
    "  --parquet F                       every Bloom filter in Parquet file F's footer\n"
    "  --measure                         only the measurement (16 MiB filter unless --bytes)\n"
    "\n"
    "  --cpu auto     (default) the running CPU: INTEL_SNB/IVB/HSW/BDW -> e5-v1..e5-v4,\n"
    "                 anything else -> generic from the detected cache geometry\n"
    "  --sku SKU      an E5 part (e.g. e5-2630v4): its whole LLC and core count\n"
    "  --measure      time the library's batch find on this machine, from a 64-byte-aligned\n"
    "                 buffer and from one shifted by +48 bytes (same filter, same hashes)\n"
    "  --keys K       hashes per timed round of --measure (default 4194304)\n"
    "  --json         the report as JSON\n"
    "\n"
    "Exit status: 0 when no checked block straddles a cache line, 1 when any does,\n"
    "2 on bad input (with a message).\n";

std::uint64_t NumberFlag(const ParsedFlags& flags, const std::string& name) {
  const std::string& text = flags.Required(name);
  std::uint64_t value = 0;
  switch (blockbloom_tools::ParseUint64(text, &value)) {
    case blockbloom_tools::ParseStatus::kOk:
      return value;
    case blockbloom_tools::ParseStatus::kOverflow:
      throw UsageError(name + " " + text + " is too large");
    default:
      throw UsageError(name + " \"" + text + "\" is not a number (decimal or 0x hex)");
  }
}

// --bytes: a valid filter size.
std::uint64_t BytesFlag(const ParsedFlags& flags) {
  const std::uint64_t bytes = NumberFlag(flags, "--bytes");
  if (bytes == 0) throw UsageError("--bytes 0: a filter has at least one 32-byte block");
  if (bytes % kBlockBytes != 0) {
    throw UsageError("--bytes " + std::to_string(bytes) +
                     " is not a multiple of 32 (a filter is a whole number of 32-byte blocks)");
  }
  if (bb_filter_check_size(static_cast<std::size_t>(bytes)) != BB_OK) {
    throw UsageError("--bytes " + std::to_string(bytes) + ": " +
                     bb_status_message(bb_filter_check_size(static_cast<std::size_t>(bytes))));
  }
  return bytes;
}

FilterCheck CheckFile(const CoreProfile& profile, const ParsedFlags& flags,
                      std::optional<FileRange>* range, const std::uint8_t** bitset) {
  const std::string& path = flags.Required("--file");
  const std::uint64_t offset = flags.Has("--offset") ? NumberFlag(flags, "--offset") : 0;
  FilterCheck check;
  if (flags.Has("--parquet-header")) {
    range->emplace(path, offset);
    const std::string where =
        path + ": BloomFilterHeader at --offset " + std::to_string(offset);
    if ((*range)->size() == 0) {
      throw CliError(where + ": " + bb_status_message(BB_ERR_HEADER_TRUNCATED));
    }
    std::size_t header_bytes = 0, num_bytes = 0;
    const int status =
        bb_parquet_header_read((*range)->data(), (*range)->size(), &header_bytes, &num_bytes);
    if (status != BB_OK) throw CliError(where + ": " + bb_status_message(status));
    if (flags.Has("--bytes") && BytesFlag(flags) != num_bytes) {
      throw CliError("--bytes " + flags.Required("--bytes") + " does not match numBytes " +
                     std::to_string(num_bytes) + " of the BloomFilterHeader in " + path);
    }
    check = CheckBitset(profile, offset + header_bytes, num_bytes);
    check.has_header = true;
    check.header_offset = offset;
    check.header_bytes = header_bytes;
    *bitset = (*range)->data() + header_bytes;
  } else {
    if (!flags.Has("--bytes")) throw UsageError("--file needs --bytes N or --parquet-header");
    const std::uint64_t bytes = BytesFlag(flags);
    range->emplace(path, offset, static_cast<std::size_t>(bytes));
    check = CheckBitset(profile, offset, bytes);
    *bitset = (*range)->data();
  }
  check.source = "file";
  check.path = path;
  check.fix = FixFor(check);
  return check;
}

ParsedFlags ParseArgs(const std::vector<std::string>& args) {
  return blockbloom_tools::ParseFlags(args, {{"--cpu", true, ""},
                                             {"--sku", true, ""},
                                             {"--file", true, ""},
                                             {"--offset", true, ""},
                                             {"--bytes", true, ""},
                                             {"--parquet-header", false, ""},
                                             {"--parquet", true, ""},
                                             {"--measure", false, ""},
                                             {"--keys", true, ""},
                                             {"--json", false, ""}});
}

// Every flag is checked before anything is opened or detected. Returns the
// keys a --measure round takes.
std::uint64_t CheckFlags(const ParsedFlags& flags) {
  const bool file = flags.Has("--file");
  const bool parquet = flags.Has("--parquet");
  const bool measure = flags.Has("--measure");
  if (file && parquet) throw UsageError("--file and --parquet: check one thing at a time");
  if (flags.Has("--offset") && !file) throw UsageError("--offset is for --file");
  if (flags.Has("--parquet-header") && !file) throw UsageError("--parquet-header is for --file");
  if (parquet && flags.Has("--bytes")) {
    throw UsageError("--parquet takes each filter's size from its header: no --bytes");
  }
  if (flags.Has("--keys") && !measure) throw UsageError("--keys is for --measure");
  if (!file && !parquet && !flags.Has("--bytes") && !measure) {
    throw UsageError("nothing to check: give --file, --parquet, --bytes or --measure");
  }
  if (flags.Has("--offset")) NumberFlag(flags, "--offset");
  if (flags.Has("--bytes")) BytesFlag(flags);
  std::uint64_t keys = kDefaultMeasureKeys;
  if (flags.Has("--keys")) {
    keys = NumberFlag(flags, "--keys");
    if (keys == 0 || keys > (1ull << 32) - 1) throw UsageError("--keys must be 1 .. 2^32 - 1");
  }
  return keys;
}

// What --measure probes: the checked filter's bytes when there is one.
struct MeasureTarget {
  const std::uint8_t* content = nullptr;
  std::string name;
  std::uint64_t bytes = kDefaultMeasureBytes;
};

// The footer of the Parquet file in range, or an error naming the file.
ParquetFooter FooterOf(const std::string& path, const FileRange& range) {
  try {
    return ReadParquetFooter(range.data(), range.size());
  } catch (const CliError& e) {
    throw CliError(path + ": " + e.what());
  }
}

// --parquet: every Bloom filter of the file's footer into report; the
// largest becomes what --measure probes.
void CheckParquet(const CoreProfile& profile, const FileRange& range, Report* report,
                  MeasureTarget* target) {
  const ParquetFooter footer = FooterOf(report->parquet_file, range);
  std::vector<LocatedFilter> located;
  try {
    located = LocateBloomFilters(footer);
  } catch (const CliError& e) {
    throw CliError(report->parquet_file + ": " + e.what());
  }
  report->column_chunks = footer.chunks.size();
  for (const LocatedFilter& l : located) {
    FilterCheck check = CheckBitset(profile, l.bitset_offset, l.bitset_bytes);
    check.source = "parquet";
    check.path = report->parquet_file;
    check.column = l.chunk.path;
    check.row_group = l.chunk.row_group;
    check.column_index = l.chunk.column;
    check.has_header = true;
    check.header_offset = l.header_offset;
    check.header_bytes = l.header_bytes;
    check.fix = FixFor(check);
    report->filters.push_back(check);
    if (target->content == nullptr || l.bitset_bytes > target->bytes) {
      target->bytes = l.bitset_bytes;
      target->content = range.data() + l.bitset_offset;
      target->name = "the largest bitset of " + report->parquet_file + ": " + l.chunk.path +
                     ", row group " + std::to_string(l.chunk.row_group);
    }
  }
}

// --bytes alone: a bitset the library allocates, checked where it lies.
FilterCheck CheckAllocation(const CoreProfile& profile, std::uint64_t bytes, bb_filter* allocated) {
  const int status = bb_filter_init(allocated, static_cast<std::size_t>(bytes));
  if (status != BB_OK) {
    throw CliError("bb_filter_init(" + std::to_string(bytes) + "): " + bb_status_message(status));
  }
  const auto address = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(allocated->data));
  FilterCheck check = CheckBitset(profile, address, bytes);
  check.source = "allocation";
  // The library promises 64-byte alignment; hold it to that, not only to
  // "no block straddles" (which 32-byte alignment would already give).
  if (address % BB_ALLOC_ALIGNMENT != 0) check.aligned = false;
  check.fix = FixFor(check);
  return check;
}

// The CPU profile the checks use, with the detected CPU in the report.
void ChooseProfile(const ParsedFlags& flags, Report* report) {
  DetectedCpu detected;
  bool was_detected = false;
  report->choice = ResolveProfile(flags.Optional("--cpu", "auto"), flags.Optional("--sku", ""),
                                  &detected, &was_detected);
  if (was_detected) report->cpu = detected;
}

int Run(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "--version") {
    if (args.size() != 1) throw UsageError("--version takes no arguments");
    std::printf("blockbloom %s\n", bb_version());
    return 0;
  }
  const ParsedFlags flags = ParseArgs(args);
  if (flags.help_requested()) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  const std::uint64_t keys = CheckFlags(flags);
  Report report;
  ChooseProfile(flags, &report);
  const CoreProfile& profile = report.choice.profile;
  MeasureTarget target;
  if (flags.Has("--bytes")) target.bytes = BytesFlag(flags);

  std::optional<FileRange> range;
  bb_filter allocated{};
  struct Releaser {
    bb_filter* f;
    ~Releaser() { bb_filter_release(f); }
  } releaser{&allocated};

  if (flags.Has("--file")) {
    report.mode = "file";
    report.filters.push_back(CheckFile(profile, flags, &range, &target.content));
    target.bytes = report.filters.back().bytes;
    target.name = "the bitset of " + flags.Required("--file");
  } else if (flags.Has("--parquet")) {
    report.mode = "parquet";
    report.parquet_file = flags.Required("--parquet");
    range.emplace(report.parquet_file, 0);
    CheckParquet(profile, *range, &report, &target);
  } else if (flags.Has("--bytes")) {
    report.mode = "allocation";
    report.filters.push_back(CheckAllocation(profile, BytesFlag(flags), &allocated));
  } else {
    report.mode = "measure";
  }

  if (flags.Has("--measure")) {
    report.measurement = RunMeasurement(target.content, target.name, target.bytes, keys);
  }
  const std::string out = flags.Has("--json") ? ReportJson(report) : ReportText(report);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return ExitStatus(report);
}

}  // namespace
}  // namespace blockbloom_tools::aligncheck

int main(int argc, char** argv) {
  using blockbloom_tools::aligncheck::kUsage;
  int status = 0;
  try {
    status = blockbloom_tools::aligncheck::Run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const blockbloom_tools::CliError& e) {
    // Messages carry column paths from the file: escape what a terminal would obey.
    std::fprintf(stderr, "blockbloom-aligncheck: %s\n", blockbloom_tools::Printable(e.what()).c_str());
    if (e.show_usage()) std::fprintf(stderr, "\n%s", kUsage);
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "blockbloom-aligncheck: out of memory\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "blockbloom-aligncheck: internal error: %s\n",
                 blockbloom_tools::Printable(e.what()).c_str());
    return 2;
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "blockbloom-aligncheck: cannot write to standard output\n");
    return 2;
  }
  return status;
}
