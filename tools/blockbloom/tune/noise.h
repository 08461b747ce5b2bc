// SPDX-License-Identifier: Apache-2.0
// What tune may conclude from timings taken on a machine it does not own.
// Every contender is timed over interleaved rounds (interleaved.h); its
// timing is the median of its rounds and its spread the interquartile range
// of them (Q3 - Q1, quartiles interpolated linearly between the sorted
// rounds): the spread of the middle half, which one slow round cannot blow
// up (that round is an outlier, flagged as one) while a machine that is busy
// throughout widens it. Pure functions on numbers, so that the decisions are
// unit-tested on synthetic timings (tests/cli/tune_noise_test.cc).
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_NOISE_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_NOISE_H_

#include <cstddef>
#include <vector>

namespace blockbloom_tools::tune {

struct Timing {
  double median = 0.0;
  double spread = 0.0;  // interquartile range of the rounds, same unit
};

// The median and interquartile range of one contender's rounds (empty: 0, 0).
Timing Summarize(std::vector<double> rounds);

// A timing whose spread exceeds this share of its median is too noisy to
// rank settings that differ by a few percent.
inline constexpr double kNoisyShare = 0.10;

enum class Verdict {
  kChange,       // the best beats the default by more than the spread
  kKeepDefault,  // within the spread, and the spread is small: no change pays
  kTooNoisy,     // within the spread, and the spread is too large to tell
};
// "change", "keep_default", "too_noisy": the JSON's spelling.
const char* VerdictName(Verdict verdict);

struct Decision {
  Verdict verdict;
  double gain;   // default median - best median (negative: the default was faster)
  double noise;  // the larger spread of the two
};

// Whether to recommend best over the default (the setting in force): only
// when best is faster by more than the larger of their spreads. Otherwise
// kTooNoisy when that spread is more than kNoisyShare of the default's
// median, else kKeepDefault.
Decision Decide(Timing best, Timing current);

// A cell twice as slow or half as fast as all its neighbours in the grid
// (the same hint at the next shorter and longer distance) is out of line.
inline constexpr double kOutOfLineFactor = 2.0;

enum class Outlier {
  kNo,
  kNoisyRuns,  // its own spread is more than kNoisyShare of its median
  kOutOfLine,  // kOutOfLineFactor from every neighbour
};
// neighbour_medians may be empty (a cell with no neighbours, such as no
// prefetch): then only its own runs can make it an outlier.
Outlier ClassifyCell(Timing cell, const std::vector<double>& neighbour_medians);
// "noisy runs", "out of line with its neighbours"; "" for kNo.
const char* OutlierReason(Outlier outlier);
// The JSON's spelling: "noisy_runs", "out_of_line"; nullptr for kNo.
const char* OutlierName(Outlier outlier);

// ClassifyCell for each cell of a grid stored row after row, `row_length`
// cells a row (a row: one hint, distances in order); the neighbours of a cell
// are the cells just before and after it in its row.
std::vector<Outlier> ClassifyGrid(const std::vector<Timing>& cells, std::size_t row_length);

}  // namespace blockbloom_tools::tune

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_TUNE_NOISE_H_
