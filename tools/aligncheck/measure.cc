// SPDX-License-Identifier: Apache-2.0
#include "tools/aligncheck/measure.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/blockbloom.hpp"
#include "tools/common/cli_error.h"
#include "tools/common/splitmix64.h"

namespace blockbloom_tools::aligncheck {
namespace {

using blockbloom_tools::CliError;

constexpr int kRounds = 7;

void Check(int status, const std::string& what) {
  if (status != BB_OK) throw CliError("--measure: " + what + ": " + bb_status_message(status));
}

// A zeroed filter of bytes from the library's allocator (64-byte aligned),
// released on every path; a refused size names the call that refused it.
blockbloom::Filter NewFilter(std::size_t bytes) {
  try {
    return blockbloom::Filter(bytes);
  } catch (const blockbloom::Error& e) {
    throw CliError("--measure: bb_filter_init: " + std::string(e.what()));
  }
}

// Fills f with random keys, about 10 bits per key, in chunks.
void FillRandom(bb_filter* f, std::uint64_t seed) {
  SplitMix64 rng(seed);
  const std::uint64_t keys = f->num_bytes * 8 / 10;
  std::vector<std::uint64_t> chunk(std::min<std::uint64_t>(keys, 1u << 20));
  for (std::uint64_t done = 0; done < keys;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), keys - done));
    for (std::size_t i = 0; i < n; ++i) chunk[i] = rng.Next();
    Check(bb_insert_batch(f, chunk.data(), n), "bb_insert_batch");
    done += n;
  }
}

// One timed batch find; returns ns per key.
double TimeRound(const bb_filter& view, const std::vector<std::uint64_t>& hashes,
                 std::vector<std::uint8_t>* bitmap, std::uint64_t* hits) {
  std::size_t found = 0;
  const auto start = std::chrono::steady_clock::now();
  Check(bb_find_batch_bitmap(&view, hashes.data(), hashes.size(), bitmap->data(), &found),
        "bb_find_batch_bitmap");
  const auto stop = std::chrono::steady_clock::now();
  *hits = found;
  const double ns = std::chrono::duration<double, std::nano>(stop - start).count();
  return ns / static_cast<double>(hashes.size());
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

Measurement RunMeasurement(const std::uint8_t* content, const std::string& content_name,
                           std::uint64_t bytes, std::uint64_t keys) {
  Measurement m;
  m.bytes = bytes;
  m.keys = keys;
  m.rounds = kRounds;
  m.shift = kMeasureShift;
  m.isa = bb_selected_isa();

  // The bitset both buffers hold.
  blockbloom::Filter source = NewFilter(static_cast<std::size_t>(bytes));
  if (content != nullptr) {
    std::memcpy(source.data(), content, static_cast<std::size_t>(bytes));
    m.content = content_name;
  } else {
    FillRandom(source.c_filter(), 0x5eed);
    m.content = "random keys, about 10 bits per key";
  }

  // Two buffers from the library's own allocator (64-byte aligned, the same
  // page policy), one probed at +0 and one at +shift.
  const std::size_t room = static_cast<std::size_t>(bytes + 64);
  blockbloom::Filter aligned_buffer = NewFilter(room);
  blockbloom::Filter shifted_buffer = NewFilter(room);
  std::memcpy(aligned_buffer.data(), source.data(), static_cast<std::size_t>(bytes));
  std::memcpy(shifted_buffer.data() + m.shift, source.data(), static_cast<std::size_t>(bytes));
  bb_filter aligned{}, shifted{};
  Check(bb_filter_init_view_readonly(&aligned, aligned_buffer.data(), static_cast<std::size_t>(bytes)),
        "bb_filter_init_view_readonly");
  Check(bb_filter_init_view_readonly(&shifted, shifted_buffer.data() + m.shift,
                                     static_cast<std::size_t>(bytes)),
        "bb_filter_init_view_readonly");

  std::vector<std::uint64_t> hashes(static_cast<std::size_t>(keys));
  SplitMix64 rng(0x9b0be);
  for (std::uint64_t& h : hashes) h = rng.Next();
  std::vector<std::uint8_t> bitmap((hashes.size() + 7) / 8);

  // One untimed pass each (page faults, warm caches), then alternate so that
  // drift in clock speed or neighbours' load hits both alike.
  TimeRound(aligned, hashes, &bitmap, &m.aligned_hits);
  TimeRound(shifted, hashes, &bitmap, &m.misaligned_hits);
  std::vector<double> aligned_ns, shifted_ns;
  for (int round = 0; round < kRounds; ++round) {
    aligned_ns.push_back(TimeRound(aligned, hashes, &bitmap, &m.aligned_hits));
    shifted_ns.push_back(TimeRound(shifted, hashes, &bitmap, &m.misaligned_hits));
  }
  m.aligned_ns_per_key = Median(aligned_ns);
  m.misaligned_ns_per_key = Median(shifted_ns);
  m.ratio = m.aligned_ns_per_key > 0 ? m.misaligned_ns_per_key / m.aligned_ns_per_key : 0;
  return m;
}

}  // namespace blockbloom_tools::aligncheck
