// SPDX-License-Identifier: Apache-2.0
// How many keys the multi-threaded tests push: 10^7 natively; the emulated
// rows of the test matrix (qemu, 10-50x slower) and the ThreadSanitizer run
// set BLOCKBLOOM_STRESS_KEYS lower (at least 10^6).
#ifndef BLOCKBLOOM_TESTS_STRESS_SCALE_H_
#define BLOCKBLOOM_TESTS_STRESS_SCALE_H_

#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace bbtest {

inline size_t StressKeys() {
  const char* env = std::getenv("BLOCKBLOOM_STRESS_KEYS");
  const size_t n = env != nullptr ? std::strtoull(env, nullptr, 10) : 0;
  return n >= 1000000 ? n : 10000000;
}

// Under qemu-aarch64 the threaded tests crawl (measured: 4 threads inserting
// 10^6 keys did not finish in 120 s, against 0.2 s natively), so they are
// skipped there with this reason; they run natively, in every qemu-x86_64
// row of the matrix, and under ThreadSanitizer.
inline const char* ThreadedTestSkipReason() {
  const char* wrapper = std::getenv("BLOCKBLOOM_TEST_WRAPPER");
  if (wrapper != nullptr && std::strstr(wrapper, "qemu-aarch64") != nullptr) {
    return "multi-threaded stress skipped under qemu-aarch64 (too slow there); it runs natively, "
           "under qemu-x86_64 and under TSan";
  }
  return nullptr;
}

// The measured-FPP tests probe 10^7 keys per point: 50 s a row under qemu,
// for a number no tier can change (every tier's bits equal scalar's, which
// the kernel tests prove on every emulated CPU). They run natively, once per
// forced tier in the native rows of the matrix, and under ASan; under an
// emulator they are skipped with this reason.
inline const char* StatisticalTestSkipReason() {
  const char* wrapper = std::getenv("BLOCKBLOOM_TEST_WRAPPER");
  if (wrapper != nullptr && *wrapper != '\0') {
    return "measured-FPP statistics skipped under an emulator (ISA-independent: every tier's "
           "bits equal scalar's); they run natively on every tier";
  }
  return nullptr;
}

}  // namespace bbtest

#endif  // BLOCKBLOOM_TESTS_STRESS_SCALE_H_
