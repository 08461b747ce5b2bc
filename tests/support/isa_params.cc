// SPDX-License-Identifier: Apache-2.0
#include "support/isa_params.h"

#include <cstdio>

namespace bbtest {

std::string IsaSkipReason(const std::string& isa) {
  const bbi_kernel_table* table = nullptr;
  const int status = bbi_kernels_for_isa(isa.c_str(), &table);
  if (status == BB_OK) return "";
  if (status == BB_ERR_ISA_NOT_COMPILED) return isa + " is not compiled for this architecture";
  if (status == BB_ERR_ISA_UNSUPPORTED) return "this CPU cannot run " + isa;
  return isa + ": " + bb_status_message(status);
}

void PerIsa::SetUp() {
  const std::string reason = IsaSkipReason(GetParam());
  if (!reason.empty()) GTEST_SKIP() << "ISA skipped: " << reason;
  ASSERT_EQ(bbi_kernels_for_isa(GetParam(), &kernels_), BB_OK);
  ASSERT_EQ(bbi_kernels_for_isa("scalar", &scalar_), BB_OK);
  ASSERT_STREQ(kernels_->isa, GetParam());
}

std::string IsaParamName(const ::testing::TestParamInfo<const char*>& info) { return info.param; }

namespace {

// Prints, before any test runs, which ISAs the per-ISA tests will exercise.
class IsaReport : public ::testing::Environment {
 public:
  void SetUp() override {
    std::string ran, skipped;
    for (const char* isa : RegistryIsaNames()) {
      const std::string reason = IsaSkipReason(isa);
      if (reason.empty()) {
        ran += std::string(ran.empty() ? "" : ", ") + isa;
      } else {
        skipped += std::string(skipped.empty() ? "" : "; ") + reason;
      }
    }
    std::printf("[ ISAs    ] run: %s\n[ ISAs    ] skipped: %s\n[ ISAs    ] selected at load: %s\n",
                ran.c_str(), skipped.empty() ? "none" : skipped.c_str(), bb_selected_isa());
  }
};

const auto* const kIsaReport = ::testing::AddGlobalTestEnvironment(new IsaReport);

}  // namespace
}  // namespace bbtest
