// SPDX-License-Identifier: Apache-2.0
// A file opened by path (pread, reading headers a piece at a time) and the
// same bytes opened in memory must read alike: the two readers share the
// footer walk but not the way bytes are fetched. What aborts it: statuses
// that differ (and a path error's reason that is not "PATH: " + the memory
// one's); any column or chunk field that differs, filter error texts
// included; a filter that loads by one and not the other, or loads other
// bytes. ASan catches any read outside the input.
#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "blockbloom/parquet_file.h"

namespace {

void RemoveTemp();

// One temporary file per process, rewritten for each input and removed when
// the fuzzer exits (libFuzzer's time limit ends it through exit()).
const std::string& TempPath() {
  static const std::string path = [] {
    char pattern[] = "/tmp/bb-fuzz-parquet-open-XXXXXX";
    const int fd = ::mkstemp(pattern);
    if (fd < 0) std::abort();
    ::close(fd);
    return std::string(pattern);
  }();
  static const bool registered = std::atexit(RemoveTemp) == 0;
  (void)registered;
  return path;
}

void RemoveTemp() { ::unlink(TempPath().c_str()); }

void WriteTemp(const std::vector<uint8_t>& input) {
  const int fd = ::open(TempPath().c_str(), O_WRONLY | O_TRUNC);
  if (fd < 0) std::abort();
  size_t done = 0;
  while (done < input.size()) {
    const ssize_t n = ::write(fd, input.data() + done, input.size() - done);
    if (n <= 0) std::abort();
    done += static_cast<size_t>(n);
  }
  ::close(fd);
}

bool SameText(const char* a, const char* b) {
  if (a == nullptr || b == nullptr) return a == b;
  return std::strcmp(a, b) == 0;
}

void SameColumn(const bb_parquet_file* p, const bb_parquet_file* m, size_t c) {
  bb_parquet_column a{}, b{};
  a.struct_size = b.struct_size = sizeof a;
  if (bb_parquet_file_column(p, c, &a) != BB_OK || bb_parquet_file_column(m, c, &b) != BB_OK) {
    std::abort();
  }
  if (a.path_len != b.path_len || std::memcmp(a.path, b.path, a.path_len) != 0 ||
      a.physical_type != b.physical_type || a.type_length != b.type_length ||
      a.logical_type != b.logical_type || a.converted_type != b.converted_type ||
      a.bit_width != b.bit_width || a.is_signed != b.is_signed || a.time_unit != b.time_unit ||
      a.is_adjusted_to_utc != b.is_adjusted_to_utc || a.scale != b.scale ||
      a.precision != b.precision) {
    std::abort();
  }
}

void SameChunk(const bb_parquet_file* p, const bb_parquet_file* m, size_t g, size_t c) {
  bb_parquet_chunk a{}, b{};
  a.struct_size = b.struct_size = sizeof a;
  if (bb_parquet_file_chunk(p, g, c, &a) != BB_OK || bb_parquet_file_chunk(m, g, c, &b) != BB_OK) {
    std::abort();
  }
  if (a.num_values != b.num_values || a.has_filter != b.has_filter ||
      a.filter_status != b.filter_status || !SameText(a.filter_error, b.filter_error) ||
      a.filter_offset != b.filter_offset || a.filter_length != b.filter_length ||
      a.filter_checked != b.filter_checked || a.bitset_offset != b.bitset_offset ||
      a.bitset_bytes != b.bitset_bytes) {
    std::abort();
  }
  bb_filter fa, fb;
  const int la = bb_parquet_file_load_filter(p, g, c, &fa);
  const int lb = bb_parquet_file_load_filter(m, g, c, &fb);
  if (la != lb && la != BB_ERR_OUT_OF_MEMORY && lb != BB_ERR_OUT_OF_MEMORY) std::abort();
  if (la == BB_OK && lb == BB_OK &&
      (fa.num_bytes != fb.num_bytes || std::memcmp(fa.data, fb.data, fa.num_bytes) != 0)) {
    std::abort();
  }
  if (la == BB_OK) bb_filter_release(&fa);
  if (lb == BB_OK) bb_filter_release(&fb);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // An exactly sized heap copy, so an overread hits ASan's redzone.
  const std::vector<uint8_t> input(data, data + size);
  WriteTemp(input);
  bb_parquet_file* by_path = nullptr;
  bb_parquet_file* in_memory = nullptr;
  char path_why[256] = "";
  char memory_why[256] = "";
  const int ps = bb_parquet_file_open_path(&by_path, TempPath().c_str(), path_why, sizeof path_why);
  const int ms = bb_parquet_file_open_memory(&in_memory, input.data(), input.size(), memory_why,
                                             sizeof memory_why);
  if (ps != ms) std::abort();
  if (ps != BB_OK) {
    // "PATH: " + the reason, cut alike by the buffer.
    const std::string expected = (TempPath() + ": " + memory_why).substr(0, sizeof path_why - 1);
    if (ms != BB_ERR_OUT_OF_MEMORY && expected != path_why) std::abort();
    return 0;
  }
  size_t groups = 0, columns = 0, memory_groups = 0, memory_columns = 0;
  bb_parquet_file_num_row_groups(by_path, &groups);
  bb_parquet_file_num_columns(by_path, &columns);
  bb_parquet_file_num_row_groups(in_memory, &memory_groups);
  bb_parquet_file_num_columns(in_memory, &memory_columns);
  if (groups != memory_groups || columns != memory_columns) std::abort();
  for (size_t c = 0; c < columns; ++c) {
    SameColumn(by_path, in_memory, c);
    for (size_t g = 0; g < groups; ++g) SameChunk(by_path, in_memory, g, c);
  }
  bb_parquet_file_close(by_path);
  bb_parquet_file_close(in_memory);
  return 0;
}
