// SPDX-License-Identifier: Apache-2.0
// The probe path of `blockbloom probe --offset K --bytes N`: a view of N
// bytes at any offset K into a buffer. Sizes the library refuses must be
// refused; accepted views must probe without reading outside [K, K+N).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  bbfuzz::FuzzInput in(data, size);
  const uint16_t offset = in.Take<uint16_t>();
  const uint32_t claimed = in.Take<uint32_t>();
  const uint8_t num_probes = in.Take<uint8_t>();
  std::vector<uint64_t> probes(num_probes);
  for (uint64_t& h : probes) h = in.Take<uint64_t>();
  // The "file": whatever input is left, exactly sized.
  std::vector<uint8_t> file(in.rest(), in.rest() + in.rest_size());
  // The tool's rule: the range must lie inside the file.
  if (offset > file.size() || claimed > file.size() - offset) return 0;
  bb_filter f;
  const uint8_t* start = file.empty() ? nullptr : file.data() + offset;
  const int status = bb_filter_init_view_readonly(&f, start, claimed);
  if (status != (start == nullptr ? BB_ERR_NULL_POINTER : bb_filter_check_size(claimed))) std::abort();
  if (status != BB_OK) return 0;
  std::vector<uint8_t> bitmap((probes.size() + 7) / 8 + 1);
  std::vector<uint32_t> selection(probes.size() + 1);
  size_t bitmap_hits = 0, select_hits = 0;
  if (bb_find_batch_bitmap(&f, probes.data(), probes.size(), bitmap.data(), &bitmap_hits) != BB_OK ||
      bb_find_batch_select(&f, probes.data(), probes.size(), selection.data(), &select_hits) != BB_OK ||
      bitmap_hits != select_hits) {
    std::abort();
  }
  if (bb_insert(&f, 1) != BB_ERR_READ_ONLY) std::abort();
  return 0;
}
