// SPDX-License-Identifier: Apache-2.0
#include "dispatch/isa_choice.h"

#include <cstring>
#include <initializer_list>
#include <utility>

namespace blockbloom::internal {
namespace {

using Requirement = std::pair<bool CpuFlags::*, const char*>;

// Each list mirrors the target string Highway compiles that tier with (SSE4
// without PCLMUL/AES: the build defines HWY_DISABLE_PCLMUL_AES so that the
// sse42 tier runs on Nehalem-class CPUs). Each tier includes the one below.
bool HasAll(const CpuFlags& flags, std::initializer_list<Requirement> reqs, std::string* missing) {
  for (const Requirement& r : reqs) {
    if (!(flags.*(r.first))) {
      if (missing) *missing = r.second;
      return false;
    }
  }
  return true;
}

// GCC's "sse4.2" target also enables POPCNT (every SSE4.2 CPU has it).
bool CanRunSse42(const CpuFlags& f, std::string* missing) {
  return HasAll(f, {{&CpuFlags::ssse3, "SSSE3"}, {&CpuFlags::sse41, "SSE4.1"},
                    {&CpuFlags::sse42, "SSE4.2"}, {&CpuFlags::popcnt, "POPCNT"}},
                missing);
}

bool CanRunAvx2(const CpuFlags& f, std::string* missing) {
  return CanRunSse42(f, missing) &&
         HasAll(f, {{&CpuFlags::avx, "AVX"}, {&CpuFlags::avx2, "AVX2"}, {&CpuFlags::bmi1, "BMI1"},
                    {&CpuFlags::bmi2, "BMI2"}, {&CpuFlags::fma, "FMA"}, {&CpuFlags::f16c, "F16C"}},
                missing);
}

bool CanRunAvx512(const CpuFlags& f, std::string* missing) {
  return CanRunAvx2(f, missing) &&
         HasAll(f, {{&CpuFlags::avx512f, "AVX-512F"}, {&CpuFlags::avx512vl, "AVX-512VL"},
                    {&CpuFlags::avx512dq, "AVX-512DQ"}, {&CpuFlags::avx512bw, "AVX-512BW"}},
                missing);
}

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
  switch (isa) {
    case Isa::kScalar: return true;
    case Isa::kSse42: return CanRunSse42(flags, missing);
    case Isa::kAvx2: return CanRunAvx2(flags, missing);
    case Isa::kAvx512: return CanRunAvx512(flags, missing);
    case Isa::kNeon: return HasAll(flags, {{&CpuFlags::asimd, "ASIMD (NEON)"}}, missing);
#ifdef BLOCKBLOOM_TEST_DUMMY_TIER
    case Isa::kDummy: return true;  // scalar code
#endif
  }
  return false;
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
