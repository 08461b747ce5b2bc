// SPDX-License-Identifier: Apache-2.0
#include "placements.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace blockbloom_bench {
namespace {

constexpr size_t kPage = 4096;
constexpr size_t kLine = 64;

// Bytes past the page boundary where copy k of buffer j starts.
size_t Skew(size_t placement, size_t buffer) {
  return kLine * ((placement * (5 + 8 * buffer)) % (kPage / kLine));
}

size_t RoundUpToPage(size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }

}  // namespace

PlacedBuffers::PlacedBuffers(size_t count, const std::vector<Source>& buffers)
    : count_(count), num_buffers_(buffers.size()) {
  // Every copy gets its own pages plus one for the skew.
  size_t total = 0;
  for (const Source& b : buffers) total += RoundUpToPage(b.bytes) + kPage;
  total *= count;
  arena_ = static_cast<uint8_t*>(std::aligned_alloc(kPage, total > 0 ? total : kPage));
  if (arena_ == nullptr) throw std::bad_alloc();
  uint8_t* next = arena_;
  for (size_t k = 0; k < count; ++k) {
    for (size_t j = 0; j < buffers.size(); ++j) {
      uint8_t* p = next + Skew(k, j);
      if (buffers[j].data != nullptr) {
        std::memcpy(p, buffers[j].data, buffers[j].bytes);
      } else {
        std::memset(p, 0, buffers[j].bytes);
      }
      pointers_.push_back(p);
      next += RoundUpToPage(buffers[j].bytes) + kPage;
    }
  }
}

PlacedBuffers::~PlacedBuffers() { std::free(arena_); }

}  // namespace blockbloom_bench
