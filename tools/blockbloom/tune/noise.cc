// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/tune/noise.h"

#include <algorithm>
#include <cmath>

namespace blockbloom_tools::tune {
namespace {

// The q-quantile of sorted values, interpolated linearly between the two
// nearest (numpy's default): q = 0.5 is the median.
double Quantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double weight = position - static_cast<double>(below);
  return sorted[below] + weight * (sorted[above] - sorted[below]);
}

}  // namespace

Timing Summarize(std::vector<double> rounds) {
  if (rounds.empty()) return {};
  std::sort(rounds.begin(), rounds.end());
  return {Quantile(rounds, 0.5), Quantile(rounds, 0.75) - Quantile(rounds, 0.25)};
}

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kChange: return "change";
    case Verdict::kKeepDefault: return "keep_default";
    case Verdict::kTooNoisy: return "too_noisy";
  }
  return "?";
}

Decision Decide(Timing best, Timing current) {
  const double gain = current.median - best.median;
  const double noise = std::max(best.spread, current.spread);
  if (gain > noise) return {Verdict::kChange, gain, noise};
  const bool noisy = noise > kNoisyShare * current.median;
  return {noisy ? Verdict::kTooNoisy : Verdict::kKeepDefault, gain, noise};
}

Outlier ClassifyCell(Timing cell, const std::vector<double>& neighbour_medians) {
  if (cell.spread > kNoisyShare * cell.median) return Outlier::kNoisyRuns;
  if (neighbour_medians.empty()) return Outlier::kNo;
  const auto [low, high] = std::minmax_element(neighbour_medians.begin(), neighbour_medians.end());
  if (cell.median > kOutOfLineFactor * *high || cell.median * kOutOfLineFactor < *low) {
    return Outlier::kOutOfLine;
  }
  return Outlier::kNo;
}

const char* OutlierReason(Outlier outlier) {
  switch (outlier) {
    case Outlier::kNoisyRuns: return "noisy runs";
    case Outlier::kOutOfLine: return "out of line with its neighbours";
    case Outlier::kNo: break;
  }
  return "";
}

const char* OutlierName(Outlier outlier) {
  switch (outlier) {
    case Outlier::kNoisyRuns: return "noisy_runs";
    case Outlier::kOutOfLine: return "out_of_line";
    case Outlier::kNo: break;
  }
  return nullptr;
}

std::vector<Outlier> ClassifyGrid(const std::vector<Timing>& cells, std::size_t row_length) {
  std::vector<Outlier> outliers;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const std::size_t column = row_length == 0 ? 0 : i % row_length;
    std::vector<double> neighbours;
    if (column > 0) neighbours.push_back(cells[i - 1].median);
    if (column + 1 < row_length && i + 1 < cells.size()) neighbours.push_back(cells[i + 1].median);
    outliers.push_back(ClassifyCell(cells[i], neighbours));
  }
  return outliers;
}

}  // namespace blockbloom_tools::tune
