// SPDX-License-Identifier: Apache-2.0
// Whole builds (bb_build_from_hashes, bb_kudu_build_from_hashes) for both
// layouts: how many block ranges a filter's build takes, the scratch the
// partition writes to, then the tier's build kernel.
#ifndef BLOCKBLOOM_FILTER_BUILD_OPS_H_
#define BLOCKBLOOM_FILTER_BUILD_OPS_H_

#include <cstddef>
#include <cstdint>

#include "src/filter/bitset_memory.h"
#include "src/filter/layout_ops.h"
#include "blockbloom/blockbloom.h"
#include "src/dispatch/prefetch_classes.h"
#include "src/core/kernel_table.h"

namespace blockbloom::internal {

// A build's block range where the partition measured its inserts in cache
// (1 MiB: a Zen 4 core's L2). The public calls partition only filters of
// BuildPartitionMinBytes() and more into at most BBI_BUILD_MAX_PARTS ranges,
// so their ranges are 2 MiB and more (1 GiB / 512); the tests and the
// range-size sweep reach 1 MiB ranges with a lower threshold.
inline constexpr size_t kBuildRangeBytes = size_t{1} << 20;

// The smallest filter a build partitions; smaller ones are one batch insert.
// The partition writes and reads back 8 bytes a key (4 for Kudu) on top of
// the hashes, which costs more than it saves wherever the batch insert's
// misses are served by a cache. Measured on an Intel Xeon VM (L2 2 MiB a
// core, L3 300 MiB; docs/benchmarks.md, "the one-pass build"), CPU time per key at 24
// keys a block: the partitioned build 5.7 / 5.7 / 5.5-5.9 ns against
// bb_insert_batch's 3.0 / 3.6 / 4.8-5.3 at 16 / 128 / 512 MiB, the gap
// closing as the filter outgrows the L3. So the partition serves only
// filters past every size measured slower, and never one the detected L3
// could hold twice over (a CPU with a larger L3 than the one measured
// moves the threshold up, never down).
inline constexpr size_t kBuildPartitionMinBytes = size_t{1} << 30;

// The threshold for a CPU whose shared L3 is l3_bytes (0: not reported):
// the larger of kBuildPartitionMinBytes and twice the L3. Pure, for tests.
inline constexpr size_t BuildPartitionMinBytesFor(size_t l3_bytes) {
  return l3_bytes > kBuildPartitionMinBytes / 2 ? 2 * l3_bytes : kBuildPartitionMinBytes;
}

// The threshold on the CPU this runs on (its L3 as detected at load).
inline size_t BuildPartitionMinBytes() {
  return BuildPartitionMinBytesFor(DetectedCacheSizes().l3);
}

// The ranges a filter of num_bytes is built in: 1 (a plain batch insert,
// no scratch) below partition_min_bytes and for filters of up to two
// ranges; else one a range, at most BBI_BUILD_MAX_PARTS (larger filters
// get larger ranges).
inline uint32_t BuildParts(size_t num_bytes, size_t partition_min_bytes) {
  if (num_bytes < partition_min_bytes || num_bytes <= 2 * kBuildRangeBytes) return 1;
  const size_t parts = (num_bytes + kBuildRangeBytes - 1) / kBuildRangeBytes;
  return parts < BBI_BUILD_MAX_PARTS ? static_cast<uint32_t>(parts) : BBI_BUILD_MAX_PARTS;
}

// The scratch holds the partitioned hashes: the caller's (room for n
// hashes, apart from the hashes and the filter: the partition writes it
// while both are read), or, when NULL and the filter is partitioned, n
// hashes (rounded up to whole 64-byte lines) from the filter's allocator,
// so an engine's memory tracker sees them, given back before the call
// returns. If that cannot be had nothing is inserted. Only the keys of
// thread part `part` of `num_parts` go in (0 of 1: all): unpartitioned, the
// blocks of bb_insert_batch_partition's part; partitioned, the build ranges
// [part P / num_parts, (part + 1) P / num_parts) of the P ranges, whose
// buckets in a shared scratch are disjoint too. partition_min_bytes:
// BuildPartitionMinBytes() for the public calls; tests pass less to reach the
// partition with small filters.
template <bb_layout kLayout>
int BuildFromHashesOp(bb_filter* f, const typename LayoutKernels<kLayout>::Hash* hashes, size_t n,
                      typename LayoutKernels<kLayout>::Hash* scratch, uint32_t part = 0,
                      uint32_t num_parts = 1,
                      size_t partition_min_bytes = BuildPartitionMinBytes()) {
  using Hash = typename LayoutKernels<kLayout>::Hash;
  const int status = CheckWritable(f, kLayout);
  if (status != BB_OK) return status;
  if (hashes == nullptr && n > 0) return BB_ERR_NULL_POINTER;
  if (num_parts == 0 || part >= num_parts) return BB_ERR_INVALID_PARTITION;
  if (scratch != nullptr && n > 0 &&
      (BytesOverlap(scratch, SpanBytes<Hash>(n), hashes, SpanBytes<Hash>(n)) ||
       BytesOverlap(scratch, SpanBytes<Hash>(n), f->data, f->num_bytes))) {
    return BB_ERR_PARTITION_OVERLAP;
  }
  if (n == 0) return BB_OK;
  const bbi_kernel_table& kernels = ActiveKernels();
  const uint32_t ranges = BuildParts(f->num_bytes, partition_min_bytes);
  const uint32_t z = f->num_blocks;
  if (ranges == 1) {
    if (num_parts == 1) {
      LayoutKernels<kLayout>::InsertBatch(kernels)(f->data, z, hashes, n);
    } else {
      LayoutKernels<kLayout>::InsertBatchRange(kernels)(
          f->data, z, hashes, n, PartFirstBlock(part, num_parts, z), PartFirstBlock(part + 1, num_parts, z));
    }
    ClearAlwaysFalse(f);
    return BB_OK;
  }
  const auto first = static_cast<uint32_t>(uint64_t{ranges} * part / num_parts);
  const auto end = static_cast<uint32_t>(uint64_t{ranges} * (part + 1) / num_parts);
  // More thread parts than ranges leave some parts none: nothing to insert,
  // so no scratch to take.
  if (first == end) return BB_OK;
  if (scratch != nullptr) {
    LayoutKernels<kLayout>::BuildFromHashes(kernels)(f->data, z, hashes, n, scratch, ranges, first,
                                                     end);
  } else {
    if (n > (SIZE_MAX - 63) / sizeof(Hash)) return BB_ERR_OUT_OF_MEMORY;
    const size_t scratch_bytes = (n * sizeof(Hash) + 63) / 64 * 64;
    uint8_t* own = nullptr;
    const int allocated = AllocateBitset(f->allocator, scratch_bytes, false, &own);
    if (allocated != BB_OK) return allocated;
    LayoutKernels<kLayout>::BuildFromHashes(kernels)(f->data, z, hashes, n,
                                                     reinterpret_cast<Hash*>(own), ranges, first, end);
    FreeBitset(f->allocator, own, scratch_bytes);
  }
  ClearAlwaysFalse(f);
  return BB_OK;
}

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_FILTER_BUILD_OPS_H_
