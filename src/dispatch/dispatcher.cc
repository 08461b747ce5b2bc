// SPDX-License-Identifier: Apache-2.0
#include "src/dispatch/dispatcher.h"

#include <cstdlib>

#include "blockbloom/blockbloom.h"
#include "src/kernels/kernel_registry.h"

namespace blockbloom::internal {

std::atomic<const bbi_kernel_table*> g_active_kernels{&kScalarKernels};

namespace {

DispatchState ComputeDispatchState() {
  DispatchState s;
  const CpuFlags flags = DetectCpuFlags();
  for (Isa isa : kIsasBestFirst) {
    if (CompiledKernels(isa) == nullptr) continue;
    s.compiled.Add(isa);
    if (CpuCanRun(isa, flags, nullptr)) s.supported.Add(isa);
  }
  s.load_choice = ChooseIsa(std::getenv("BLOCKBLOOM_ISA"), s.compiled, flags);
  s.compiled_names = IsaSetNames(s.compiled, ",");
  s.supported_names = IsaSetNames(s.supported, ",");
  return s;
}

// Runs while the library is loaded, before main(): all CPUID work is here.
const bool kSelectedOnLoad = [] {
  g_active_kernels.store(CompiledKernels(GetDispatchState().load_choice.selected),
                         std::memory_order_relaxed);
  return true;
}();

}  // namespace

const DispatchState& GetDispatchState() {
  static const DispatchState state = ComputeDispatchState();
  return state;
}

int LookUpKernels(const char* name, const bbi_kernel_table** table) {
  if (table != nullptr) *table = nullptr;
  if (name == nullptr || table == nullptr) return BB_ERR_NULL_POINTER;
  Isa isa;
  if (!IsaFromName(name, &isa)) return BB_ERR_UNKNOWN_ISA;
  const DispatchState& s = GetDispatchState();
  if (!s.compiled.Has(isa)) return BB_ERR_ISA_NOT_COMPILED;
  if (!s.supported.Has(isa)) return BB_ERR_ISA_UNSUPPORTED;
  *table = CompiledKernels(isa);
  return BB_OK;
}

}  // namespace blockbloom::internal

// ------------------------------------------------------------ C API: ISAs

using blockbloom::internal::GetDispatchState;

extern "C" {

size_t bb_isa_count(void) { return blockbloom::internal::kNumIsas; }

const char* bb_isa_name(size_t i) {
  return i < blockbloom::internal::kNumIsas ? blockbloom::internal::IsaName(blockbloom::internal::kIsasBestFirst[i]) : nullptr;
}

const char* bb_selected_isa(void) { return blockbloom::internal::ActiveKernels().isa; }

const char* bb_compiled_isas(void) { return GetDispatchState().compiled_names.c_str(); }

const char* bb_supported_isas(void) { return GetDispatchState().supported_names.c_str(); }

int bb_isa_supported(const char* name) {
  const bbi_kernel_table* table;
  return blockbloom::internal::LookUpKernels(name, &table) == BB_OK ? 1 : 0;
}

int bb_select_isa(const char* name) {
  const bbi_kernel_table* table;
  const int status = blockbloom::internal::LookUpKernels(name, &table);
  if (status == BB_OK) blockbloom::internal::g_active_kernels.store(table, std::memory_order_relaxed);
  return status;
}

int bbi_kernels_for_isa(const char* name, const bbi_kernel_table** table) {
  return blockbloom::internal::LookUpKernels(name, table);
}

const char* bb_forced_isa(void) {
  const std::string& forced = GetDispatchState().load_choice.forced;
  return forced.empty() ? nullptr : forced.c_str();
}

const char* bb_forced_isa_refused(void) {
  const std::string& refused = GetDispatchState().load_choice.refused;
  return refused.empty() ? nullptr : refused.c_str();
}

}  // extern "C"
