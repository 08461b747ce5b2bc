// SPDX-License-Identifier: Apache-2.0
// Each Parquet column type's description (value_rules.h).
#include "src/parquet/values/value_rules.h"

#include "src/parquet/values/type_table.h"

namespace blockbloom::internal::parquet_value {

int UnitDigits(int unit) {
  return unit == BB_PARQUET_UNIT_MILLIS ? 3 : unit == BB_PARQUET_UNIT_MICROS ? 6
                                           : unit == BB_PARQUET_UNIT_NANOS  ? 9
                                                                            : 0;
}

namespace {

Rules Unsupported(const char* why) {
  Rules r;
  r.why = why;
  return r;
}

Rules Integer(int width, int bits, bool is_signed) {
  Rules r;
  r.kind = Kind::kInteger;
  r.width = width;
  if (is_signed) {
    r.max = (Int128{1} << (bits - 1)) - 1;
    r.min = -r.max - 1;
  } else {
    r.max = (Int128{1} << bits) - 1;
  }
  return r;
}

// The physical type's rules; its width is the type table's (parquet_types.h).
Rules Physical(const bb_parquet_column& c, bool hex) {
  const int width = parquet_types::ValueWidth(c.physical_type, c.type_length);
  Rules r;
  switch (c.physical_type) {
    case BB_PARQUET_INT32:
    case BB_PARQUET_INT64: r = Integer(width, 8 * width, true); break;
    case BB_PARQUET_FLOAT: r.kind = Kind::kFloat; break;
    case BB_PARQUET_DOUBLE: r.kind = Kind::kDouble; break;
    case BB_PARQUET_INT96:
    case BB_PARQUET_BYTE_ARRAY: r.kind = Kind::kBytes; break;
    case BB_PARQUET_FIXED_LEN_BYTE_ARRAY:
      if (width < 0) return Unsupported("has no valid FIXED_LEN_BYTE_ARRAY length");
      r.kind = Kind::kBytes;
      break;
    case BB_PARQUET_BOOLEAN:
      return Unsupported("is BOOLEAN: Parquet defines no Bloom filter hash for booleans");
    default: return Unsupported("has an unknown physical type");
  }
  r.width = width;
  // FLOAT / DOUBLE as hex: the stored bytes, so that any NaN a writer stored
  // (another sign, a payload) can be named; the text rule has only one NaN.
  if (hex && (c.physical_type == BB_PARQUET_FLOAT || c.physical_type == BB_PARQUET_DOUBLE)) {
    r.kind = Kind::kBytes;
  }
  r.physical = c.physical_type;
  r.hex = hex;
  return r;
}

Rules Annotated(const bb_parquet_column& c) {
  const int p = c.physical_type, lt = c.logical_type;
  const int ct = lt == BB_PARQUET_LOGICAL_NONE ? c.converted_type : BB_PARQUET_CONVERTED_NONE;
  const char* kMismatch = "has an annotation that does not fit its physical type";
  const bool int32 = p == BB_PARQUET_INT32, int64 = p == BB_PARQUET_INT64;
  const bool flba = p == BB_PARQUET_FIXED_LEN_BYTE_ARRAY;
  // The stored width is the physical type's (once the annotation is known to
  // fit it); UUID, FLOAT16 and INTERVAL fix a FIXED_LEN_BYTE_ARRAY's length.
  const int width = parquet_types::ValueWidth(p, c.type_length);
  Rules r;
  int bits = 0;
  bool is_signed = true;
  if (parquet_types::IntegerAnnotation(lt, c.converted_type, c.bit_width, c.is_signed, &bits,
                                       &is_signed)) {
    if (!((int32 && (bits == 8 || bits == 16 || bits == 32)) || (int64 && bits == 64))) {
      return Unsupported(kMismatch);
    }
    r = Integer(width, bits, is_signed);
  } else if (lt == BB_PARQUET_LOGICAL_DECIMAL || ct == BB_PARQUET_CONVERTED_DECIMAL) {
    if (c.precision < 1 || c.scale < 0 || c.scale > c.precision) {
      return Unsupported("has a DECIMAL with an invalid precision or scale");
    }
    if (c.precision > kMaxPrecision) {
      return Unsupported("has a DECIMAL of more than 38 digits, which this library cannot write");
    }
    if (!((int32 && c.precision <= 9) || (int64 && c.precision <= 18) ||
          (flba && c.type_length > 0) || p == BB_PARQUET_BYTE_ARRAY)) {
      return Unsupported(kMismatch);
    }
    r.kind = Kind::kDecimal;
    r.width = width;
    r.precision = c.precision;
    r.scale = c.scale;
  } else if (lt == BB_PARQUET_LOGICAL_DATE || ct == BB_PARQUET_CONVERTED_DATE) {
    if (!int32) return Unsupported(kMismatch);
    r.kind = Kind::kDate;
    r.width = width;
  } else if (lt == BB_PARQUET_LOGICAL_TIME || ct == BB_PARQUET_CONVERTED_TIME_MILLIS ||
             ct == BB_PARQUET_CONVERTED_TIME_MICROS) {
    const int unit = lt ? c.time_unit
                        : ct == BB_PARQUET_CONVERTED_TIME_MILLIS ? BB_PARQUET_UNIT_MILLIS
                                                                 : BB_PARQUET_UNIT_MICROS;
    if (UnitDigits(unit) == 0 || (unit == BB_PARQUET_UNIT_MILLIS ? !int32 : !int64)) {
      return Unsupported(kMismatch);
    }
    r.kind = Kind::kTime;
    r.width = width;
    r.digits = UnitDigits(unit);
    r.utc = lt ? c.is_adjusted_to_utc != 0 : true;  // TIME_MILLIS / _MICROS are UTC-adjusted
  } else if (lt == BB_PARQUET_LOGICAL_TIMESTAMP || ct == BB_PARQUET_CONVERTED_TIMESTAMP_MILLIS ||
             ct == BB_PARQUET_CONVERTED_TIMESTAMP_MICROS) {
    const int unit = lt ? c.time_unit
                        : ct == BB_PARQUET_CONVERTED_TIMESTAMP_MILLIS ? BB_PARQUET_UNIT_MILLIS
                                                                      : BB_PARQUET_UNIT_MICROS;
    if (UnitDigits(unit) == 0 || !int64) return Unsupported(kMismatch);
    r.kind = Kind::kTimestamp;
    r.width = width;
    r.digits = UnitDigits(unit);
    r.utc = lt ? c.is_adjusted_to_utc != 0 : true;
  } else if (lt == BB_PARQUET_LOGICAL_UUID) {
    if (!flba || c.type_length != 16) return Unsupported(kMismatch);
    r.kind = Kind::kUuid;
    r.width = 16;
  } else if (lt == BB_PARQUET_LOGICAL_FLOAT16) {
    if (!flba || c.type_length != 2) return Unsupported(kMismatch);
    r.kind = Kind::kFloat16;
    r.width = 2;
  } else if (ct == BB_PARQUET_CONVERTED_INTERVAL) {
    if (!flba || c.type_length != 12) return Unsupported(kMismatch);
    r.kind = Kind::kInterval;
    r.width = 12;
  } else if (lt == BB_PARQUET_LOGICAL_STRING || lt == BB_PARQUET_LOGICAL_ENUM ||
             lt == BB_PARQUET_LOGICAL_JSON || lt == BB_PARQUET_LOGICAL_BSON ||
             ct == BB_PARQUET_CONVERTED_UTF8 || ct == BB_PARQUET_CONVERTED_ENUM ||
             ct == BB_PARQUET_CONVERTED_JSON || ct == BB_PARQUET_CONVERTED_BSON) {
    if (p != BB_PARQUET_BYTE_ARRAY) return Unsupported(kMismatch);
    r = Physical(c, false);
  } else if (lt == BB_PARQUET_LOGICAL_NONE && ct == BB_PARQUET_CONVERTED_NONE) {
    if (p == BB_PARQUET_INT96) {
      r.kind = Kind::kInt96;
      r.width = width;
      r.digits = 9;
    } else {
      r = Physical(c, false);
    }
  } else {
    return Unsupported("has an annotation this library cannot write values of as text");
  }
  r.physical = p;
  return r;
}

}  // namespace

Rules RulesFor(const bb_parquet_column& c, uint32_t flags) {
  if (flags & ~uint32_t{BB_PARQUET_TEXT_HEX | BB_PARQUET_TEXT_PHYSICAL}) {
    return Unsupported("was asked for with an unknown flag");
  }
  if (c.physical_type == BB_PARQUET_BOOLEAN) return Physical(c, false);
  if ((flags & BB_PARQUET_TEXT_HEX) && parquet_types::TakesHex(c.physical_type)) {
    return Physical(c, true);
  }
  if (flags & BB_PARQUET_TEXT_PHYSICAL) return Physical(c, false);
  return Annotated(c);
}


std::string IntText(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  UInt128 m = negative ? -static_cast<UInt128>(v) : v;
  std::string s;
  while (m > 0) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(m % 10))), m /= 10;
  return negative ? "-" + s : s;
}

void PutLittle(UInt128 v, int width, std::string* out) {
  for (int i = 0; i < width; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

int PutUnscaled(const Rules& r, Int128 v, std::string* out, std::string* why) {
  if (r.physical == BB_PARQUET_INT32 || r.physical == BB_PARQUET_INT64) {
    PutLittle(static_cast<UInt128>(v), r.width, out);
    return BB_OK;
  }
  int n = 1;  // the fewest bytes of two's complement holding v
  while (n < 16 && (v < -(Int128{1} << (8 * n - 1)) || v >= (Int128{1} << (8 * n - 1)))) ++n;
  if (r.width && n > r.width) {
    *why = "is out of range for the column's bytes";
    return BB_ERR_VALUE_RANGE;
  }
  const int width = r.width ? r.width : n;
  for (int i = width - 1; i >= 0; --i) {
    out->push_back(static_cast<char>(i >= 16 ? (v < 0 ? 0xff : 0) : static_cast<int>(v >> (8 * i)) & 0xff));
  }
  return BB_OK;
}

}  // namespace blockbloom::internal::parquet_value
