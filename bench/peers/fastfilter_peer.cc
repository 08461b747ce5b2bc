// SPDX-License-Identifier: Apache-2.0
// fastfilter_cpp's split block Bloom filters, from the user's copy of its
// sources (compiled only when configure found them, with -march=native: its
// filters need AVX2 at compile time). Three implementations:
//   fastfilter         SimdBlockFilterFixed (simd-block-fixed-fpp.h): any
//                      number of 32-byte buckets, Add / Find one key at a time
//   fastfilter_addall  the same filter's bulk AddAll for the insert cells
//                      (it partitions the keys by bucket range first)
//   fastfilter_pow2    SimdBlockFilter (simd-block.h): a power-of-two number of
//                      buckets, the bucket from a mask instead of a multiply
#include <climits>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// The headers use these unqualified, as their own benchmarks do.
using std::vector;
#include "bloom/simd-block-fixed-fpp.h"
#include "bloom/simd-block.h"
#include "peer_filter.h"

namespace blockbloom_peers {
namespace {

// The keys are already hashes: used as they are.
struct IdentityHash {
  uint64_t operator()(uint64_t key) const { return key; }
};

// SimdBlockFilterFixed's constructor takes "bits" and makes bits / 24 buckets
// of 32 bytes: 24 * buckets gives exactly the size wanted (and stays within
// its int argument up to 2^31 / 24 buckets, 2.6 GiB).
int FixedBitsArgument(size_t bytes) { return static_cast<int>(bytes / 32 * 24); }

template <bool kAddAll>
class FixedFilter final : public PeerFilter {
 public:
  explicit FixedFilter(size_t bytes) : filter_(FixedBitsArgument(bytes)) {}
  void Insert(const uint64_t* hashes, size_t n) override {
    if (kAddAll) {
      filter_.AddAll(hashes, 0, n);
    } else {
      for (size_t i = 0; i < n; ++i) filter_.Add(hashes[i]);
    }
  }
  size_t Find(const uint64_t* hashes, size_t n, uint8_t* bitmap) const override {
    return FindEachToBitmap(hashes, n, bitmap, [&](uint64_t h) { return filter_.Find(h); });
  }
  size_t bytes() const { return filter_.SizeInBytes(); }

 private:
  SimdBlockFilterFixed<IdentityHash> filter_;
};

class Pow2Filter final : public PeerFilter {
 public:
  explicit Pow2Filter(size_t bytes) : filter_(__builtin_ctzll(bytes)) {}
  void Insert(const uint64_t* hashes, size_t n) override {
    for (size_t i = 0; i < n; ++i) filter_.Add(hashes[i]);
  }
  size_t Find(const uint64_t* hashes, size_t n, uint8_t* bitmap) const override {
    return FindEachToBitmap(hashes, n, bitmap, [&](uint64_t h) { return filter_.Find(h); });
  }
  size_t bytes() const { return filter_.SizeInBytes(); }

 private:
  SimdBlockFilter<IdentityHash> filter_;
};

// Constructs Filter(bytes), turning the headers' exceptions (no AVX2 at run
// time, allocation failure) and a size other than asked for into an error.
template <typename Filter>
std::unique_ptr<PeerFilter> Make(size_t bytes, std::string* error) {
  try {
    auto filter = std::make_unique<Filter>(bytes);
    if (filter->bytes() != bytes) {
      *error = "fastfilter made " + std::to_string(filter->bytes()) + " bytes, not " +
               std::to_string(bytes);
      return nullptr;
    }
    return filter;
  } catch (const std::exception& e) {
    *error = std::string("fastfilter: ") + e.what();
    return nullptr;
  }
}

}  // namespace

void AddFastfilter(std::vector<PeerImpl>* impls) {
  impls->push_back({"fastfilter", &Make<FixedFilter<false>>});
  impls->push_back({"fastfilter_addall", &Make<FixedFilter<true>>, /*find=*/false});
  // Every size of the comparison is a power of two.
  impls->push_back({"fastfilter_pow2", &Make<Pow2Filter>});
}

}  // namespace blockbloom_peers
