// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/usage.h"

#include "tools/blockbloom/parquet/parquet_usage.h"

#include <set>

namespace blockbloom_tools {
namespace {

// ------------------------------------------------------- shared sections

const char kLayoutsHelp[] =
    "layouts:\n"
    "  parquet  Parquet split block Bloom filter: 64-bit hashes; N a positive multiple of 32\n"
    "  kudu     Kudu / Impala runtime filter: 32-bit hashes; N a power of two, at least 64\n";

const char kInputLinesHelp[] =
    "input lines (build, probe):\n"
    "  --type T        each line is a value of type T, written as text by the library's\n"
    "                  rules (docs/formats.md, \"Values as text\"; as in `parquet probe`):\n"
    "                  int8, int16, int32, int64, uint8 .. uint64, float, double, string,\n"
    "                  binary, date, time(ms|us|ns[,utc]), timestamp(ms|us|ns[,utc]),\n"
    "                  decimal(p,s), uuid, interval, fixed(n), ... (any name\n"
    "                  bb_parquet_type_parse takes).\n"
    "                  parquet hashes XXH64 of the value's plain encoding; kudu FastHash32,\n"
    "                  with --seed S (default 0), of its Kudu cell (signed integers, float,\n"
    "                  double, string, binary, date, timestamp(us), decimal up to 18 digits)\n"
    "  --raw-hashes    each line is a hash: an unsigned number in decimal or 0x hex,\n"
    "                  below 2^64 (parquet) or 2^32 (kudu). (--hash none is the same;\n"
    "                  --hash xxh64|fasthash32 --type T names the layout's hash, as before)\n"
    "  build needs --type T or --raw-hashes, and records which in the filter file; probe\n"
    "  reads it, with the layout, seed and size, from the file, and refuses a flag that\n"
    "  contradicts the file. A line ends at '\\n' or \"\\r\\n\": a file with CRLF line ends\n"
    "  gives the same values as one with LF. String and binary values are the line's\n"
    "  bytes exactly (without its line end); for other types blanks around the text are\n"
    "  ignored. '-' reads standard input. Input is read line by line (a line\n"
    "  longer than 1 MiB is an error), so memory stays bounded. probe --bits and --count\n"
    "  print nothing if a later line is bad (--bits keeps one bit per line); probe's\n"
    "  values with their answers are printed in batches of up to 65536 lines (4 MiB of\n"
    "  text), each once all of its lines were read and checked: a bad line prints\n"
    "  nothing of its batch, but earlier batches may be out: trust the output only when\n"
    "  the exit status is 0.\n";

const char kFormatsHelp[] =
    "formats (build, probe, union): --format file (default) is a filter file: magic,\n"
    "  version, layout, value type, seed, the sizing it was built for, the bitset and an\n"
    "  XXH64 checksum (docs/formats.md, \"Filter files\"); a file that is damaged or whose\n"
    "  fields contradict each other is refused. union refuses two files of different\n"
    "  layout, size, seed or value type. build -o OUT refuses an OUT that is its --input\n"
    "  (by any path or link). --format raw is the bitset alone and --format parquet the\n"
    "  bitset after its BloomFilterHeader (also --parquet-header), to export and import:\n"
    "  they record nothing, so probe then needs --layout, --bytes (raw), and --type T or\n"
    "  --raw-hashes (and the kudu --seed S) as the filter was built.\n";

const char kParquetHeaderHelp[] =
    "--format parquet or --parquet-header (parquet): build writes Parquet's Thrift\n"
    "  BloomFilterHeader before the bitset; probe reads the header at --offset K and takes\n"
    "  the size from it (--bytes, if given, must agree); union reads and writes header + bitset files. Arrow's, Velox's\n"
    "  and ClickHouse's Parquet readers refuse a bitset that is not a power of two from\n"
    "  32 B to 128 MiB, so build and union write no other size (--bytes 1344, say) unless\n"
    "  --any-size is given (DuckDB reads any multiple of 32). Reading takes any size.\n"
    "  Without --parquet-header, probe refuses a file whose bytes at the offset are a\n"
    "  BloomFilterHeader, and union one that starts with one, naming the flag: add\n"
    "  --parquet-header, or, for the Bloom filter of a column in a real Parquet file, use\n"
    "  blockbloom parquet probe FILE --column PATH.\n";

const char kFilesHelp[] =
    "files (build, probe, union): -o OUT is written to a temporary file beside it, renamed\n"
    "  over OUT when everything succeeded (removed on an error, SIGINT, SIGTERM or SIGHUP);\n"
    "  a replaced OUT keeps its mode (and owner, as root). A symbolic link is followed and\n"
    "  its target replaced, the link kept; an OUT that is a device or FIFO is written in\n"
    "  place; -o - writes standard output. Filter files to read (--filter, union A B) must be\n"
    "  regular files: a FIFO, a directory or '-' is refused.\n";

// ---------------------------------------------------- one command's sections

const char kSizingHelp[] =
    "sizing (build): --bytes N, or --ndv N --fpp P: the smallest filter whose expected\n"
    "  false-positive probability for N distinct values is at most P (0 < P < 1), by the\n"
    "  exact split-block model; the size and that probability are printed on standard\n"
    "  error. parquet: any multiple of 32 for a raw bitset; with --parquet-header (unless\n"
    "  --any-size) or --pow2, a power of two from 32 B to 128 MiB, the sizes every Parquet\n"
    "  reader accepts (a target 128 MiB cannot meet is an error). kudu: a power of two.\n";

const char kJoinDemoHelp[] =
    "join-demo: the big table is --rows N random int64 keys (default 50000000), generated\n"
    "  from --seed S (default 42) chunk by chunk, never stored. The small table's keys are\n"
    "  built into a Parquet filter sized for --fpp P (default 0.01) and an exact hash set;\n"
    "  the big table is then scanned (a) probing the exact set only, (b) with the filter\n"
    "  alone, once per supported ISA, and (c) with the filter and an exact check of the rows\n"
    "  it lets through. The counts are checked against the exact set.\n"
    "  --scenario selective    (default) the small table is the --small N / 2 smallest and\n"
    "                          N / 2 largest keys (N even, default 2000, at most --rows);\n"
    "                          the predicate some_int1 % 2 == 1 keeps about half of them\n"
    "  --scenario unselective  the kept keys are those of every big row whose index % 20 != 0\n"
    "                          (95% of the rows): the filter rejects too little to pay\n"
    "  In (c), after --sample-rows N rows (default 1000000, or all rows if fewer), a filter\n"
    "  that rejected less than --min-reject F of them (0 <= F <= 1, default 0.1) switches\n"
    "  itself off, as Kudu's does (the library's bb_adaptive, blockbloom/adaptive.h).\n"
    "  --json prints the results as one JSON object. Wall and CPU time are reported side\n"
    "  by side, with a warning when they differ by more than 10% (a busy machine).\n"
    "  Exit status 1 if a check failed (a false negative, ISAs that disagree).\n";

const char kTuneHelp[] =
    "tune: times independent random 32-byte reads of an N-byte filter bitset (--bytes N,\n"
    "  default 536870912 = 512 MiB; at least the CPU's L2 size, a multiple of 32) with\n"
    "  each prefetch hint none|l1|l2|l3 at distances 8, 16, 32, 64, 128, 192 and 256 keys\n"
    "  ahead, in about\n"
    "  --seconds S (default 3), each cell the median of interleaved runs; then times the\n"
    "  selected ISA's find_batch_bitmap at the best cell and at the setting in force, and\n"
    "  at 2, 8, 16 and 32 MiB (hints l1|l2|l3 at 32..256 keys ahead, and the setting in\n"
    "  force: by default that of the size's class on this CPU, as blockbloom info lists). Prints the grid (ns per line), the best hint\n"
    "  and distance, find_batch_bitmap ns/key at both, each class's best and default,\n"
    "  and, when the best beats the default by more than the spread of its runs, how to\n"
    "  use it: BLOCKBLOOM_PREFETCH_DISTANCE=D BLOCKBLOOM_PREFETCH_HINT=H in\n"
    "  the environment, or bb_set_prefetch_distance(D); bb_set_prefetch_hint(BB_PREFETCH_..);\n"
    "  --json prints it all as one JSON object. Run it on an otherwise idle machine.\n";

const char kFooter[] =
    "Counts (--ndv, --rows, --small, --sample-rows, --row-group) are whole numbers written\n"
    "1000000, 1_000_000, 1e6, 2.5e6 or 0xF4240, taken exactly (1.5 and 1e-3 are refused);\n"
    "sizes in bytes (--bytes, --offset) also take a binary unit, 16MiB (KiB, MiB, GiB, TiB:\n"
    "2^10 .. 2^40; 1.5KiB is 1536). K, M, G and T alone are refused as ambiguous.\n"
    "build, probe, join-demo and tune report progress on standard error once they have\n"
    "run 2 s: a bar on a terminal, a line every 5 s otherwise (--no-progress: none).\n"
    "Flags also take the form --flag=VALUE. BLOCKBLOOM_ISA=<isa> in the environment forces\n"
    "an ISA. Exit status: 0 on success, 2 on an error (an output file is then not written);\n"
    "see each command's help for the exceptions: check exits 1 on a failed check, parquet\n"
    "probe over a dataset 1 when files were skipped, and probe prints answers as it goes\n"
    "(those printed before a bad value stay printed).\n";

// ------------------------------------------------------------- the table

const char* const kNoSections[] = {nullptr};
const char* const kBuildSections[] = {kLayoutsHelp, kSizingHelp, kInputLinesHelp, kFormatsHelp,
                                      kParquetHeaderHelp, kFilesHelp, nullptr};
const char* const kProbeSections[] = {kLayoutsHelp, kInputLinesHelp, kFormatsHelp,
                                      kParquetHeaderHelp, kFilesHelp, nullptr};
const char* const kUnionSections[] = {kLayoutsHelp, kFormatsHelp, kParquetHeaderHelp, kFilesHelp,
                                      nullptr};
const char* const kJoinDemoSections[] = {kJoinDemoHelp, nullptr};
const char* const kTuneSections[] = {kTuneHelp, nullptr};
const char* const kParquetSections[] = {kParquetHelp, nullptr};

// The lines of the full synopsis that belong to no command.
const char kGeneralSynopsis[] =
    "  blockbloom --help           every command (this text)\n"
    "  blockbloom COMMAND --help   one command's usage (or: blockbloom help COMMAND)\n"
    "  blockbloom --version        print \"blockbloom X.Y.Z\" (the library's version)\n";

}  // namespace

const CommandHelp kCommandHelp[] = {
    {"info", "  blockbloom info [--json]\n",
     "  info       the library version, this CPU, and the compiled, supported and selected ISAs\n",
     kNoSections},
    {"build",
     "  blockbloom build --layout parquet|kudu (--bytes N | --ndv N --fpp P [--pow2])\n"
     "                   (--type T [--seed S] | --raw-hashes [--seed S])\n"
     "                   [--format file|raw|parquet [--any-size]] --input FILE -o OUT\n",
     "  build      insert the lines of FILE into an N-byte filter and write it to OUT as a\n"
     "             filter file that records its layout, type, seed and size (or, with\n"
     "             --format raw|parquet, as a bare bitset; OUT is replaced only when\n"
     "             everything succeeded)\n",
     kBuildSections},
    {"probe",
     "  blockbloom probe --filter FILE --input FILE [--json] [--count | --bits]\n"
     "  blockbloom probe --format raw|parquet --layout parquet|kudu --filter FILE [--offset K]\n"
     "                   (--bytes N | --format parquet [--bytes N])\n"
     "                   (--type T [--seed S] | --raw-hashes [--seed S])\n"
     "                   --input FILE [--json] [--count | --bits] [--allow-trailing]\n",
     "  probe      test the lines of FILE against a filter file, hashed as its type says\n"
     "             (its layout, type, seed and size are read from it; a flag that says\n"
     "             otherwise is an error); print each line's value beside its answer, as\n"
     "             parquet probe does: VALUE<TAB>maybe|absent (absent: certainly not\n"
     "             inserted; maybe: it may have been), the value escaped as in messages.\n"
     "             --json: {\"filter\", \"layout\", \"results\": [{\"value\", \"maybe\"}]}, the\n"
     "             values exact; --bits: 1 (maybe) or 0 (absent) alone per line; --count:\n"
     "             the number of maybes (--json: {\"filter\", \"layout\", \"values\",\n"
     "             \"maybe\"}). --format raw|parquet probes a bare\n"
     "             bitset at byte K: at --offset 0 a file larger than N is an error\n"
     "             (--allow-trailing: the filter is only its first N bytes).\n"
     "             For the Bloom filter of a column in a real Parquet file, use\n"
     "             blockbloom parquet probe FILE --column PATH: it finds the filter itself.\n",
     kProbeSections},
    {"union",
     "  blockbloom union A B -o OUT [--format raw|parquet [--layout parquet|kudu] [--any-size]]\n",
     "  union      OR the filters in files A and B (same layout, size, seed and type) into OUT\n",
     kUnionSections},
    {"join-demo",
     "  blockbloom join-demo [--rows N] [--small N] [--scenario selective|unselective]\n"
     "                       [--fpp P] [--seed S] [--sample-rows N] [--min-reject F] [--json]\n",
     "  join-demo  a runtime-filter semi-join, timed: a generated big table scanned without and\n"
     "             with a Bloom filter of a small table's keys, on every ISA (see below)\n",
     kJoinDemoSections},
    {"tune", "  blockbloom tune [--bytes N] [--seconds S] [--json]\n",
     "  tune       measure which prefetch hint and distance suit this machine (see below)\n",
     kTuneSections},
    {"parquet", kParquetSynopsis, kParquetSummary, kParquetSections},
};
const std::size_t kCommandHelpCount = sizeof kCommandHelp / sizeof kCommandHelp[0];

std::string FullUsage() {
  std::string text = "usage:\n";
  for (const CommandHelp& c : kCommandHelp) text += c.synopsis;
  text += kGeneralSynopsis;
  text += "\ncommands:\n";
  for (const CommandHelp& c : kCommandHelp) text += c.summary;
  std::set<const char*> printed;
  for (const CommandHelp& c : kCommandHelp) {
    for (const char* const* s = c.sections; *s != nullptr; ++s) {
      if (printed.insert(*s).second) (text += "\n") += *s;
    }
  }
  return (text += "\n") += kFooter;
}

std::string CommandUsage(const std::string& command) {
  for (const CommandHelp& c : kCommandHelp) {
    if (command != c.name) continue;
    std::string text = std::string("usage:\n") + c.synopsis + "\n" + c.summary;
    for (const char* const* s = c.sections; *s != nullptr; ++s) (text += "\n") += *s;
    return ((text += "\n") += kFooter) += "blockbloom --help describes every command.\n";
  }
  return FullUsage();
}

}  // namespace blockbloom_tools
