// SPDX-License-Identifier: Apache-2.0
// The cost of converting a column into a filter's type before hashing it
// (typed_value_benchmarks.h). One 10^7-row column of random int64 values
// (microsecond counts of 1970 .. 2100 for the timestamp cases, so that the
// multiply never overflows), hashed whole per iteration; items/s is rows/s.
#include "typed_value_benchmarks.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "benchmark/benchmark.h"
#include "blockbloom/column.h"
#include "blockbloom/parquet_value.h"
#include "tools/common/splitmix64.h"

namespace blockbloom_bench {
namespace {

using blockbloom_tools::SplitMix64;

constexpr size_t kRows = 10000000;

struct Data {
  std::vector<int64_t> wide;
  std::vector<int32_t> narrow;
  std::vector<uint64_t> hashes;
  std::vector<uint8_t> in_type;
  Data() : wide(kRows), narrow(kRows), hashes(kRows), in_type(kRows / 8 + 1) {
    SplitMix64 rng(0x74797065);
    for (size_t i = 0; i < kRows; ++i) {
      wide[i] = static_cast<int64_t>(rng.Next() % (int64_t{4102444800} * 1000000));
      narrow[i] = static_cast<int32_t>(wide[i]);
    }
  }
};

Data& Shared() {
  static Data d;
  return d;
}

bb_column Column(uint32_t type, const void* values) {
  bb_column c = BB_COLUMN_INIT;
  c.type = type;
  c.length = kRows;
  c.values = values;
  return c;
}

bb_parquet_column Type(const char* name) {
  bb_parquet_column t;
  std::memset(&t, 0, sizeof t);
  t.struct_size = sizeof t;
  bb_parquet_type_parse(name, std::strlen(name), &t);
  return t;
}

void Typed(benchmark::State& state, const char* type_name, uint32_t kind, int unit, bool narrow) {
  Data& d = Shared();
  const bb_parquet_column t = Type(type_name);
  bb_value_source src;
  std::memset(&src, 0, sizeof src);
  src.struct_size = sizeof src;
  src.kind = kind;
  src.unit = unit;
  const bb_column c = narrow ? Column(BB_TYPE_INT32, d.narrow.data()) : Column(BB_TYPE_INT64, d.wide.data());
  for (auto _ : state) {
    size_t n = 0;
    const int rc = bb_parquet_hash_typed_column(&t, &src, &c, 0, d.hashes.data(), d.in_type.data(),
                                                &n, nullptr, 0);
    if (rc != BB_OK || n != kRows) state.SkipWithError("bb_parquet_hash_typed_column failed");
    benchmark::DoNotOptimize(d.hashes.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kRows));
}

}  // namespace

void RegisterTypedValueBenchmarks() {
  benchmark::RegisterBenchmark("typed_value/hash_column/int64", [](benchmark::State& state) {
    Data& d = Shared();
    const bb_column c = Column(BB_TYPE_INT64, d.wide.data());
    for (auto _ : state) {
      size_t n = 0;
      if (bb_parquet_hash_column(&c, d.hashes.data(), &n) != BB_OK) state.SkipWithError("failed");
      benchmark::DoNotOptimize(d.hashes.data());
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kRows));
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("typed_value/typed/int64_into_int64", [](benchmark::State& state) {
    Typed(state, "int64", BB_VALUE_INT, 0, false);
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("typed_value/typed/int32_into_int64", [](benchmark::State& state) {
    Typed(state, "int64", BB_VALUE_INT, 0, true);
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("typed_value/typed/us_into_timestamp_ns", [](benchmark::State& state) {
    Typed(state, "timestamp(ns)", BB_VALUE_TIMESTAMP, BB_PARQUET_UNIT_MICROS, false);
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("typed_value/typed/us_into_timestamp_us", [](benchmark::State& state) {
    Typed(state, "timestamp(us)", BB_VALUE_TIMESTAMP, BB_PARQUET_UNIT_MICROS, false);
  })->Unit(benchmark::kMillisecond);
}

}  // namespace blockbloom_bench
