// SPDX-License-Identifier: Apache-2.0
#include "src/dispatch/prefetch_choice.h"

#include <cstdlib>
#include <cstring>

#include "blockbloom/tuning.h"
#include "src/kernels/prefetch.h"

namespace blockbloom::internal {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// Printable and short, for messages about hostile environment values.
std::string Quoted(const char* text) {
  std::string out = "\"";
  for (const char* p = text; *p != '\0'; ++p) {
    if (out.size() > 40) {
      out += "...";
      break;
    }
    const unsigned char c = static_cast<unsigned char>(*p);
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  return out + "\"";
}

// The distance, or 0 if text is not a whole number in 1 .. the maximum.
std::size_t ParseDistance(const char* text) {
  const char* p = text;
  while (IsBlank(*p)) ++p;
  std::size_t value = 0;
  const char* digits = p;
  for (; *p >= '0' && *p <= '9'; ++p) {
    value = value * 10 + static_cast<std::size_t>(*p - '0');
    if (value > kMaxPrefetchDistance) return 0;  // also stops any overflow
  }
  if (p == digits) return 0;
  while (IsBlank(*p)) ++p;
  return *p == '\0' ? value : 0;
}

int ParseHint(const char* text) {
  for (int hint = BB_PREFETCH_NONE; hint <= BB_PREFETCH_L3; ++hint) {
    if (std::strcmp(text, bb_prefetch_hint_name(hint)) == 0) return hint;
  }
  return -1;
}

void AddReason(std::string* refused, const std::string& reason) {
  if (!refused->empty()) *refused += "; ";
  *refused += reason;
}

}  // namespace

PrefetchChoice ChoosePrefetch(const char* distance_text, const char* hint_text) {
  PrefetchChoice choice;
  if (distance_text != nullptr && *distance_text != '\0') {
    choice.distance = ParseDistance(distance_text);
    if (choice.distance == 0) {
      AddReason(&choice.refused, "BLOCKBLOOM_PREFETCH_DISTANCE=" + Quoted(distance_text) +
                                     " is not a whole number from 1 to " +
                                     std::to_string(kMaxPrefetchDistance) +
                                     "; the default distances (by filter size) stay");
    }
  }
  if (hint_text != nullptr && *hint_text != '\0') {
    choice.hint = ParseHint(hint_text);
    if (choice.hint < 0) {
      AddReason(&choice.refused, "BLOCKBLOOM_PREFETCH_HINT=" + Quoted(hint_text) +
                                     " is not one of none, l1, l2, l3; the default hints (by filter size) stay");
    }
  }
  return choice;
}

namespace {

const PrefetchChoice& LoadChoice() {
  static const PrefetchChoice choice = ChoosePrefetch(
      std::getenv("BLOCKBLOOM_PREFETCH_DISTANCE"), std::getenv("BLOCKBLOOM_PREFETCH_HINT"));
  return choice;
}

// Runs while the library is loaded, before main().
const bool kAppliedOnLoad = [] {
  const PrefetchChoice& choice = LoadChoice();
  if (choice.distance != 0) g_prefetch_distance.store(choice.distance, std::memory_order_relaxed);
  if (choice.hint >= 0) g_prefetch_hint.store(choice.hint, std::memory_order_relaxed);
  return true;
}();

}  // namespace
}  // namespace blockbloom::internal

// ------------------------------------------------------- C API: prefetching

extern "C" {

size_t bb_prefetch_distance(void) {
  return blockbloom::internal::g_prefetch_distance.load(std::memory_order_relaxed);
}

void bb_set_prefetch_distance(size_t keys_ahead) {
  // 0 stays 0: the default of each filter's size class.
  if (keys_ahead > blockbloom::internal::kMaxPrefetchDistance) keys_ahead = blockbloom::internal::kMaxPrefetchDistance;
  blockbloom::internal::g_prefetch_distance.store(keys_ahead, std::memory_order_relaxed);
}

int bb_prefetch_hint(void) { return blockbloom::internal::g_prefetch_hint.load(std::memory_order_relaxed); }

int bb_set_prefetch_hint(int hint) {
  if (bb_prefetch_hint_name(hint) == nullptr) return BB_ERR_INVALID_PREFETCH_HINT;
  blockbloom::internal::g_prefetch_hint.store(hint, std::memory_order_relaxed);
  return BB_OK;
}

const char* bb_prefetch_hint_name(int hint) {
  switch (hint) {
    case BB_PREFETCH_DEFAULT: return "default";
    case BB_PREFETCH_NONE: return "none";
    case BB_PREFETCH_L1: return "l1";
    case BB_PREFETCH_L2: return "l2";
    case BB_PREFETCH_L3: return "l3";
    default: return nullptr;
  }
}

const char* bb_prefetch_override_refused(void) {
  const std::string& refused = blockbloom::internal::LoadChoice().refused;
  return refused.empty() ? nullptr : refused.c_str();
}

}  // extern "C"
