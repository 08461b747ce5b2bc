// SPDX-License-Identifier: Apache-2.0
// --measure: probe the same filter from a 64-byte-aligned buffer and from one
// shifted so that blocks straddle cache lines, with the library's batch find,
// and time both on the running machine. A measurement, not a test.
#ifndef BLOCKBLOOM_TOOLS_ALIGNCHECK_MEASURE_H_
#define BLOCKBLOOM_TOOLS_ALIGNCHECK_MEASURE_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace blockbloom_tools::aligncheck {

constexpr std::uint64_t kDefaultMeasureBytes = 16u << 20;
constexpr std::uint64_t kDefaultMeasureKeys = 1u << 22;
constexpr std::uint64_t kMeasureShift = 48;  // every other block straddles a 64-byte line

struct Measurement {
  std::uint64_t bytes = 0;
  std::uint64_t keys = 0;    // hashes probed per timed round
  int rounds = 0;            // timed rounds per buffer; the median is reported
  std::uint64_t shift = 0;   // misaligned buffer = aligned buffer + shift bytes
  std::string content;       // where the bitset came from
  std::string isa;           // the library's selected tier
  double aligned_ns_per_key = 0;
  double misaligned_ns_per_key = 0;
  double ratio = 0;          // misaligned / aligned
  std::uint64_t aligned_hits = 0;  // identical in both: the same filter
  std::uint64_t misaligned_hits = 0;
};

// content: the bitset to copy into both buffers (bytes long), or nullptr for a
// filter filled with random keys at about 10 bits per key. content_name says
// where it came from. bytes must be a valid filter size; keys > 0.
Measurement RunMeasurement(const std::uint8_t* content, const std::string& content_name,
                           std::uint64_t bytes, std::uint64_t keys);

}  // namespace blockbloom_tools::aligncheck

#endif  // BLOCKBLOOM_TOOLS_ALIGNCHECK_MEASURE_H_
