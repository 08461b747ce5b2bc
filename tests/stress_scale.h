// How many keys the multi-threaded tests push: 10^7 natively; the emulated
// rows of the test matrix (qemu, 10-50x slower) and the ThreadSanitizer run
// set BLOCKBLOOM_STRESS_KEYS lower (at least 10^6).
#ifndef BLOCKBLOOM_TESTS_STRESS_SCALE_H_
#define BLOCKBLOOM_TESTS_STRESS_SCALE_H_

#include <cstddef>
#include <cstdlib>

namespace bbtest {

inline size_t StressKeys() {
  const char* env = std::getenv("BLOCKBLOOM_STRESS_KEYS");
  const size_t n = env != nullptr ? std::strtoull(env, nullptr, 10) : 0;
  return n >= 1000000 ? n : 10000000;
}

}  // namespace bbtest

#endif  // BLOCKBLOOM_TESTS_STRESS_SCALE_H_
