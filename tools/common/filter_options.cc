// SPDX-License-Identifier: Apache-2.0
#include "tools/common/filter_options.h"

#include <limits>

#include "blockbloom/blockbloom.h"
#include "blockbloom/kudu.h"
#include "tools/common/cli_error.h"
#include "tools/common/number_flags.h"
#include "tools/common/number_parse.h"

namespace blockbloom_tools {
namespace {

Layout ParseLayout(const std::string& name) {
  if (name == "parquet") return Layout::kParquet;
  if (name == "kudu") return Layout::kKudu;
  throw CliError("unknown layout \"" + name + "\" (known: parquet, kudu)");
}

}  // namespace

const char* LayoutName(Layout layout) {
  return layout == Layout::kKudu ? "kudu" : "parquet";
}

Layout LayoutFlag(const ParsedFlags& flags) { return ParseLayout(flags.Required("--layout")); }

bool ParquetHeaderFlag(const ParsedFlags& flags, Layout layout) {
  const bool with_header = flags.Has("--parquet-header");
  if (with_header && layout != Layout::kParquet) {
    throw UsageError("--parquet-header is for --layout parquet");
  }
  return with_header;
}

Layout LayoutFlagOr(const ParsedFlags& flags, Layout fallback) {
  return flags.Has("--layout") ? LayoutFlag(flags) : fallback;
}

std::uint64_t NumberFlag(const ParsedFlags& flags, const std::string& name) {
  const std::string& text = flags.Required(name);
  std::uint64_t value = 0;
  if (ParseUint64(text, &value) != ParseStatus::kOk) {
    throw UsageError(name + " " + text + ": not an unsigned 64-bit number");
  }
  return value;
}

void CheckFilterBytes(Layout layout, std::uint64_t bytes, const std::string& what) {
  int status = BB_OK;
  if (bytes > std::numeric_limits<std::size_t>::max()) {
    status = BB_ERR_TOO_MANY_BLOCKS;
  } else {
    status = bb_filter_check_size(static_cast<std::size_t>(bytes));
  }
  if (status == BB_OK && layout == Layout::kKudu) status = bb_kudu_filter_check_size(static_cast<std::size_t>(bytes));
  if (status != BB_OK) throw CliError(what + ": " + bb_status_message(status));
}

std::size_t FilterBytesFlag(const ParsedFlags& flags, Layout layout) {
  const std::uint64_t bytes = ByteSizeFlag(flags, "--bytes");
  CheckFilterBytes(layout, bytes, "--bytes " + std::to_string(bytes));
  return static_cast<std::size_t>(bytes);
}

std::int32_t KuduLogSpaceBytes(std::size_t bytes) {
  std::int32_t log = 0;
  while ((std::size_t{1} << log) < bytes) ++log;
  return log;
}

}  // namespace blockbloom_tools
