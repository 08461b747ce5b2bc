// SPDX-License-Identifier: Apache-2.0
// Runs a test once per ISA name. Tiers this build or CPU cannot run are
// skipped with the reason in the output (never silently), and the test
// binary prints which ISAs ran and which were skipped.
#ifndef BLOCKBLOOM_TESTS_ISA_PARAMS_H_
#define BLOCKBLOOM_TESTS_ISA_PARAMS_H_

#include <gtest/gtest.h>

#include <string>

#include "support/isa_names.h"
#include "src/core/kernel_table.h"

namespace bbtest {

// Why an ISA cannot run here ("" if it can).
std::string IsaSkipReason(const std::string& isa);

// Fixture: `kernels()` is the kernel table of GetParam(); `scalar()` the reference.
class PerIsa : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override;
  const bbi_kernel_table& kernels() const { return *kernels_; }
  const bbi_kernel_table& scalar() const { return *scalar_; }

 private:
  const bbi_kernel_table* kernels_ = nullptr;
  const bbi_kernel_table* scalar_ = nullptr;
};

std::string IsaParamName(const ::testing::TestParamInfo<const char*>& info);

}  // namespace bbtest

#define BB_INSTANTIATE_PER_ISA(Suite) \
  INSTANTIATE_TEST_SUITE_P(Isa, Suite, ::testing::ValuesIn(::bbtest::RegistryIsaNames()), ::bbtest::IsaParamName)

#endif  // BLOCKBLOOM_TESTS_ISA_PARAMS_H_
