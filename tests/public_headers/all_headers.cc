// SPDX-License-Identifier: Apache-2.0
// Every public header in one C++ translation unit, for public_headers_check.py:
// it must compile with -Werror under the strict warning set. The function
// below instantiates the headers' templates and expands their macros, so
// that what a consumer's code would make the compiler check is checked here
// (compiled only, never linked or run).
#include "blockbloom/adaptive.h"
#include "blockbloom/adaptive.hpp"
#include "blockbloom/arrow.hpp"
#include "blockbloom/blockbloom.h"
#include "blockbloom/blockbloom.hpp"
#include "blockbloom/column.h"
#include "blockbloom/hashing.h"
#include "blockbloom/kudu.h"
#include "blockbloom/parquet_file.h"
#include "blockbloom/parquet_file.hpp"
#include "blockbloom/parquet_format.h"
#include "blockbloom/parquet_value.h"
#include "blockbloom/sizing.h"
#include "blockbloom/tuning.h"
#include "blockbloom/version.h"

#include <cstddef>
#include <cstdint>
#include <string>

std::size_t public_headers_use(const void* bytes, std::size_t len);

std::size_t public_headers_use(const void* bytes, std::size_t len) {
  const std::int8_t i8[1] = {1};
  const std::int16_t i16[1] = {1};
  const std::int32_t i32[1] = {1};
  const std::int64_t i64[1] = {1};
  const std::uint8_t u8[1] = {1};
  const std::uint16_t u16[1] = {1};
  const std::uint32_t u32[1] = {1};
  const std::uint64_t u64[1] = {1};
  const float f32[1] = {1.0f};
  const double f64[1] = {1.0};
  const std::int32_t offsets32[2] = {0, 1};
  const std::int64_t offsets64[2] = {0, 1};
  const blockbloom::Column columns[] = {
      blockbloom::Column::of(i8, 1),  blockbloom::Column::of(i16, 1),
      blockbloom::Column::of(i32, 1), blockbloom::Column::of(i64, 1),
      blockbloom::Column::of(u8, 1),  blockbloom::Column::of(u16, 1),
      blockbloom::Column::of(u32, 1), blockbloom::Column::of(u64, 1),
      blockbloom::Column::of(f32, 1), blockbloom::Column::of(f64, 1).with_validity(u8, 0),
      blockbloom::Column::typed(BB_TYPE_DATE32, i32, 1),
      blockbloom::Column::fixed_len_byte_array(u8, 1, 1),
      blockbloom::Column::byte_array(u8, 1, offsets32, 1),
      blockbloom::Column::byte_array(u8, 1, offsets64, 1),
  };
  bb_column plain = BB_COLUMN_INIT;
  plain.length = 0;

  blockbloom::Filter filter(BB_BLOCK_BYTES * 4u);
  std::uint8_t bitmap[1] = {0};
  std::uint32_t selection[1] = {0};
  std::size_t hits = 0;
  for (const blockbloom::Column& column : columns) {
    filter.insert_column(column);
    hits += filter.find_column_bitmap(column, bitmap);
  }
  hits += filter.find_column_select(plain, selection);
  std::uint64_t hashes[1] = {0};
  hits += blockbloom::parquet_hash_column(columns[2], hashes);
  const blockbloom::ConstView view(bytes, len);
  blockbloom::Filter copy = blockbloom::Filter::copy_of(view);
  hits += copy == view ? 1u : 0u;

  // An int32 Arrow array of one row, and a dictionary of it: both paths instantiated.
  const void* arrow_buffers[2] = {nullptr, i32};
  ArrowArray arrow_array{1, 0, 0, 2, 0, arrow_buffers, nullptr, nullptr, nullptr, nullptr};
  ArrowSchema arrow_schema{"i", "", nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr, nullptr, nullptr};
  blockbloom::arrow::insert(filter, arrow_schema, arrow_array);
  hits += blockbloom::arrow::find_bitmap(filter, arrow_schema, arrow_array, bitmap);
  hits += blockbloom::arrow::find_select(filter, arrow_schema, arrow_array, selection);
  hits += blockbloom::arrow::kind_of("vu", BB_LAYOUT_PARQUET).width;

  blockbloom::Adaptive adaptive(1024, 0.5);
  hits += adaptive.find_batch_bitmap(filter, u64, 1, bitmap);

  blockbloom::ParquetFile file = blockbloom::ParquetFile::from_memory(bytes, len);
  if (auto c = file.find_column("c")) {
    hits += static_cast<std::size_t>(blockbloom::parquet_hash_value(file.column(*c), i32, sizeof i32));
  }
  hits += BB_PARQUET_ENCODED_MAX(file.column(0).type_length, len);
  hits += std::string(BB_VERSION_STRING).size() + BB_VERSION_NUMBER;
  return hits + blockbloom::selected_isa().size();
}
