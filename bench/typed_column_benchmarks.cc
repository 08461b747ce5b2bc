// SPDX-License-Identifier: Apache-2.0
// The data: a pool of random rows of each column kind (as many rows as the
// filter has keys, clamped to 64 Ki .. 4 Mi as in column_data.cc, so that a
// DRAM-sized filter's probe also streams its values from memory), and a
// filter of the benchmark's size filled with random hashes at kBitsPerKey
// bits per key
// (what the hashes are does not matter to the branch-free kernels; the rows
// mostly miss, as in a selective join). One filter and pool per (column,
// size), built on first use. Each iteration probes (or inserts) the next 1024
// rows of the pool as a bb_column slice: values, offsets and validity offset
// moved on by the rows before it, as an engine slices an Arrow array.
#include "typed_column_benchmarks.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench_grid.h"
#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "src/core/kernel_table.h"
#include "ns_per_key.h"
#include "probe_data.h"
#include "scoped_isa.h"
#include "tools/common/splitmix64.h"

namespace blockbloom_bench {
namespace {

using blockbloom_tools::SplitMix64;
using blockbloom_tools::SplitMixAt;

constexpr size_t kColumnBytes[] = {kKiB16, kMiB16};

enum class Kind { kInt8, kInt16, kInt64, kInt64Nulls10, kFlba16, kString, kLargeString, kString0To32 };

const struct {
  Kind kind;
  const char* name;
} kKinds[] = {{Kind::kInt8, "int8"},          {Kind::kInt16, "int16"},
              {Kind::kInt64, "int64"},        {Kind::kInt64Nulls10, "int64_nulls10"},
              {Kind::kFlba16, "flba16"},      {Kind::kString, "string"},
              {Kind::kLargeString, "large_string"}, {Kind::kString0To32, "string_0_32"}};

class TypedColumnData {
 public:
  TypedColumnData() = default;
  TypedColumnData(const TypedColumnData&) = delete;
  TypedColumnData& operator=(const TypedColumnData&) = delete;
  ~TypedColumnData() { bb_filter_release(&filter_); }

