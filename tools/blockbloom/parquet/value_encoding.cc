// SPDX-License-Identifier: Apache-2.0
#include "parquet/value_encoding.h"

#include <cstring>
#include <limits>

#include "common/cli_error.h"
#include "common/number_parse.h"
#include "common/value_parse.h"
#include "parquet/type_names.h"

namespace blockbloom_cli {
namespace {

// ConvertedType values of the integer annotations older writers use.
constexpr int kUint8 = 11, kInt64Converted = 18;

// The integer annotation of a column, from its LogicalType or converted type:
// *bits 0 if it has none.
void IntegerAnnotation(const bb_parquet_column& c, int* bits, bool* is_signed) {
  *bits = 0;
  *is_signed = true;
  if (c.logical_type == BB_PARQUET_LOGICAL_INTEGER) {
    *bits = c.bit_width;
    *is_signed = c.is_signed != 0;
  } else if (c.logical_type == BB_PARQUET_LOGICAL_NONE && c.converted_type >= kUint8 &&
             c.converted_type <= kInt64Converted) {
    static const int kBits[] = {8, 16, 32, 64};
    *bits = kBits[(c.converted_type - kUint8) % 4];
    *is_signed = c.converted_type >= kUint8 + 4;
  }
}

std::string Range(std::int64_t min, std::int64_t max) {
  return std::to_string(min) + " .. " + std::to_string(max);
}

void PutLittleEndian(std::uint64_t v, std::size_t width, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < width; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool DecodeHex(std::string_view text, std::string* bytes, std::string* problem) {
  if (text.size() % 2 != 0) {
    *problem = "has an odd number of hex digits";
    return false;
  }
  bytes->clear();
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int hi = HexDigit(text[i]);
    const int lo = HexDigit(text[i + 1]);
    if (hi < 0 || lo < 0) {
      *problem = "is not hex digits";
      return false;
    }
    bytes->push_back(static_cast<char>(hi << 4 | lo));
  }
  return true;
}

// A FLOAT or DOUBLE: its IEEE bits, little-endian.
template <typename T, typename Bits>
bool EncodeFloat(ValueStatus (*parse)(std::string_view, T*), const char* type,
                 std::string_view text, std::string* bytes, std::string* problem) {
  T value = 0;
  const ValueStatus status = parse(text, &value);
  if (status != ValueStatus::kOk) {
    *problem = status == ValueStatus::kOutOfRange ? std::string("is out of range for a ") + type
                                                  : std::string("is not a number (") + type + ")";
    return false;
  }
  Bits bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  PutLittleEndian(bits, sizeof bits, bytes);
  return true;
}

}  // namespace

ValueRules RulesFor(const bb_parquet_column& column, const std::string& column_name, bool hex) {
  ValueRules r;
  const std::string type = PhysicalTypeName(column);
  const std::string logical = LogicalTypeName(column);
  const std::string annotated = logical.empty() ? type : type + " " + logical;
  const int physical = column.physical_type;
  const bool byte_type = physical == BB_PARQUET_BYTE_ARRAY ||
                         physical == BB_PARQUET_FIXED_LEN_BYTE_ARRAY || physical == BB_PARQUET_INT96;
  if (physical == BB_PARQUET_BOOLEAN) {
    throw CliError("column " + column_name +
                   " is BOOLEAN: Parquet defines no Bloom filter hash for booleans");
  }
  if (hex && !byte_type) {
    throw UsageError("--hex is for BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96 columns; column " +
                     column_name + " is " + annotated);
  }
  switch (physical) {
    case BB_PARQUET_INT32:
    case BB_PARQUET_INT64: {
      r.width = physical == BB_PARQUET_INT32 ? 4 : 8;
      int bits = 0;
      bool is_signed = true;
      IntegerAnnotation(column, &bits, &is_signed);
      if (bits == 0) bits = static_cast<int>(8 * r.width);
      if ((bits != 8 && bits != 16 && bits != 32 && bits != 64) ||
          static_cast<std::size_t>(bits) > 8 * r.width) {
        throw CliError("column " + column_name + " is " + annotated +
                       ": that integer annotation does not fit its physical type");
      }
      if (is_signed) {
        r.kind = ValueRules::Kind::kSigned;
        r.max = static_cast<std::int64_t>((std::uint64_t{1} << (bits - 1)) - 1);
        r.min = -r.max - 1;
        r.description = type + " " + Range(r.min, r.max);
      } else {
        r.kind = ValueRules::Kind::kUnsigned;
        r.unsigned_max = bits == 64 ? std::numeric_limits<std::uint64_t>::max()
                                    : (std::uint64_t{1} << bits) - 1;
        r.description = type + " 0 .. " + std::to_string(r.unsigned_max);
      }
      if (!logical.empty()) r.description += " (" + logical + ")";
      return r;
    }
    case BB_PARQUET_FLOAT:
      r.kind = ValueRules::Kind::kFloat;
      r.description = "FLOAT";
      return r;
    case BB_PARQUET_DOUBLE:
      r.kind = ValueRules::Kind::kDouble;
      r.description = "DOUBLE";
      return r;
    case BB_PARQUET_BYTE_ARRAY:
    case BB_PARQUET_FIXED_LEN_BYTE_ARRAY:
    case BB_PARQUET_INT96:
      r.kind = ValueRules::Kind::kBytes;
      r.hex = hex;
      r.fixed_length = physical == BB_PARQUET_INT96 ? 12
                       : physical == BB_PARQUET_FIXED_LEN_BYTE_ARRAY
                           ? static_cast<std::size_t>(column.type_length)
                           : 0;
      r.description = annotated;
      return r;
    default:
      throw CliError("column " + column_name + " has the unknown physical type " + type);
  }
}

bool EncodeValue(const ValueRules& rules, std::string_view text, std::string* bytes,
                 std::string* problem) {
  switch (rules.kind) {
    case ValueRules::Kind::kSigned: {
      std::int64_t v = 0;
      const ValueStatus status = ParseInt64(text, &v);
      if (status == ValueStatus::kOk && (v < rules.min || v > rules.max)) {
        *problem = "is out of range (" + rules.description + ")";
        return false;
      }
      if (status != ValueStatus::kOk) {
        *problem = status == ValueStatus::kOutOfRange
                       ? "is out of range (" + rules.description + ")"
                       : "is not a decimal integer (" + rules.description + ")";
        return false;
      }
      PutLittleEndian(static_cast<std::uint64_t>(v), rules.width, bytes);
      return true;
    }
    case ValueRules::Kind::kUnsigned: {
      const std::string_view t = TrimLine(text);
      std::uint64_t v = 0;
      const bool hex = t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
      const ParseStatus status = hex ? ParseStatus::kInvalid : ParseUint64(t, &v);
      if (status == ParseStatus::kOverflow || (status == ParseStatus::kOk && v > rules.unsigned_max)) {
        *problem = "is out of range (" + rules.description + ")";
        return false;
      }
      if (status != ParseStatus::kOk) {
        *problem = "is not an unsigned decimal integer (" + rules.description + ")";
        return false;
      }
      PutLittleEndian(v, rules.width, bytes);  // the unsigned value's bits
      return true;
    }
    case ValueRules::Kind::kFloat:
      return EncodeFloat<float, std::uint32_t>(ParseFloat, "FLOAT", text, bytes, problem);
    case ValueRules::Kind::kDouble:
      return EncodeFloat<double, std::uint64_t>(ParseDouble, "DOUBLE", text, bytes, problem);
    case ValueRules::Kind::kBytes:
    default: {
      if (rules.hex) {
        if (!DecodeHex(text, bytes, problem)) return false;
      } else {
        bytes->assign(text.data(), text.size());
      }
      if (rules.fixed_length != 0 && bytes->size() != rules.fixed_length) {
        *problem = "is " + std::to_string(bytes->size()) + " bytes, not " +
                   std::to_string(rules.fixed_length) + " (" + rules.description + ")";
        return false;
      }
      return true;
    }
  }
}

}  // namespace blockbloom_cli
