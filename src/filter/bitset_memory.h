// SPDX-License-Identifier: Apache-2.0
// Memory for owned filter bitsets: the library's default allocator or the
// caller's bb_allocator, always BB_ALLOC_ALIGNMENT-aligned.
#ifndef BLOCKBLOOM_FILTER_BITSET_MEMORY_H_
#define BLOCKBLOOM_FILTER_BITSET_MEMORY_H_

#include <cstddef>
#include <cstdint>

#include "blockbloom/blockbloom.h"

namespace blockbloom::internal {

// BB_OK for an allocator with both functions; BB_ERR_NULL_POINTER for none
// (internally, nullptr means the default, but a caller passing NULL to a
// *_with_allocator call has forgotten it); BB_ERR_INVALID_ALLOCATOR.
int CheckAllocator(const bb_allocator* allocator);

// num_bytes from allocator (nullptr: the default), zeroed if `zeroed` (a
// copy fills every byte itself). BB_OK and *data; or BB_ERR_OUT_OF_MEMORY,
// or BB_ERR_ALLOCATOR_MISALIGNED (the memory already given back), with
// *data untouched. The default takes small bitsets from the heap and large
// ones straight from mmap, which hands out zeroed pages lazily, so a huge
// filter costs no up-front memset and a refused reservation is an error
// code instead of an OOM kill while zeroing.
int AllocateBitset(const bb_allocator* allocator, std::size_t num_bytes, bool zeroed,
                   uint8_t** data);

// Gives data back to the allocator it came from; num_bytes must be what was
// allocated (it also decides how the default returns it).
void FreeBitset(const bb_allocator* allocator, uint8_t* data, std::size_t num_bytes);

// Makes *f an owned, writable Parquet-layout filter of num_bytes (checked
// with bb_filter_check_size) from allocator, recorded in f->allocator. On
// error *f is untouched and nothing stays allocated.
int InitOwnedFilter(bb_filter* f, std::size_t num_bytes, const bb_allocator* allocator,
                    bool zeroed);

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_FILTER_BITSET_MEMORY_H_
