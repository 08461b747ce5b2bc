// SPDX-License-Identifier: Apache-2.0
// Which tiers a CPU can run, and which tier to select given BLOCKBLOOM_ISA.
// Pure functions of their inputs, so tests can feed them any CPU.
#ifndef BLOCKBLOOM_DISPATCH_ISA_CHOICE_H_
#define BLOCKBLOOM_DISPATCH_ISA_CHOICE_H_

#include <string>

#include "src/dispatch/cpu_features_detect.h"
#include "src/core/isa.h"

namespace blockbloom::internal {

// True if a CPU with `flags` can run every instruction the tier's compiled
// code may contain. Otherwise false, and *missing (if not null) names the
// first feature it lacks.
bool CpuCanRun(Isa isa, const CpuFlags& flags, std::string* missing);

// The ISAs this build compiled and this CPU can run, as one bit per Isa.
struct IsaSet {
  unsigned bits = 0;
  bool Has(Isa isa) const { return (bits >> static_cast<unsigned>(isa)) & 1u; }
  void Add(Isa isa) { bits |= 1u << static_cast<unsigned>(isa); }
};

struct IsaChoice {
  Isa selected = Isa::kScalar;
  std::string forced;   // the override as given (sanitised); empty if none
  std::string refused;  // why the override was refused; empty if honoured or none
};

// Picks the best supported ISA, or `override_name` (BLOCKBLOOM_ISA; null or
// empty means none) when it names a supported one. Never fails: a bad
// override leaves the best ISA selected and says why in `refused`.
IsaChoice ChooseIsa(const char* override_name, const IsaSet& compiled, const CpuFlags& flags);

// "avx512, avx2, sse42, scalar": the names in `set`, best first.
std::string IsaSetNames(const IsaSet& set, const char* separator);

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_DISPATCH_ISA_CHOICE_H_
