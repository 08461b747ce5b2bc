// SPDX-License-Identifier: Apache-2.0
// Differential: a random program of filter operations (create with a random
// size and layout, insert, insert_batch, partitioned insert, find, both
// find_batch forms, union, intersect, and the pipeline probes: select_from
// over a random selection compacted in place, bitmap_and into a random
// bitmap) runs on every ISA this CPU supports
// and on the scalar tier; any difference in a result or in the filter bytes
// aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "src/core/kernel_table.h"
#include "fuzz_input.h"
#include "tests/support/isa_names.h"

namespace {

// Every tier of the registry this CPU runs, scalar (the reference, last in
// the registry's best-first order) first.
std::vector<const bbi_kernel_table*> SupportedTables() {
  std::vector<const bbi_kernel_table*> tables;
  const std::vector<const char*> names = bbtest::RegistryIsaNames();
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    const bbi_kernel_table* t = nullptr;
    if (bbi_kernels_for_isa(*it, &t) == BB_OK) tables.push_back(t);
  }
  return tables;
}

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<const bbi_kernel_table*> tables = SupportedTables();
  bbfuzz::FuzzInput in(data, size);
  const bool kudu = in.Take<uint8_t>() & 1;
  const uint16_t size_word = in.Take<uint16_t>();
  const uint32_t blocks = kudu ? 2u << (size_word % 12) : 1u + size_word % 4096u;
  const size_t bytes = size_t{blocks} * 32;

  std::vector<std::vector<uint8_t>> filters(tables.size(), std::vector<uint8_t>(bytes, 0));
  std::vector<std::vector<uint8_t>> others(tables.size(), std::vector<uint8_t>(bytes, 0));
  std::vector<uint64_t> hashes;
  std::vector<uint32_t> hashes32;

  for (int step = 0; step < 64 && !in.empty(); ++step) {
    const uint8_t op = in.Take<uint8_t>() % 10;
    const size_t n = in.Take<uint8_t>() % 80;
    hashes.resize(n);
    hashes32.resize(n);
    for (size_t i = 0; i < n; ++i) {
      hashes[i] = in.Take<uint64_t>();
      hashes32[i] = static_cast<uint32_t>(hashes[i] >> 7);
    }
    // For the pipeline probes: rows of the batch (any order, repeats) and a
    // bitmap of it, both from the hashes' other bits.
    std::vector<uint32_t> rows;
    std::vector<uint8_t> live((n + 7) / 8, 0);
    for (size_t i = 0; i < n; ++i) {
      if ((hashes[i] >> 61) != 0) rows.push_back(static_cast<uint32_t>((hashes[i] >> 40) % n));
      if ((hashes[i] >> 62) != 0) live[i / 8] = static_cast<uint8_t>(live[i / 8] | (1u << (i % 8)));
    }
    const uint32_t cut = n == 0 ? 0 : static_cast<uint32_t>(hashes[0] % (uint64_t{blocks} + 1));
    std::vector<size_t> results;
    std::vector<std::vector<uint8_t>> outputs;
    for (size_t t = 0; t < tables.size(); ++t) {
      const bbi_kernel_table& k = *tables[t];
      uint8_t* f = filters[t].data();
      size_t result = 0;
      std::vector<uint8_t> out;
      switch (op) {
        case 0:
          for (size_t i = 0; i < n; ++i) kudu ? k.kudu_insert(f, blocks, hashes32[i]) : k.insert(f, blocks, hashes[i]);
          break;
        case 1:
          kudu ? k.kudu_insert_batch(f, blocks, hashes32.data(), n) : k.insert_batch(f, blocks, hashes.data(), n);
          break;
        case 2:  // two partitions that together cover every block
          if (kudu) {
            k.kudu_insert_batch_range(f, blocks, hashes32.data(), n, 0, cut);
            k.kudu_insert_batch_range(f, blocks, hashes32.data(), n, cut, blocks);
          } else {
            k.insert_batch_range(f, blocks, hashes.data(), n, 0, cut);
            k.insert_batch_range(f, blocks, hashes.data(), n, cut, blocks);
          }
          break;
        case 3:
          for (size_t i = 0; i < n; ++i) {
            result = result * 2 + static_cast<size_t>(kudu ? k.kudu_find(f, blocks, hashes32[i])
                                                           : k.find(f, blocks, hashes[i]));
          }
          break;
        case 4:
          out.assign((n + 7) / 8, 0xee);
          if (n > 0) {
            result = kudu ? k.kudu_find_batch_bitmap(f, blocks, hashes32.data(), n, out.data())
                          : k.find_batch_bitmap(f, blocks, hashes.data(), n, out.data());
          }
          break;
        case 5: {
          std::vector<uint32_t> selection(n);
          if (n > 0) {
            result = kudu ? k.kudu_find_batch_select(f, blocks, hashes32.data(), n, selection.data())
                          : k.find_batch_select(f, blocks, hashes.data(), n, selection.data());
          }
          out.resize(result * 4);
          if (result > 0) std::memcpy(out.data(), selection.data(), result * 4);
          break;
        }
        case 6:  // grow the other filter, then union it in
          kudu ? k.kudu_insert_batch(others[t].data(), blocks, hashes32.data(), n)
               : k.insert_batch(others[t].data(), blocks, hashes.data(), n);
          k.union_bytes(f, others[t].data(), bytes);
          break;
        case 7:
          k.intersect_bytes(others[t].data(), f, bytes);
          break;
        case 8: {
          std::vector<uint32_t> selection(rows);
          if (!selection.empty()) {
            result = kudu ? k.kudu_find_batch_select_from(f, blocks, hashes32.data(), selection.data(),
                                                          selection.size(), selection.data())
                          : k.find_batch_select_from(f, blocks, hashes.data(), selection.data(),
                                                     selection.size(), selection.data());
          }
          out.resize(result * 4);
          if (result > 0) std::memcpy(out.data(), selection.data(), result * 4);
          break;
        }
        case 9:
          out = live;
          if (n > 0) {
            result = kudu ? k.kudu_find_batch_bitmap_and(f, blocks, hashes32.data(), n, out.data())
                          : k.find_batch_bitmap_and(f, blocks, hashes.data(), n, out.data());
          }
          break;
      }
      results.push_back(result);
      outputs.push_back(out);
    }
    for (size_t t = 1; t < tables.size(); ++t) {
      Check(results[t] == results[0]);
      Check(outputs[t] == outputs[0]);
      Check(filters[t] == filters[0]);
      Check(others[t] == others[0]);
    }
  }
  return 0;
}
