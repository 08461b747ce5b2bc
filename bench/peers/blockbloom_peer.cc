// SPDX-License-Identifier: Apache-2.0
// blockbloom in the peer comparison: the public batch calls with the ISA the
// library selected for this CPU, as an application would call them.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "peer_filter.h"

namespace blockbloom_peers {
namespace {

class BlockbloomFilter final : public PeerFilter {
 public:
  ~BlockbloomFilter() override { bb_filter_release(&filter_); }
  int Init(size_t bytes) {
    const int status = bb_filter_init(&filter_, bytes);
    // Large bitsets are mapped lazily: fault the pages in now, as the peers'
    // constructors do by zeroing theirs, not in the first timed insert.
    if (status == BB_OK) std::memset(filter_.data, 0, filter_.num_bytes);
    return status;
  }

  void Insert(const uint64_t* hashes, size_t n) override {
    bb_insert_batch(&filter_, hashes, n);  // cannot fail on an initialised filter
  }
  size_t Find(const uint64_t* hashes, size_t n, uint8_t* bitmap) const override {
    size_t hits = 0;
    bb_find_batch_bitmap(&filter_, hashes, n, bitmap, &hits);
    return hits;
  }

 private:
  bb_filter filter_{};
};

std::unique_ptr<PeerFilter> MakeBlockbloom(size_t bytes, std::string* error) {
  auto filter = std::make_unique<BlockbloomFilter>();
  const int status = filter->Init(bytes);
  if (status != BB_OK) {
    *error = bb_status_message(status);
    return nullptr;
  }
  return filter;
}

}  // namespace

void AddBlockbloom(std::vector<PeerImpl>* impls) {
  impls->push_back({"blockbloom", &MakeBlockbloom});
}

}  // namespace blockbloom_peers
