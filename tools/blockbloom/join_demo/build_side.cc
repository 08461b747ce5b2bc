// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/join_demo/build_side.h"

#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.hpp"
#include "blockbloom/sizing.h"
#include "tools/common/cli_error.h"
#include "tools/blockbloom/join_demo/extreme_keys.h"
#include "tools/common/progress.h"

namespace blockbloom_tools::join_demo {
namespace {

void Check(int status, const std::string& what) {
  if (status != BB_OK) throw CliError(what + ": " + bb_status_message(status));
}

std::size_t FilterBytes(std::uint64_t kept, double fpp) {
  std::size_t bytes = 0;
  // An empty build side still gets the smallest filter (which rejects everything).
  Check(bb_bytes_for(std::max<std::uint64_t>(kept, 1), fpp, BB_SIZE_PARQUET, &bytes),
        "sizing the filter for " + std::to_string(kept) + " keys");
  return bytes;
}

double PredictedFpp(std::uint64_t kept, std::size_t bytes) {
  if (kept == 0) return 0.0;
  double fpp = 0.0;
  Check(bb_fpp(kept, bytes, &fpp), "the filter's expected FPP");
  return fpp;
}

constexpr std::uint64_t kNoMemory = UINT64_MAX;  // more than any machine has

std::uint64_t SaturatingAdd(std::uint64_t a, std::uint64_t b) {
  return a > kNoMemory - b ? kNoMemory : a + b;
}

std::uint64_t SaturatingMultiply(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > kNoMemory / b ? kNoMemory : a * b;
}

// The exact set's bytes for up to keys keys (Int64Set refuses above 2^56).
std::uint64_t ExactSetBytes(std::uint64_t keys) {
  return keys > (std::uint64_t{1} << 56) ? kNoMemory : Int64Set::BytesFor(keys);
}

// The filter's bytes for keys keys, or kNoMemory when no filter is that large.
std::uint64_t FilterBytesOrNoMemory(std::uint64_t keys, double fpp) {
  std::size_t bytes = 0;
  const int status = bb_bytes_for(std::max<std::uint64_t>(keys, 1), fpp, BB_SIZE_PARQUET, &bytes);
  return status == BB_OK ? bytes : kNoMemory;
}

// Refuses a build side larger than the machine's memory, before allocating
// it (or, for the selective side, before the scan that fills it).
void CheckMemory(const std::string& side_name, std::uint64_t keys, std::uint64_t needed,
                 const char* remedy) {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return;
  const auto physical = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
  if (needed > physical) {
    constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
    const std::string amount =
        needed == kNoMemory ? "over 2^64 bytes" : std::to_string(needed / kMiB) + " MiB";
    throw CliError("the " + side_name + " build side (" + std::to_string(keys) + " keys) needs " +
                   amount + ", more than this machine's " + std::to_string(physical / kMiB) +
                   " MiB; " + remedy);
  }
}

// The selective side holds, at its peak, the two heaps of --small / 2 keys
// each, the kept keys (at most --small), the exact set and the filter for
// them: counted for all --small keys kept, the worst case of the predicate.
void CheckSelectiveMemory(const Options& options) {
  const std::uint64_t small = options.small;
  std::uint64_t needed = SaturatingMultiply(small, 2 * sizeof(std::int64_t));
  needed = SaturatingAdd(needed, ExactSetBytes(small));
  needed = SaturatingAdd(needed, FilterBytesOrNoMemory(small, options.fpp));
  CheckMemory("selective", small, needed, "use a smaller --small");
}

void Finish(BuildSide* side, double fpp) {
  const std::size_t bytes = FilterBytes(side->kept_keys, fpp);
  side->predicted_fpp = PredictedFpp(side->kept_keys, bytes);
  side->filter = std::make_unique<blockbloom::Filter>(bytes);
  side->exact = std::make_unique<Int64Set>(side->kept_keys);
}

BuildSide BuildSelective(const Options& options, const KeyColumn& column,
                         const ProgressSettings& settings) {
  CheckSelectiveMemory(options);
  ExtremeKeys extremes;
  {
    Progress progress(settings, "small table: scanning for the extreme keys", column.rows(),
                      "rows");
    extremes = FindExtremeKeys(column, options.small / 2, &progress);
  }
  std::vector<std::int64_t> kept;
  for (const std::vector<std::int64_t>* keys : {&extremes.smallest, &extremes.largest}) {
    for (const std::int64_t key : *keys) {
      if (SomeInt1(options.seed, key) % 2 == 1) kept.push_back(key);  // the join's predicate
    }
  }
  BuildSide side;
  side.small_rows = extremes.smallest.size() + extremes.largest.size();
  side.kept_keys = kept.size();
  Finish(&side, options.fpp);
  const blockbloom::Column kept_column = blockbloom::Column::of(kept.data(), kept.size());
  Check(bb_insert_column(side.filter->c_filter(), &kept_column), "inserting the kept keys");
  side.exact->InsertBatch(kept.data(), kept.size());
  return side;
}

BuildSide BuildUnselective(const Options& options, const KeyColumn& column,
                           const ProgressSettings& settings) {
  BuildSide side;
  // The rows whose index % 20 != 0: all but ceil(rows / 20).
  side.kept_keys = column.rows() - column.rows() / 20 - (column.rows() % 20 != 0 ? 1 : 0);
  side.small_rows = side.kept_keys;
  CheckMemory("unselective", side.kept_keys,
              SaturatingAdd(ExactSetBytes(side.kept_keys),
                            FilterBytesOrNoMemory(side.kept_keys, options.fpp)),
              "use fewer --rows");
  Finish(&side, options.fpp);

  // Enumerated from the generator, a chunk at a time: the column is never stored.
  Progress progress(settings, "build side: filter and exact set", column.rows(), "rows");
  std::vector<std::int64_t> kept(kChunkRows);
  column.ForEachChunk(
      [&](std::uint64_t first, const std::int64_t* keys, std::size_t n) {
        std::size_t m = 0;
        for (std::size_t j = 0; j < n; ++j) {
          if ((first + j) % 20 != 0) kept[m++] = keys[j];
        }
        const blockbloom::Column kept_column = blockbloom::Column::of(kept.data(), m);
        Check(bb_insert_column(side.filter->c_filter(), &kept_column), "inserting the kept keys");
        side.exact->InsertBatch(kept.data(), m);
      },
      [&](std::uint64_t done) { progress.Update(done); });
  return side;
}

}  // namespace

BuildSide BuildJoinSide(const Options& options, const KeyColumn& column,
                        const ProgressSettings& settings) {
  return options.scenario == Scenario::kUnselective
             ? BuildUnselective(options, column, settings)
             : BuildSelective(options, column, settings);
}

}  // namespace blockbloom_tools::join_demo
