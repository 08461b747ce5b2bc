// SPDX-License-Identifier: Apache-2.0
#include "tools/aligncheck/report.h"

#include <algorithm>
#include <cstdio>

#include "tools/common/json_writer.h"
#include "tools/common/printable_text.h"

namespace blockbloom_tools::aligncheck {
namespace {

Fits FitsIn(std::uint64_t footprint, std::uint64_t cache) {
  if (cache == 0) return Fits::kUnknown;
  return footprint <= cache ? Fits::kYes : Fits::kNo;
}

// The decimals of the JSON report's measured and derived numbers. The text
// report shows its numbers through json_writer.h too (JsonFixed, JsonFloat),
// so that the two agree digit for digit.
constexpr int kJsonDecimals = 4;

std::string FitsJson(Fits f) {
  return f == Fits::kUnknown ? kJsonNull : JsonBool(f == Fits::kYes);
}

std::string FitsText(Fits f) {
  return f == Fits::kUnknown ? "unknown" : (f == Fits::kYes ? "yes" : "no");
}

std::string Hex(std::uint64_t v) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

// An array of already-rendered objects, one per line, at the given indent.
std::string JsonObjectArray(const std::vector<std::string>& objects, int indent) {
  if (objects.empty()) return "[]";
  const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
  std::string out = "[\n";
  for (std::size_t i = 0; i < objects.size(); ++i) {
    out += inner + objects[i] + (i + 1 < objects.size() ? ",\n" : "\n");
  }
  return out + std::string(static_cast<std::size_t>(indent), ' ') + "]";
}

std::string Percent(std::uint64_t part, std::uint64_t whole) {
  return JsonFixed(whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0,
                   1) +
         "%";
}

std::string ProfileJson(const CoreProfile& p) {
  JsonObjectWriter j(2);
  j.Add("name", JsonString(p.name));
  j.Add("core", JsonString(p.core));
  j.Add("product", JsonString(p.product));
  j.Add("line_bytes", JsonInteger(p.line_bytes));
  j.Add("l1d_bytes", p.l1d_bytes ? JsonInteger(p.l1d_bytes) : kJsonNull);
  j.Add("l2_bytes", p.l2_bytes ? JsonInteger(p.l2_bytes) : kJsonNull);
  j.Add("llc_bytes", p.llc_bytes ? JsonInteger(p.llc_bytes) : kJsonNull);
  j.Add("llc_scope", JsonString(p.llc_scope));
  j.Add("llc_per_core_bytes", p.llc_per_core_bytes ? JsonInteger(p.llc_per_core_bytes) : kJsonNull);
  j.Add("sku", p.sku.empty() ? kJsonNull : JsonString(p.sku));
  j.Add("cores", p.cores ? JsonInteger(p.cores) : kJsonNull);
  j.Add("page_bytes", JsonInteger(p.page_bytes));
  j.Add("huge_page_bytes", JsonInteger(p.huge_page_bytes));
  j.Add("adjacent_line_prefetch_bytes",
        p.prefetch_pair_bytes ? JsonInteger(p.prefetch_pair_bytes) : kJsonNull);
  j.Add("line_split_penalty_cycles",
        p.line_split_penalty_cycles >= 0 ? JsonFloat(p.line_split_penalty_cycles) : kJsonNull);
  j.Add("page_split_penalty_cycles",
        p.page_split_penalty_cycles >= 0 ? JsonFloat(p.page_split_penalty_cycles) : kJsonNull);
  j.Add("penalties_are_approximate", JsonBool(true));
  return j.Finish();
}

std::string CpuJson(const DetectedCpu& cpu) {
  JsonObjectWriter caches(4);
  caches.Add("line_bytes", cpu.caches.line_bytes ? JsonInteger(cpu.caches.line_bytes) : kJsonNull);
  caches.Add("l1d_bytes", cpu.caches.l1d_bytes ? JsonInteger(cpu.caches.l1d_bytes) : kJsonNull);
  caches.Add("l2_bytes", cpu.caches.l2_bytes ? JsonInteger(cpu.caches.l2_bytes) : kJsonNull);
  caches.Add("l3_bytes", cpu.caches.l3_bytes ? JsonInteger(cpu.caches.l3_bytes) : kJsonNull);
  caches.Add("source", JsonString(cpu.caches.source));
  JsonObjectWriter j(2);
  j.Add("architecture", JsonString(cpu.architecture));
  j.Add("vendor", JsonString(cpu.vendor));
  j.Add("brand", JsonString(cpu.brand));
  j.Add("microarchitecture", cpu.microarchitecture_name.empty()
                                 ? kJsonNull
                                 : JsonString(cpu.microarchitecture_name));
  j.Add("family", cpu.family >= 0 ? JsonInteger(cpu.family) : kJsonNull);
  j.Add("model", cpu.model >= 0 ? JsonInteger(cpu.model) : kJsonNull);
  j.Add("caches", caches.Finish());
  return j.Finish();
}

std::string FilterJson(const CoreProfile& profile, const FilterCheck& f) {
  const StraddleCounts& s = f.straddles;
  JsonObjectWriter alignment(6);
  for (std::uint64_t m : {32u, 64u, 128u, 4096u})
    alignment.Add("mod_" + std::to_string(m), JsonInteger(f.offset % m));

  JsonObjectWriter j(4);
  j.Add("source", JsonString(f.source));
  if (f.source == "allocation") {
    j.Add("address", JsonString(Hex(f.offset)));
  } else {
    j.Add("file", JsonString(f.path));
  }
  if (f.source == "parquet") {
    j.Add("column", JsonString(f.column));
    j.Add("row_group", JsonInteger(f.row_group));
    j.Add("column_index", JsonInteger(f.column_index));
  }
  if (f.has_header) {
    j.Add("header_offset", JsonInteger(f.header_offset));
    j.Add("header_bytes", JsonInteger(f.header_bytes));
  }
  j.Add("offset", JsonInteger(f.offset));
  j.Add("bytes", JsonInteger(f.bytes));
  j.Add("blocks", JsonInteger(s.blocks));
  j.Add("alignment", alignment.Finish());
  j.Add("blocks_straddling_line", JsonInteger(s.line));
  j.Add("blocks_straddling_pair", profile.prefetch_pair_bytes ? JsonInteger(s.pair) : kJsonNull);
  j.Add("blocks_straddling_page", JsonInteger(s.page));
  j.Add("blocks_straddling_huge_page", JsonInteger(s.huge_page));
  j.Add("extra_line_fills_per_probe", JsonFixed(PerProbe(s.line, s.blocks), kJsonDecimals));
  j.Add("extra_pair_fills_per_probe", profile.prefetch_pair_bytes
                                          ? JsonFixed(PerProbe(s.pair, s.blocks), kJsonDecimals)
                                          : kJsonNull);
  const std::optional<double> cycles = EstimatedExtraCyclesPerProbe(profile, s);
  j.Add("estimated_extra_cycles_per_probe", cycles ? JsonFixed(*cycles, kJsonDecimals) : kJsonNull);
  j.Add("footprint_bytes", JsonInteger(f.footprint_bytes));
  j.Add("fits_l1d", FitsJson(f.fits_l1d));
  j.Add("fits_l2", FitsJson(f.fits_l2));
  j.Add("fits_llc", FitsJson(f.fits_llc));
  j.Add("aligned", JsonBool(f.aligned));
  j.Add("fix", JsonString(f.fix));
  return j.Finish();
}

std::string MeasurementJson(const Measurement& m) {
  JsonObjectWriter j(2);
  j.Add("bytes", JsonInteger(m.bytes));
  j.Add("keys", JsonInteger(m.keys));
  j.Add("rounds", JsonInteger(m.rounds));
  j.Add("shift_bytes", JsonInteger(m.shift));
  j.Add("content", JsonString(m.content));
  j.Add("isa", JsonString(m.isa));
  j.Add("aligned_ns_per_key", JsonFixed(m.aligned_ns_per_key, kJsonDecimals));
  j.Add("misaligned_ns_per_key", JsonFixed(m.misaligned_ns_per_key, kJsonDecimals));
  j.Add("ratio", JsonFixed(m.ratio, kJsonDecimals));
  j.Add("hits", JsonInteger(m.aligned_hits));
  j.Add("hits_agree", JsonBool(m.aligned_hits == m.misaligned_hits));
  return j.Finish();
}

std::string ProfileText(const Report& r) {
  const CoreProfile& p = r.choice.profile;
  std::string out = "profile: " + p.name + " (" + p.core +
                    (p.product.empty() || p.product == p.core ? "" : ", " + Printable(p.product)) + ")\n";
  out += "  why: " + Printable(r.choice.reason) + "\n";  // may quote the CPU's brand string
  out += "  line " + std::to_string(p.line_bytes) + " B, L1D " + HumanBytes(p.l1d_bytes) + ", L2 " +
         HumanBytes(p.l2_bytes) + ", LLC " + HumanBytes(p.llc_bytes) + " (" + p.llc_scope +
         "), pages " + HumanBytes(p.page_bytes) + " / " + HumanBytes(p.huge_page_bytes) + "\n";
  if (p.prefetch_pair_bytes) {
    out += "  adjacent-line prefetcher: fetches lines in " + std::to_string(p.prefetch_pair_bytes) +
           "-byte pairs into L2\n";
  }
  if (p.line_split_penalty_cycles >= 0) {
    out += "  split-load penalties (approximate): ~" + JsonFloat(p.line_split_penalty_cycles) +
           " extra cycles per line split (L1 hit), ~" + JsonFloat(p.page_split_penalty_cycles) +
           " per 4 KiB page split\n";
  }
  return out;
}

std::string FilterText(const CoreProfile& profile, const FilterCheck& f) {
  const StraddleCounts& s = f.straddles;
  std::string out;
  if (f.source == "allocation") {
    out += "bitset allocated by bb_filter_init at " + Hex(f.offset);
  } else {
    out += Printable(f.path) + ": bitset at offset " + std::to_string(f.offset);
    if (f.has_header) {
      out += " (BloomFilterHeader at " + std::to_string(f.header_offset) + ", " +
             std::to_string(f.header_bytes) + " B)";
    }
  }
  out += ", " + std::to_string(f.bytes) + " B = " + std::to_string(s.blocks) + " blocks\n";
  out += "  start mod 32 = " + std::to_string(f.offset % 32) +
         ", mod 64 = " + std::to_string(f.offset % 64) +
         ", mod 128 = " + std::to_string(f.offset % 128) +
         ", mod 4096 = " + std::to_string(f.offset % 4096) + "\n";
  out += "  blocks straddling a cache line: " + std::to_string(s.line) + " of " +
         std::to_string(s.blocks) + " (" + Percent(s.line, s.blocks) + ")";
  if (profile.prefetch_pair_bytes) {
    out += ", a " + std::to_string(profile.prefetch_pair_bytes) +
           " B prefetch pair: " + std::to_string(s.pair);
  }
  out += ", a 4 KiB page: " + std::to_string(s.page) +
         ", a 2 MiB page: " + std::to_string(s.huge_page) + "\n";
  out += "  extra line fills per probe: " + JsonFixed(PerProbe(s.line, s.blocks), 3);
  if (const std::optional<double> cycles = EstimatedExtraCyclesPerProbe(profile, s)) {
    out += "; about " + JsonFixed(*cycles, 2) + " extra cycles per probe from L1 (approximate)";
  }
  out += "\n  fits in L1D: " + FitsText(f.fits_l1d) + ", L2: " + FitsText(f.fits_l2) +
         ", LLC: " + FitsText(f.fits_llc) + " (footprint " + std::to_string(f.footprint_bytes) +
         " B)\n";
  out += std::string("  ") + (f.aligned ? "aligned" : "MISALIGNED") + "; fix: " + Printable(f.fix) +
         "\n";
  return out;
}

std::string ParquetTable(const Report& r) {
  std::string out = Printable(r.parquet_file) + ": " + std::to_string(r.column_chunks) +
                    (r.column_chunks == 1 ? " column chunk, " : " column chunks, ") +
                    std::to_string(r.filters.size()) + " with a Bloom filter\n";
  if (r.filters.empty()) return out;
  // Column paths come from the file: a hostile one must not reach the terminal raw.
  std::vector<std::string> columns;
  for (const FilterCheck& f : r.filters) columns.push_back(Printable(f.column));
  std::size_t width = 6;
  for (const std::string& column : columns) width = std::max(width, column.size());
  char line[512];
  std::snprintf(line, sizeof line, "  %-3s %-*s %8s %8s %8s %6s %5s %6s %6s %6s %-9s %s\n", "rg",
                static_cast<int>(width), "column", "header", "bitset", "bytes", "blocks", "mod64",
                "lines", "pages", "fills", "L1/L2/LLC", "status");
  out += line;
  for (std::size_t i = 0; i < r.filters.size(); ++i) {
    const FilterCheck& f = r.filters[i];
    const std::string fits = FitsText(f.fits_l1d).substr(0, 1) + "/" +
                             FitsText(f.fits_l2).substr(0, 1) + "/" +
                             FitsText(f.fits_llc).substr(0, 1);
    std::snprintf(line, sizeof line, "  %-3u %-*s %8llu %8llu %8llu %6llu %5llu %6llu %6llu %6.3f %-9s %s\n",
                  f.row_group, static_cast<int>(width), columns[i].c_str(),
                  static_cast<unsigned long long>(f.header_offset),
                  static_cast<unsigned long long>(f.offset),
                  static_cast<unsigned long long>(f.bytes),
                  static_cast<unsigned long long>(f.straddles.blocks),
                  static_cast<unsigned long long>(f.offset % 64),
                  static_cast<unsigned long long>(f.straddles.line),
                  static_cast<unsigned long long>(f.straddles.page),
                  PerProbe(f.straddles.line, f.straddles.blocks), fits.c_str(),
                  f.aligned ? "aligned" : "MISALIGNED");
    out += line;
  }
  out += "  (header, bitset: byte offsets; lines, pages: blocks straddling a cache line / a 4 KiB "
         "page; fills: extra line fills per probe)\n";
  for (std::size_t i = 0; i < r.filters.size(); ++i) {
    if (!r.filters[i].aligned) {
      out += "  fix, e.g. for " + columns[i] + ": " + Printable(r.filters[i].fix) + "\n";
      break;
    }
  }
  return out;
}

std::string MeasurementText(const Measurement& m) {
  std::string out = "measure (this machine, ISA " + m.isa + "): " + HumanBytes(m.bytes) +
                    " filter (" + m.content + "), " + std::to_string(m.keys) +
                    " random hashes, median of " + std::to_string(m.rounds) +
                    " rounds of bb_find_batch_bitmap\n";
  out += "  64-byte aligned:  " + JsonFixed(m.aligned_ns_per_key, 2) + " ns/key\n";
  out += "  shifted +" + std::to_string(m.shift) +
         " B:    " + JsonFixed(m.misaligned_ns_per_key, 2) +
         " ns/key (every other block straddles a line)\n";
  out += "  ratio misaligned/aligned: " + JsonFixed(m.ratio, 3) +
         (m.aligned_hits == m.misaligned_hits ? "" : "  (hit counts differ: a bug)") + "\n";
  return out;
}

}  // namespace

FilterCheck CheckBitset(const CoreProfile& profile, std::uint64_t offset, std::uint64_t bytes) {
  FilterCheck c;
  c.offset = offset;
  c.bytes = bytes;
  Boundaries b;
  b.line = profile.line_bytes;
  b.pair = profile.prefetch_pair_bytes;
  b.page = profile.page_bytes;
  b.huge_page = profile.huge_page_bytes;
  c.straddles = CountStraddles(offset, bytes, b);
  c.footprint_bytes = LineFootprint(offset, bytes, profile.line_bytes);
  c.fits_l1d = FitsIn(c.footprint_bytes, profile.l1d_bytes);
  c.fits_l2 = FitsIn(c.footprint_bytes, profile.l2_bytes);
  c.fits_llc = FitsIn(c.footprint_bytes, profile.llc_bytes);
  c.aligned = c.straddles.line == 0;
  return c;
}

std::string FixFor(const FilterCheck& c) {
  if (c.source == "allocation") {
    return c.aligned ? "none needed: bb_filter_init returns 64-byte-aligned bitsets"
                     : "bb_filter_init returned a bitset that is not 64-byte aligned: a library "
                       "bug, please report it";
  }
  if (c.aligned) return "none needed: no block straddles a cache line where it lies";
  const std::string n = std::to_string(c.bytes);
  const std::string copy = "bb_filter_init(&f, " + n + ") + memcpy(f.data, base + " +
                           std::to_string(c.offset) + ", " + n + ")";
  if (c.has_header) {
    return "copy it into 64-byte-aligned memory before probing: bb_parquet_filter_read(&f, base + " +
           std::to_string(c.header_offset) +
           ", len, NULL) reads header and bitset into aligned storage (or " + copy + ")";
  }
  return "copy it into 64-byte-aligned memory before probing: " + copy;
}

double PerProbe(std::uint64_t straddling, std::uint64_t blocks) {
  return blocks ? static_cast<double>(straddling) / static_cast<double>(blocks) : 0.0;
}

std::optional<double> EstimatedExtraCyclesPerProbe(const CoreProfile& profile,
                                                   const StraddleCounts& s) {
  if (profile.line_split_penalty_cycles < 0 || profile.page_split_penalty_cycles < 0 ||
      s.blocks == 0) {
    return std::nullopt;
  }
  // A page split is also a line split; count it once, at the page penalty.
  const double line_only = static_cast<double>(s.line - s.page);
  return (line_only * profile.line_split_penalty_cycles +
          static_cast<double>(s.page) * profile.page_split_penalty_cycles) /
         static_cast<double>(s.blocks);
}

int ExitStatus(const Report& report) {
  for (const FilterCheck& f : report.filters) {
    if (!f.aligned) return 1;
  }
  return 0;
}

std::string ReportJson(const Report& r) {
  const CoreProfile& p = r.choice.profile;
  JsonObjectWriter j;
  j.Add("profile", JsonString(p.name));
  j.Add("profile_reason", JsonString(r.choice.reason));
  j.Add("profile_details", ProfileJson(p));
  j.Add("cpu", r.cpu ? CpuJson(*r.cpu) : kJsonNull);
  j.Add("mode", JsonString(r.mode));
  if (r.mode == "parquet") {
    j.Add("file", JsonString(r.parquet_file));
    j.Add("column_chunks", JsonInteger(r.column_chunks));
    j.Add("column_chunks_without_bloom_filter",
          JsonInteger(r.column_chunks - static_cast<std::uint64_t>(r.filters.size())));
  }
  std::vector<std::string> filters;
  std::uint64_t straddling = 0;
  for (const FilterCheck& f : r.filters) {
    filters.push_back(FilterJson(p, f));
    if (!f.aligned) ++straddling;
  }
  j.Add("filters", JsonObjectArray(filters, 2));
  j.Add("filters_straddling", JsonInteger(straddling));
  j.Add("all_aligned", JsonBool(straddling == 0));
  if (r.measurement) j.Add("measure", MeasurementJson(*r.measurement));
  return j.Finish() + "\n";
}

std::string ReportText(const Report& r) {
  const CoreProfile& p = r.choice.profile;
  std::string out = ProfileText(r) + "\n";
  if (r.mode == "parquet") {
    out += ParquetTable(r);
  } else {
    for (const FilterCheck& f : r.filters) out += FilterText(p, f);
  }
  if (!r.filters.empty() || r.mode == "parquet") {
    std::uint64_t straddling = 0;
    for (const FilterCheck& f : r.filters) straddling += f.aligned ? 0 : 1;
    out += "summary: " + std::to_string(straddling) + " of " + std::to_string(r.filters.size()) +
           (r.filters.size() == 1 ? " filter straddles" : " filters straddle") +
           " cache lines (exit " + std::to_string(static_cast<std::uint64_t>(ExitStatus(r))) +
           ")\n";
  }
  if (r.measurement) {
    if (!r.filters.empty() || r.mode == "parquet") out += "\n";
    out += MeasurementText(*r.measurement);
  }
  return out;
}

}  // namespace blockbloom_tools::aligncheck
