// SPDX-License-Identifier: Apache-2.0
// A C++17 consumer of the installed blockbloom (tests/consumers/run_consumers.py):
// the C++ layer (blockbloom.hpp) inserts keys, finds them, sees few others,
// throws blockbloom::Error on a bad size, and reports the expected version.
// usage: consumer_cpp EXPECTED_VERSION
#include <blockbloom/blockbloom.hpp>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s EXPECTED_VERSION\n", argv[0]);
    return 2;
  }
  if (std::string(bb_version()) != argv[1] || std::string(BB_VERSION_STRING) != argv[1]) {
    std::fprintf(stderr, "version: library %s, header %s, expected %s\n", bb_version(),
                 BB_VERSION_STRING, argv[1]);
    return 1;
  }
  std::mt19937_64 random(42);
  std::vector<std::uint64_t> keys(5000);
  for (auto& key : keys) key = random();

  blockbloom::Filter filter(1 << 16);
  filter.insert_batch(keys.data(), keys.size());
  std::vector<std::uint32_t> selection(keys.size());
  const std::size_t hits = filter.find_batch_select(keys.data(), keys.size(), selection.data());
  if (hits != keys.size()) {
    std::fprintf(stderr, "%zu of %zu inserted keys found\n", hits, keys.size());
    return 1;
  }
  std::size_t false_positives = 0;
  for (int i = 0; i < 10000; ++i) false_positives += filter.find(random()) ? 1 : 0;
  if (false_positives > 200) {
    std::fprintf(stderr, "%zu of 10000 other keys found\n", false_positives);
    return 1;
  }
  try {
    blockbloom::Filter bad(100);
    std::fprintf(stderr, "a 100-byte filter was not refused\n");
    return 1;
  } catch (const blockbloom::Error& e) {
    if (e.status() != BB_ERR_SIZE_NOT_MULTIPLE_OF_32) return 1;
  }
  std::printf("c++17 consumer: blockbloom %s (selected ISA %s): %zu keys found, %zu of 10000 others\n",
              bb_version(), blockbloom::selected_isa().c_str(), hits, false_positives);
  return 0;
}
