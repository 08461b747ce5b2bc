// SPDX-License-Identifier: Apache-2.0
// The library's hash calls by hash width: uint64_t hashes go to the Parquet
// calls, uint32_t hashes to the Kudu ones, so each binding method is written
// once for both layouts.
#ifndef BLOCKBLOOM_PYTHON_HASH_OPS_H_
#define BLOCKBLOOM_PYTHON_HASH_OPS_H_

#include <blockbloom/blockbloom.h>
#include <blockbloom/column.h>
#include <blockbloom/kudu.h>

#include <cstdint>

namespace bbpy {

template <class T>
struct HashOps;

template <>
struct HashOps<uint64_t> {
  static int Insert(bb_filter* f, uint64_t h) { return bb_insert(f, h); }
  static int Find(const bb_filter* f, uint64_t h) { return bb_find(f, h); }
  static int InsertBatch(bb_filter* f, const uint64_t* h, size_t n) { return bb_insert_batch(f, h, n); }
  static int FindBitmap(const bb_filter* f, const uint64_t* h, size_t n, uint8_t* bitmap, size_t* hits) {
    return bb_find_batch_bitmap(f, h, n, bitmap, hits);
  }
  static int FindSelect(const bb_filter* f, const uint64_t* h, size_t n, uint32_t* sel, size_t* hits) {
    return bb_find_batch_select(f, h, n, sel, hits);
  }
  static int HashColumn(const bb_column* col, uint32_t, uint64_t* h, size_t* n) {
    return bb_parquet_hash_column(col, h, n);
  }
};

template <>
struct HashOps<uint32_t> {
  static int Insert(bb_filter* f, uint32_t h) { return bb_kudu_insert(f, h); }
  static int Find(const bb_filter* f, uint32_t h) { return bb_kudu_find(f, h); }
  static int InsertBatch(bb_filter* f, const uint32_t* h, size_t n) { return bb_kudu_insert_batch(f, h, n); }
  static int FindBitmap(const bb_filter* f, const uint32_t* h, size_t n, uint8_t* bitmap, size_t* hits) {
    return bb_kudu_find_batch_bitmap(f, h, n, bitmap, hits);
  }
  static int FindSelect(const bb_filter* f, const uint32_t* h, size_t n, uint32_t* sel, size_t* hits) {
    return bb_kudu_find_batch_select(f, h, n, sel, hits);
  }
  static int HashColumn(const bb_column* col, uint32_t seed, uint32_t* h, size_t* n) {
    return bb_kudu_hash_column(col, seed, h, n);
  }
};

}  // namespace bbpy

#endif  // BLOCKBLOOM_PYTHON_HASH_OPS_H_
