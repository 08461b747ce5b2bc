// SPDX-License-Identifier: Apache-2.0
// The CLI's input parsing: hash lines and typed values. Every line parses
// or is refused; nothing throws, reads past the line, or wraps silently.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tools/common/number_parse.h"
#include "tools/common/value_parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Exactly-sized heap copy without a terminator: a read past the end is caught.
  std::string buffer(reinterpret_cast<const char*>(data), size);
  const std::string_view text(buffer.data(), buffer.size());
  uint64_t u = 0;
  if (blockbloom_tools::ParseUint64(text, &u) == blockbloom_tools::ParseStatus::kOk) {
    // Round trip: the decimal rendering parses to the same value.
    uint64_t again = 0;
    if (blockbloom_tools::ParseUint64(std::to_string(u), &again) != blockbloom_tools::ParseStatus::kOk ||
        again != u) {
      std::abort();
    }
  }
  int32_t i32;
  int64_t i64;
  float f32;
  double f64;
  (void)blockbloom_tools::ParseInt32(text, &i32);
  (void)blockbloom_tools::ParseInt64(text, &i64);
  (void)blockbloom_tools::ParseFloat(text, &f32);
  (void)blockbloom_tools::ParseDouble(text, &f64);
  return 0;
}
