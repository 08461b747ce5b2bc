// SPDX-License-Identifier: Apache-2.0
// blockbloom probe: test values (or hashes) against a filter file, whose
// layout, type, seed and size it reads from the file; or, with --format
// raw|parquet, against a bitset at any offset of a file (read into memory
// placed as the file's pages would be mapped, so the bitset keeps its
// alignment; see file_range.h).
#include <sys/stat.h>

#include <blockbloom/filter_file.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include <unistd.h>

#include "tools/common/cli_args.h"
#include "tools/common/cli_error.h"
#include "tools/blockbloom/commands.h"
#include "tools/blockbloom/filter_file_io.h"
#include "tools/common/filter_options.h"
#include "tools/blockbloom/hash_input.h"
#include "tools/blockbloom/hash_options.h"
#include "tools/blockbloom/layout_filter.h"
#include "tools/common/file_range.h"
#include "tools/common/number_flags.h"
#include "tools/blockbloom/parquet_header.h"
#include "tools/blockbloom/probe_output.h"
#include "tools/common/progress.h"

namespace blockbloom_tools {
namespace {

static_assert(kHashBatch % 8 == 0, "batch bitmaps must end at a byte boundary");

// --bits: one "1" or "0" line per hash, from the LSB-first bitmap, written a
// piece at a time (the text is 16 times the size of the bitmap).
void PrintBitmapLines(const std::vector<std::uint8_t>& bitmap, std::size_t n) {
  constexpr std::size_t kPieceLines = std::size_t{1} << 16;
  std::string out;
  out.reserve(2 * kPieceLines);
  for (std::size_t i = 0; i < n; ++i) {
    out += ((bitmap[i / 8] >> (i % 8)) & 1u) ? '1' : '0';
    out += '\n';
    if (out.size() == 2 * kPieceLines || i + 1 == n) {
      std::fwrite(out.data(), 1, out.size(), stdout);
      out.clear();
    }
  }
}

// A raw filter file holds no size: probing only the first --bytes of a larger
// file answers for a different filter (often 0 for every inserted key, with
// no error). So, at --offset 0, a file larger than --bytes is refused unless
// --allow-trailing says the filter really is just its first bytes. A smaller
// file is left to FileRange, which reports where it ends.
void CheckNoTrailingBytes(const std::string& path, std::size_t bytes) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;  // FileRange reports it
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size <= bytes) return;
  throw CliError(path + ": the file is " + std::to_string(size) + " bytes, but --bytes is " +
                 std::to_string(bytes) + ": a raw filter file does not record its size, and "
                 "probing its first " + std::to_string(bytes) +
                 " bytes would answer for another filter; give --bytes " +
                 std::to_string(size) + ", or --allow-trailing if the filter is only the first " +
                 std::to_string(bytes) + " bytes of the file");
}

// A blockbloom filter file probed with --format raw or parquet would be
// probed through its header's bytes as bits (0 for keys that are there, with
// no error): a file that starts with the filter-file magic is refused, before
// any size check could suggest --allow-trailing for it.
void RefuseFilterFile(const std::string& path, const char* format_flag) {
  struct stat st;
  // Only a regular file is opened here: a FIFO would block (FileRange reports it).
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  std::FILE* in = std::fopen(path.c_str(), "rb");
  if (in == nullptr) return;  // FileRange reports it
  char magic[BB_FILTER_FILE_MAGIC_BYTES] = {};
  const std::size_t got = std::fread(magic, 1, sizeof magic, in);
  std::fclose(in);
  if (got == sizeof magic && std::memcmp(magic, BB_FILTER_FILE_MAGIC, sizeof magic) == 0) {
    throw CliError(path + " is a blockbloom filter file: drop " + format_flag +
                   " (its layout, type and size are read from it)");
  }
}

// Appended to the errors of a probe that reads a BloomFilterHeader: real
// Parquet files are better probed by a command that reads their footer.
const char kRealParquetHint[] =
    " (for the Bloom filter of a column in a real Parquet file, blockbloom parquet probe FILE "
    "--column PATH finds it)";

// Where a BloomFilterHeader at offset of path says its bitset is, if the bytes
// there are one whose bitset fits in the file (what bb_parquet_filter_read
// would accept there; bb_parquet_header_read is its check, without the copy).
// Reads a prefix, doubled while the header parses but its bitset runs past
// the prefix: a raw bitset costs 4 KiB, a header at most about twice itself
// and its bitset.
std::optional<HeaderedBitset> HeaderAt(const std::string& path, std::uint64_t offset) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (offset >= size) return std::nullopt;  // FileRange reports it
  const std::uint64_t rest = std::min<std::uint64_t>(size - offset, SIZE_MAX);
  std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(rest, 4096));
  for (;;) {
    const FileRange prefix(path, offset, len);
    HeaderedBitset found{};
    const int status =
        bb_parquet_header_read(prefix.data(), prefix.size(), &found.header_bytes, &found.num_bytes);
    if (status == BB_OK) return found;
    if (status != BB_ERR_BITSET_TRUNCATED || len == rest) return std::nullopt;
    len = static_cast<std::size_t>(std::min<std::uint64_t>(rest, std::uint64_t{len} * 2));
  }
}

