// SPDX-License-Identifier: Apache-2.0
// blockbloom_peers_bench: blockbloom beside the public split block Bloom
// filters whose sources the user pointed at (-Dpeer_sources=DIR, see
// docs/benchmarks.md), on the same pre-hashed keys, in one process.
//   blockbloom_peers_bench --benchmark_filter='^peers/find/.*/16384$'
// It first prints a line per peer: built in (from where) or absent (why);
// with none present it says so and runs blockbloom alone. The JSON context
// (--benchmark_out_format=json) holds the same lines. It checks its own
// packing of the peers' answers first, and exits 1 if that is wrong.
#include <cstdint>
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

namespace {

// The two ways the peers' answers become a bitmap (peer_filter.h), against
// bit-by-bit packing on pseudo-random answers of every length to 200: a
// fault there would misreport the peers' hits rather than fail a cell, so
// the binary checks it before it measures anything.
bool PackingIsRight() {
  uint64_t state = 0x7061636b696e6731ull;
  for (size_t n = 0; n <= 200; ++n) {
    std::vector<uint8_t> answers(n);
    for (uint8_t& a : answers) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      a = static_cast<uint8_t>(state >> 63);
    }
    std::vector<uint8_t> want((n + 7) / 8, 0);
    size_t want_hits = 0;
    for (size_t i = 0; i < n; ++i) {
      want[i / 8] = static_cast<uint8_t>(want[i / 8] | answers[i] << (i % 8));
      want_hits += answers[i];
    }
    std::vector<uint8_t> packed((n + 7) / 8, 0xff);
    std::vector<uint8_t> each((n + 7) / 8, 0xff);
    std::vector<uint64_t> index(n);
    for (size_t i = 0; i < n; ++i) index[i] = i;
    const size_t packed_hits = PackAnswers(answers.data(), n, packed.data());
    const size_t each_hits = FindEachToBitmap(index.data(), n, each.data(),
                                              [&](uint64_t i) { return answers[i] != 0; });
    if (packed != want || each != want || packed_hits != want_hits || each_hits != want_hits) {
      std::fprintf(stderr, "blockbloom_peers_bench: answer packing wrong at n = %zu\n", n);
      return false;
    }
  }
  return true;
}

}  // namespace

}  // namespace blockbloom_peers

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (!blockbloom_peers::PackingIsRight()) return 1;

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
