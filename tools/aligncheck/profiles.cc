// SPDX-License-Identifier: Apache-2.0
#include "tools/aligncheck/profiles.h"

#include <cctype>
#include <cstdio>

#include "tools/common/cli_error.h"

namespace blockbloom_tools::aligncheck {
namespace {

// What the four generations share (Intel optimization manual, cache
// parameter tables of the Sandy Bridge and Haswell sections): 64-byte lines,
// 32 KiB 8-way L1D, 256 KiB 8-way L2, an inclusive LLC of 2.5 MiB slices, one
// per core, 4 KiB and 2 MiB pages, and the L2 spatial prefetcher that
// completes each line to its 128-byte-aligned pair.
CoreProfile XeonE5(const char* name, const char* core, const char* product) {
  CoreProfile p;
  p.name = name;
  p.core = core;
  p.product = product;
  p.line_bytes = 64;
  p.l1d_bytes = 32 * kKiB;
  p.l2_bytes = 256 * kKiB;
  p.llc_per_core_bytes = 5 * kMiB / 2;
  p.llc_bytes = p.llc_per_core_bytes;
  p.llc_scope = "per-core share: one 2.5 MiB slice";
  p.page_bytes = 4096;
  p.huge_page_bytes = 2 * kMiB;
  p.prefetch_pair_bytes = 128;
  // Approximate (docs/alignment.md): a line-split load sustains about one per
  // 4.5 cycles instead of one per cycle from L1; a 4 KiB page split costs on
  // the order of 100 cycles before Skylake.
  p.line_split_penalty_cycles = 3.5;
  p.page_split_penalty_cycles = 100;
  return p;
}

const std::vector<CoreProfile>& Builtins() {
  static const std::vector<CoreProfile> profiles = {
      XeonE5("e5-v1", "Sandy Bridge-EP", "Xeon E5 v1"),
      XeonE5("e5-v2", "Ivy Bridge-EP", "Xeon E5 v2"),
      XeonE5("e5-v3", "Haswell-EP", "Xeon E5 v3"),
      XeonE5("e5-v4", "Broadwell-EP", "Xeon E5 v4"),
  };
  return profiles;
}

constexpr std::uint64_t MiB(double n) { return static_cast<std::uint64_t>(n * kMiB); }

}  // namespace

const std::vector<std::string>& BuiltinProfileNames() {
  static const std::vector<std::string> names = {"e5-v1", "e5-v2", "e5-v3", "e5-v4"};
  return names;
}

std::optional<CoreProfile> BuiltinProfile(std::string_view name) {
  for (const CoreProfile& p : Builtins()) {
    if (p.name == name) return p;
  }
  return std::nullopt;
}

// Cores and "Intel Smart Cache" from Intel's product pages (ark.intel.com);
// Intel's "MB" of cache are MiB.
const std::vector<Sku>& KnownSkus() {
  static const std::vector<Sku> skus = {
      // Sandy Bridge-EP, 2012
      {"e5-2609", "e5-v1", 4, MiB(10)},
      {"e5-2620", "e5-v1", 6, MiB(15)},
      {"e5-2630", "e5-v1", 6, MiB(15)},
      {"e5-2643", "e5-v1", 4, MiB(10)},
      {"e5-2670", "e5-v1", 8, MiB(20)},
      {"e5-2690", "e5-v1", 8, MiB(20)},
      // Ivy Bridge-EP, 2013
      {"e5-2620v2", "e5-v2", 6, MiB(15)},
      {"e5-2630v2", "e5-v2", 6, MiB(15)},
      {"e5-2643v2", "e5-v2", 6, MiB(25)},  // 6 cores on a die with 25 MiB enabled
      {"e5-2650v2", "e5-v2", 8, MiB(20)},
      {"e5-2680v2", "e5-v2", 10, MiB(25)},
      {"e5-2697v2", "e5-v2", 12, MiB(30)},
      // Haswell-EP, 2014
      {"e5-2620v3", "e5-v3", 6, MiB(15)},
      {"e5-2630v3", "e5-v3", 8, MiB(20)},
      {"e5-2650v3", "e5-v3", 10, MiB(25)},
      {"e5-2680v3", "e5-v3", 12, MiB(30)},
      {"e5-2699v3", "e5-v3", 18, MiB(45)},
      // Broadwell-EP, 2016
      {"e5-2620v4", "e5-v4", 8, MiB(20)},
      {"e5-2630v4", "e5-v4", 10, MiB(25)},
      {"e5-2650v4", "e5-v4", 12, MiB(30)},
      {"e5-2680v4", "e5-v4", 14, MiB(35)},
      {"e5-2697v4", "e5-v4", 18, MiB(45)},
      {"e5-2699v4", "e5-v4", 22, MiB(55)},
  };
  return skus;
}

std::string NormaliseSkuName(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == ' ' || c == '\t') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  // "e5-2630-v4" -> "e5-2630v4"
  const std::size_t v = out.rfind('v');
  if (v != std::string::npos && v > 0 && out[v - 1] == '-') out.erase(v - 1, 1);
  // Intel did not call the first generation "v1".
  if (out.size() > 2 && out.compare(out.size() - 2, 2, "v1") == 0) out.resize(out.size() - 2);
  return out;
}

