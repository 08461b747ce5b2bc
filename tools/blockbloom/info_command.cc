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
#include "api/tools_interface.h"
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
  for (const blockbloom::internal::PrefetchClass& c : blockbloom::internal::kPrefetchClasses) {
    defaults.push_back(JsonObjectWriter::OnOneLine()
                           .Add("min_bytes", JsonInteger(c.min_bytes))
                           .Add("hint", JsonString(bb_prefetch_hint_name(c.hint)))
                           .Add("distance", JsonInteger(c.distance))
                           .Finish());
  }
  prefetch_json.Add("defaults", JsonArray(defaults));
  json.Add("prefetch", prefetch_json.Finish());
  json.Add("cpu", cpu_json.Finish());
  std::printf("%s\n", json.Finish().c_str());
}

// "hint l2, 64 keys ahead"; what is not set reads "by size", followed by
// the defaults of the size classes: "(by size: >= 1 MiB l1 at 32, ...)".
std::string PrefetchForHumans() {
  const int hint = bb_prefetch_hint();
  const std::size_t distance = bb_prefetch_distance();
  std::string text = std::string("hint ") +
                     (hint == BB_PREFETCH_DEFAULT ? "by size" : bb_prefetch_hint_name(hint)) + ", " +
                     (distance == 0 ? "distance by size" : std::to_string(distance) + " keys ahead");
  if (hint != BB_PREFETCH_DEFAULT && distance != 0) return text;
  std::string classes;
  for (const blockbloom::internal::PrefetchClass& c : blockbloom::internal::kPrefetchClasses) {
    classes += std::string(classes.empty() ? "" : ", ") + ">= " +
               std::to_string(c.min_bytes >> 20) + " MiB " + bb_prefetch_hint_name(c.hint) +
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
      {"prefetch (>= 1 MiB)", PrefetchForHumans()},
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
