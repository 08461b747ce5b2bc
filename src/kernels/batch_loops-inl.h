// SPDX-License-Identifier: Apache-2.0
// The batch loops of every tier, written once as templates over the layout,
// one file a job, in the order each needs the ones before. No include guard
// on purpose: src/kernels/kernel_table-inl.h includes this inside each tier's
// namespace, after the tier has defined what the loops build on (the tier
// contract, listed at the top of src/kernels/kernel_table-inl.h), so that the
// loops inline that tier's block operation and, inside a Highway target
// namespace, compile with that target's instructions.

#include "src/kernels/chunk_loop-inl.h"       // chunks, block offsets first, the prefetch plan
#include "src/kernels/insert_loops-inl.h"     // insert_batch
#include "src/kernels/range_insert-inl.h"     // insert_batch_range
#include "src/kernels/partition_loops-inl.h"  // partition_hashes
#include "src/kernels/build_loops-inl.h"      // build_from_hashes
#include "src/kernels/probe_loops-inl.h"      // find_batch_bitmap, find_batch_select
#include "src/kernels/pipeline_probes-inl.h"  // find_batch_select_from, find_batch_bitmap_and