const Sku* FindSku(std::string_view name) {
  const std::string key = NormaliseSkuName(name);
  for (const Sku& sku : KnownSkus()) {
    if (key == sku.name) return &sku;
  }
  return nullptr;
}

std::string SkuFromBrand(std::string_view brand) {
  const std::size_t at = brand.find("E5-");
  if (at == std::string_view::npos) return "";
  std::size_t i = at + 3;
  std::string model;
  while (i < brand.size() && std::isalnum(static_cast<unsigned char>(brand[i]))) model += brand[i++];
  if (model.empty()) return "";
  // An optional " v2" / " v3" / " v4" (v1 parts print " 0" there instead).
  while (i < brand.size() && brand[i] == ' ') ++i;
  std::string version;
  if (i + 1 < brand.size() && (brand[i] == 'v' || brand[i] == 'V') &&
      std::isdigit(static_cast<unsigned char>(brand[i + 1]))) {
    version = std::string("v") + brand[i + 1];
  }
  return NormaliseSkuName("e5-" + model + version);
}

CoreProfile ApplySku(CoreProfile profile, const Sku& sku) {
  if (profile.name != sku.profile) {
    throw blockbloom_tools::CliError("--sku " + std::string(sku.name) + " is an " + sku.profile +
                                   " part, not " + profile.name);
  }
  profile.sku = sku.name;
  profile.cores = sku.cores;
  profile.llc_bytes = sku.llc_bytes;
  profile.llc_scope = "whole LLC of the " + std::string(sku.name) + " (" +
                      std::to_string(sku.cores) + " cores)";
  return profile;
}

std::string KnownSkuList() {
  std::string out;
  for (const Sku& sku : KnownSkus()) out += (out.empty() ? "" : ", ") + std::string(sku.name);
  return out;
}

std::string HumanBytes(std::uint64_t bytes) {
  if (bytes == 0) return "unknown";
  const struct {
    std::uint64_t unit;
    const char* name;
  } units[] = {{kMiB * kKiB, "GiB"}, {kMiB, "MiB"}, {kKiB, "KiB"}};
  for (const auto& u : units) {
    // Whole units, or tenths of one when that is exact (2.5 MiB).
    if (bytes >= u.unit && bytes <= UINT64_MAX / 10 && (bytes * 10) % u.unit == 0) {
      char text[48];
      if (bytes % u.unit == 0) {
        std::snprintf(text, sizeof text, "%llu %s",
                      static_cast<unsigned long long>(bytes / u.unit), u.name);
      } else {
        std::snprintf(text, sizeof text, "%.1f %s",
                      static_cast<double>(bytes) / static_cast<double>(u.unit), u.name);
      }
      return text;
    }
  }
  return std::to_string(bytes) + " B";
}

}  // namespace blockbloom_tools::aligncheck
