// SPDX-License-Identifier: Apache-2.0
// The filter operations the commands need, for either layout: build an owned
// filter from hashes, probe a bitset in place, OR one bitset into another.
// Library failures throw CliError("<context>: <bb_status_message>").
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_LAYOUT_FILTER_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_LAYOUT_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "tools/common/filter_options.h"

namespace blockbloom_tools {

// A filter allocated by the library, released on destruction.
class OwnedFilter {
 public:
  OwnedFilter() = default;
  ~OwnedFilter() { bb_filter_release(&filter_); }
  OwnedFilter(const OwnedFilter&) = delete;
  OwnedFilter& operator=(const OwnedFilter&) = delete;

  const std::uint8_t* data() const { return filter_.data; }
  std::size_t num_bytes() const { return filter_.num_bytes; }
  bb_filter* get() { return &filter_; }
  const bb_filter* c_filter() const { return &filter_; }

 private:
  bb_filter filter_{};
};

// A new, empty filter of bytes (already checked for layout). Kudu:
// bb_kudu_filter_init(log2(bytes), seed).
void InitFilter(Layout layout, std::size_t bytes, std::uint32_t seed, OwnedFilter* filter,
                const std::string& context);

// Inserts hashes (below 2^32 for Kudu) into a filter from InitFilter.
void InsertHashes(Layout layout, const std::vector<std::uint64_t>& hashes, OwnedFilter* filter,
                  const std::string& context);

// Tests hashes against the bitset data[0 .. bytes) (any alignment); bitmap
// gets (n + 7) / 8 bytes, LSB first. Returns the number of hits.
std::size_t ProbeBitset(Layout layout, const std::uint8_t* data, std::size_t bytes,
                        std::uint32_t seed, const std::vector<std::uint64_t>& hashes,
                        std::uint8_t* bitmap, const std::string& context);

// dst[0 .. bytes) |= src[0 .. bytes), with bb_filter_union over views.
void UnionBitsets(Layout layout, std::uint8_t* dst, const std::uint8_t* src, std::size_t bytes,
                  const std::string& context);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_LAYOUT_FILTER_H_