  int Build(Kind kind, size_t filter_bytes) {
    int status = bb_filter_init(&filter_, filter_bytes);
    if (status != BB_OK) return status;
    const auto num_keys = static_cast<size_t>(static_cast<double>(filter_bytes) * 8.0 / kBitsPerKey);
    std::vector<uint64_t> hashes(size_t{1} << 16);
    for (size_t done = 0; done < num_keys; done += hashes.size()) {
      const size_t n = std::min(hashes.size(), num_keys - done);
      for (size_t i = 0; i < n; ++i) hashes[i] = SplitMixAt(0x7e57, done + i);
      status = bb_insert_batch(&filter_, hashes.data(), n);
      if (status != BB_OK) return status;
    }
    pool_rows_ = std::clamp(num_keys, size_t{1} << 16, size_t{1} << 22);
    pool_rows_ -= pool_rows_ % kBatchSize;
    SplitMix64 rng(0x636f6c73 + static_cast<uint64_t>(kind));
    base_ = BB_COLUMN_INIT;
    base_.length = kBatchSize;
    switch (kind) {
      case Kind::kInt8: Fill(BB_TYPE_INT8, 1, rng); break;
      case Kind::kInt16: Fill(BB_TYPE_INT16, 2, rng); break;
      case Kind::kInt64: Fill(BB_TYPE_INT64, 8, rng); break;
      case Kind::kInt64Nulls10:
        Fill(BB_TYPE_INT64, 8, rng);
        validity_.assign(pool_rows_ / 8, 0);
        for (size_t i = 0; i < pool_rows_; ++i) {
          if (rng.Next() % 10 != 0) validity_[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
        }
        base_.validity = validity_.data();
        break;
      case Kind::kFlba16:
        Fill(BB_TYPE_FIXED_LEN_BYTE_ARRAY, 16, rng);
        base_.width = 16;
        break;
      case Kind::kString:
      case Kind::kLargeString:
      case Kind::kString0To32: {
        // 8..24 bytes, or 0..32 (empty strings and the 32-byte stripe path too).
        const bool wide = kind == Kind::kString0To32;
        offsets_.push_back(0);
        for (size_t i = 0; i < pool_rows_; ++i) {
          const size_t len = wide ? rng.Next() % 33 : 8 + rng.Next() % 17;
          for (size_t k = 0; k < len; ++k) data_.push_back(static_cast<uint8_t>(rng.Next()));
          offsets_.push_back(static_cast<int64_t>(data_.size()));
        }
        const bool large = kind == Kind::kLargeString;
        offsets32_.assign(offsets_.begin(), offsets_.end());
        base_.type = large ? BB_TYPE_LARGE_BYTE_ARRAY : BB_TYPE_BYTE_ARRAY;
        offset_bytes_ = large ? 8 : 4;
        base_.offsets = large ? static_cast<const void*>(offsets_.data()) : offsets32_.data();
        base_.data = data_.data();
        base_.data_len = data_.size();
        break;
      }
    }
    bitmap_.resize(kBatchSize / 8);
    return BB_OK;
  }

  // Rows [row, row + kBatchSize) of the pool.
  bb_column Slice(size_t row) const {
    bb_column col = base_;
    if (col.values != nullptr) col.values = values_.data() + row * value_bytes_;
    if (col.offsets != nullptr) {
      col.offsets = static_cast<const uint8_t*>(base_.offsets) + row * offset_bytes_;
    }
    col.validity_offset = row;
    return col;
  }

  bb_filter* filter() { return &filter_; }
  uint8_t* bitmap() { return bitmap_.data(); }
  size_t& cursor() { return cursor_; }
  size_t pool_rows() const { return pool_rows_; }

 private:
  void Fill(bb_column_type type, size_t width, SplitMix64& rng) {
    base_.type = type;
    value_bytes_ = width;
    values_.resize(pool_rows_ * width);
    for (auto& b : values_) b = static_cast<uint8_t>(rng.Next());
    base_.values = values_.data();
  }

  bb_filter filter_{};
  bb_column base_ = BB_COLUMN_INIT;
  std::vector<uint8_t> values_, validity_, data_, bitmap_;
  std::vector<int64_t> offsets_;
  std::vector<int32_t> offsets32_;
  size_t pool_rows_ = 0, value_bytes_ = 0, offset_bytes_ = 0;
  size_t cursor_ = 0;
};

// The benchmarks of one (column, size) are registered one after another, so
// only the latest data set is kept (a 16 MiB one is a few hundred MiB).
TypedColumnData* DataOrSkip(benchmark::State& state, Kind kind, size_t filter_bytes) {
  static std::pair<Kind, size_t> key{};
  static std::unique_ptr<TypedColumnData> data;
  if (data == nullptr || key != std::make_pair(kind, filter_bytes)) {
    data.reset();
    auto fresh = std::make_unique<TypedColumnData>();
    const int status = fresh->Build(kind, filter_bytes);
    if (status != BB_OK) {
      state.SkipWithError(bb_status_message(status));
      return nullptr;
    }
    data = std::move(fresh);
    key = std::make_pair(kind, filter_bytes);
  }
  return data.get();
}

// kBatchSize rows an iteration; op(column slice) returns a bb_status.
template <typename Op>
void RowLoop(benchmark::State& state, const char* isa, TypedColumnData& data, Op&& op) {
  const ScopedIsa scoped(isa);
  if (scoped.status() != BB_OK) {
    state.SkipWithError(bb_status_message(scoped.status()));
    return;
  }
  size_t row = data.cursor();
  for (auto _ : state) {
    const bb_column col = data.Slice(row);
    const int status = op(col);
    if (status != BB_OK) {
      state.SkipWithError(bb_status_message(status));
      return;
    }
    benchmark::ClobberMemory();
    row += kBatchSize;
    if (row == data.pool_rows()) row = 0;
  }
  data.cursor() = row;
  SetNsPerKey(state, static_cast<double>(kBatchSize));
  // The same number under a name that says what a key is here: a row.
  state.counters["ns_per_row"] = state.counters["ns_per_key"];
}

}  // namespace

void RegisterTypedColumnBenchmarks() {
  for (const size_t bytes : kColumnBytes) {
    for (const auto& k : kKinds) {
      for (const bool insert : {false, true}) {
        for (const char* isa : IsaNames()) {
          const bbi_kernel_table* kernels = nullptr;
          if (bbi_kernels_for_isa(isa, &kernels) != BB_OK) continue;
          const std::string name = std::string(insert ? "insert_column/" : "find_column_bitmap/") +
                                   k.name + "/" + isa + "/" + std::to_string(bytes);
          const Kind kind = k.kind;
          benchmark::RegisterBenchmark(name.c_str(), [kind, bytes, isa, insert](benchmark::State& state) {
            TypedColumnData* data = DataOrSkip(state, kind, bytes);
            if (data == nullptr) return;
            if (insert) {
              RowLoop(state, isa, *data, [&](const bb_column& col) {
                return bb_insert_column(data->filter(), &col);
              });
            } else {
              RowLoop(state, isa, *data, [&](const bb_column& col) {
                return bb_find_column_bitmap(data->filter(), &col, data->bitmap(), nullptr);
              });
            }
          });
        }
      }
    }
  }
}

}  // namespace blockbloom_bench
