// SPDX-License-Identifier: Apache-2.0
// One implementation in the peer comparison (blockbloom or a peer built from
// the user's copy of its sources), behind one interface so that every
// implementation runs the same harness loop on the same keys. A call handles
// a whole batch, so the virtual call costs one indirect call per 1024 keys.
#ifndef BLOCKBLOOM_BENCH_PEERS_PEER_FILTER_H_
#define BLOCKBLOOM_BENCH_PEERS_PEER_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace blockbloom_peers {

// A filter of one implementation. The hashes are pre-hashed keys: every
// implementation is set up to use them as they are (an identity hash), so
// none pays for hashing and all see the same 64-bit values.
class PeerFilter {
 public:
  virtual ~PeerFilter() = default;
  // Inserts n hashes with the implementation's API for a batch.
  virtual void Insert(const uint64_t* hashes, size_t n) = 0;
  // Tests n hashes; sets bit i of bitmap ((n + 7) / 8 bytes) iff hashes[i]
  // may be present, and returns the number of bits set.
  virtual size_t Find(const uint64_t* hashes, size_t n, uint8_t* bitmap) const = 0;
};

// How to make one implementation's filters, and which cells it takes part in.
struct PeerImpl {
  std::string name;  // the cell name's <impl> part, e.g. "boost_bulk"
  // A filter of exactly `bytes` bytes of bits (a power of two here), empty;
  // nullptr if it cannot be had (the message goes to *error).
  std::unique_ptr<PeerFilter> (*make)(size_t bytes, std::string* error);
  bool find = true;    // takes part in the find cells
  bool insert = true;  // takes part in the insert cells
};

// The implementations built into this binary: blockbloom first, then each
// peer whose sources were found at configure time (peers_config.h).
std::vector<PeerImpl> PeerImpls();

// Adds the implementations of one peer; defined only in a build that has it.
void AddBlockbloom(std::vector<PeerImpl>* impls);
void AddFastfilter(std::vector<PeerImpl>* impls);
void AddBoostBloom(std::vector<PeerImpl>* impls);
void AddLibfilter(std::vector<PeerImpl>* impls);

namespace {  // internal linkage: the peers' files are compiled with their own flags

// The find loop of an implementation whose API tests one key at a time:
// packs the answers 64 to a word, as a batch API writes its bitmap.
template <typename MayContain>
size_t FindEachToBitmap(const uint64_t* hashes, size_t n, uint8_t* bitmap,
                        MayContain&& may_contain) {
  size_t hits = 0;
  for (size_t i = 0; i < n; i += 64) {
    const size_t m = n - i < 64 ? n - i : 64;
    uint64_t word = 0;
    for (size_t j = 0; j < m; ++j) {
      word |= static_cast<uint64_t>(may_contain(hashes[i + j]) ? 1 : 0) << j;
    }
    std::memcpy(bitmap + i / 8, &word, (m + 7) / 8);
    hits += static_cast<size_t>(__builtin_popcountll(word));
  }
  return hits;
}

// Packs n answers of one byte each (0 or 1) into bitmap, as a batch API
// writes it; returns the number of ones. For APIs that report each key
// through a callback: a byte store per key has no dependency on the last,
// where or-ing each answer into the bitmap would chain them. Eight answers
// become a byte with one multiply: byte k of the little-endian word (0 or 1)
// times 0x0102040810204080 lands on bit 56 + k, the top byte holds them all.
inline size_t PackAnswers(const uint8_t* answers, size_t n, uint8_t* bitmap) {
  size_t hits = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t eight;
    std::memcpy(&eight, answers + i, 8);
    const auto byte = static_cast<uint8_t>((eight * 0x0102040810204080ull) >> 56);
    bitmap[i / 8] = byte;
    hits += static_cast<size_t>(__builtin_popcount(byte));
  }
  if (i < n) {
    uint8_t byte = 0;
    for (size_t j = 0; i + j < n; ++j) byte = static_cast<uint8_t>(byte | (answers[i + j] & 1) << j);
    bitmap[i / 8] = byte;
    hits += static_cast<size_t>(__builtin_popcount(byte));
  }
  return hits;
}

}  // namespace

}  // namespace blockbloom_peers

#endif  // BLOCKBLOOM_BENCH_PEERS_PEER_FILTER_H_