// Without --parquet-header the bytes at --offset are taken for a raw bitset:
// refused if they are a BloomFilterHeader (parquet_header.h).
void RefuseForgottenHeader(const std::string& path, std::uint64_t offset) {
  const std::optional<HeaderedBitset> found = HeaderAt(path, offset);
  if (!found) return;
  throw CliError(path + ": " +
                 ForgottenHeaderReason("the bytes at --offset " + std::to_string(offset), offset,
                                       *found) +
                 ", not a raw bitset: add --parquet-header to probe that filter; for the Bloom filter of a column in a real Parquet "
                 "file, use blockbloom parquet probe FILE --column PATH");
}

// A filter file says what its filter is; a flag that says otherwise is
// refused rather than used (a wrong type, seed or size answers 0 for values
// that are there) or silently ignored.
HashOptions HashingFromFile(const ParsedFlags& flags, const LoadedFilterFile& file,
                            const std::string& path) {
  const bb_filter& f = *file.filter.c_filter();
  const std::string what = path + " is a " + LayoutName(file.layout) + " filter of " +
                           DescribeValues(file.raw, file.type);
  if (flags.Has("--layout") && LayoutFlag(flags) != file.layout) {
    throw CliError("--layout " + flags.Required("--layout") + " contradicts the filter file: " +
                   what + " (the file says its layout: drop --layout)");
  }
  if (flags.Has("--bytes") && FilterBytesFlag(flags, file.layout) != f.num_bytes) {
    throw CliError("--bytes " + flags.Required("--bytes") + " contradicts the filter file: " +
                   path + " holds a filter of " + std::to_string(f.num_bytes) + " bytes");
  }
  const HashOptions given = HashOptionsFromFlags(flags, file.layout, false);
  if (given.given && (given.raw != file.raw || (!given.raw && !SameType(given.type, file.type)))) {
    throw CliError(std::string(given.raw ? "--raw-hashes" : "--type " + flags.Required("--type")) +
                   " (" + DescribeValues(given.raw, given.type) + ") contradicts the filter "
                   "file: " + what + " (the file says its type: drop the flag)");
  }
  if (given.seed_given && given.seed != f.hash_seed) {
    throw CliError("--seed " + flags.Required("--seed") + " contradicts the filter file: " +
                   path + " was built with seed " + std::to_string(f.hash_seed) +
                   " (the file says its seed: drop --seed)");
  }
  HashOptions hashing;
  hashing.raw = file.raw;
  hashing.type = file.type;
  hashing.seed = f.hash_seed;
  return hashing;
}

}  // namespace

