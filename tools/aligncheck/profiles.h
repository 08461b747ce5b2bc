// SPDX-License-Identifier: Apache-2.0
// Core profiles: the cache and page geometry of the Xeon E5 generations
// (Sandy Bridge-EP .. Broadwell-EP) and the split-load costs the report uses,
// plus a handful of real SKUs per generation for their whole-LLC size.
// Figures and their sources: docs/alignment.md.
#ifndef BLOCKBLOOM_TOOLS_ALIGNCHECK_PROFILES_H_
#define BLOCKBLOOM_TOOLS_ALIGNCHECK_PROFILES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blockbloom_tools::aligncheck {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * 1024;

struct CoreProfile {
  std::string name;     // "e5-v1" .. "e5-v4", or "generic"
  std::string core;     // "Sandy Bridge-EP", ... or what was detected
  std::string product;  // "Xeon E5 v1", ... or ""
  std::uint64_t line_bytes = 64;
  std::uint64_t l1d_bytes = 0;           // 0 = unknown
  std::uint64_t l2_bytes = 0;            // 0 = unknown
  std::uint64_t llc_per_core_bytes = 0;  // 0 = unknown
  // The LLC a filter is judged against: the per-core share unless a SKU (or a
  // detected whole L3, for generic) says more; llc_scope says which.
  std::uint64_t llc_bytes = 0;
  std::string llc_scope;
  std::string sku;         // "" or e.g. "e5-2630v4"
  std::uint32_t cores = 0;  // of the SKU; 0 = unknown
  std::uint64_t page_bytes = 4096;
  std::uint64_t huge_page_bytes = 2 * kMiB;
  std::uint64_t prefetch_pair_bytes = 0;  // adjacent-line prefetcher pair; 0 = none known
  // Approximate extra cycles of one load that splits a cache line (L1 hit) and
  // of one that splits a 4 KiB page; negative = unknown (generic).
  double line_split_penalty_cycles = -1;
  double page_split_penalty_cycles = -1;
};

// "e5-v1", "e5-v2", "e5-v3", "e5-v4", in order.
const std::vector<std::string>& BuiltinProfileNames();

// The built-in profile of that name (LLC judged per core), or nullopt.
std::optional<CoreProfile> BuiltinProfile(std::string_view name);

struct Sku {
  const char* name;     // normalised: "e5-2630v4"; v1 parts have no suffix ("e5-2670")
  const char* profile;  // "e5-v4"
  std::uint32_t cores;
  std::uint64_t llc_bytes;
};

const std::vector<Sku>& KnownSkus();

// "E5-2630 v4", "e5-2630v4", "E5-2630-V4" -> "e5-2630v4"; "E5-2670 v1" -> "e5-2670".
std::string NormaliseSkuName(std::string_view text);

// The SKU named (after NormaliseSkuName), or nullptr.
const Sku* FindSku(std::string_view name);

// The SKU in a CPU brand string such as "Intel(R) Xeon(R) CPU E5-2630 v4 @
// 2.20GHz" or "Intel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz", normalised, or "".
std::string SkuFromBrand(std::string_view brand);

// profile with the SKU's whole LLC and core count. Throws CliError when the
// SKU belongs to another generation than the profile.
CoreProfile ApplySku(CoreProfile profile, const Sku& sku);

// "e5-2609, e5-2620, ..." for error messages and --help.
std::string KnownSkuList();

// 32768 -> "32 KiB", 2621440 -> "2.5 MiB", 1040 -> "1040 B", 0 -> "unknown".
std::string HumanBytes(std::uint64_t bytes);

}  // namespace blockbloom_tools::aligncheck

#endif  // BLOCKBLOOM_TOOLS_ALIGNCHECK_PROFILES_H_
