// SPDX-License-Identifier: Apache-2.0
// Selects an ISA for one benchmark of a public call (column_benchmarks.cc,
// typed_column_benchmarks.cc).
#ifndef BLOCKBLOOM_BENCH_SCOPED_ISA_H_
#define BLOCKBLOOM_BENCH_SCOPED_ISA_H_

#include <string>

#include "blockbloom/blockbloom.h"

namespace blockbloom_bench {

// The public call runs the selected ISA: select the benchmark's for the run,
// and put the previous one back so later benchmarks see the usual default.
class ScopedIsa {
 public:
  explicit ScopedIsa(const char* isa) : saved_(bb_selected_isa()) { status_ = bb_select_isa(isa); }
  ~ScopedIsa() { bb_select_isa(saved_.c_str()); }
  ScopedIsa(const ScopedIsa&) = delete;
  ScopedIsa& operator=(const ScopedIsa&) = delete;
  int status() const { return status_; }

 private:
  std::string saved_;
  int status_;
};

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_SCOPED_ISA_H_
