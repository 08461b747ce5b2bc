// SPDX-License-Identifier: Apache-2.0
// blockbloom_peers_bench: blockbloom beside the public split block Bloom
// filters whose sources the user pointed at (-Dpeer_sources=DIR, see
// docs/benchmarks.md), on the same pre-hashed keys, in one process.
//   blockbloom_peers_bench --benchmark_filter='^peers/find/.*/16384$'
// It first prints a line per peer: built in (from where) or absent (why);
// with none present it says so and runs blockbloom alone. The JSON context
// (--benchmark_out_format=json) holds the same lines.
#include <cstdio>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "blockbloom/blockbloom.h"
#include "peer_benchmarks.h"
#include "peer_filter.h"
#include "peer_keys.h"
#include "peers_config.h"

namespace blockbloom_peers {

std::vector<PeerImpl> PeerImpls() {
  std::vector<PeerImpl> impls;
  AddBlockbloom(&impls);
#if BB_PEER_FASTFILTER
  AddFastfilter(&impls);
#endif
#if BB_PEER_BOOST_BLOOM
  AddBoostBloom(&impls);
#endif
#if BB_PEER_LIBFILTER
  AddLibfilter(&impls);
#endif
  return impls;
}

}  // namespace blockbloom_peers

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  struct Peer {
    const char* name;
    bool present;
    const char* status;
  };
  const Peer peers[] = {
      {"fastfilter", BB_PEER_FASTFILTER != 0, BB_PEER_FASTFILTER_STATUS},
      {"boost_bloom", BB_PEER_BOOST_BLOOM != 0, BB_PEER_BOOST_BLOOM_STATUS},
      {"libfilter", BB_PEER_LIBFILTER != 0, BB_PEER_LIBFILTER_STATUS},
  };
  int present = 0;
  for (const Peer& p : peers) {
    std::printf("peer %s: %s %s\n", p.name, p.present ? "built in" : "absent", p.status);
    benchmark::AddCustomContext(std::string("peer_") + p.name,
                                std::string(p.present ? "built in " : "absent ") + p.status);
    present += p.present ? 1 : 0;
  }
  if (present == 0) {
    std::printf("peers: none present (peer_sources \"%s\"): blockbloom alone\n", BB_PEER_SOURCES);
  }
  std::fflush(stdout);
  benchmark::AddCustomContext("peer_sources", BB_PEER_SOURCES);
  benchmark::AddCustomContext("blockbloom_version", bb_version());
  benchmark::AddCustomContext("selected_isa", bb_selected_isa());
  benchmark::AddCustomContext("bits_per_key", std::to_string(blockbloom_peers::kBitsPerKey));
  benchmark::AddCustomContext("hashes_per_iteration", std::to_string(blockbloom_peers::kBatchSize));

  blockbloom_peers::RegisterPeerBenchmarks(blockbloom_peers::PeerImpls());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
