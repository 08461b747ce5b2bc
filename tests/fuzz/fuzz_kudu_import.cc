// SPDX-License-Identifier: Apache-2.0
// Kudu BlockBloomFilterPB import: hostile field values are refused with an
// error code and leave nothing behind; accepted ones round-trip exactly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "blockbloom/kudu.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  bbfuzz::FuzzInput in(data, size);
  bb_kudu_directory dir{};
  dir.log_space_bytes = in.Take<int8_t>();
  dir.always_false = in.Take<uint8_t>() & 1;
  dir.hash_algorithm = in.Take<int8_t>();
  dir.hash_seed = in.Take<uint32_t>();
  const uint8_t size_mode = in.Take<uint8_t>();
  // The directory: the rest of the input, claimed at its real size, or at a
  // size taken from the input (which may lie: then it must not be trusted
  // beyond the real buffer, so cap it).
  std::vector<uint8_t> bytes(in.rest(), in.rest() + in.rest_size());
  dir.bloom_data = bytes.empty() ? nullptr : bytes.data();
  dir.bloom_data_size = (size_mode & 1) ? bytes.size() : bytes.size() / 2;
  bb_filter f;
  const int status = bb_kudu_import(&f, &dir);
  if (status != BB_OK) {
    if (status >= 0 || f.data != nullptr) std::abort();
    return 0;
  }
  bb_kudu_directory out{};
  if (bb_kudu_export(&f, &out) != BB_OK) std::abort();
  if (out.log_space_bytes != dir.log_space_bytes || out.always_false != dir.always_false ||
      out.hash_seed != dir.hash_seed || out.bloom_data_size != dir.bloom_data_size ||
      std::memcmp(out.bloom_data, dir.bloom_data, dir.bloom_data_size) != 0) {
    std::abort();
  }
  const uint32_t probe = dir.hash_seed;
  const int found = bb_kudu_find(&f, probe);
  if (found < 0 || (dir.always_false && found != 0)) std::abort();
  bb_filter_release(&f);
  return 0;
}
