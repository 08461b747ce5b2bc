// SPDX-License-Identifier: Apache-2.0
// The prefetch settings' environment overrides, BLOCKBLOOM_PREFETCH_DISTANCE
// and BLOCKBLOOM_PREFETCH_HINT: parsed by pure functions (tests feed them any
// text) and applied once when the library loads. Like BLOCKBLOOM_ISA, a bad
// value can never break anything: it is refused, the default stays, and
// bb_prefetch_override_refused() says why.
#ifndef BLOCKBLOOM_DISPATCH_PREFETCH_CHOICE_H_
#define BLOCKBLOOM_DISPATCH_PREFETCH_CHOICE_H_

#include <cstddef>
#include <string>

namespace blockbloom::internal {

struct PrefetchChoice {
  std::size_t distance = 0;  // 0: not overridden
  int hint = -1;             // -1: not overridden; else a bb_prefetch_level
  std::string refused;       // why an override was refused; empty if none was
};

// Either text may be null or empty (no override). The distance must be a
// whole decimal number in 1 .. BB_MAX_PREFETCH_DISTANCE (leading and trailing
// blanks allowed); the hint one of none, l1, l2, l3.
PrefetchChoice ChoosePrefetch(const char* distance_text, const char* hint_text);

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_DISPATCH_PREFETCH_CHOICE_H_
