// SPDX-License-Identifier: Apache-2.0
// The process-wide kernel selection: made once when the library loads,
// readable on the hot path as one relaxed atomic load (a plain load on x86
// and aarch64) followed by one indirect call.
#ifndef BLOCKBLOOM_DISPATCH_DISPATCHER_H_
#define BLOCKBLOOM_DISPATCH_DISPATCHER_H_

#include <atomic>
#include <string>

#include "src/core/kernel_table.h"
#include "src/dispatch/isa_choice.h"

namespace blockbloom::internal {

// Starts as the scalar table (constant-initialised, so even code that runs
// before the library's own initialisers gets correct results) and is switched
// to the best tier before main().
extern std::atomic<const bbi_kernel_table*> g_active_kernels;

inline const bbi_kernel_table& ActiveKernels() {
  return *g_active_kernels.load(std::memory_order_relaxed);
}

// Detection results, computed once on first use (thread-safe).
struct DispatchState {
  IsaSet compiled;
  IsaSet supported;  // compiled and runnable on this CPU
  IsaChoice load_choice;
  std::string compiled_names;   // "avx512,avx2,sse42,scalar"
  std::string supported_names;
};
const DispatchState& GetDispatchState();

// BB_OK, or why name cannot be used here; on success *table is its kernels.
int LookUpKernels(const char* name, const bbi_kernel_table** table);

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_DISPATCH_DISPATCHER_H_