int RunProbe(const std::vector<std::string>& args) {
  std::vector<FlagSpec> specs = {{"--layout", true, ""},
                                 {"--filter", true, ""},
                                 {"--format", true, ""},
                                 {"--offset", true, ""},
                                 {"--bytes", true, ""},
                                 {"--parquet-header", false, ""},
                                 {"--input", true, ""},
                                 {"--allow-trailing", false, ""},
                                 {"--count", false, ""},
                                 {"--bits", false, ""},
                                 {"--json", false, ""},
                                 kNoProgressFlag};
  specs.insert(specs.end(), kHashFlagSpecs.begin(), kHashFlagSpecs.end());
  const ParsedFlags flags = ParseFlags(args, specs);
  if (flags.help_requested()) return PrintHelp("probe");
  const ProgressSettings progress_settings = ProgressSettingsFromFlags(flags, "probe");

  // Check every flag before opening anything.
  const FilterFormat format =
      FilterFormatFlag(flags, LayoutFlagOr(flags, Layout::kParquet), flags.Has("--layout"));
  const std::string& filter_path = flags.Required("--filter");
  // probe reads the filter at --offset of a file it may read more than once
  // (header, then bitset); a stream would have to be copied whole. Say so
  // rather than look for a file named "-".
  if (filter_path == "-") {
    throw UsageError("--filter -: a filter is read from a regular file, not standard input");
  }
  const std::string& input = flags.Required("--input");
  const ProbeOutputForm form = ProbeOutputFlags(flags);

  std::optional<LoadedFilterFile> file;
  std::optional<FileRange> range;
  const std::uint8_t* bitset = nullptr;
  std::size_t bytes = 0;
  Layout layout = Layout::kParquet;
  HashOptions hashing;
  if (format == FilterFormat::kFile) {
    for (const char* flag : {"--offset", "--allow-trailing"}) {
      if (flags.Has(flag)) {
        throw UsageError(std::string(flag) + " is for a raw bitset (--format raw) or a "
                         "BloomFilterHeader (--format parquet); a filter file is the whole file");
      }
    }
    file.emplace();
    ReadFilterFile(filter_path, &*file);
    hashing = HashingFromFile(flags, *file, filter_path);
    layout = file->layout;
    bitset = file->filter.data();
    bytes = file->filter.num_bytes();
  } else {
    layout = LayoutFlag(flags);
    hashing = HashOptionsFromFlags(flags, layout, true);
    const bool with_header = format == FilterFormat::kParquet;
    // With a header, the header gives the size; --bytes may only confirm it.
    std::optional<std::size_t> bytes_flag;
    if (!with_header || flags.Has("--bytes")) bytes_flag = FilterBytesFlag(flags, layout);
    const std::uint64_t offset = flags.Has("--offset") ? ByteSizeFlag(flags, "--offset") : 0;
    const bool allow_trailing = flags.Has("--allow-trailing");
    if (allow_trailing && (with_header || offset != 0)) {
      throw UsageError("--allow-trailing is for a raw filter at --offset 0 (elsewhere the filter "
                       "is inside a larger file anyway)");
    }
    if (offset == 0) RefuseFilterFile(filter_path, with_header ? "--format parquet" : "--format raw");
    if (with_header) {
      range.emplace(filter_path, offset);
      HeaderedBitset found{};
      try {
        found = ReadParquetHeader(
            range->data(), range->size(),
            filter_path + ": BloomFilterHeader at --offset " + std::to_string(offset));
      } catch (const CliError& e) {
        throw CliError(e.what() + std::string(kRealParquetHint));
      }
      if (bytes_flag && *bytes_flag != found.num_bytes) {
        throw CliError("--bytes " + std::to_string(*bytes_flag) + " does not match numBytes " +
                       std::to_string(found.num_bytes) + " of the BloomFilterHeader in " +
                       filter_path);
      }
      bitset = range->data() + found.header_bytes;
      bytes = found.num_bytes;
    } else {
      if (layout == Layout::kParquet) RefuseForgottenHeader(filter_path, offset);
      if (offset == 0 && !allow_trailing) CheckNoTrailingBytes(filter_path, *bytes_flag);
      range.emplace(filter_path, offset, *bytes_flag);
      bitset = range->data();
      bytes = *bytes_flag;
    }
  }

  std::vector<std::uint8_t> batch_bitmap((kHashBatch + 7) / 8);
  if (form.values) {
    // Each value beside its answer: the lines are kept a batch at a time,
    // and each batch is printed once it was read and checked.
    ValueAnswers answers(form.json, filter_path, layout);
    // The answers go out while the input is read: a bar redrawn on a terminal
    // that also shows them would be cut into their lines, so with answers on
    // a terminal the progress is off (they are the progress there).
    ProgressSettings value_progress = progress_settings;
    if (isatty(STDOUT_FILENO) && value_progress.terminal) value_progress.enabled = false;
    Progress progress(value_progress, "probing " + input, 0, "values");
    std::uint64_t done = 0;
    ForEachHashBatchWithLines(
        input, hashing, layout,
        [&](const std::vector<std::uint64_t>& hashes, const std::vector<std::string>& lines) {
          ProbeBitset(layout, bitset, bytes, hashing.seed, hashes, batch_bitmap.data(),
                      filter_path);
          answers.Write(lines, batch_bitmap.data());
          done += hashes.size();
          progress.Update(done);
        });
    answers.Finish();
    return 0;
  }

  // --bits and --count: nothing is printed before the whole input has been
  // read (an error prints nothing), so --bits keeps the answers: one bit per
  // line, not the line or its hash.
  std::size_t hits = 0;
  std::size_t lines = 0;
  std::vector<std::uint8_t> bitmap;
  // Its scope ends before the answers are printed: the bar is erased first.
  std::optional<Progress> progress(std::in_place, progress_settings, "probing " + input, 0,
                                   "values");
  ForEachHashBatch(input, hashing, layout, [&](const std::vector<std::uint64_t>& hashes) {
    hits += ProbeBitset(layout, bitset, bytes, hashing.seed, hashes, batch_bitmap.data(),
                        filter_path);
    // Every batch but the last holds kHashBatch (a multiple of 8) hashes, so
    // each one's bitmap continues the previous one at a byte boundary.
    if (form.bits) {
      bitmap.insert(bitmap.end(), batch_bitmap.begin(),
                    batch_bitmap.begin() + static_cast<std::ptrdiff_t>((hashes.size() + 7) / 8));
    }
    lines += hashes.size();
    progress->Update(lines);
  });
  progress.reset();

  if (form.count) {
    PrintCount(form, filter_path, layout, lines, hits);
  } else {
    PrintBitmapLines(bitmap, lines);
  }
  return 0;
}

}  // namespace blockbloom_tools
