// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/sizing_options.h"

#include <cerrno>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "blockbloom/blockbloom.h"
#include "blockbloom/parquet_format.h"
#include "blockbloom/sizing.h"
#include "tools/common/cli_error.h"
#include "tools/common/number_flags.h"

namespace blockbloom_tools {
namespace {

// The FPP as a probability, e.g. "0.01" or "1e-3"; strict: the whole text
// must be a finite number.
double FppFlag(const ParsedFlags& flags) {
  const std::string& text = flags.Required("--fpp");
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  const bool consumed = !text.empty() && !std::isspace(static_cast<unsigned char>(text[0])) &&
                        end == text.c_str() + text.size();
  if (!consumed) throw UsageError("--fpp " + text + ": not a number (a probability such as 0.01)");
  // ERANGE is a number strtod could not hold, not junk: say which end it missed.
  if (errno == ERANGE && value >= 0.0 && value < 1.0) {
    throw CliError("--fpp " + text +
                   ": out of range: too small (below 2.2e-308, the smallest normal double; "
                   "no filter comes near it)");
  }
  if (errno == ERANGE) {
    throw CliError("--fpp " + text + ": out of range: " + bb_status_message(BB_ERR_INVALID_FPP));
  }
  if (!(value > 0.0 && value < 1.0)) {  // also rejects nan
    throw CliError("--fpp " + text + ": " + bb_status_message(BB_ERR_INVALID_FPP));
  }
  return value;
}

// Why no Kudu filter reaches fpp for ndv values (bb_bytes_for said
// BB_ERR_TOO_MANY_BLOCKS, whose message is about Parquet's 2^31 - 1 blocks):
// either the 32-bit hash collision floor, which no size lowers, or Kudu's
// largest filter (log_space_bytes 35: 2^30 blocks, 32 GiB) is too small.
std::string KuduUnreachableReason(std::uint64_t ndv, double fpp) {
  const double floor = std::fmin(1.0, static_cast<double>(ndv) / 4294967296.0);
  char text[64];
  std::snprintf(text, sizeof text, "%.3g", floor);
  if (floor >= fpp) {
    return std::string("no Kudu filter reaches it: it is below the 32-bit hash collision floor (a "
                       "Kudu filter takes block and bits from one 32-bit hash, so about "
                       "ndv / 2^32 = ") +
           text + " of foreign values share an inserted value's hash, whatever the size)";
  }
  return std::string("it needs more than Kudu's largest filter, 2^30 blocks (32 GiB, "
                     "log_space_bytes 35); the collision floor for this ndv is ") + text;
}

std::string DescribeRequest(std::uint64_t ndv, const std::string& fpp_text, bool pow2,
                            bool reader_safe) {
  return "--ndv " + std::to_string(ndv) + " --fpp " + fpp_text + (pow2 ? " --pow2" : "") +
         (reader_safe ? " --parquet-header" : "");
}

std::string FormatFpp(double fpp) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4g", fpp);
  return text;
}

// Why no power of two up to 128 MiB will do (BB_ERR_PARQUET_SIZE_LIMIT), and
// what the user can do instead.
std::string ParquetLimitReason(std::uint64_t ndv, bool reader_safe) {
  double largest = 0.0;
  bb_fpp(ndv, BB_PARQUET_SAFE_MAX_BYTES, &largest);
  std::string reason = "the largest power-of-two Parquet filter (" +
                       std::to_string(BB_PARQUET_SAFE_MAX_BYTES) + " bytes, 128 MiB) only "
                       "reaches an FPP of " + FormatFpp(largest);
  if (!reader_safe) return reason + "; drop --pow2 for a larger filter";
  return reason + ", and Arrow's, Velox's and ClickHouse's Parquet readers refuse a larger "
                  "bitset: aim for a higher --fpp, or give --any-size for a larger filter that "
                  "only some readers (DuckDB) take";
}

}  // namespace

BuildSize BuildBytesFromFlags(const ParsedFlags& flags, Layout layout, bool reader_safe) {
  const bool has_bytes = flags.Has("--bytes");
  const bool has_ndv = flags.Has("--ndv");
  const bool has_fpp = flags.Has("--fpp");
  const bool pow2 = flags.Has("--pow2");
  if (has_bytes && (has_ndv || has_fpp)) {
    throw UsageError("give either --bytes or --ndv with --fpp, not both");
  }
  BuildSize size;
  if (has_bytes) {
    if (pow2) throw UsageError("--pow2 goes with --ndv and --fpp, not --bytes");
    size.bytes = FilterBytesFlag(flags, layout);
    return size;
  }
  if (!has_ndv && !has_fpp) throw UsageError("missing --bytes (or --ndv with --fpp)");
  if (!has_fpp) throw UsageError("--ndv needs --fpp");
  if (!has_ndv) throw UsageError("--fpp needs --ndv");
  if (pow2 && layout != Layout::kParquet) {
    throw UsageError("--pow2 is for --layout parquet (kudu sizes are always powers of two)");
  }

  const std::uint64_t ndv = CountFlag(flags, "--ndv");  // 0: the smallest filter (bb_bytes_for)
  const double fpp = FppFlag(flags);
  size.from_target = true;
  size.request = DescribeRequest(ndv, flags.Required("--fpp"), pow2, reader_safe);

  bb_sizing kind = BB_SIZE_PARQUET;
  size.rule = "any whole number of 32-byte blocks";
  if (layout == Layout::kKudu) {
    kind = BB_SIZE_KUDU;
    size.rule = "a power of two, as Kudu requires";
  } else if (reader_safe) {
    kind = BB_SIZE_PARQUET_SAFE;
    size.rule = "a power of two from 32 B to 128 MiB, as Parquet readers require";
  } else if (pow2) {
    kind = BB_SIZE_PARQUET_SAFE;  // what --pow2 has always meant: no clamp at 128 MiB
    size.rule = "a power of two from 32 B to 128 MiB, --pow2";
  }
  size.kind = kind;
  size.ndv = ndv;
  size.fpp = fpp;
  const int status = bb_bytes_for(ndv, fpp, kind, &size.bytes);
  if (status == BB_ERR_TOO_MANY_BLOCKS && kind == BB_SIZE_KUDU) {
    throw CliError(size.request + ": " + KuduUnreachableReason(ndv, fpp));
  }
  if (status == BB_ERR_PARQUET_SIZE_LIMIT) {
    throw CliError(size.request + ": " + ParquetLimitReason(ndv, reader_safe));
  }
  if (status != BB_OK) throw CliError(size.request + ": " + bb_status_message(status));
  CheckFilterBytes(layout, size.bytes,
                   size.request + " (" + std::to_string(size.bytes) + " bytes)");
  const int fpp_status = bb_fpp(ndv, size.bytes, &size.predicted_fpp);
  if (fpp_status != BB_OK) throw CliError(size.request + ": " + bb_status_message(fpp_status));
  return size;
}

std::string DescribeBuildSize(const BuildSize& size) {
  const std::size_t blocks = size.bytes / BB_BLOCK_BYTES;
  return "sized for " + size.request + ": " + std::to_string(size.bytes) + " bytes (" +
         std::to_string(blocks) + (blocks == 1 ? " block, " : " blocks, ") + size.rule +
         "), predicted FPP " + FormatFpp(size.predicted_fpp);
}

}  // namespace blockbloom_tools
