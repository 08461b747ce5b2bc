// SPDX-License-Identifier: Apache-2.0
// Accumulates the time of the timed parts of a scan (the probes), leaving out
// what happens between them (generating the keys, checking results).
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_STOPWATCH_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_STOPWATCH_H_

#include <chrono>

namespace blockbloom_tools::join_demo {

class Stopwatch {
 public:
  using Clock = std::chrono::steady_clock;

  // Runs f() and adds its duration to the total; returns that duration.
  template <typename F>
  double Time(F&& f) {
    const Clock::time_point start = Clock::now();
    f();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    seconds_ += seconds;
    return seconds;
  }

  double seconds() const { return seconds_; }

 private:
  double seconds_ = 0.0;
};

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_STOPWATCH_H_
