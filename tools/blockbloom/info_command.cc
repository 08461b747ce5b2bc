// SPDX-License-Identifier: Apache-2.0
// blockbloom info [--json]: what this build and this CPU can do.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/tuning.h"
#include "common/cli_args.h"
#include "commands.h"
#include "dispatch/cpu_features_detect.h"
#include "common/json_writer.h"
#include "common/printable_text.h"

namespace blockbloom_cli {
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

void PrintJson(const blockbloom::CpuDescription& cpu) {
  JsonObjectWriter cpu_json(2);
  cpu_json.Add("vendor", JsonString(cpu.vendor));
  cpu_json.Add("brand", JsonString(cpu.brand));
  cpu_json.Add("microarchitecture", JsonString(cpu.microarchitecture));

  JsonObjectWriter json;
  json.Add("version", JsonString(bb_version()));
  json.Add("selected_isa", JsonString(bb_selected_isa()));
  json.Add("compiled_isas", JsonStringArray(SplitCommaList(bb_compiled_isas())));
  json.Add("supported_isas", JsonStringArray(SplitCommaList(bb_supported_isas())));
  json.Add("forced_isa", JsonStringOrNull(bb_forced_isa()));
  json.Add("forced_isa_refused", JsonStringOrNull(bb_forced_isa_refused()));
  JsonObjectWriter prefetch_json(2);
  prefetch_json.Add("hint", JsonString(bb_prefetch_hint_name(bb_prefetch_hint())));
  prefetch_json.Add("distance", std::to_string(bb_prefetch_distance()));
  prefetch_json.Add("override_refused", JsonStringOrNull(bb_prefetch_override_refused()));
  json.Add("prefetch", prefetch_json.Finish());
  json.Add("cpu", cpu_json.Finish());
  std::printf("%s\n", json.Finish().c_str());
}

void PrintForHumans(const blockbloom::CpuDescription& cpu) {
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
      {"prefetch (>= 1 MiB)", std::string("hint ") + bb_prefetch_hint_name(bb_prefetch_hint()) +
                                  ", " + std::to_string(bb_prefetch_distance()) + " keys ahead"},
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
  const blockbloom::CpuDescription cpu = blockbloom::DescribeCpu();
  if (flags.Has("--json")) {
    PrintJson(cpu);
  } else {
    PrintForHumans(cpu);
  }
  return 0;
}

}  // namespace blockbloom_cli
