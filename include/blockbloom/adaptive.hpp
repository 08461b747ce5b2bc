// SPDX-License-Identifier: Apache-2.0
// blockbloom C++17: the adaptive runtime filter (adaptive.h) as a value type.
// Header only, over the C API; errors throw blockbloom::Error.
//
//   blockbloom::Adaptive adaptive(1 << 20, 0.1);  // decide after 1 Mi rows, keep if >= 10% rejected
//   for (each batch) {
//     std::size_t kept = adaptive.find_batch_select(filter, hashes, n, selection);
//     ...  // once the filter is off, selection is 0 .. n-1 and the bitset is not read
//   }

// Before C++17: one clear #error and the rest skipped (see blockbloom.hpp).
#if !defined(__cplusplus) || \
    (__cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#ifndef BLOCKBLOOM_PRE_CXX17_REPORTED_
#define BLOCKBLOOM_PRE_CXX17_REPORTED_
#error "adaptive.hpp needs C++17 or later (the C API, adaptive.h, works from C and any C++)"
#endif
#define BLOCKBLOOM_ADAPTIVE_HPP_
#endif

#ifndef BLOCKBLOOM_ADAPTIVE_HPP_
#define BLOCKBLOOM_ADAPTIVE_HPP_

#include <cstddef>
#include <cstdint>

#include "blockbloom/adaptive.h"
#include "blockbloom/blockbloom.hpp"

namespace blockbloom {

// One per scan thread (the C object's rule: not thread-safe on one object).
class Adaptive {
 public:
  Adaptive(std::uint64_t sample_rows, double min_reject_fraction) {
    detail::Check(bb_adaptive_init(&state_, sample_rows, min_reject_fraction));
  }

  // The generic protocol around any probe: probe the batch of n rows only if
  // this says true, then record how many were probed and passed.
  bool should_probe(std::size_t n) {
    const int probe = bb_adaptive_should_probe(&state_, n);
    detail::Check(probe);
    return probe > 0;
  }
  void record(std::size_t probed, std::size_t passed) {
    detail::Check(bb_adaptive_record(&state_, probed, passed));
  }

  // The wrapped probes; each returns the number of rows that pass.
  std::size_t find_batch_bitmap(const ConstView& filter, const std::uint64_t* hashes,
                                std::size_t n, std::uint8_t* bitmap) {
    std::size_t hits = 0;
    detail::Check(bb_adaptive_find_batch_bitmap(&state_, filter.c_filter(), hashes, n, bitmap,
                                                &hits));
    return hits;
  }
  std::size_t find_batch_select(const ConstView& filter, const std::uint64_t* hashes,
                                std::size_t n, std::uint32_t* selection) {
    std::size_t hits = 0;
    detail::Check(bb_adaptive_find_batch_select(&state_, filter.c_filter(), hashes, n, selection,
                                                &hits));
    return hits;
  }
  std::size_t find_column_bitmap(const ConstView& filter, const bb_column& col,
                                 std::uint8_t* bitmap) {
    std::size_t hits = 0;
    detail::Check(bb_adaptive_find_column_bitmap(&state_, filter.c_filter(), &col, bitmap, &hits));
    return hits;
  }
  std::size_t find_column_select(const ConstView& filter, const bb_column& col,
                                 std::uint32_t* selection) {
    std::size_t hits = 0;
    detail::Check(
        bb_adaptive_find_column_select(&state_, filter.c_filter(), &col, selection, &hits));
    return hits;
  }

  bb_adaptive_state state() const noexcept { return static_cast<bb_adaptive_state>(state_.state); }
  bool disabled() const noexcept { return state_.state == BB_ADAPTIVE_DISABLED; }
  // Every counter and the decision (adaptive.h).
  const bb_adaptive& counters() const noexcept { return state_; }

 private:
  bb_adaptive state_{};
};

}  // namespace blockbloom

#endif  // BLOCKBLOOM_ADAPTIVE_HPP_
