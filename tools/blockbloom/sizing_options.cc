// SPDX-License-Identifier: Apache-2.0
#include "sizing_options.h"

#include <cerrno>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "blockbloom/blockbloom.h"
#include "blockbloom/sizing.h"
#include "common/cli_error.h"

namespace blockbloom_cli {
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

std::string DescribeRequest(std::uint64_t ndv, const std::string& fpp_text, bool pow2) {
  return "--ndv " + std::to_string(ndv) + " --fpp " + fpp_text + (pow2 ? " --pow2" : "");
}

}  // namespace

std::size_t BuildBytesFromFlags(const ParsedFlags& flags, Layout layout) {
  const bool has_bytes = flags.Has("--bytes");
  const bool has_ndv = flags.Has("--ndv");
  const bool has_fpp = flags.Has("--fpp");
  const bool pow2 = flags.Has("--pow2");
  if (has_bytes && (has_ndv || has_fpp)) {
    throw UsageError("give either --bytes or --ndv with --fpp, not both");
  }
  if (has_bytes) {
    if (pow2) throw UsageError("--pow2 goes with --ndv and --fpp, not --bytes");
    return FilterBytesFlag(flags, layout);
  }
  if (!has_ndv && !has_fpp) throw UsageError("missing --bytes (or --ndv with --fpp)");
  if (!has_fpp) throw UsageError("--ndv needs --fpp");
  if (!has_ndv) throw UsageError("--fpp needs --ndv");
  if (pow2 && layout != Layout::kParquet) {
    throw UsageError("--pow2 is for --layout parquet (kudu sizes are always powers of two)");
  }

  const std::uint64_t ndv = NumberFlag(flags, "--ndv");
  if (ndv == 0) throw CliError("--ndv 0: " + std::string(bb_status_message(BB_ERR_INVALID_NDV)));
  const double fpp = FppFlag(flags);
  const std::string request = DescribeRequest(ndv, flags.Required("--fpp"), pow2);

  const bb_sizing kind = layout == Layout::kKudu ? BB_SIZE_KUDU
                         : pow2                  ? BB_SIZE_PARQUET_POW2
                                                 : BB_SIZE_PARQUET;
  std::size_t bytes = 0;
  const int status = bb_bytes_for(ndv, fpp, kind, &bytes);
  if (status == BB_ERR_TOO_MANY_BLOCKS && kind == BB_SIZE_KUDU) {
    throw CliError(request + ": " + KuduUnreachableReason(ndv, fpp));
  }
  if (status != BB_OK) throw CliError(request + ": " + bb_status_message(status));

  if (pow2) {
    // BB_SIZE_PARQUET_POW2 stops at 128 MiB as Arrow does; do not hand out a
    // filter that misses the requested rate without saying so.
    double achieved = 0.0;
    const int fpp_status = bb_fpp(ndv, bytes, &achieved);
    if (fpp_status != BB_OK) throw CliError(request + ": " + bb_status_message(fpp_status));
    if (achieved > fpp) {
      char text[64];
      std::snprintf(text, sizeof text, "%.3g", achieved);
      throw CliError(request + ": the largest power-of-two Parquet filter (" +
                     std::to_string(bytes) + " bytes) only reaches an FPP of " + text +
                     "; drop --pow2 for a larger filter");
    }
  }
  CheckFilterBytes(layout, bytes, request + " (" + std::to_string(bytes) + " bytes)");
  return bytes;
}

}  // namespace blockbloom_cli
