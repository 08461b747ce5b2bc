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
#include "blockbloom/filter_file.h"
#include "blockbloom/hashing.h"
#include "blockbloom/kudu.h"
#include "blockbloom/kudu.hpp"
#include "blockbloom/parquet_file.h"
#include "blockbloom/parquet_file.hpp"
#include "blockbloom/parquet_format.h"
#include "blockbloom/parquet_types.h"
#include "blockbloom/parquet_value.h"
#include "blockbloom/sizing.h"
#include "blockbloom/tuning.h"
#include "blockbloom/version.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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
  // The same into a Parquet type: the array's own, then given.
  bb_parquet_column arrow_type{};
  arrow_type.struct_size = sizeof arrow_type;
  hits += blockbloom::arrow::parquet_type_of(&arrow_schema, &arrow_type) == BB_OK ? 1u : 0u;
  blockbloom::arrow::insert(filter, arrow_type, arrow_schema, arrow_array);
  hits += blockbloom::arrow::find_bitmap(filter, arrow_type, arrow_schema, arrow_array, bitmap);
  hits += blockbloom::arrow::find_select(filter, arrow_type, arrow_schema, arrow_array, selection);

  blockbloom::Adaptive adaptive(1024, 0.5);
  hits += adaptive.find_batch_bitmap(filter, u64, 1, bitmap);

  blockbloom::ParquetFile file = blockbloom::ParquetFile::from_memory(bytes, len);
  if (auto c = file.find_column("c")) {
    hits += static_cast<std::size_t>(blockbloom::parquet_hash_value(file.column(*c), i32, sizeof i32));
  }
  // The Arrow- and Kudu-style surface, every template.
  blockbloom::Filter sized = blockbloom::Filter::for_ndv(100, 0.01, blockbloom::Sizing::parquet);
  sized |= filter;
  sized &= filter;
  sized.insert(blockbloom::parquet_hash(i8[0]) ^ blockbloom::parquet_hash(i16[0]) ^
               blockbloom::parquet_hash(i32[0]) ^ blockbloom::parquet_hash(i64[0]) ^
               blockbloom::parquet_hash(u8[0]) ^ blockbloom::parquet_hash(u16[0]) ^
               blockbloom::parquet_hash(u32[0]) ^ blockbloom::parquet_hash(u64[0]) ^
               blockbloom::parquet_hash(f32[0]) ^ blockbloom::parquet_hash(f64[0]) ^
               blockbloom::parquet_hash("s") ^ blockbloom::parquet_hash_bytes(bytes, len));
  const std::vector<std::uint8_t> serialized = sized.to_parquet_bytes_any_size();
  hits += blockbloom::Filter::from_parquet_bytes(serialized.data(), serialized.size()).num_bytes();
  hits += blockbloom::ConstView::parquet_in_place(bytes, len).max_ndv(0.01);
  hits += static_cast<std::size_t>(sized.fpp(10) + sized.estimated_ndv()) + sized.bits_set();
  hits += blockbloom::parquet_header(bytes, len).num_bytes + sized.to_parquet_bytes().size();

  blockbloom::KuduFilter kudu = blockbloom::KuduFilter::for_ndv(100, 0.01, 7);
  kudu.insert(blockbloom::kudu_hash(i8[0], 7) ^ blockbloom::kudu_hash(i16[0]) ^
              blockbloom::kudu_hash(i32[0]) ^ blockbloom::kudu_hash(i64[0]) ^
              blockbloom::kudu_hash(f32[0]) ^ blockbloom::kudu_hash(f64[0]) ^
              blockbloom::kudu_hash("s") ^ blockbloom::kudu_hash_bytes(bytes, len) ^
              blockbloom::kudu_hash_null());
  std::uint32_t kudu_hashes[1] = {0};
  hits += blockbloom::kudu_hash_column(columns[2], 7, kudu_hashes);
  blockbloom::KuduFilter kudu_copy = blockbloom::KuduFilter::from_directory(kudu.to_directory());
  kudu_copy |= kudu;
  kudu_copy &= blockbloom::KuduConstView(bytes, len, false, 7);
  hits += kudu_copy == kudu ? 1u : 0u;
  hits += kudu.find_batch_bitmap(kudu_hashes, 1, bitmap) + kudu.find_column_select(plain, selection);
  hits += static_cast<std::size_t>(kudu.log_space_bytes() + kudu.hash_algorithm()) +
          kudu.hash_seed() + (kudu.always_false() ? 1u : 0u);
  hits += BB_PARQUET_ENCODED_MAX(file.column(0).type_length, len);
  hits += std::string(BB_VERSION_STRING).size() + BB_VERSION_NUMBER;
  return hits + blockbloom::selected_isa().size();
}
