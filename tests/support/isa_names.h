// SPDX-License-Identifier: Apache-2.0
// The ISA names the per-ISA tests run over, read from the library's registry
// (bb_isa_count / bb_isa_name, src/core/isa.h) so that a tier added there is
// tested without editing any list here.
#ifndef BLOCKBLOOM_TESTS_ISA_NAMES_H_
#define BLOCKBLOOM_TESTS_ISA_NAMES_H_

#include <cstddef>
#include <vector>

#include "blockbloom/blockbloom.h"

namespace bbtest {

// Every ISA the library knows, whether or not this build or CPU has it, best
// first (the registry's order; "scalar" last).
inline std::vector<const char*> RegistryIsaNames() {
  std::vector<const char*> names;
  for (size_t i = 0; i < bb_isa_count(); ++i) names.push_back(bb_isa_name(i));
  return names;
}

}  // namespace bbtest

#endif  // BLOCKBLOOM_TESTS_ISA_NAMES_H_
