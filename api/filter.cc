// The filter half of the C API: validates arguments, then makes one indirect
// call into the selected kernel table. Kernels never see invalid input.
#include <cstdint>

#include "api/bitset_memory.h"
#include "blockbloom/blockbloom.h"
#include "dispatch/dispatcher.h"

namespace {

int InitView(bb_filter* f, const void* data, size_t num_bytes, uint32_t flags) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  if (data == nullptr) return BB_ERR_NULL_POINTER;
  const int status = bb_filter_check_size(num_bytes);
  if (status != BB_OK) return status;
  // Read-only views drop const here but every write path checks the flag.
  f->data = static_cast<uint8_t*>(const_cast<void*>(data));
  f->num_bytes = num_bytes;
  f->num_blocks = static_cast<uint32_t>(num_bytes / BB_BLOCK_BYTES);
  f->flags = flags;
  return BB_OK;
}

bool Readable(const bb_filter* f) { return f != nullptr && f->data != nullptr; }

}  // namespace

extern "C" {

int bb_filter_check_size(size_t num_bytes) {
  if (num_bytes == 0) return BB_ERR_SIZE_ZERO;
  if (num_bytes % BB_BLOCK_BYTES != 0) return BB_ERR_SIZE_NOT_MULTIPLE_OF_32;
  if (num_bytes / BB_BLOCK_BYTES > BB_MAX_BLOCKS) return BB_ERR_TOO_MANY_BLOCKS;
  return BB_OK;
}

int bb_filter_init(bb_filter* f, size_t num_bytes) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  const int status = bb_filter_check_size(num_bytes);
  if (status != BB_OK) return status;
  uint8_t* data = blockbloom::AllocateZeroedBitset(num_bytes);
  if (data == nullptr) return BB_ERR_OUT_OF_MEMORY;
  f->data = data;
  f->num_bytes = num_bytes;
  f->num_blocks = static_cast<uint32_t>(num_bytes / BB_BLOCK_BYTES);
  f->flags = BB_FILTER_OWNED;
  return BB_OK;
}

int bb_filter_init_view(bb_filter* f, void* data, size_t num_bytes) {
  return InitView(f, data, num_bytes, 0);
}

int bb_filter_init_view_readonly(bb_filter* f, const void* data, size_t num_bytes) {
  return InitView(f, data, num_bytes, BB_FILTER_READ_ONLY);
}

void bb_filter_release(bb_filter* f) {
  if (f == nullptr) return;
  if ((f->flags & BB_FILTER_OWNED) != 0) blockbloom::FreeBitset(f->data, f->num_bytes);
  *f = bb_filter{};
}

int bb_insert(bb_filter* f, uint64_t hash) {
  if (!Readable(f)) return BB_ERR_NULL_POINTER;
  if ((f->flags & BB_FILTER_READ_ONLY) != 0) return BB_ERR_READ_ONLY;
  blockbloom::ActiveKernels().insert(f->data, f->num_blocks, hash);
  return BB_OK;
}

int bb_find(const bb_filter* f, uint64_t hash) {
  if (!Readable(f)) return BB_ERR_NULL_POINTER;
  return blockbloom::ActiveKernels().find(f->data, f->num_blocks, hash);
}

int bb_insert_batch(bb_filter* f, const uint64_t* hashes, size_t n) {
  if (!Readable(f) || (hashes == nullptr && n > 0)) return BB_ERR_NULL_POINTER;
  if ((f->flags & BB_FILTER_READ_ONLY) != 0) return BB_ERR_READ_ONLY;
  if (n > 0) blockbloom::ActiveKernels().insert_batch(f->data, f->num_blocks, hashes, n);
  return BB_OK;
}

int bb_find_batch_bitmap(const bb_filter* f, const uint64_t* hashes, size_t n, uint8_t* bitmap,
                         size_t* hits) {
  if (!Readable(f) || (n > 0 && (hashes == nullptr || bitmap == nullptr))) {
    return BB_ERR_NULL_POINTER;
  }
  const size_t count =
      n == 0 ? 0 : blockbloom::ActiveKernels().find_batch_bitmap(f->data, f->num_blocks, hashes, n, bitmap);
  if (hits != nullptr) *hits = count;
  return BB_OK;
}

int bb_find_batch_select(const bb_filter* f, const uint64_t* hashes, size_t n,
                         uint32_t* selection, size_t* hits) {
  if (!Readable(f) || (n > 0 && (hashes == nullptr || selection == nullptr))) {
    return BB_ERR_NULL_POINTER;
  }
  if (n > UINT32_MAX) return BB_ERR_BATCH_TOO_LARGE;
  const size_t count =
      n == 0 ? 0
             : blockbloom::ActiveKernels().find_batch_select(f->data, f->num_blocks, hashes, n, selection);
  if (hits != nullptr) *hits = count;
  return BB_OK;
}

}  // extern "C"
