// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/join_demo/scans.h"

#include <cstring>
#include <stdexcept>
#include <vector>

#include "blockbloom/blockbloom.hpp"
#include "tools/common/progress.h"
#include "tools/blockbloom/join_demo/stopwatch.h"

namespace blockbloom_tools::join_demo {
namespace {

void CheckStatus(int status) {
  if (status != BB_OK) throw std::runtime_error(bb_status_message(status));
}

std::uint64_t Word(const std::uint8_t* bytes, std::size_t i, std::size_t num_bytes) {
  std::uint64_t word = 0;
  const std::size_t len = num_bytes - i < 8 ? num_bytes - i : 8;
  std::memcpy(&word, bytes + i, len);
  return word;
}

// Adds the rows set in `exact` but not in `filter` to *false_negatives and
// those set in `filter` only to *false_positives (bitmaps of num_bytes).
void CompareBitmaps(const std::uint8_t* exact, const std::uint8_t* filter, std::size_t num_bytes,
                    std::uint64_t* false_negatives, std::uint64_t* false_positives) {
  for (std::size_t i = 0; i < num_bytes; i += 8) {
    const std::uint64_t e = Word(exact, i, num_bytes);
    const std::uint64_t f = Word(filter, i, num_bytes);
    *false_negatives += static_cast<std::uint64_t>(__builtin_popcountll(e & ~f));
    *false_positives += static_cast<std::uint64_t>(__builtin_popcountll(f & ~e));
  }
}

}  // namespace

ExactScan RunExactScan(const ScanInputs& in) {
  ExactScan scan;
  Stopwatch stopwatch;
  std::vector<std::uint8_t> exact_bits(kChunkRows / 8);
  std::vector<std::uint8_t> filter_bits(kChunkRows / 8);
  Progress progress(in.progress, "(a) no filter: exact hash-set probe", in.column.rows(),
                    "rows");
  in.column.ForEachChunk(
      [&](std::uint64_t, const std::int64_t* keys, std::size_t n) {
        std::size_t matches = 0;
        stopwatch.Time([&] { matches = in.exact.ContainsBatch(keys, n, exact_bits.data()); });
        scan.matches += matches;
        // Untimed: what the filter says about the same rows.
        std::size_t passing = 0;
        const blockbloom::Column col = blockbloom::Column::of(keys, n);
        CheckStatus(bb_find_column_bitmap(&in.filter, &col, filter_bits.data(), &passing));
        scan.filter_passing += passing;
        CompareBitmaps(exact_bits.data(), filter_bits.data(), (n + 7) / 8, &scan.false_negatives,
                       &scan.false_positives);
      },
      [&](std::uint64_t done) { progress.Update(done); });
  scan.seconds = stopwatch.seconds();
  scan.cpu_seconds = stopwatch.cpu_seconds();
  return scan;
}

FilterScan RunFilterScan(const ScanInputs& in, const std::string& label) {
  FilterScan scan;
  Stopwatch stopwatch;
  std::vector<std::uint8_t> bits(kChunkRows / 8);
  Progress progress(in.progress, label, in.column.rows(), "rows");
  in.column.ForEachChunk(
      [&](std::uint64_t, const std::int64_t* keys, std::size_t n) {
        std::size_t passing = 0;
        int status = BB_OK;
        stopwatch.Time([&] {
          const blockbloom::Column col = blockbloom::Column::of(keys, n);
          status = bb_find_column_bitmap(&in.filter, &col, bits.data(), &passing);
        });
        CheckStatus(status);
        scan.rows_passing += passing;
      },
      [&](std::uint64_t done) { progress.Update(done); });
  scan.seconds = stopwatch.seconds();
  scan.cpu_seconds = stopwatch.cpu_seconds();
  return scan;
}

}  // namespace blockbloom_tools::join_demo
