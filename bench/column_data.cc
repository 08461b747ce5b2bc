// SPDX-License-Identifier: Apache-2.0
#include "column_data.h"

#include <algorithm>
#include <map>
#include <utility>

#include "blockbloom/column.h"
#include "probe_data.h"
#include "tools/common/splitmix64.h"

namespace blockbloom_bench {
namespace {

using blockbloom_tools::SplitMix64;

// Value i of the column is i times an odd constant: distinct for distinct i
// (a bijection mod 2^64), spread over the whole int64 range, and cheap to
// recompute. Rows [0, num_keys) are in the filter, rows from kAbsentBase on
// never are.
constexpr uint64_t kValueStep = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kAbsentBase = uint64_t{1} << 40;
constexpr uint64_t kShuffleSeed = 0x636f6c756d6e3031ull;
constexpr size_t kMinValues = size_t{1} << 16;
constexpr size_t kMaxValues = size_t{1} << 22;
constexpr size_t kFillChunk = size_t{1} << 16;

int64_t ValueAt(uint64_t row) { return static_cast<int64_t>(row * kValueStep); }

}  // namespace

ColumnData::~ColumnData() { bb_filter_release(&filter_); }

int ColumnData::Build(size_t filter_bytes) {
  int status = bb_filter_init(&filter_, filter_bytes);
  if (status != BB_OK) return status;
  const auto num_keys = static_cast<size_t>(static_cast<double>(filter_bytes) * 8.0 / kBitsPerKey);
  std::vector<int64_t> chunk(kFillChunk);
  for (size_t done = 0; done < num_keys; done += chunk.size()) {
    const size_t n = std::min(chunk.size(), num_keys - done);
    for (size_t i = 0; i < n; ++i) chunk[i] = ValueAt(done + i);
    bb_column col = BB_COLUMN_INIT;
    col.type = BB_TYPE_INT64;
    col.length = n;
    col.values = chunk.data();
    status = bb_insert_column(&filter_, &col);
    if (status != BB_OK) return status;
  }

  size_t num_values = std::clamp(num_keys, kMinValues, kMaxValues);
  num_values -= num_values % kBatchSize;
  values_.resize(num_values);
  SplitMix64 rng(kShuffleSeed);
  for (size_t i = 0; i < num_values; ++i) {
    values_[i] = i < num_values / 2 ? ValueAt(rng.Next() % num_keys) : ValueAt(kAbsentBase + i);
  }
  for (size_t i = num_values - 1; i > 0; --i) std::swap(values_[i], values_[rng.Next() % (i + 1)]);

  const size_t count = PlacementsFor(filter_bytes);
  if (count == 1) {
    hashes_.resize(kBatchSize);
    bitmap_.resize(kBatchSize / 8);
    ColumnPlacement p{};
    bb_filter_init_view(&p.filter, filter_.data, filter_bytes);
    p.values = values_.data();
    p.hashes = hashes_.data();
    p.bitmap = bitmap_.data();
    placements_.push_back(p);
    return BB_OK;
  }
  // Buffer order: filter, values, hashes, bitmap.
  copies_ = std::make_unique<PlacedBuffers>(
      count, std::vector<PlacedBuffers::Source>{{filter_.data, filter_bytes},
                                                {values_.data(), num_values * sizeof(int64_t)},
                                                {nullptr, kBatchSize * sizeof(uint64_t)},
                                                {nullptr, kBatchSize / 8}});
  for (size_t k = 0; k < count; ++k) {
    ColumnPlacement p{};
    bb_filter_init_view(&p.filter, copies_->at(k, 0), filter_bytes);
    p.values = reinterpret_cast<const int64_t*>(copies_->at(k, 1));
    p.hashes = reinterpret_cast<uint64_t*>(copies_->at(k, 2));
    p.bitmap = copies_->at(k, 3);
    placements_.push_back(p);
  }
  return BB_OK;
}

ColumnData* ColumnDataOrSkip(benchmark::State& state, size_t filter_bytes) {
  // Benchmarks run one at a time on the main thread, so no lock is needed.
  static std::map<size_t, std::unique_ptr<ColumnData>> cache;
  auto it = cache.find(filter_bytes);
  if (it == cache.end()) {
    auto data = std::make_unique<ColumnData>();
    const int status = data->Build(filter_bytes);
    if (status != BB_OK) {
      state.SkipWithError(bb_status_message(status));
      return nullptr;
    }
    it = cache.emplace(filter_bytes, std::move(data)).first;
  }
  return it->second.get();
}

}  // namespace blockbloom_bench
