// SPDX-License-Identifier: Apache-2.0
// Zeroed, 64-byte-aligned memory for filter bitsets.
#ifndef BLOCKBLOOM_API_BITSET_MEMORY_H_
#define BLOCKBLOOM_API_BITSET_MEMORY_H_

#include <cstddef>
#include <cstdint>

namespace blockbloom {

// nullptr when the memory cannot be had. Small bitsets come from the heap;
// large ones straight from mmap, which hands out zeroed pages lazily, so a
// huge filter costs no up-front memset and a refused reservation is an error
// code instead of an OOM kill while zeroing.
uint8_t* AllocateZeroedBitset(std::size_t num_bytes);

// num_bytes must be what was allocated; it decides how the memory is returned.
void FreeBitset(uint8_t* data, std::size_t num_bytes);

}  // namespace blockbloom

#endif  // BLOCKBLOOM_API_BITSET_MEMORY_H_
