/* SPDX-License-Identifier: Apache-2.0 */
/* Every public C header in one C99 translation unit, for
 * public_headers_check.py: it must compile with -Werror under the strict
 * warning set. The function below expands the headers' macros (compiled
 * only, never linked or run). */
#include "blockbloom/adaptive.h"
#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "blockbloom/filter_file.h"
#include "blockbloom/hashing.h"
#include "blockbloom/kudu.h"
#include "blockbloom/parquet_file.h"
#include "blockbloom/parquet_format.h"
#include "blockbloom/parquet_types.h"
#include "blockbloom/parquet_value.h"
#include "blockbloom/sizing.h"
#include "blockbloom/tuning.h"
#include "blockbloom/version.h"

#include <stddef.h>

size_t public_headers_use(int32_t type_length, size_t text_len);

size_t public_headers_use(int32_t type_length, size_t text_len) {
  bb_column column = BB_COLUMN_INIT;
  column.length = BB_BLOCK_BYTES;
  return column.length + BB_PARQUET_ENCODED_MAX(type_length, text_len) + BB_VERSION_NUMBER +
         BB_MAX_PREFETCH_DISTANCE + BB_PARQUET_VALUE_ERROR_MAX;
}
