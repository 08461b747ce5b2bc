// SPDX-License-Identifier: Apache-2.0
// A progress bar on standard error for the steps that take a while: drawn
// only when standard error is a terminal, and only once a step has run for a
// second, so short runs and redirected output stay clean.
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_PROGRESS_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <string>

namespace blockbloom_tools::join_demo {

class Progress {
 public:
  // enabled: whether bars may be drawn at all (see StderrIsTerminal).
  Progress(bool enabled, std::string label, std::uint64_t total);
  ~Progress();  // erases the bar if one was drawn
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // done of total units are finished. Cheap enough to call once per chunk.
  void Update(std::uint64_t done);

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  bool drawn_ = false;
  std::string label_;
  std::uint64_t total_;
  Clock::time_point start_;
  Clock::time_point last_draw_;
};

bool StderrIsTerminal();

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_PROGRESS_H_
