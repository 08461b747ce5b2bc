// SPDX-License-Identifier: Apache-2.0
// Typed columns: a random bb_column descriptor (any type, width, length,
// int32/int64 offsets that may be out of order or past the data, a validity
// bitmap at any bit offset, fields a type does not use set or not) over
// buffers of exactly the sizes it claims, so ASan sees any read past them.
// Every column call (both hashes, insert into a Parquet and a Kudu filter,
// both probes) runs on every ISA this CPU supports. Aborts on:
// - a status that differs between ISAs or between calls that check the same
//   descriptor, or that is not a negative code;
// - an output or filter written by a refused call;
// - a hash, filter byte, bitmap or selection that differs from scalar's;
// - a Parquet hash that is not XXH64 of the row's bytes as column.h says
//   (widened integers, the values' own bytes, the byte-array slice);
// - a row inserted and then not found (a false negative).
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "blockbloom/kudu.h"
#include "fuzz_input.h"

namespace {

constexpr uint8_t kUntouched = 0xa5;

void Check(bool ok) {
  if (!ok) std::abort();
}

std::vector<std::string> SupportedIsas() {
  std::vector<std::string> isas;
  const std::string list = bb_supported_isas();
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = list.find(',', start);
    const size_t end = comma == std::string::npos ? list.size() : comma;
    if (end > start) isas.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return isas;
}

// The fixed width of a type (0: FLBA, whose width the descriptor gives; byte
// arrays are handled apart).
size_t NaturalWidth(uint32_t type) {
  switch (type) {
    case BB_TYPE_INT8: case BB_TYPE_UINT8: return 1;
    case BB_TYPE_INT16: case BB_TYPE_UINT16: return 2;
    case BB_TYPE_INT32: case BB_TYPE_UINT32: case BB_TYPE_FLOAT: case BB_TYPE_DATE32:
    case BB_TYPE_TIME32: return 4;
    case BB_TYPE_INT96: return 12;
    case BB_TYPE_FIXED_LEN_BYTE_ARRAY: return 0;
    default: return 8;
  }
}

// The bytes Parquet hashes for a fixed-width row, per column.h; false for
// DATE64 (a division this oracle does not redo).
bool ParquetRowBytes(uint32_t type, const uint8_t* v, size_t width, std::string* out) {
  uint8_t b[8] = {};
  switch (type) {
    case BB_TYPE_INT8: { int32_t x = static_cast<int8_t>(v[0]); std::memcpy(b, &x, 4); out->assign(reinterpret_cast<char*>(b), 4); return true; }
    case BB_TYPE_UINT8: { uint32_t x = v[0]; std::memcpy(b, &x, 4); out->assign(reinterpret_cast<char*>(b), 4); return true; }
    case BB_TYPE_INT16: { int16_t s; std::memcpy(&s, v, 2); int32_t x = s; std::memcpy(b, &x, 4); out->assign(reinterpret_cast<char*>(b), 4); return true; }
    case BB_TYPE_UINT16: { uint16_t s; std::memcpy(&s, v, 2); uint32_t x = s; std::memcpy(b, &x, 4); out->assign(reinterpret_cast<char*>(b), 4); return true; }
    case BB_TYPE_DATE64: return false;
    default: out->assign(reinterpret_cast<const char*>(v), width); return true;
  }
}

// Everything one ISA produced for the column.
struct Results {
  int status[6] = {};
  std::vector<uint64_t> parquet_hashes;
  std::vector<uint32_t> kudu_hashes;
  size_t num_parquet = 0, num_kudu = 0;
  std::vector<uint8_t> parquet_filter, kudu_filter;
  std::vector<uint8_t> parquet_bitmap, kudu_bitmap;
  std::vector<uint32_t> parquet_selection, kudu_selection;
  size_t parquet_hits = 0, kudu_hits = 0;
};

bool AllUntouched(const std::vector<uint8_t>& bytes, uint8_t value) {
  for (uint8_t b : bytes) {
    if (b != value) return false;
  }
  return true;
}

Results RunAll(const bb_column& col, size_t outputs) {
  Results r;
  r.parquet_hashes.assign(outputs, 0x1111);
  r.kudu_hashes.assign(outputs, 0x2222);
  r.status[0] = bb_parquet_hash_column(&col, r.parquet_hashes.data(), &r.num_parquet);
  r.status[1] = bb_kudu_hash_column(&col, 7, r.kudu_hashes.data(), &r.num_kudu);

  bb_filter parquet, kudu;
  Check(bb_filter_init(&parquet, 2048) == BB_OK);
  Check(bb_kudu_filter_init(&kudu, 11, 7) == BB_OK);
  r.status[2] = bb_insert_column(&parquet, &col);
  r.status[3] = bb_insert_column(&kudu, &col);
  r.parquet_bitmap.assign((outputs + 7) / 8 + 1, kUntouched);
  r.kudu_bitmap.assign((outputs + 7) / 8 + 1, kUntouched);
  r.parquet_selection.assign(outputs + 1, 0xa5a5a5a5u);
  r.kudu_selection.assign(outputs + 1, 0xa5a5a5a5u);
  const int bitmap_p = bb_find_column_bitmap(&parquet, &col, r.parquet_bitmap.data(), &r.parquet_hits);
  const int bitmap_k = bb_find_column_bitmap(&kudu, &col, r.kudu_bitmap.data(), &r.kudu_hits);
  size_t select_p = 0, select_k = 0;
  r.status[4] = bb_find_column_select(&parquet, &col, r.parquet_selection.data(), &select_p);
  r.status[5] = bb_find_column_select(&kudu, &col, r.kudu_selection.data(), &select_k);
  // One check per descriptor: the bitmap and select probes agree on it.
  Check(bitmap_p == r.status[4] && bitmap_k == r.status[5]);
  if (r.status[4] == BB_OK) Check(select_p == r.parquet_hits);
  if (r.status[5] == BB_OK) Check(select_k == r.kudu_hits);
  r.parquet_filter.assign(static_cast<const uint8_t*>(parquet.data),
                          static_cast<const uint8_t*>(parquet.data) + parquet.num_bytes);
  r.kudu_filter.assign(static_cast<const uint8_t*>(kudu.data),
                       static_cast<const uint8_t*>(kudu.data) + kudu.num_bytes);
  bb_filter_release(&parquet);
  bb_filter_release(&kudu);
  return r;
}

// Refused calls leave everything as it was; accepted ones keep their promises.
void CheckOneIsa(const bb_column& col, const Results& r, const std::vector<bool>& valid) {
  for (int s : r.status) Check(s <= 0);
  // The descriptor checks are the same for every call of a layout.
  Check(r.status[0] == r.status[2] && r.status[0] == r.status[4]);
  Check(r.status[1] == r.status[3] && r.status[1] == r.status[5]);
  if (r.status[0] != BB_OK) {
    Check(r.num_parquet == 0 && r.parquet_hits == 0);
    for (uint64_t h : r.parquet_hashes) Check(h == 0x1111);
    Check(AllUntouched(r.parquet_filter, 0) && AllUntouched(r.parquet_bitmap, kUntouched));
  } else {
    // Every valid row inserted is found: its bit is set, and nothing else is.
    size_t expected_hits = 0;
    for (size_t i = 0; i < col.length; ++i) {
      const bool bit = (r.parquet_bitmap[i / 8] >> (i % 8)) & 1;
      Check(bit == valid[i]);
      expected_hits += valid[i];
    }
    Check(r.parquet_hits == expected_hits && r.num_parquet == expected_hits);
    // Exactly (length + 7) / 8 bytes written, the unused high bits 0.
    const size_t used = (col.length + 7) / 8;
    Check(r.parquet_bitmap[used] == kUntouched && r.kudu_bitmap.size() == used + 1);
    if (col.length % 8 != 0) Check((r.parquet_bitmap[used - 1] >> (col.length % 8)) == 0);
  }
  if (r.status[1] != BB_OK) {
    Check(r.num_kudu == 0 && r.kudu_hits == 0);
    for (uint32_t h : r.kudu_hashes) Check(h == 0x2222);
    Check(AllUntouched(r.kudu_filter, 0) && AllUntouched(r.kudu_bitmap, kUntouched));
  } else {
    size_t expected_hits = 0;
    for (size_t i = 0; i < col.length; ++i) {
      Check(((r.kudu_bitmap[i / 8] >> (i % 8)) & 1) == valid[i]);
      expected_hits += valid[i];
    }
    Check(r.kudu_hits == expected_hits && r.num_kudu == expected_hits);
    const size_t used = (col.length + 7) / 8;
    Check(r.kudu_bitmap[used] == kUntouched);
    if (col.length % 8 != 0) Check((r.kudu_bitmap[used - 1] >> (col.length % 8)) == 0);
  }
}

void CheckSame(const Results& a, const Results& b) {
  for (int i = 0; i < 6; ++i) Check(a.status[i] == b.status[i]);
  Check(a.parquet_hashes == b.parquet_hashes && a.kudu_hashes == b.kudu_hashes);
  Check(a.num_parquet == b.num_parquet && a.num_kudu == b.num_kudu);
  Check(a.parquet_filter == b.parquet_filter && a.kudu_filter == b.kudu_filter);
  Check(a.parquet_bitmap == b.parquet_bitmap && a.kudu_bitmap == b.kudu_bitmap);
  Check(a.parquet_hits == b.parquet_hits && a.kudu_hits == b.kudu_hits);
  // Entries past *hits are unspecified; the first hits must agree.
  for (size_t i = 0; i < a.parquet_hits; ++i) Check(a.parquet_selection[i] == b.parquet_selection[i]);
  for (size_t i = 0; i < a.kudu_hits; ++i) Check(a.kudu_selection[i] == b.kudu_selection[i]);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::string> isas = SupportedIsas();
  bbfuzz::FuzzInput in(data, size);
  const uint8_t type_byte = in.Take<uint8_t>();
  const uint8_t shape = in.Take<uint8_t>();
  const size_t length = in.Take<uint16_t>() % 600;
  const size_t flba_width = 1 + in.Take<uint8_t>() % 40;
  const size_t validity_offset = in.Take<uint8_t>() % 24;

  bb_column col = BB_COLUMN_INIT;
  // Mostly real types; now and then one out of range (refused before reads).
  col.type = (shape & 0x80) != 0 ? type_byte : 1 + type_byte % 19;
  col.length = length;
  const bool byte_array = col.type == BB_TYPE_BYTE_ARRAY || col.type == BB_TYPE_LARGE_BYTE_ARRAY;
  const size_t natural = NaturalWidth(col.type);
  size_t width = natural == 0 ? flba_width : natural;
  if (byte_array) width = 0;
  // The width field: usually right, sometimes the other allowed form, sometimes wrong.
  switch (shape & 3) {
    case 0: col.width = (natural == 0 && !byte_array) ? width : 0; break;
    case 1: col.width = width; break;
    case 2: col.width = 1 + (type_byte >> 3); break;  // often wrong
    default: col.width = natural == 0 && !byte_array ? width : 0; break;
  }
  const size_t row_width = col.width != 0 ? col.width : width;

  std::vector<uint8_t> values, offsets, bytes, validity;
  std::vector<std::string> rows(length);
  if (byte_array) {
    const size_t offset_width = col.type == BB_TYPE_BYTE_ARRAY ? 4 : 8;
    // Offsets: a start, then lengths 0..40 from the input; (shape & 4) lets
    // one step go backwards, (shape & 8) lets the last run past the data.
    std::vector<int64_t> offs(length + 1);
    offs[0] = in.Take<uint8_t>() % 8;
    for (size_t i = 1; i <= length; ++i) {
      int64_t step = in.Take<uint8_t>() % 41;
      if ((shape & 4) != 0 && i == length / 2 + 1) step = -1;
      offs[i] = offs[i - 1] + step;
    }
    int64_t data_len = offs[length];
    if ((shape & 8) != 0 && data_len > 0) data_len -= 1;
    if (data_len < 0) data_len = 0;
    bytes.resize(static_cast<size_t>(data_len));
    for (uint8_t& b : bytes) b = in.Take<uint8_t>();
    offsets.resize((length + 1) * offset_width);
    for (size_t i = 0; i <= length; ++i) {
      if (offset_width == 4) {
        const auto o = static_cast<int32_t>(offs[i]);
        std::memcpy(&offsets[i * 4], &o, 4);
      } else {
        std::memcpy(&offsets[i * 8], &offs[i], 8);
      }
    }
    for (size_t i = 0; i < length; ++i) {
      if (offs[i] >= 0 && offs[i + 1] >= offs[i] && offs[i + 1] <= data_len) {
        rows[i].assign(bytes.begin() + offs[i], bytes.begin() + offs[i + 1]);
      }
    }
    col.offsets = offsets.empty() ? nullptr : offsets.data();
    col.data = bytes.empty() ? nullptr : bytes.data();
    col.data_len = bytes.size();
  } else {
    values.resize(length * row_width);
    for (uint8_t& b : values) b = in.Take<uint8_t>();
    col.values = values.empty() ? nullptr : values.data();
  }
  if ((shape & 0x10) != 0) {
    validity.resize((validity_offset + length + 7) / 8);
    for (uint8_t& b : validity) b = in.Take<uint8_t>();
    col.validity = validity.empty() ? nullptr : validity.data();
    col.validity_offset = validity_offset;
  }
  // A field the type does not use (byte arrays: data_len is the data's real
  // size, which a caller must not overstate).
  if (!byte_array && (shape & 0x20) != 0 && (shape & 0x40) != 0) col.data_len = 1;

  std::vector<bool> valid(length, true);
  for (size_t i = 0; i < length && col.validity != nullptr; ++i) {
    const size_t bit = col.validity_offset + i;
    valid[i] = (col.validity[bit / 8] >> (bit % 8)) & 1;
  }

  const std::string saved = bb_selected_isa();
  std::vector<Results> results;
  for (const std::string& isa : isas) {
    Check(bb_select_isa(isa.c_str()) == BB_OK);
    results.push_back(RunAll(col, length));
    CheckOneIsa(col, results.back(), valid);
  }
  bb_select_isa(saved.c_str());
  for (size_t i = 1; i < results.size(); ++i) CheckSame(results[0], results[i]);

  // The Parquet hashes against XXH64 of each valid row's bytes.
  const Results& r = results[0];
  if (r.status[0] == BB_OK) {
    size_t k = 0;
    for (size_t i = 0; i < length; ++i) {
      if (!valid[i]) continue;
      std::string row = rows[i];
      if (!byte_array && !ParquetRowBytes(col.type, values.data() + i * row_width, row_width, &row)) {
        ++k;
        continue;
      }
      Check(r.parquet_hashes[k++] == XXH64(row.data(), row.size(), 0));
    }
  }
  return 0;
}
