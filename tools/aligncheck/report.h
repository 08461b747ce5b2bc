// SPDX-License-Identifier: Apache-2.0
// The alignment report: one FilterCheck per checked bitset, the exit status,
// and the two renderings (text for people, --json for programs).
#ifndef BLOCKBLOOM_TOOLS_ALIGNCHECK_REPORT_H_
#define BLOCKBLOOM_TOOLS_ALIGNCHECK_REPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/aligncheck/cpu_detect.h"
#include "tools/aligncheck/measure.h"
#include "tools/aligncheck/profiles.h"
#include "tools/aligncheck/straddle.h"

namespace blockbloom_tools::aligncheck {

// Whether a filter fits a cache: unknown when the profile does not know its size.
enum class Fits { kUnknown, kNo, kYes };

struct FilterCheck {
  std::string source;  // "file", "allocation" or "parquet"
  std::string path;    // the file; "" for an allocation
  // --parquet: which column chunk.
  std::string column;
  std::uint32_t row_group = 0;
  std::uint32_t column_index = 0;
  // A BloomFilterHeader in front of the bitset (--parquet-header, --parquet).
  bool has_header = false;
  std::uint64_t header_offset = 0;
  std::uint64_t header_bytes = 0;
  // The bitset: its byte offset in the file (for an allocation: its address),
  // and its size.
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;
  StraddleCounts straddles;
  std::uint64_t footprint_bytes = 0;  // whole cache lines the bitset touches
  Fits fits_l1d = Fits::kUnknown;
  Fits fits_l2 = Fits::kUnknown;
  Fits fits_llc = Fits::kUnknown;
  bool aligned = true;  // no block straddles a cache line
  std::string fix;
};

// The arithmetic for a bitset of `bytes` at `offset` under a profile: the
// straddle counts, the cache fits (by line footprint) and aligned. Fills no
// source, path or fix.
FilterCheck CheckBitset(const CoreProfile& profile, std::uint64_t offset, std::uint64_t bytes);

// The fix line for a checked filter (uses its source, header and offset).
std::string FixFor(const FilterCheck& check);

// straddling / blocks: on average, the extra fills one probe of a uniformly
// random block costs.
double PerProbe(std::uint64_t straddling, std::uint64_t blocks);

// Approximate extra cycles per probe when the filter is in L1, from the
// profile's split penalties; nullopt when the profile has none (generic).
std::optional<double> EstimatedExtraCyclesPerProbe(const CoreProfile& profile,
                                                   const StraddleCounts& s);

struct Report {
  ProfileChoice choice;
  std::optional<DetectedCpu> cpu;  // when the CPU was examined
  std::string mode;                // "file", "allocation", "parquet" or "measure"
  std::string parquet_file;        // --parquet
  std::uint64_t column_chunks = 0;  // --parquet: all of them, with a filter or not
  std::vector<FilterCheck> filters;
  std::optional<Measurement> measurement;
};

// 0 when no checked block straddles a cache line, 1 when any does.
int ExitStatus(const Report& report);

std::string ReportJson(const Report& report);
std::string ReportText(const Report& report);

}  // namespace blockbloom_tools::aligncheck

#endif  // BLOCKBLOOM_TOOLS_ALIGNCHECK_REPORT_H_
