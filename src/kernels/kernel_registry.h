// SPDX-License-Identifier: Apache-2.0
// Which kernel tables this build contains. Knows nothing of the running CPU:
// handing out a table the CPU can run is the dispatcher's job.
#ifndef BLOCKBLOOM_KERNELS_KERNEL_REGISTRY_H_
#define BLOCKBLOOM_KERNELS_KERNEL_REGISTRY_H_

#include "src/core/kernel_table.h"
#include "src/core/isa.h"

namespace blockbloom::internal {

extern const bbi_kernel_table kScalarKernels;

// The table compiled for isa, or nullptr if this build has none for it.
const bbi_kernel_table* CompiledKernels(Isa isa);

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_KERNELS_KERNEL_REGISTRY_H_
