// SPDX-License-Identifier: Apache-2.0
// Kudu's BlockBloomFilterPB as a plain struct (bb_kudu_directory), so a caller
// can fill or read that protobuf without this library depending on protobuf.
// Field mapping and validation rules: docs/formats.md.
#include <cstdint>
#include <cstring>

#include "src/filter/bitset_memory.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/kudu.h"

namespace {

bool IsPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

int32_t Log2(uint64_t power_of_two) {
  int32_t log = 0;
  while ((power_of_two >>= 1) != 0) ++log;
  return log;
}

// *f is zeroed; allocator is nullptr (the default) or complete.
int Import(bb_filter* f, const bb_kudu_directory* in, const bb_allocator* allocator) {
  if (in == nullptr) return BB_ERR_NULL_POINTER;
  if (in->log_space_bytes < BB_KUDU_MIN_LOG_SPACE_BYTES ||
      in->log_space_bytes > BB_KUDU_MAX_LOG_SPACE_BYTES) {
    return BB_ERR_LOG_SPACE_OUT_OF_RANGE;
  }
  if (in->hash_algorithm != BB_KUDU_HASH_FAST_HASH) return BB_ERR_UNSUPPORTED_HASH;
  if (!IsPowerOfTwo(in->bloom_data_size)) return BB_ERR_NOT_POWER_OF_TWO;
  const uint64_t expected = uint64_t{1} << in->log_space_bytes;
  // Its own code: FILTER_MISMATCH's message is about union shapes, which
  // says nothing to a caller who filled one directory inconsistently.
  if (static_cast<uint64_t>(in->bloom_data_size) != expected) return BB_ERR_DIRECTORY_SIZE_MISMATCH;
  if (in->bloom_data == nullptr) return BB_ERR_NULL_POINTER;

  // Not zeroed first: every byte is copied over.
  const int status = blockbloom::internal::InitOwnedFilter(f, in->bloom_data_size, allocator, false);
  if (status != BB_OK) return status;
  std::memcpy(f->data, in->bloom_data, in->bloom_data_size);
  f->layout = BB_LAYOUT_KUDU;
  f->hash_seed = in->hash_seed;
  // Like Kudu's InitFromDirectory, the flag is taken as given: a directory
  // marked always-false is copied verbatim even if it holds set bits.
  if (in->always_false != 0) f->flags |= BB_FILTER_ALWAYS_FALSE;
  return BB_OK;
}

}  // namespace

extern "C" {

int bb_kudu_export(const bb_filter* f, bb_kudu_directory* out) {
  // On error *out keeps its contents (docs/reliability.md): every check
  // comes before the first write.
  if (f == nullptr || out == nullptr || f->data == nullptr) return BB_ERR_NULL_POINTER;
  if (f->layout != BB_LAYOUT_KUDU) return BB_ERR_LAYOUT_MISMATCH;
  // Kudu-layout filters are made with a power-of-two size in range; a struct
  // edited by hand might not be, and Kudu could not read it back.
  if (!IsPowerOfTwo(f->num_bytes)) return BB_ERR_NOT_POWER_OF_TWO;
  const int32_t log_space_bytes = Log2(f->num_bytes);
  if (log_space_bytes < BB_KUDU_MIN_LOG_SPACE_BYTES || log_space_bytes > BB_KUDU_MAX_LOG_SPACE_BYTES) {
    return BB_ERR_LOG_SPACE_OUT_OF_RANGE;
  }
  *out = bb_kudu_directory{};
  out->log_space_bytes = log_space_bytes;
  out->bloom_data = f->data;
  out->bloom_data_size = f->num_bytes;
  out->always_false = (__atomic_load_n(&f->flags, __ATOMIC_RELAXED) & BB_FILTER_ALWAYS_FALSE) != 0 ? 1 : 0;
  out->hash_algorithm = BB_KUDU_HASH_FAST_HASH;
  out->hash_seed = f->hash_seed;
  return BB_OK;
}

int bb_kudu_import(bb_filter* f, const bb_kudu_directory* in) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  return Import(f, in, nullptr);
}

int bb_kudu_import_with_allocator(bb_filter* f, const bb_kudu_directory* in,
                                  const bb_allocator* allocator) {
  if (f == nullptr) return BB_ERR_NULL_POINTER;
  *f = bb_filter{};
  const int status = blockbloom::internal::CheckAllocator(allocator);
  if (status != BB_OK) return status;
  return Import(f, in, allocator);
}

}  // extern "C"
