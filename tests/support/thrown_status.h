// SPDX-License-Identifier: Apache-2.0
// For the C++ API tests: the bb_status of the blockbloom::Error a call throws.
#ifndef BLOCKBLOOM_TESTS_THROWN_STATUS_H_
#define BLOCKBLOOM_TESTS_THROWN_STATUS_H_

#include <string>

#include "blockbloom/blockbloom.hpp"

// The status of the Error that call throws; BB_OK when it throws none.
template <typename Call>
int ThrownStatus(Call&& call) {
  try {
    call();
  } catch (const blockbloom::Error& e) {
    return e.status();
  }
  return BB_OK;
}

// The message of the Error that call throws; "" when it throws none.
template <typename Call>
std::string ThrownMessage(Call&& call) {
  try {
    call();
  } catch (const blockbloom::Error& e) {
    return e.what();
  }
  return std::string();
}

#endif  // BLOCKBLOOM_TESTS_THROWN_STATUS_H_
