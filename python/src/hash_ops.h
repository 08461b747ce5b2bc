// SPDX-License-Identifier: Apache-2.0
// The library's calls by hash width: uint64_t hashes go to the Parquet
// calls, uint32_t hashes to the Kudu ones, so each binding method is written
// once for both layouts. The filter calls are the C++ API's layout policies
// (blockbloom::ParquetLayout, blockbloom::KuduLayout: one list of the calls
// of each layout); a column's hash is added here.
#ifndef BLOCKBLOOM_PYTHON_HASH_OPS_H_
#define BLOCKBLOOM_PYTHON_HASH_OPS_H_

#include <blockbloom/blockbloom.hpp>
#include <blockbloom/column.h>
#include <blockbloom/kudu.hpp>

#include <cstdint>

namespace bbpy {

template <class T>
struct HashOps;

template <>
struct HashOps<uint64_t> : blockbloom::ParquetLayout {
  static int HashColumn(const bb_column* col, uint32_t, uint64_t* h, size_t* n) {
    return bb_parquet_hash_column(col, h, n);
  }
};

template <>
struct HashOps<uint32_t> : blockbloom::KuduLayout {
  static int HashColumn(const bb_column* col, uint32_t seed, uint32_t* h, size_t* n) {
    return bb_kudu_hash_column(col, seed, h, n);
  }
};

}  // namespace bbpy

#endif  // BLOCKBLOOM_PYTHON_HASH_OPS_H_
