// SPDX-License-Identifier: Apache-2.0
// Parquet BloomFilterHeader + bitset deserialization: any bytes are either
// refused with an error code or read into a filter that then probes and
// re-serializes to the same bytes. ASan catches any read outside the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "blockbloom/parquet_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // An exactly-sized heap copy, so an overread hits ASan's redzone.
  std::vector<uint8_t> input(data, data + size);
  size_t header_bytes = 0, num_bytes = 0;
  const int status = bb_parquet_header_read(input.data(), input.size(), &header_bytes, &num_bytes);
  bb_filter f;
  size_t consumed = 0;
  const int read_status = bb_parquet_filter_read(&f, input.data(), input.size(), &consumed);
  if ((status == BB_OK) != (read_status == BB_OK)) std::abort();  // the two readers agree
  if (read_status != BB_OK) {
    if (status >= 0 || f.data != nullptr) std::abort();  // an error code, nothing half-made
    return 0;
  }
  if (consumed != header_bytes + num_bytes || consumed > size) std::abort();
  // The bitset round-trips.
  std::vector<uint8_t> out(BB_PARQUET_HEADER_MAX_BYTES + num_bytes);
  size_t written = 0;
  if (bb_parquet_filter_write_any_size(&f, out.data(), out.size(), &written) != BB_OK) {
    std::abort();  // any size the reader took, not only the reader-safe ones
  }
  if (written < num_bytes || std::memcmp(out.data() + written - num_bytes, input.data() + header_bytes, num_bytes) != 0) {
    std::abort();
  }
  const uint64_t probes[3] = {0, 0x26c7827d889f6da3ull, ~0ull};
  uint8_t bitmap[1];
  if (bb_find_batch_bitmap(&f, probes, 3, bitmap, nullptr) != BB_OK) std::abort();
  bb_filter_release(&f);
  return 0;
}
