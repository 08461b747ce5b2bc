// SPDX-License-Identifier: Apache-2.0
// Accumulates the time of the timed parts of a scan (the probes), leaving out
// what happens between them (generating the keys, checking results): wall
// time, and the CPU time the process got meanwhile. On a busy machine the two
// part ways (the process waits for a core), and a speed computed from the
// wall time is then the machine's load, not the kernel's: see
// WallAndCpuDisagree.
#ifndef BLOCKBLOOM_TOOLS_JOIN_DEMO_STOPWATCH_H_
#define BLOCKBLOOM_TOOLS_JOIN_DEMO_STOPWATCH_H_

#include <chrono>
#include <cmath>
#include <ctime>

namespace blockbloom_tools::join_demo {

// The CPU time of the whole process (every thread), in seconds.
inline double ProcessCpuSeconds() {
  timespec now{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) != 0) return 0.0;
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// How far CPU and wall time of a single-threaded measurement may differ
// before its speeds are not to be trusted.
inline constexpr double kMaxCpuWallDisagreement = 0.10;

// True when wall and CPU seconds differ by more than kMaxCpuWallDisagreement
// of the larger (a process that waited for a core, or a clock gone wrong).
inline bool WallAndCpuDisagree(double wall_seconds, double cpu_seconds) {
  const double larger = std::fmax(wall_seconds, cpu_seconds);
  return std::fabs(wall_seconds - cpu_seconds) > kMaxCpuWallDisagreement * larger;
}

class Stopwatch {
 public:
  using Clock = std::chrono::steady_clock;

  // Runs f() and adds its duration to the totals; returns its wall seconds.
  template <typename F>
  double Time(F&& f) {
    const double cpu_start = ProcessCpuSeconds();
    const Clock::time_point start = Clock::now();
    f();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    cpu_seconds_ += ProcessCpuSeconds() - cpu_start;
    seconds_ += seconds;
    return seconds;
  }

  double seconds() const { return seconds_; }
  double cpu_seconds() const { return cpu_seconds_; }

 private:
  double seconds_ = 0.0;
  double cpu_seconds_ = 0.0;
};

}  // namespace blockbloom_tools::join_demo

#endif  // BLOCKBLOOM_TOOLS_JOIN_DEMO_STOPWATCH_H_
