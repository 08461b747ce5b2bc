// SPDX-License-Identifier: Apache-2.0
// Values of a source kind into a typed column (parquet_value.h): declared
// first so that the bindings can build against the contract; the table
// follows in the next commits.
#include "blockbloom/parquet_value.h"

extern "C" int bb_parquet_encode_value(const bb_parquet_column*, const bb_value_source*,
                                       const void*, size_t, uint32_t, uint8_t*, size_t, size_t*,
                                       char*, size_t) {
  return BB_ERR_PARQUET_UNSUPPORTED;
}

extern "C" int bb_parquet_hash_typed_value(const bb_parquet_column*, const bb_value_source*,
                                           const void*, size_t, uint32_t, uint64_t*, char*,
                                           size_t) {
  return BB_ERR_PARQUET_UNSUPPORTED;
}

extern "C" int bb_parquet_hash_typed_column(const bb_parquet_column*, const bb_value_source*,
                                            const bb_column*, uint32_t, uint64_t*, uint8_t*,
                                            size_t*, char*, size_t) {
  return BB_ERR_PARQUET_UNSUPPORTED;
}

extern "C" int bb_parquet_type_of_source(const bb_value_source*, bb_parquet_column*) {
  return BB_ERR_PARQUET_UNSUPPORTED;
}
