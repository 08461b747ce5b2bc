// SPDX-License-Identifier: Apache-2.0
// Parquet column types by name (bb_parquet_type_parse, parquet_value.h) and
// the bb_column_type an engine's array of a type's stored values is hashed
// as (bb_parquet_stored_column_type).
#include <cmath>
#include <cstring>
#include <string>

#include "src/parquet/values/type_table.h"
#include "blockbloom/column.h"
#include "blockbloom/parquet_value.h"

namespace blockbloom::internal::parquet_type {

// ASCII only, whatever the process locale (a Turkish locale's tolower maps
// 'I' to a dotless i, which would make "INT8" an unknown name).
std::string Lower(const char* name, size_t len) {
  std::string s(name == nullptr ? "" : std::string(name, len));
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// A decimal count 1 .. 1000000 without sign or leading zeros; -1 otherwise.
int Count(const std::string& s) {
  if (s.empty() || s.size() > 7 || s[0] == '0') return -1;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// The digits n bytes of two's complement always hold: floor((8n - 1) log10 2).
int DigitsOfBytes(int n) {
  return static_cast<int>(std::floor((8.0 * n - 1.0) * std::log10(2.0)));
}

// "fixed(n)" / "fixed_len_byte_array(n)": n, else -1.
int FixedLength(const std::string& s) {
  for (const char* prefix : {"fixed(", "fixed_len_byte_array("}) {
    size_t p = std::strlen(prefix);
    if (s.size() > p + 1 && s.compare(0, p, prefix) == 0 && s.back() == ')') {
      return Count(s.substr(p, s.size() - p - 1));
    }
  }
  return -1;
}

// The arguments inside "head(" ... ")" split at commas; false if s is not so.
bool Arguments(const std::string& s, const char* head, std::string out[4], int* count) {
  size_t p = std::strlen(head);
  if (s.size() < p + 2 || s.compare(0, p, head) != 0 || s[p] != '(' || s.back() != ')') {
    return false;
  }
  *count = 0;
  int depth = 0;
  std::string cur;
  for (size_t i = p + 1; i + 1 < s.size(); ++i) {
    char c = s[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      if (*count == 3) return false;
      out[(*count)++] = cur;
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (*count == 3) return false;
  out[(*count)++] = cur;
  return true;
}

int Unit(const std::string& s) {
  if (s == "ms") return BB_PARQUET_UNIT_MILLIS;
  if (s == "us") return BB_PARQUET_UNIT_MICROS;
  if (s == "ns") return BB_PARQUET_UNIT_NANOS;
  return 0;
}

bool Integer(const std::string& s, bb_parquet_column* t) {
  static const struct {
    const char* name;
    int bits;
    int is_signed;
  } kInts[] = {{"int8", 8, 1},   {"int16", 16, 1},  {"int32", 32, 1},  {"int64", 64, 1},
               {"uint8", 8, 0},  {"uint16", 16, 0}, {"uint32", 32, 0}, {"uint64", 64, 0}};
  for (const auto& i : kInts) {
    if (s == i.name) {
      t->physical_type = i.bits == 64 ? BB_PARQUET_INT64 : BB_PARQUET_INT32;
      t->logical_type = BB_PARQUET_LOGICAL_INTEGER;
      t->bit_width = i.bits;
      t->is_signed = i.is_signed;
      return true;
    }
  }
  return false;
}

bool Simple(const std::string& s, bb_parquet_column* t) {
  static const struct {
    const char* name;
    int physical;
    int length;
    int logical;
    int converted;
  } kSimple[] = {
      {"float", BB_PARQUET_FLOAT, 0, 0, BB_PARQUET_CONVERTED_NONE},
      {"double", BB_PARQUET_DOUBLE, 0, 0, BB_PARQUET_CONVERTED_NONE},
      {"float16", BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 2, BB_PARQUET_LOGICAL_FLOAT16,
       BB_PARQUET_CONVERTED_NONE},
      {"string", BB_PARQUET_BYTE_ARRAY, 0, BB_PARQUET_LOGICAL_STRING, BB_PARQUET_CONVERTED_NONE},
      {"enum", BB_PARQUET_BYTE_ARRAY, 0, BB_PARQUET_LOGICAL_ENUM, BB_PARQUET_CONVERTED_NONE},
      {"json", BB_PARQUET_BYTE_ARRAY, 0, BB_PARQUET_LOGICAL_JSON, BB_PARQUET_CONVERTED_NONE},
      {"bson", BB_PARQUET_BYTE_ARRAY, 0, BB_PARQUET_LOGICAL_BSON, BB_PARQUET_CONVERTED_NONE},
      {"binary", BB_PARQUET_BYTE_ARRAY, 0, 0, BB_PARQUET_CONVERTED_NONE},
      {"byte_array", BB_PARQUET_BYTE_ARRAY, 0, 0, BB_PARQUET_CONVERTED_NONE},
      {"uuid", BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 16, BB_PARQUET_LOGICAL_UUID,
       BB_PARQUET_CONVERTED_NONE},
      {"int96", BB_PARQUET_INT96, 0, 0, BB_PARQUET_CONVERTED_NONE},
      {"interval", BB_PARQUET_FIXED_LEN_BYTE_ARRAY, 12, 0, BB_PARQUET_CONVERTED_INTERVAL},
      {"date", BB_PARQUET_INT32, 0, BB_PARQUET_LOGICAL_DATE, BB_PARQUET_CONVERTED_NONE},
      {"boolean", BB_PARQUET_BOOLEAN, 0, 0, BB_PARQUET_CONVERTED_NONE},
  };
  for (const auto& e : kSimple) {
    if (s == e.name) {
      t->physical_type = e.physical;
      t->type_length = e.length;
      t->logical_type = e.logical;
      t->converted_type = e.converted;
      return true;
    }
  }
  int n = FixedLength(s);
  if (n < 1) return false;
  t->physical_type = BB_PARQUET_FIXED_LEN_BYTE_ARRAY;
  t->type_length = n;
  return true;
}

bool Temporal(const std::string& s, bb_parquet_column* t) {
  std::string args[4];
  int count = 0;
  bool is_time = Arguments(s, "time", args, &count);
  if (!is_time && !Arguments(s, "timestamp", args, &count)) return false;
  int unit = Unit(args[0]);
  if (unit == 0 || count > 2 || (count == 2 && args[1] != "utc")) return false;
  t->logical_type = is_time ? BB_PARQUET_LOGICAL_TIME : BB_PARQUET_LOGICAL_TIMESTAMP;
  t->physical_type =
      is_time && unit == BB_PARQUET_UNIT_MILLIS ? BB_PARQUET_INT32 : BB_PARQUET_INT64;
  t->time_unit = unit;
  t->is_adjusted_to_utc = count == 2 ? 1 : 0;
  return true;
}

bool Decimal(const std::string& s, bb_parquet_column* t) {
  std::string args[4];
  int count = 0;
  if (!Arguments(s, "decimal", args, &count) || count < 2 || count > 3) return false;
  int p = Count(args[0]);
  int sc = args[1] == "0" ? 0 : Count(args[1]);
  if (p < 1 || sc < 0 || sc > p) return false;
  if (count == 2) {
    if (p <= 9) {
      t->physical_type = BB_PARQUET_INT32;
    } else if (p <= 18) {
      t->physical_type = BB_PARQUET_INT64;
    } else {
      int n = 1;
      while (DigitsOfBytes(n) < p) ++n;
      t->physical_type = BB_PARQUET_FIXED_LEN_BYTE_ARRAY;
      t->type_length = n;
    }
  } else if (args[2] == "int32" && p <= 9) {
    t->physical_type = BB_PARQUET_INT32;
  } else if (args[2] == "int64" && p <= 18) {
    t->physical_type = BB_PARQUET_INT64;
  } else if (args[2] == "binary" || args[2] == "byte_array") {
    t->physical_type = BB_PARQUET_BYTE_ARRAY;
  } else {
    int n = FixedLength(args[2]);
    if (n < 1 || DigitsOfBytes(n) < p) return false;
    t->physical_type = BB_PARQUET_FIXED_LEN_BYTE_ARRAY;
    t->type_length = n;
  }
  t->logical_type = BB_PARQUET_LOGICAL_DECIMAL;
  t->precision = p;
  t->scale = sc;
  return true;
}

}  // namespace blockbloom::internal::parquet_type

extern "C" int bb_parquet_type_parse(const char* name, size_t len, bb_parquet_column* type) {
  namespace in = blockbloom::internal::parquet_type;
  if (type == nullptr || (name == nullptr && len > 0)) return BB_ERR_NULL_POINTER;
  if (type->struct_size < sizeof(bb_parquet_column)) return BB_ERR_BUFFER_TOO_SMALL;
  bb_parquet_column t;
  std::memset(&t, 0, sizeof t);
  t.struct_size = sizeof t;
  t.path = "";
  t.converted_type = BB_PARQUET_CONVERTED_NONE;
  std::string s = in::Lower(name, len);
  if (s.find('\0') != std::string::npos ||
      !(in::Integer(s, &t) || in::Simple(s, &t) || in::Temporal(s, &t) || in::Decimal(s, &t))) {
    return BB_ERR_UNKNOWN_TYPE_NAME;
  }
  std::memcpy(type, &t, sizeof t);
  return BB_OK;
}

extern "C" int bb_parquet_stored_column_type(const bb_parquet_column* type,
                                             uint32_t* column_type, size_t* width) {
  if (type == nullptr || column_type == nullptr || width == nullptr) return BB_ERR_NULL_POINTER;
  if (type->struct_size < sizeof(bb_parquet_column)) return BB_ERR_BUFFER_TOO_SMALL;
  size_t w = 0;
  uint32_t ct;
  switch (type->physical_type) {
    case BB_PARQUET_INT32: ct = BB_TYPE_INT32; break;
    case BB_PARQUET_INT64: ct = BB_TYPE_INT64; break;
    case BB_PARQUET_FLOAT: ct = BB_TYPE_FLOAT; break;
    case BB_PARQUET_DOUBLE: ct = BB_TYPE_DOUBLE; break;
    case BB_PARQUET_INT96:
      ct = BB_TYPE_INT96;
      w = static_cast<size_t>(blockbloom::internal::parquet_types::ValueWidth(BB_PARQUET_INT96, 0));
      break;
    case BB_PARQUET_BYTE_ARRAY: ct = BB_TYPE_BYTE_ARRAY; break;
    case BB_PARQUET_FIXED_LEN_BYTE_ARRAY:
      if (type->type_length <= 0) return BB_ERR_PARQUET_UNSUPPORTED;
      ct = BB_TYPE_FIXED_LEN_BYTE_ARRAY;
      w = static_cast<size_t>(type->type_length);
      break;
    default: return BB_ERR_PARQUET_UNSUPPORTED;
  }
  *column_type = ct;
  *width = w;
  return BB_OK;
}
