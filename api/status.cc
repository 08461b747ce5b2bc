// Error messages and version: the parts of the C API that touch no filter.
#include "blockbloom/blockbloom.h"

#ifndef BLOCKBLOOM_VERSION
#error "the build defines BLOCKBLOOM_VERSION"
#endif

extern "C" {

const char* bb_status_message(int status) {
  switch (status) {
    case BB_OK: return "ok";
    case BB_ERR_NULL_POINTER: return "a required pointer is NULL";
    case BB_ERR_SIZE_ZERO: return "filter size is 0 bytes; it must be at least one 32-byte block";
    case BB_ERR_SIZE_NOT_MULTIPLE_OF_32:
      return "filter size is not a multiple of 32 bytes (the block size)";
    case BB_ERR_TOO_MANY_BLOCKS: return "filter has more than 2^31 - 1 blocks (64 GiB)";
    case BB_ERR_OUT_OF_MEMORY: return "out of memory: the filter bitset could not be allocated";
    case BB_ERR_READ_ONLY: return "filter is a read-only view; inserts are refused";
    case BB_ERR_BATCH_TOO_LARGE:
      return "batch too large: a selection vector holds uint32 indices, so n must be below 2^32";
    case BB_ERR_UNKNOWN_ISA: return "unknown ISA name (known: scalar, sse42, avx2, avx512, neon)";
    case BB_ERR_ISA_NOT_COMPILED: return "ISA is not compiled into this build";
    case BB_ERR_ISA_UNSUPPORTED: return "ISA is not supported by this CPU";
    default: return "unknown blockbloom status code";
  }
}

const char* bb_version(void) { return BLOCKBLOOM_VERSION; }

}  // extern "C"
