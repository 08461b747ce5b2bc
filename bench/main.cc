// SPDX-License-Identifier: Apache-2.0
// blockbloom_bench: google-benchmark's flags plus the kernel benchmarks.
//   blockbloom_bench --benchmark_list_tests
//   blockbloom_bench --benchmark_filter='^find_batch_bitmap/.*/16384$'
// The JSON context (--benchmark_out_format=json) also records the ISA the
// library selected, the ISAs it can run, the compiler, the prefetch setting
// and the number of placements in-cache results are averaged over.
#include <cstdio>
#include <fstream>
#include <string>

#include "benchmark/benchmark.h"
#include "src/kernels/prefetch.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/tuning.h"
#include "build_benchmarks.h"
#include "column_benchmarks.h"
#include "kernel_benchmarks.h"
#include "placements.h"
#include "prefetch_benchmarks.h"
#include "probe_data.h"
#include "reference_loop.h"
#include "scaling_benchmarks.h"
#include "string_hash_benchmarks.h"
#include "typed_column_benchmarks.h"
#include "typed_value_benchmarks.h"

namespace {

#if defined(__GNUC__) && !defined(__clang__)
constexpr const char* kCompiler = "gcc " __VERSION__;
#else
constexpr const char* kCompiler = __VERSION__;  // clang's says "Clang ..." itself
#endif

// The first line of a file, or "" if it cannot be read.
std::string FirstLine(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  benchmark::AddCustomContext("blockbloom_version", bb_version());
  benchmark::AddCustomContext("selected_isa", bb_selected_isa());
  benchmark::AddCustomContext("supported_isas", bb_supported_isas());
  benchmark::AddCustomContext("compiled_isas", bb_compiled_isas());
  benchmark::AddCustomContext("compiler", kCompiler);
  char bits_per_key[32];
  std::snprintf(bits_per_key, sizeof bits_per_key, "%.2f", blockbloom_bench::kBitsPerKey);
  benchmark::AddCustomContext("bits_per_key", bits_per_key);
  benchmark::AddCustomContext("hashes_per_iteration", std::to_string(blockbloom_bench::kBatchSize));
  // Kernel benchmarks of filters below placed_below_bytes are averaged over
  // this many buffer placements (placements.h).
  benchmark::AddCustomContext("placements", std::to_string(blockbloom_bench::kNumPlacements));
  benchmark::AddCustomContext("placed_below_bytes",
                              std::to_string(blockbloom_bench::kPlacedBelowBytes));
  // The library's prefetch setting that every benchmark but the sweeps runs
  // with (BLOCKBLOOM_PREFETCH_HINT / _DISTANCE change it).
  const char* hint = bb_prefetch_hint_name(bb_prefetch_hint());
  benchmark::AddCustomContext("prefetch_hint", hint != nullptr ? hint : "?");
  benchmark::AddCustomContext("prefetch_distance", std::to_string(bb_prefetch_distance()));
  // The defaults by size class (src/kernels/prefetch.h; from this machine's
  // caches, src/dispatch/prefetch_classes.h), "<min_bytes>:<hint>:<distance>,..."
  // for scripts/bench_table.py, which finds each size's default cell in the sweeps.
  std::string defaults;
  for (const blockbloom::internal::PrefetchClass& c : blockbloom::internal::ActivePrefetchClasses()) {
    defaults += (defaults.empty() ? "" : ",") + std::to_string(c.min_bytes) + ":" +
                bb_prefetch_hint_name(c.hint) + ":" + std::to_string(c.distance);
  }
  benchmark::AddCustomContext("prefetch_defaults", defaults);
  // Whether the large filters can sit on huge pages (in "madvise" mode they
  // do not, unless the library asks): TLB misses weigh on the DRAM-sized runs.
  const std::string thp = FirstLine("/sys/kernel/mm/transparent_hugepage/enabled");
  if (!thp.empty()) benchmark::AddCustomContext("transparent_hugepage", thp);

  blockbloom_bench::RegisterKernelBenchmarks();
  blockbloom_bench::RegisterScalingBenchmarks();
  blockbloom_bench::RegisterColumnBenchmarks();
  blockbloom_bench::RegisterTypedColumnBenchmarks();
  blockbloom_bench::RegisterTypedValueBenchmarks();
  blockbloom_bench::RegisterStringHashBenchmarks();
  blockbloom_bench::RegisterPrefetchBenchmarks();
  blockbloom_bench::RegisterReferenceBenchmarks();
  blockbloom_bench::RegisterBuildBenchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
