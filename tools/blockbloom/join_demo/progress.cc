// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/join_demo/progress.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

namespace blockbloom_tools::join_demo {
namespace {

constexpr std::chrono::milliseconds kQuietStart{1000};
constexpr std::chrono::milliseconds kRedrawEvery{100};
constexpr int kBarWidth = 30;

}  // namespace

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

Progress::Progress(bool enabled, std::string label, std::uint64_t total)
    : enabled_(enabled && total > 0), label_(std::move(label)), total_(total),
      start_(Clock::now()), last_draw_(start_) {}

Progress::~Progress() {
  if (drawn_) {
    std::fputs("\r\033[K", stderr);  // back to column 0, erase the line
    std::fflush(stderr);
  }
}

void Progress::Update(std::uint64_t done) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  if (now - start_ < kQuietStart || now - last_draw_ < kRedrawEvery) return;
  last_draw_ = now;
  drawn_ = true;
  const double fraction =
      done >= total_ ? 1.0 : static_cast<double>(done) / static_cast<double>(total_);
  const int filled = static_cast<int>(fraction * kBarWidth);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(kBarWidth - filled), '.');
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "\r\033[K%s [%s] %3d%% %.0fs", label_.c_str(), bar.c_str(),
               static_cast<int>(fraction * 100.0), elapsed);
  std::fflush(stderr);
}

}  // namespace blockbloom_tools::join_demo
