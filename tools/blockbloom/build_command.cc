// SPDX-License-Identifier: Apache-2.0
// blockbloom build: values of a type (or, asked for, raw hashes) in; a
// filter file out (filter_file_io.h), or with --format raw|parquet a raw
// bitset (preceded by its Parquet BloomFilterHeader for parquet).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tools/blockbloom/atomic_file.h"
#include "tools/common/cli_args.h"
#include "tools/common/cli_error.h"
#include "tools/blockbloom/commands.h"
#include "tools/common/filter_options.h"
#include "tools/blockbloom/filter_file_io.h"
#include "tools/blockbloom/hash_input.h"
#include "tools/blockbloom/hash_options.h"
#include "tools/blockbloom/layout_filter.h"
#include "tools/blockbloom/output_name.h"
#include "tools/blockbloom/parquet_header.h"
#include "tools/common/progress.h"
#include "tools/blockbloom/sizing_options.h"

namespace blockbloom_tools {

int RunBuild(const std::vector<std::string>& args) {
  std::vector<FlagSpec> specs = {{"--layout", true, ""},
                                 {"--bytes", true, ""},
                                 {"--ndv", true, ""},
                                 {"--fpp", true, ""},
                                 {"--pow2", false, ""},
                                 {"--format", true, ""},
                                 {"--parquet-header", false, ""},
                                 {"--any-size", false, ""},
                                 {"--input", true, ""},
                                 {"--output", true, "-o"},
                                 kNoProgressFlag};
  specs.insert(specs.end(), kHashFlagSpecs.begin(), kHashFlagSpecs.end());
  const ParsedFlags flags = ParseFlags(args, specs);
  if (flags.help_requested()) return PrintHelp("build");
  const ProgressSettings progress_settings = ProgressSettingsFromFlags(flags, "build");

  // Check every flag before reading or writing anything.
  const Layout layout = LayoutFlag(flags);
  const HashOptions hashing = HashOptionsFromFlags(flags, layout, true);
  const FilterFormat format = FilterFormatFlag(flags, layout, true);
  const bool with_header = format == FilterFormat::kParquet;
  const bool any_size = AnySizeFlag(flags, with_header);
  const BuildSize size = BuildBytesFromFlags(flags, layout, with_header && !any_size);
  const std::size_t bytes = size.bytes;
  if (with_header) {
    CheckHeaderSize(bytes, any_size,
                    size.from_target ? size.request + " (" + std::to_string(bytes) + " bytes)"
                                     : "--bytes " + std::to_string(bytes));
  }
  const std::string& input = flags.Required("--input");
  const std::string& output = flags.Required("--output");
  CheckOutputName(output);
  RefuseOutputThatIsInput(input, output, "--input");

  // The input is streamed into the filter batch by batch: memory is the
  // filter plus one batch, however long the input.
  const std::string context = "a filter of " + std::to_string(bytes) + " bytes";
  OwnedFilter filter;
  InitFilter(layout, bytes, hashing.seed, &filter, context);
  {
    Progress progress(progress_settings, "inserting " + input, 0, "values");
    std::uint64_t inserted = 0;
    ForEachHashBatch(input, hashing, layout, [&](const std::vector<std::uint64_t>& hashes) {
      InsertHashes(layout, hashes, &filter, context);
      inserted += hashes.size();
      progress.Update(inserted);
    });
  }
  if (format == FilterFormat::kFile) {
    bb_filter_file_sizing sizing{};
    sizing.struct_size = sizeof sizing;
    sizing.kind = BB_FILTER_SIZING_UNKNOWN;
    if (size.from_target) {
      sizing.kind = size.kind;
      sizing.ndv = size.ndv;
      sizing.fpp = size.fpp;
    }
    WriteFilterFile(output, *filter.get(), hashing.raw, hashing.type, sizing);
  } else if (with_header) {
    const EncodedHeader header = EncodeParquetHeader(bytes, any_size);
    WriteFileAtomically(output, {ByteSpan{header.bytes, header.size},
                                 ByteSpan{filter.data(), filter.num_bytes()}});
  } else {
    WriteFileAtomically(output, filter.data(), filter.num_bytes());
  }
  // Said once OUT is written: a size the user did not give is worth knowing.
  if (size.from_target) {
    std::fprintf(stderr, "blockbloom build: %s\n", DescribeBuildSize(size).c_str());
  }
  return 0;
}

}  // namespace blockbloom_tools
