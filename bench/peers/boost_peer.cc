// SPDX-License-Identifier: Apache-2.0
// Boost.Bloom (Boost 1.89 or later), from the user's Boost headers (compiled
// only when configure found them, with -march=native: its fast_multiblock32
// uses AVX2 when the compiler may). The configuration that is the split
// block filter: one 256-bit block per key, eight 32-bit words, one bit set in
// each (filter<uint64_t, 1, fast_multiblock32<8>>). Two implementations:
//   boost       insert / may_contain one key at a time
//   boost_bulk  the bulk insert(first, last) and may_contain(first, last, f),
//               which pipeline the memory accesses of several keys
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/bloom.hpp>

#include "peer_filter.h"

namespace blockbloom_peers {
namespace {

// The keys are already hashes: used as they are, and declared avalanching so
// that Boost.Bloom does not mix them again.
struct IdentityHash {
  using is_avalanching = std::true_type;
  std::size_t operator()(uint64_t key) const { return static_cast<std::size_t>(key); }
};

using BoostFilter = boost::bloom::filter<uint64_t, 1, boost::bloom::fast_multiblock32<8>, 0,
                                         IdentityHash>;

// The bulk find's answers go through a buffer of this many bytes (a
// multiple of 8, so each chunk's bitmap starts on a byte).
constexpr size_t kAnswerChunk = 1024;

template <bool kBulk>
class BoostBloomFilter final : public PeerFilter {
 public:
  explicit BoostBloomFilter(size_t bytes) : filter_(bytes * 8) {}
  void Insert(const uint64_t* hashes, size_t n) override {
    if (kBulk) {
      filter_.insert(hashes, hashes + n);
    } else {
      for (size_t i = 0; i < n; ++i) filter_.insert(hashes[i]);
    }
  }
  size_t Find(const uint64_t* hashes, size_t n, uint8_t* bitmap) const override {
    if (!kBulk) {
      return FindEachToBitmap(hashes, n, bitmap, [&](uint64_t h) { return filter_.may_contain(h); });
    }
    // The bulk call reports each key's answer through a callback, with the key
    // by reference: its index is its offset in the (sub-)batch.
    size_t hits = 0;
    uint8_t answers[kAnswerChunk];
    for (size_t start = 0; start < n; start += kAnswerChunk) {
      const size_t m = n - start < kAnswerChunk ? n - start : kAnswerChunk;
      const uint64_t* first = hashes + start;
      filter_.may_contain(first, first + m, [&](const uint64_t& h, bool found) {
        answers[&h - first] = found ? 1 : 0;
      });
      hits += PackAnswers(answers, m, bitmap + start / 8);
    }
    return hits;
  }
  size_t bits() const { return filter_.capacity(); }

 private:
  BoostFilter filter_;
};

template <bool kBulk>
std::unique_ptr<PeerFilter> Make(size_t bytes, std::string* error) {
  try {
    auto filter = std::make_unique<BoostBloomFilter<kBulk>>(bytes);
    if (filter->bits() != bytes * 8) {
      *error = "Boost.Bloom made " + std::to_string(filter->bits()) + " bits, not " +
               std::to_string(bytes * 8);
      return nullptr;
    }
    return filter;
  } catch (const std::exception& e) {
    *error = std::string("Boost.Bloom: ") + e.what();
    return nullptr;
  }
}

}  // namespace

void AddBoostBloom(std::vector<PeerImpl>* impls) {
  impls->push_back({"boost", &Make<false>});
  impls->push_back({"boost_bulk", &Make<true>});
}

}  // namespace blockbloom_peers
