// SPDX-License-Identifier: Apache-2.0
// The keys of the peer comparison, the same for every implementation: at a
// filter size of B bytes, the filled filter holds B * 8 / kBitsPerKey keys
// (24 per 32-byte block, as in blockbloom_bench), and finds probe a pool of
// half inserted, half never inserted keys in random order.
#ifndef BLOCKBLOOM_BENCH_PEERS_PEER_KEYS_H_
#define BLOCKBLOOM_BENCH_PEERS_PEER_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace blockbloom_peers {

// Hashes handled per benchmark iteration: the batch size of every cell.
inline constexpr size_t kBatchSize = 1024;
inline constexpr double kBitsPerKey = 10.67;

// Key number i (0-based) of those a filled filter holds.
uint64_t InsertedKey(size_t i);

struct PeerKeys {
  size_t num_inserted = 0;       // keys 0 .. num_inserted - 1 of InsertedKey
  std::vector<uint64_t> probes;  // a multiple of kBatchSize
};

// The keys for a filter of filter_bytes, built on first use and kept.
const PeerKeys& KeysFor(size_t filter_bytes);

}  // namespace blockbloom_peers

#endif  // BLOCKBLOOM_BENCH_PEERS_PEER_KEYS_H_
