// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/filter_file_io.h"

#include <sys/stat.h>

#include <vector>

#include "tools/blockbloom/atomic_file.h"
#include "tools/common/cli_error.h"
#include "tools/common/file_range.h"
#include "tools/blockbloom/parquet_header.h"

namespace blockbloom_tools {

FilterFormat FilterFormatFlag(const ParsedFlags& flags, Layout layout, bool layout_given) {
  FilterFormat format = FilterFormat::kFile;
  if (flags.Has("--format")) {
    const std::string& name = flags.Required("--format");
    if (name == "file") {
      format = FilterFormat::kFile;
    } else if (name == "raw") {
      format = FilterFormat::kRaw;
    } else if (name == "parquet") {
      format = FilterFormat::kParquet;
    } else {
      throw UsageError("unknown --format \"" + name + "\" (known: file, raw, parquet)");
    }
  }
  if (flags.Has("--parquet-header")) {
    if (flags.Has("--format") && format != FilterFormat::kParquet) {
      throw UsageError("--parquet-header is --format parquet, not --format " +
                       flags.Required("--format"));
    }
    format = FilterFormat::kParquet;
  }
  if (format == FilterFormat::kParquet && layout_given && layout != Layout::kParquet) {
    throw UsageError(std::string(flags.Has("--parquet-header") ? "--parquet-header"
                                                               : "--format parquet") +
                     " is for --layout parquet (Kudu filters have no BloomFilterHeader)");
  }
  return format;
}

void ReadFilterFile(const std::string& path, LoadedFilterFile* out) {
  const FileRange file(path, 0);
  int32_t values = 0;
  out->type = bb_parquet_column{};
  out->type.struct_size = sizeof out->type;
  out->sizing = bb_filter_file_sizing{};
  out->sizing.struct_size = sizeof out->sizing;
  const int status = bb_filter_file_read(file.data(), file.size(), out->filter.get(), &values,
                                         &out->type, &out->sizing);
  HeaderedBitset header{};
  if (status == BB_ERR_FILTER_FILE_MAGIC &&
      bb_parquet_header_read(file.data(), file.size(), &header.header_bytes,
                             &header.num_bytes) == BB_OK) {
    // The export of build --format parquet (or a filter cut from a Parquet
    // file): name the flag that reads it.
    throw CliError(path + ": not a blockbloom filter file: " +
                   ForgottenHeaderReason("its first bytes", 0, header) +
                   ": add --format parquet (or --parquet-header) to read it");
  }
  if (status == BB_ERR_FILTER_FILE_MAGIC || status == BB_ERR_FILTER_FILE_TRUNCATED) {
    throw CliError(path + ": " + bb_status_message(status) +
                   "; a raw bitset is read with --format raw --layout L --bytes N (and --type T "
                   "or --raw-hashes), a BloomFilterHeader and bitset with --format parquet");
  }
  if (status != BB_OK) throw CliError(path + ": " + bb_status_message(status));
  const bb_filter& f = *out->filter.get();
  out->layout = f.layout == BB_LAYOUT_KUDU ? Layout::kKudu : Layout::kParquet;
  out->raw = values == BB_FILTER_VALUES_RAW_HASHES;
}

void WriteFilterFile(const std::string& path, const bb_filter& filter, bool raw,
                     const bb_parquet_column& type, const bb_filter_file_sizing& sizing) {
  std::size_t size = 0;
  int status = bb_filter_file_size(&filter, &size);
  if (status != BB_OK) throw CliError(path + ": " + bb_status_message(status));
  std::vector<std::uint8_t> bytes(size);
  std::size_t written = 0;
  status = bb_filter_file_write(&filter, raw ? nullptr : &type, &sizing, bytes.data(),
                                bytes.size(), &written);
  if (status != BB_OK) throw CliError(path + ": " + bb_status_message(status));
  WriteFileAtomically(path, bytes.data(), written);
}

void RefuseOutputThatIsInput(const std::string& input, const std::string& output,
                             const std::string& input_flag) {
  struct stat in_st, out_st;
  if (input == "-" || output == "-") return;
  if (::stat(input.c_str(), &in_st) != 0 || ::stat(output.c_str(), &out_st) != 0) return;
  if (!S_ISREG(out_st.st_mode)) return;  // a device or FIFO is written in place, not replaced
  if (in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino) {
    throw CliError("-o " + output + " is the same file as " + input_flag + " " + input +
                   ": the output would replace the input it is made from; write it elsewhere");
  }
}

}  // namespace blockbloom_tools
