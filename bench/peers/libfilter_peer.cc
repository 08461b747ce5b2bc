// SPDX-License-Identifier: Apache-2.0
// libfilter's split block Bloom filter, from the user's copy of its C header
// c/include/filter/block.h (compiled only when configure found it, with
// -march=native: its add and find use AVX2 when the compiler may). Its add
// and find are inline in the header; the filter's init lives in its C
// library, which this benchmark does not build: the struct the header
// declares is filled here instead (a bucket count and 32-byte aligned bits,
// what libfilter_block_init sets up). It has no batch calls.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "filter/block.h"
#include "peer_filter.h"

namespace blockbloom_peers {
namespace {

class LibfilterFilter final : public PeerFilter {
 public:
  ~LibfilterFilter() override { std::free(filter_.block_.to_free); }
  bool Init(size_t bytes) {
    void* bits = std::aligned_alloc(64, bytes);
    if (bits == nullptr) return false;
    std::memset(bits, 0, bytes);
    filter_.num_buckets_ = bytes / 32;
    filter_.block_.block = static_cast<uint32_t*>(bits);
    filter_.block_.to_free = bits;
    return libfilter_block_size_in_bytes(&filter_) == bytes;
  }
  void Insert(const uint64_t* hashes, size_t n) override {
    for (size_t i = 0; i < n; ++i) libfilter_block_add_hash(hashes[i], &filter_);
  }
  size_t Find(const uint64_t* hashes, size_t n, uint8_t* bitmap) const override {
    return FindEachToBitmap(hashes, n, bitmap,
                            [&](uint64_t h) { return libfilter_block_find_hash(h, &filter_); });
  }

 private:
  libfilter_block filter_{};
};

std::unique_ptr<PeerFilter> MakeLibfilter(size_t bytes, std::string* error) {
  auto filter = std::make_unique<LibfilterFilter>();
  if (!filter->Init(bytes)) {
    *error = "libfilter: cannot allocate " + std::to_string(bytes) + " bytes";
    return nullptr;
  }
  return filter;
}

}  // namespace

void AddLibfilter(std::vector<PeerImpl>* impls) {
  impls->push_back({"libfilter", &MakeLibfilter});
}

}  // namespace blockbloom_peers
