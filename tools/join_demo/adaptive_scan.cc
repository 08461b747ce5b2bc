// SPDX-License-Identifier: Apache-2.0
#include "join_demo/adaptive_scan.h"

#include <stdexcept>
#include <vector>

#include "blockbloom/hashing.h"
#include "join_demo/progress.h"
#include "join_demo/stopwatch.h"

namespace blockbloom_cli::join_demo {

AdaptiveScan RunAdaptiveScan(const ScanInputs& in, std::uint64_t sample_rows, double min_reject) {
  AdaptiveScan scan;
  scan.sample_rows = sample_rows;
  Stopwatch total;
  Stopwatch filter_on_sample;
  bool decided = false;
  bool use_filter = true;
  std::vector<std::uint32_t> selection(kChunkRows);
  std::vector<std::int64_t> survivors(kChunkRows);

  // Rows keys[0 .. n) of a chunk, all on the same side of the decision.
  const auto scan_rows = [&](const std::int64_t* keys, std::size_t n) {
    if (!use_filter) {
      total.Time([&] { scan.matches += in.exact.CountBatch(keys, n); });
      scan.exact_probes += n;
      return;
    }
    std::size_t passing = 0;
    int status = BB_OK;
    total.Time([&] {
      const auto filter = [&] {
        status = bb_find_int64_column_select(&in.filter, keys, n, selection.data(), &passing);
      };
      if (decided) {
        filter();
      } else {
        filter_on_sample.Time(filter);
      }
      if (status != BB_OK) return;
      for (std::size_t j = 0; j < passing; ++j) survivors[j] = keys[selection[j]];
      scan.matches += in.exact.CountBatch(survivors.data(), passing);
    });
    if (status != BB_OK) throw std::runtime_error(bb_status_message(status));
    scan.rows_filtered += n;
    scan.rows_passing_filter += passing;
    scan.exact_probes += passing;
  };

  Progress progress(in.progress_bars, "(c) filter + exact check", in.column.rows());
  in.column.ForEachChunk(
      [&](std::uint64_t, const std::int64_t* keys, std::size_t n) {
        std::size_t done = 0;
        while (done < n) {
          std::size_t len = n - done;
          if (!decided && scan.rows_filtered + len > sample_rows) {
            len = static_cast<std::size_t>(sample_rows - scan.rows_filtered);
          }
          scan_rows(keys + done, len);
          done += len;
          if (!decided && scan.rows_filtered == sample_rows) {
            decided = true;
            scan.sample_rejected = scan.rows_filtered - scan.rows_passing_filter;
            use_filter = static_cast<double>(scan.sample_rejected) >=
                         min_reject * static_cast<double>(sample_rows);
            scan.filter_disabled = !use_filter;
          }
        }
      },
      [&](std::uint64_t done) { progress.Update(done); });

  scan.seconds = total.seconds();
  scan.filter_seconds_per_row = filter_on_sample.seconds() / static_cast<double>(sample_rows);
  if (scan.filter_disabled) {
    scan.saved_seconds = scan.filter_seconds_per_row *
                         static_cast<double>(in.column.rows() - scan.rows_filtered);
  }
  return scan;
}

}  // namespace blockbloom_cli::join_demo
