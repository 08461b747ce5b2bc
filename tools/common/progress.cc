// SPDX-License-Identifier: Apache-2.0
#include "tools/common/progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <utility>

#include "tools/common/cli_error.h"
#include "tools/common/printable_text.h"
#include "tools/common/value_parse.h"

namespace blockbloom_tools {
namespace {

constexpr double kBarRedrawSeconds = 0.1;
constexpr double kMaxTestInterval = 3600.0;
constexpr int kBarWidth = 30;
constexpr char kTestIntervalVariable[] = "BLOCKBLOOM_TEST_PROGRESS_INTERVAL";

double Fraction(std::uint64_t done, std::uint64_t total) {
  return done >= total ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
}

}  // namespace

ProgressSettings ProgressSettingsFromFlags(const ParsedFlags& flags, std::string command) {
  ProgressSettings settings;
  settings.command = std::move(command);
  settings.command_start = std::chrono::steady_clock::now();
  settings.enabled = !flags.Has(kNoProgressFlag.name);
  settings.terminal = isatty(STDERR_FILENO) == 1;
  if (settings.terminal) settings.every_seconds = kBarRedrawSeconds;
  const char* text = std::getenv(kTestIntervalVariable);
  if (text != nullptr) {
    double seconds = 0.0;
    if (ParseDouble(text, &seconds) != ValueStatus::kOk || !(seconds >= 0.0) ||
        seconds > kMaxTestInterval) {
      throw CliError(std::string(kTestIntervalVariable) + "=" + Shortened(text, 40) +
                     ": not a number of seconds from 0 to 3600");
    }
    settings.quiet_seconds = seconds;
    settings.every_seconds = seconds;
  }
  return settings;
}

Progress::Progress(const ProgressSettings& settings, std::string label, std::uint64_t total,
                   std::string unit)
    : settings_(settings), label_(Printable(label)), total_(total), unit_(std::move(unit)),
      start_(Clock::now()) {}

Progress::~Progress() {
  if (!reported_) return;
  if (settings_.terminal) {
    std::fputs("\r\033[K", stderr);  // back to column 0, erase the line
  } else if (std::uncaught_exceptions() == 0) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    std::fprintf(stderr, "blockbloom %s: %s: done in %.0f s\n", settings_.command.c_str(),
                 label_.c_str(), elapsed);
  }
  std::fflush(stderr);
}

void Progress::Update(std::uint64_t done) {
  if (!settings_.enabled) return;
  const Clock::time_point now = Clock::now();
  const double running = std::chrono::duration<double>(now - settings_.command_start).count();
  if (running < settings_.quiet_seconds) return;
  const double since_last =
      std::chrono::duration<double>(now - settings_.last_report).count();
  if (settings_.reported && since_last < settings_.every_seconds) return;
  settings_.last_report = now;
  settings_.reported = true;
  reported_ = true;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (settings_.terminal) {
    DrawBar(done, elapsed);
  } else {
    PrintLine(done, elapsed);
  }
  std::fflush(stderr);
}

void Progress::DrawBar(std::uint64_t done, double elapsed) const {
  if (total_ == 0) {
    std::fprintf(stderr, "\r\033[K%s: %llu %s %.0fs", label_.c_str(),
                 static_cast<unsigned long long>(done), unit_.c_str(), elapsed);
    return;
  }
  const double fraction = Fraction(done, total_);
  const int filled = static_cast<int>(fraction * kBarWidth);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(kBarWidth - filled), '.');
  std::fprintf(stderr, "\r\033[K%s [%s] %3d%% %.0fs", label_.c_str(), bar.c_str(),
               static_cast<int>(fraction * 100.0), elapsed);
}

void Progress::PrintLine(std::uint64_t done, double elapsed) const {
  std::fprintf(stderr, "blockbloom %s: %s: ", settings_.command.c_str(), label_.c_str());
  if (total_ != 0) {
    std::fprintf(stderr, "%d%% (%llu of %llu %s)", static_cast<int>(Fraction(done, total_) * 100.0),
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
                 unit_.c_str());
  } else {
    std::fprintf(stderr, "%llu %s", static_cast<unsigned long long>(done), unit_.c_str());
  }
  std::fprintf(stderr, ", %.0f s\n", elapsed);
}

}  // namespace blockbloom_tools
