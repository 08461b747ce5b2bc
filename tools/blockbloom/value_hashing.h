// SPDX-License-Identifier: Apache-2.0
// One line of text, a value of a type, hashed the way a layout's readers
// hash it: Parquet, XXH64 of the plain encoding (bb_parquet_hash_text);
// Kudu, FastHash32 with the filter's seed of the Kudu cell
// (bb_layout_column_type) holding the value bb_parquet_encode_text read.
// The text rules are the library's (parquet_value.h), as in `parquet probe`.
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_VALUE_HASHING_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_VALUE_HASHING_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "blockbloom/column.h"
#include "blockbloom/parquet_file.h"
#include "tools/blockbloom/input_lines.h"
#include "tools/common/filter_options.h"

namespace blockbloom_tools {

class ValueHasher {
 public:
  // type: one bb_layout_column_type accepts for layout (hash_options.h checks).
  ValueHasher(Layout layout, const bb_parquet_column& type, std::uint32_t seed);

  // The hash of the value written as line (blanks around it are ignored,
  // except by byte types, whose value is the line's bytes exactly; a CRLF
  // line's '\r' is already gone, input_lines.h);
  // Kudu hashes widened to 64 bits. Throws CliError "<where>value 'X' is not
  // a TYPE: <the library's phrase>", where naming the reader's line.
  std::uint64_t Hash(std::string_view line, const LineReader& where) const;

 private:
  std::uint64_t KuduHash(const std::string& stored) const;

  Layout layout_;
  bb_parquet_column type_;
  std::uint32_t seed_;
  std::uint32_t kudu_cell_ = 0;  // kudu: the bb_column_type of the cell
  bool byte_type_ = false;
  std::string type_name_;
};

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_VALUE_HASHING_H_
