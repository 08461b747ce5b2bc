// SPDX-License-Identifier: Apache-2.0
// An application that defines its own GetX86Info -- cpu_features' detection
// entry point -- returning no features at all, linked against libblockbloom.so.
// Were the library's copy of cpu_features exported, this definition would
// interpose on it and the library would silently select scalar (or crash,
// for a definition of another size). Prints the ISA the library selected, the
// ISAs it finds supported, and how often this GetX86Info was called (must be
// 0); tests/support/interpose/interpose_check.py compares them with `blockbloom info`.
#include <cstdio>
#include <cstring>

#include "blockbloom/blockbloom.h"
#include "cpuinfo_x86.h"

namespace {
int g_calls = 0;
}  // namespace

namespace cpu_features {
extern "C" X86Info GetX86Info(void) {
  ++g_calls;
  X86Info none;
  std::memset(&none, 0, sizeof none);
  return none;
}
}  // namespace cpu_features

int main() {
  std::printf("selected %s\nsupported %s\ncalls %d\n", bb_selected_isa(), bb_supported_isas(),
              g_calls);
  return 0;
}
