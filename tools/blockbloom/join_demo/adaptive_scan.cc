// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/join_demo/adaptive_scan.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "blockbloom/blockbloom.hpp"
#include "tools/common/progress.h"
#include "tools/blockbloom/join_demo/stopwatch.h"

namespace blockbloom_tools::join_demo {
namespace {

void Check(int status) {
  if (status < 0) throw std::runtime_error(bb_status_message(status));
}

}  // namespace

AdaptiveScan RunAdaptiveScan(const ScanInputs& in, std::uint64_t sample_rows, double min_reject) {
  AdaptiveScan scan;
  bb_adaptive& adaptive = scan.filter;
  Check(bb_adaptive_init(&adaptive, sample_rows, min_reject));
  Stopwatch total;
  Stopwatch filter_on_sample;
  std::vector<std::uint32_t> selection(kChunkRows);
  std::vector<std::int64_t> survivors(kChunkRows);

  // Rows keys[0 .. n) of a chunk, all on the same side of the decision. The
  // generic protocol rather than bb_adaptive_find_column_select: once
  // the filter is off, the rows go to the exact set as they are, with no
  // identity selection to copy them through.
  const auto scan_rows = [&](const std::int64_t* keys, std::size_t n) {
    const int probe = bb_adaptive_should_probe(&adaptive, n);
    Check(probe);
    if (probe == 0) {
      total.Time([&] { scan.matches += in.exact.CountBatch(keys, n); });
      return;
    }
    const bool sampling = adaptive.state == BB_ADAPTIVE_SAMPLING;
    std::size_t passing = 0;
    int status = BB_OK;
    total.Time([&] {
      const auto filter = [&] {
        const blockbloom::Column col = blockbloom::Column::of(keys, n);
        status = bb_find_column_select(&in.filter, &col, selection.data(), &passing);
      };
      if (sampling) {
        filter_on_sample.Time(filter);
      } else {
        filter();
      }
      if (status != BB_OK) return;
      for (std::size_t j = 0; j < passing; ++j) survivors[j] = keys[selection[j]];
      scan.matches += in.exact.CountBatch(survivors.data(), passing);
    });
    Check(status);
    Check(bb_adaptive_record(&adaptive, n, passing));
  };

  Progress progress(in.progress, "(c) filter + exact check", in.column.rows(), "rows");
  in.column.ForEachChunk(
      [&](std::uint64_t, const std::int64_t* keys, std::size_t n) {
        std::size_t done = 0;
        while (done < n) {
          std::size_t len = n - done;
          // The library decides at the first batch boundary past the
          // sample: end a batch exactly there, so the sample is sample_rows.
          if (adaptive.state == BB_ADAPTIVE_SAMPLING) {
            len = static_cast<std::size_t>(
                std::min<std::uint64_t>(len, adaptive.sample_rows - adaptive.rows_probed));
          }
          scan_rows(keys + done, len);
          done += len;
        }
      },
      [&](std::uint64_t done) { progress.Update(done); });

  scan.seconds = total.seconds();
  scan.cpu_seconds = total.cpu_seconds();
  scan.filter_seconds_per_row = filter_on_sample.seconds() / static_cast<double>(sample_rows);
  if (scan.filter_disabled()) {
    scan.saved_seconds =
        scan.filter_seconds_per_row * static_cast<double>(adaptive.rows_not_probed);
  }
  return scan;
}

}  // namespace blockbloom_tools::join_demo
