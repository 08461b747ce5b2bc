// SPDX-License-Identifier: Apache-2.0
#include "src/dispatch/isa_choice.h"

#include <cstddef>
#include <cstring>

namespace blockbloom::internal {
namespace {

// The CpuFlags field of each CpuFeature, in src/core/isa.h's order.
constexpr bool CpuFlags::*kFlagOf[] = {
#define BLOCKBLOOM_FLAG_OF(field, name) &CpuFlags::field,
    BLOCKBLOOM_CPU_FEATURES(BLOCKBLOOM_FLAG_OF)
#undef BLOCKBLOOM_FLAG_OF
};

// Keeps a hostile environment value printable and short in messages.
std::string Sanitise(const char* text) {
  std::string out;
  for (const char* p = text; *p != '\0'; ++p) {
    if (out.size() >= 64) {
      out += "...";
      break;
    }
    const unsigned char c = static_cast<unsigned char>(*p);
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  return out;
}

}  // namespace

bool CpuCanRun(Isa isa, const CpuFlags& flags, std::string* missing) {
  const CpuFeatureSet needs = IsaNeeds(isa);
  // In the features' order, so the first one missing is named.
  for (std::size_t f = 0; f < kNumCpuFeatures; ++f) {
    if (((needs >> f) & 1u) != 0 && !(flags.*kFlagOf[f])) {
      if (missing) *missing = kCpuFeatureNames[f];
      return false;
    }
  }
  return true;
}

std::string IsaSetNames(const IsaSet& set, const char* separator) {
  std::string out;
  for (Isa isa : kIsasBestFirst) {
    if (!set.Has(isa)) continue;
    if (!out.empty()) out += separator;
    out += IsaName(isa);
  }
  return out;
}

IsaChoice ChooseIsa(const char* override_name, const IsaSet& compiled, const CpuFlags& flags) {
  IsaChoice choice;
  for (Isa isa : kIsasBestFirst) {
    if (compiled.Has(isa) && CpuCanRun(isa, flags, nullptr)) {
      choice.selected = isa;
      break;
    }
  }
  if (override_name == nullptr || override_name[0] == '\0') return choice;

  choice.forced = Sanitise(override_name);
  Isa wanted;
  std::string missing;
  if (!IsaFromName(override_name, &wanted)) {
    IsaSet all;
    for (Isa isa : kIsasBestFirst) all.Add(isa);
    choice.refused = "unknown ISA \"" + choice.forced + "\" (known: " + IsaSetNames(all, ", ") + ")";
  } else if (!compiled.Has(wanted)) {
    choice.refused = "ISA \"" + choice.forced + "\" is not compiled into this build (compiled: " +
                     IsaSetNames(compiled, ", ") + ")";
  } else if (!CpuCanRun(wanted, flags, &missing)) {
    choice.refused = "this CPU cannot run ISA \"" + choice.forced + "\": it lacks " + missing;
  } else {
    choice.selected = wanted;
  }
  return choice;
}

}  // namespace blockbloom::internal
