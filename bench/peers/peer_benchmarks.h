// SPDX-License-Identifier: Apache-2.0
// The cells of the peer comparison, peers/<op>/<impl>/<bytes>:
//   find    16 KiB, 512 KiB, 16 MiB, 512 MiB: batches of 1024 probes of a
//           filter filled to kBitsPerKey, a bitmap of the answers out
//   insert  16 KiB, 16 MiB: batches of 1024 keys into a filter of that size
// with ns_per_key (and hit_rate for finds: 0.5 plus half the false positive
// rate; below 0.5 would be a false negative) as counters.
#ifndef BLOCKBLOOM_BENCH_PEERS_PEER_BENCHMARKS_H_
#define BLOCKBLOOM_BENCH_PEERS_PEER_BENCHMARKS_H_

#include <vector>

#include "peer_filter.h"

namespace blockbloom_peers {

void RegisterPeerBenchmarks(const std::vector<PeerImpl>& impls);

}  // namespace blockbloom_peers

#endif  // BLOCKBLOOM_BENCH_PEERS_PEER_BENCHMARKS_H_
