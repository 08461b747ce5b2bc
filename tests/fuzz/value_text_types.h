// SPDX-License-Identifier: Apache-2.0
// Column types for fuzz_value_text.cc, chosen by the fuzzer: the
// bb_parquet_column fields set by hand from Parquet's LogicalTypes.md (never
// through bb_parquet_type_parse), legacy ConvertedType annotations included,
// and what the model knows of each (value_text_model.h).
#ifndef BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_TYPES_H_
#define BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_TYPES_H_

#include "value_text_model.h"

namespace bbfuzz::text_model {

// ConvertedType numbers (parquet.thrift).
constexpr int kCtDecimal = 5, kCtDate = 6, kCtTimeMillis = 7, kCtTimeMicros = 8,
              kCtTimestampMillis = 9, kCtTimestampMicros = 10, kCtUint8 = 11, kCtInt8 = 15,
              kCtInterval = 21;

inline Type BaseType(int physical) {
  Type t;
  std::memset(&t.column, 0, sizeof t.column);
  t.column.struct_size = sizeof t.column;
  t.column.physical_type = physical;
  t.column.converted_type = BB_PARQUET_CONVERTED_NONE;
  return t;
}

inline Type IntegerType(Source* src) {
  static const int kBits[] = {8, 16, 32, 64};
  const int form = static_cast<int>(src->Pick(3));  // INTEGER, INT_n / UINT_n, none
  int bits = kBits[src->Pick(4)];
  bool is_signed = src->Coin();
  if (form == 2) bits = src->Coin() ? 64 : 32, is_signed = true;
  Type t = BaseType(bits == 64 ? BB_PARQUET_INT64 : BB_PARQUET_INT32);
  t.kind = Kind::kInteger;
  if (form == 0) {
    t.column.logical_type = BB_PARQUET_LOGICAL_INTEGER;
    t.column.bit_width = bits;
    t.column.is_signed = is_signed;
  } else if (form == 1) {
    const int index = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
    t.column.converted_type = (is_signed ? kCtInt8 : kCtUint8) + index;
  }
  t.width = bits == 64 ? 8 : 4;
  t.is_signed = is_signed;
  t.hi = is_signed ? (I128{1} << (bits - 1)) - 1 : (I128{1} << bits) - 1;
  t.lo = is_signed ? -t.hi - 1 : 0;
  return t;
}

inline int UnitDigits(int unit) { return unit == BB_PARQUET_UNIT_MILLIS ? 3 : unit == BB_PARQUET_UNIT_MICROS ? 6 : 9; }

// TIME (INT32 for MILLIS, else INT64) or TIMESTAMP (INT64), by LogicalType or
// the legacy *_MILLIS / *_MICROS (UTC-adjusted); INT96 a local NANOS timestamp.
inline Type TemporalType(Source* src, Kind kind) {
  if (kind == Kind::kInt96) {
    Type t = BaseType(BB_PARQUET_INT96);
    t.kind = Kind::kInt96;
    t.width = 12;
    t.digits = 9;
    return t;
  }
  const int unit = BB_PARQUET_UNIT_MILLIS + static_cast<int>(src->Pick(3));
  const bool legacy = src->Pick(4) == 0 && unit != BB_PARQUET_UNIT_NANOS;
  const bool time = kind == Kind::kTime;
  Type t = BaseType(time && unit == BB_PARQUET_UNIT_MILLIS ? BB_PARQUET_INT32 : BB_PARQUET_INT64);
  t.kind = kind;
  t.digits = UnitDigits(unit);
  t.width = t.column.physical_type == BB_PARQUET_INT32 ? 4 : 8;
  if (legacy) {
    const bool millis = unit == BB_PARQUET_UNIT_MILLIS;
    t.column.converted_type = time ? (millis ? kCtTimeMillis : kCtTimeMicros)
                                   : (millis ? kCtTimestampMillis : kCtTimestampMicros);
    t.utc = true;
  } else {
    t.column.logical_type = time ? BB_PARQUET_LOGICAL_TIME : BB_PARQUET_LOGICAL_TIMESTAMP;
    t.column.time_unit = unit;
    t.utc = src->Coin();
    t.column.is_adjusted_to_utc = t.utc;
  }
  return t;
}

// DECIMAL(p, s) on INT32, INT64, FIXED_LEN_BYTE_ARRAY(n) or BYTE_ARRAY; a
// precision past 38 or past what INT32 / INT64 hold is unsupported.
inline Type DecimalType(Source* src) {
  const int p = 1 + static_cast<int>(src->Pick(src->Pick(8) == 0 ? 40 : 38));
  const int s = static_cast<int>(src->Pick(static_cast<unsigned>(p) + 1));
  const unsigned physical = src->Pick(4);
  const int fewest = FewestBytes(Pow10(p < 38 ? p : 38) - 1);
  Type t = BaseType(physical == 0 ? BB_PARQUET_INT32 : physical == 1 ? BB_PARQUET_INT64
                    : physical == 2 ? BB_PARQUET_FIXED_LEN_BYTE_ARRAY : BB_PARQUET_BYTE_ARRAY);
  t.kind = Kind::kDecimal;
  t.precision = p;
  t.scale = s;
  t.width = physical == 0 ? 4 : physical == 1 ? 8 : 0;
  if (physical == 2) {
    // Usually the fewest bytes for p digits; sometimes fewer (values past
    // them are range errors) or more (sign-extended, up to 20).
    const unsigned shape = src->Pick(4);
    t.width = shape == 0 ? 1 + static_cast<int>(src->Pick(20)) : fewest;
    t.column.type_length = t.width;
  }
  if (src->Coin()) {
    t.column.logical_type = BB_PARQUET_LOGICAL_DECIMAL;
  } else {
    t.column.converted_type = kCtDecimal;
  }
  t.column.precision = p;
  t.column.scale = s;
  t.supported = p <= 38 && !(physical == 0 && p > 9) && !(physical == 1 && p > 18);
  return t;
}

// FIXED_LEN_BYTE_ARRAY(width) without annotation, for `kind`.
inline Type FixedType(Kind kind, int width) {
  Type t = BaseType(BB_PARQUET_FIXED_LEN_BYTE_ARRAY);
  t.kind = kind;
  t.width = width;
  t.column.type_length = width;
  return t;
}

inline Type ChooseType(Source* src) {
  switch (src->Pick(14)) {
    case 0: case 1: return IntegerType(src);
    case 2: {
      Type t = BaseType(BB_PARQUET_INT32);
      t.kind = Kind::kDate;
      t.width = 4;
      if (src->Coin()) t.column.logical_type = BB_PARQUET_LOGICAL_DATE; else t.column.converted_type = kCtDate;
      return t;
    }
    case 3: return TemporalType(src, Kind::kTime);
    case 4: case 5: return TemporalType(src, Kind::kTimestamp);
    case 6: return TemporalType(src, Kind::kInt96);
    case 7: case 8: return DecimalType(src);
    case 9: {
      Type t = FixedType(Kind::kUuid, 16);
      t.column.logical_type = BB_PARQUET_LOGICAL_UUID;
      return t;
    }
    case 10: {
      const unsigned which = src->Pick(3);
      if (which == 2) {
        Type t = FixedType(Kind::kHalf, 2);
        t.column.logical_type = BB_PARQUET_LOGICAL_FLOAT16;
        return t;
      }
      Type t = BaseType(which == 0 ? BB_PARQUET_FLOAT : BB_PARQUET_DOUBLE);
      t.kind = which == 0 ? Kind::kFloat : Kind::kDouble;
      t.width = which == 0 ? 4 : 8;
      return t;
    }
    case 11: {
      Type t = BaseType(BB_PARQUET_BOOLEAN);
      t.kind = Kind::kBoolean;
      t.supported = false;
      return t;
    }
    case 12: return FixedType(Kind::kFixed, 1 + static_cast<int>(src->Pick(24)));
    default: {
      Type t = FixedType(Kind::kInterval, 12);
      t.column.converted_type = kCtInterval;
      return t;
    }
  }
}

// The same column's text with BB_PARQUET_TEXT_PHYSICAL (INT32 / INT64: a
// decimal integer in the physical type's signed range, whatever the
// annotation) or BB_PARQUET_TEXT_HEX (FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY,
// INT96, FLOAT, DOUBLE: the stored bytes as hex, exactly their width); other
// types unchanged.
inline Type WithStoredFormFlag(const Type& t) {
  Type s = t;
  const int p = t.column.physical_type;
  if (p == BB_PARQUET_INT32 || p == BB_PARQUET_INT64) {
    s.kind = Kind::kInteger;
    s.flags = BB_PARQUET_TEXT_PHYSICAL;
    s.width = p == BB_PARQUET_INT32 ? 4 : 8;
    s.is_signed = true;
    s.hi = (I128{1} << (8 * s.width - 1)) - 1;
    s.lo = -s.hi - 1;
    s.supported = true;
  } else if (p != BB_PARQUET_BOOLEAN) {
    s.kind = Kind::kHex;
    s.flags = BB_PARQUET_TEXT_HEX;
    s.width = p == BB_PARQUET_FIXED_LEN_BYTE_ARRAY ? t.column.type_length : p == BB_PARQUET_INT96 ? 12
              : p == BB_PARQUET_FLOAT ? 4 : p == BB_PARQUET_DOUBLE ? 8 : 0;
    s.supported = true;
  }
  return s;
}

}  // namespace bbfuzz::text_model

#endif  // BLOCKBLOOM_TESTS_FUZZ_VALUE_TEXT_TYPES_H_
