// SPDX-License-Identifier: Apache-2.0
// blockbloom info [--json]: what this build and this CPU can do.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/tuning.h"
#include "tools/common/cli_args.h"
#include "tools/blockbloom/commands.h"
#include "src/tools_interface.h"
#include "tools/common/json_writer.h"
#include "tools/common/printable_text.h"

namespace blockbloom_tools {
namespace {

std::vector<std::string> SplitCommaList(const std::string& list) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    if (comma > start) items.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

std::string JoinForHumans(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "(none)" : out;
}

// CPU strings come from CPUID, which a hypervisor sets: escape them for the terminal.
std::string OrUnknown(const std::string& text) {
  return text.empty() ? "(unknown)" : Printable(text);
}

// "48 KiB", "2 MiB", "1.5 MiB", "300 MiB": cache and class sizes for humans.
std::string Bytes(std::size_t bytes) {
  char text[32];
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0) {
    std::snprintf(text, sizeof text, "%zu MiB", bytes >> 20);
  } else if (bytes >= (std::size_t{1} << 20)) {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  } else if (bytes % 1024 == 0) {
    std::snprintf(text, sizeof text, "%zu KiB", bytes >> 10);
  } else {
    std::snprintf(text, sizeof text, "%zu bytes", bytes);
  }
  return text;
}

std::string CachesForHumans(const blockbloom::internal::CacheSizes& c) {
  const auto size = [](std::size_t bytes) { return bytes == 0 ? std::string("?") : Bytes(bytes); };
  std::string l3 = "L3 " + size(c.l3);
  if (c.l3 != 0 && c.l3_sharing > 1) {
    l3 += " shared by " + std::to_string(c.l3_sharing) + " (" +
          Bytes(blockbloom::internal::L3PerCore(c)) + " a core)";
  }
  return "L1d " + size(c.l1d) + ", L2 " + size(c.l2) + " a core, " + l3 + " (from " + c.source +
         (c.source == "none" ? ": the reference machine's classes" : "") + ")";
}

void PrintJson(const blockbloom::internal::CpuDescription& cpu) {
  JsonObjectWriter cpu_json(2);
  cpu_json.Add("vendor", JsonString(cpu.vendor));
  cpu_json.Add("brand", JsonString(cpu.brand));
  cpu_json.Add("microarchitecture", JsonString(cpu.microarchitecture));

  JsonObjectWriter json;
  json.Add("version", JsonString(bb_version()));
  json.Add("selected_isa", JsonString(bb_selected_isa()));
  std::vector<std::string> registry;  // every tier the library knows, best first
  for (std::size_t i = 0; i < bb_isa_count(); ++i) registry.push_back(bb_isa_name(i));
  json.Add("isas", JsonStringArray(registry));
  json.Add("compiled_isas", JsonStringArray(SplitCommaList(bb_compiled_isas())));
  json.Add("supported_isas", JsonStringArray(SplitCommaList(bb_supported_isas())));
  json.Add("forced_isa", JsonStringOrNull(bb_forced_isa()));
  json.Add("forced_isa_refused", JsonStringOrNull(bb_forced_isa_refused()));
  JsonObjectWriter prefetch_json(2);
  prefetch_json.Add("hint", JsonString(bb_prefetch_hint_name(bb_prefetch_hint())));
  prefetch_json.Add("distance", JsonInteger(bb_prefetch_distance()));
  prefetch_json.Add("override_refused", JsonStringOrNull(bb_prefetch_override_refused()));
  std::vector<std::string> defaults;
  for (const blockbloom::internal::PrefetchClass& c : blockbloom::internal::ActivePrefetchClasses()) {
    defaults.push_back(JsonObjectWriter::OnOneLine()
                           .Add("min_bytes", JsonInteger(c.min_bytes))
                           .Add("hint", JsonString(bb_prefetch_hint_name(c.hint)))
                           .Add("distance", JsonInteger(c.distance))
                           .Finish());
  }
  prefetch_json.Add("defaults", JsonArray(defaults));
  const blockbloom::internal::CacheSizes& caches = blockbloom::internal::DetectedCacheSizes();
  JsonObjectWriter caches_json(2);
  caches_json.Add("source", JsonString(caches.source));
  caches_json.Add("l1d_bytes", JsonInteger(caches.l1d));
  caches_json.Add("l2_bytes", JsonInteger(caches.l2));
  caches_json.Add("l3_bytes", JsonInteger(caches.l3));
  caches_json.Add("l3_sharing", JsonInteger(caches.l3_sharing));
  caches_json.Add("l3_per_core_bytes", JsonInteger(blockbloom::internal::L3PerCore(caches)));
  json.Add("caches", caches_json.Finish());
  json.Add("prefetch", prefetch_json.Finish());
  json.Add("cpu", cpu_json.Finish());
  std::printf("%s\n", json.Finish().c_str());
}

// "hint l2, 64 keys ahead"; what is not set reads "by size", followed by
// the defaults of the size classes: "(by size: >= 2 MiB l1 at 32, ...)".
std::string PrefetchForHumans() {
  const int hint = bb_prefetch_hint();
  const std::size_t distance = bb_prefetch_distance();
  std::string text = std::string("hint ") +
                     (hint == BB_PREFETCH_DEFAULT ? "by size" : bb_prefetch_hint_name(hint)) + ", " +
                     (distance == 0 ? "distance by size" : std::to_string(distance) + " keys ahead");
  if (hint != BB_PREFETCH_DEFAULT && distance != 0) return text;
  std::string classes;
  for (const blockbloom::internal::PrefetchClass& c : blockbloom::internal::ActivePrefetchClasses()) {
    classes += std::string(classes.empty() ? "" : ", ") + ">= " + Bytes(c.min_bytes) + " " +
               bb_prefetch_hint_name(c.hint) +
               " at " + std::to_string(c.distance);
  }
  return text + " (by size: " + classes + ")";
}

void PrintForHumans(const blockbloom::internal::CpuDescription& cpu) {
  std::string forced = "(not set)";
  if (const char* name = bb_forced_isa()) {
    const char* refused = bb_forced_isa_refused();
    forced = std::string(name) +
             (refused ? " (refused: " + std::string(refused) + ")" : " (honoured)");
  }
  const std::pair<const char*, std::string> rows[] = {
      {"version", bb_version()},
      {"cpu vendor", OrUnknown(cpu.vendor)},
      {"cpu brand", OrUnknown(cpu.brand)},
      {"cpu microarchitecture", OrUnknown(cpu.microarchitecture)},
      {"compiled ISAs", JoinForHumans(SplitCommaList(bb_compiled_isas()))},
      {"supported ISAs", JoinForHumans(SplitCommaList(bb_supported_isas()))},
      {"selected ISA", bb_selected_isa()},
      {"BLOCKBLOOM_ISA", forced},
      {"caches", CachesForHumans(blockbloom::internal::DetectedCacheSizes())},
      {"prefetch", PrefetchForHumans()},
  };
  for (const auto& row : rows) {
    std::printf("%-23s%s\n", (std::string(row.first) + ":").c_str(), row.second.c_str());
  }
  if (const char* refused = bb_prefetch_override_refused()) {
    std::printf("%-23s%s\n", "prefetch override:", (std::string("refused: ") + refused).c_str());
  }
}

}  // namespace

int RunInfo(const std::vector<std::string>& args) {
  const ParsedFlags flags = ParseFlags(args, {{"--json", false, ""}});
  if (flags.help_requested()) return PrintHelp("info");
  const blockbloom::internal::CpuDescription cpu = blockbloom::internal::DescribeCpu();
  if (flags.Has("--json")) {
    PrintJson(cpu);
  } else {
    PrintForHumans(cpu);
  }
  return 0;
}

}  // namespace blockbloom_tools
