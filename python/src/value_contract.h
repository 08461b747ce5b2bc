// SPDX-License-Identifier: Apache-2.0
// parquet_value.h's value-source calls (issue 33's contract), declared here
// only until the library's header has them: the binding is written against
// the contract (/work/briefs/values_api.md) while the library implements it.
#ifndef BLOCKBLOOM_PYTHON_VALUE_CONTRACT_H_
#define BLOCKBLOOM_PYTHON_VALUE_CONTRACT_H_

#include <blockbloom/column.h>
#include <blockbloom/parquet_value.h>

#ifndef BB_VALUE_NOT_IN_TYPE
extern "C" {
typedef enum bb_value_kind {
  BB_VALUE_INT = 1, BB_VALUE_UINT = 2, BB_VALUE_FLOAT = 3, BB_VALUE_DECIMAL = 4, BB_VALUE_DATE = 5,
  BB_VALUE_TIMESTAMP = 6, BB_VALUE_TIME = 7, BB_VALUE_TEXT = 8, BB_VALUE_BYTES = 9, BB_VALUE_BOOL = 10
} bb_value_kind;
enum { BB_VALUE_UNIT_SECONDS = 4, BB_VALUE_UNIT_DAYS = 5 };
enum { BB_VALUE_ZONE_NAIVE = 0, BB_VALUE_ZONE_UTC = 1 };
typedef struct bb_value_source {
  uint32_t struct_size;
  uint32_t kind;
  int32_t bits;
  int32_t unit;
  int32_t zone;
  int32_t scale;
  int32_t precision;
} bb_value_source;
#define BB_VALUE_NOT_IN_TYPE 1
#define BB_ERR_VALUE_AMBIGUOUS (-58)
#define BB_ERR_VALUE_KIND (-59)
BB_API int bb_parquet_encode_value(const bb_parquet_column* type, const bb_value_source* src, const void* value,
                                   size_t len, uint32_t flags, uint8_t* out, size_t capacity, size_t* out_len,
                                   char* error, size_t error_capacity);
BB_API int bb_parquet_hash_typed_value(const bb_parquet_column* type, const bb_value_source* src,
                                       const void* value, size_t len, uint32_t flags, uint64_t* hash,
                                       char* error, size_t error_capacity);
BB_API int bb_parquet_hash_typed_column(const bb_parquet_column* type, const bb_value_source* src,
                                        const bb_column* col, uint32_t flags, uint64_t* hashes,
                                        uint8_t* in_type, size_t* num_in_type, char* error,
                                        size_t error_capacity);
BB_API int bb_parquet_type_of_source(const bb_value_source* src, bb_parquet_column* type);
}
#endif

#endif  // BLOCKBLOOM_PYTHON_VALUE_CONTRACT_H_
