// SPDX-License-Identifier: Apache-2.0
// Progress of the commands that can run for minutes (join-demo, tune, build
// and probe of large inputs), on standard error only -- standard output and
// --json stay exactly what they are without it:
//   - stderr a terminal: a bar redrawn in place, erased when the step ends;
//   - otherwise (a pipe, a log file): a plain line every few seconds, so a
//     long run under nohup or CI shows it is alive;
//   - nothing at all before the command has run for two seconds, so short
//     runs and tests stay quiet (a long run of short steps still reports
//     each step it reaches after that); nothing with --no-progress.
// BLOCKBLOOM_TEST_PROGRESS_INTERVAL=S (test-only, docs/testing.md) replaces
// both the quiet start and the interval by S seconds: 0 makes a small run
// report at every update, which is how tests see the lines.
#ifndef BLOCKBLOOM_TOOLS_COMMON_PROGRESS_H_
#define BLOCKBLOOM_TOOLS_COMMON_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "tools/common/cli_args.h"

namespace blockbloom_tools {

struct ProgressSettings {
  std::string command;          // "join-demo": every line names it
  bool enabled = false;         // false with --no-progress
  bool terminal = false;        // stderr is a terminal: a bar, else lines
  std::chrono::steady_clock::time_point command_start;  // when the settings were read
  double quiet_seconds = 2.0;   // nothing is reported this soon after command_start
  double every_seconds = 5.0;   // between two reports, of any step (the bar: 0.1)
  // The last report of any step: a run of short steps reports every
  // every_seconds, not once per step.
  mutable std::chrono::steady_clock::time_point last_report{};
  mutable bool reported = false;
};

// The switch every long command accepts.
inline const FlagSpec kNoProgressFlag{"--no-progress", false, ""};

// From --no-progress, whether stderr is a terminal and
// BLOCKBLOOM_TEST_PROGRESS_INTERVAL (a CliError, exit 2, when that is not a
// number of seconds from 0 to 3600).
ProgressSettings ProgressSettingsFromFlags(const ParsedFlags& flags, std::string command);

class Progress {
 public:
  // total: units of the whole step, or 0 when unknown (then the count alone
  // is shown); unit: what is counted ("rows", "values"). The label may hold
  // a file name: it is printed escaped (printable_text.h). settings must
  // outlive the Progress.
  Progress(const ProgressSettings& settings, std::string label, std::uint64_t total,
           std::string unit);
  // Erases the bar; in line mode, says the step is done if it said anything.
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // done units are finished. Cheap enough to call once per chunk or batch.
  void Update(std::uint64_t done);

 private:
  using Clock = std::chrono::steady_clock;
  void DrawBar(std::uint64_t done, double elapsed) const;
  void PrintLine(std::uint64_t done, double elapsed) const;

  const ProgressSettings& settings_;
  std::string label_;
  std::uint64_t total_;
  std::string unit_;
  bool reported_ = false;  // by this step
  Clock::time_point start_;
};

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_PROGRESS_H_
