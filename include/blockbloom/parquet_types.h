/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: the Parquet column types as parquet.thrift numbers them, each
 * list one table with a row per type:
 * - BB_PARQUET_PHYSICAL_TYPES: Type, with the bytes of one stored value and
 *   whether its values may be written as hex digits;
 * - BB_PARQUET_LOGICAL_TYPES: LogicalType's union members by field id;
 * - BB_PARQUET_CONVERTED_TYPES: ConvertedType, the annotations of older
 *   writers;
 * - BB_PARQUET_HASHING_TYPES: the names of the value types hashing.h's
 *   calls take.
 * The enums below are made from these rows, and the library, the tool and
 * the Python package read names, widths and the hex rule from them, so that
 * a code, a width or a name is written once. A caller may expand a table with its own row macro,
 * e.g. the names by code:
 *   #define NAME(name, code, width, hex) #name,
 *   static const char* const physical_names[] = {BB_PARQUET_PHYSICAL_TYPES(NAME)};
 * (the physical and converted codes run 0, 1, 2, ... without gaps; logical
 * field id 9 is reserved). Included by parquet_file.h. */
#ifndef BLOCKBLOOM_PARQUET_TYPES_H_
#define BLOCKBLOOM_PARQUET_TYPES_H_

#ifdef __cplusplus
extern "C" {
#endif

/* The width column of BB_PARQUET_PHYSICAL_TYPES: a positive width is the
 * bytes of every value's plain encoding (what Parquet hashes); otherwise one
 * of these. */
#define BB_PARQUET_WIDTH_VARIABLE 0        /* BYTE_ARRAY: each value its own length */
#define BB_PARQUET_WIDTH_TYPE_LENGTH (-1)  /* FIXED_LEN_BYTE_ARRAY: the column's type_length */
#define BB_PARQUET_WIDTH_NONE (-2)         /* BOOLEAN: bit-packed; Parquet defines no Bloom
                                              filter hash of it */

/* X(NAME, code, width, hex): hex 1 when BB_PARQUET_TEXT_HEX (parquet_value.h)
 * applies, the value given as its stored bytes in hex digits: the byte types,
 * and FLOAT / DOUBLE for NaNs a writer stored with another sign or payload. */
#define BB_PARQUET_PHYSICAL_TYPES(X)                          \
  X(BOOLEAN, 0, BB_PARQUET_WIDTH_NONE, 0)                     \
  X(INT32, 1, 4, 0)                                           \
  X(INT64, 2, 8, 0)                                           \
  X(INT96, 3, 12, 1)                                          \
  X(FLOAT, 4, 4, 1)                                           \
  X(DOUBLE, 5, 8, 1)                                          \
  X(BYTE_ARRAY, 6, BB_PARQUET_WIDTH_VARIABLE, 1)              \
  X(FIXED_LEN_BYTE_ARRAY, 7, BB_PARQUET_WIDTH_TYPE_LENGTH, 1)

/* X(NAME, field id); the bb_parquet_column members each one sets in a
 * comment. */
#define BB_PARQUET_LOGICAL_TYPES(X)                                  \
  X(STRING, 1)                                                       \
  X(MAP, 2)                                                          \
  X(LIST, 3)                                                         \
  X(ENUM, 4)                                                         \
  X(DECIMAL, 5)    /* scale, precision */                            \
  X(DATE, 6)                                                         \
  X(TIME, 7)       /* time_unit, is_adjusted_to_utc */               \
  X(TIMESTAMP, 8)  /* time_unit, is_adjusted_to_utc */               \
  X(INTEGER, 10)   /* bit_width, is_signed */                        \
  X(UNKNOWN, 11)   /* NullType: always null */                       \
  X(JSON, 12)                                                        \
  X(BSON, 13)                                                        \
  X(UUID, 14)                                                        \
  X(FLOAT16, 15)                                                     \
  X(VARIANT, 16)                                                     \
  X(GEOMETRY, 17)                                                    \
  X(GEOGRAPHY, 18)

/* X(NAME, code): ConvertedType. DECIMAL sets scale and precision (from the
 * SchemaElement); TIME_* and TIMESTAMP_* are UTC-adjusted. */
#define BB_PARQUET_CONVERTED_TYPES(X) \
  X(UTF8, 0)                          \
  X(MAP, 1)                           \
  X(MAP_KEY_VALUE, 2)                 \
  X(LIST, 3)                          \
  X(ENUM, 4)                          \
  X(DECIMAL, 5)                       \
  X(DATE, 6)                          \
  X(TIME_MILLIS, 7)                   \
  X(TIME_MICROS, 8)                   \
  X(TIMESTAMP_MILLIS, 9)              \
  X(TIMESTAMP_MICROS, 10)             \
  X(UINT_8, 11)                       \
  X(UINT_16, 12)                      \
  X(UINT_32, 13)                      \
  X(UINT_64, 14)                      \
  X(INT_8, 15)                        \
  X(INT_16, 16)                       \
  X(INT_32, 17)                       \
  X(INT_64, 18)                       \
  X(JSON, 19)                         \
  X(BSON, 20)                         \
  X(INTERVAL, 21)

/* X(name, PHYSICAL): the five value types of hashing.h's untyped calls
 * (bb_parquet_hash_int32 .. bb_parquet_hash_string_batch) by the name
 * bb_parquet_type_parse, the tool's --type and the Python package's type=
 * give them, with the physical type each hashes as. */
#define BB_PARQUET_HASHING_TYPES(X) \
  X(int32, INT32)                   \
  X(int64, INT64)                   \
  X(float, FLOAT)                   \
  X(double, DOUBLE)                 \
  X(string, BYTE_ARRAY)

/* (Each row ends in a comma: C99 and C++11 allow one after an enum's last
 * value.) */
#define BB_PARQUET_PHYSICAL_ENUM_ROW_(name, code, width, hex) BB_PARQUET_##name = code,
#define BB_PARQUET_LOGICAL_ENUM_ROW_(name, code) BB_PARQUET_LOGICAL_##name = code,
#define BB_PARQUET_CONVERTED_ENUM_ROW_(name, code) BB_PARQUET_CONVERTED_##name = code,

/* A column's physical type: BB_PARQUET_BOOLEAN = 0 .. BB_PARQUET_FIXED_LEN_BYTE_ARRAY = 7. */
typedef enum bb_parquet_physical_type {
  BB_PARQUET_PHYSICAL_TYPES(BB_PARQUET_PHYSICAL_ENUM_ROW_)
} bb_parquet_physical_type;

/* The LogicalType union member's field id, BB_PARQUET_LOGICAL_STRING = 1 ..
 * (so a member this header does not name yet, from a newer writer, is passed
 * through as its id). BB_PARQUET_LOGICAL_NONE: the schema element has no
 * LogicalType. */
typedef enum bb_parquet_logical_type {
  BB_PARQUET_LOGICAL_NONE = 0,
  BB_PARQUET_LOGICAL_TYPES(BB_PARQUET_LOGICAL_ENUM_ROW_)
} bb_parquet_logical_type;

/* ConvertedType, BB_PARQUET_CONVERTED_UTF8 = 0 .. BB_PARQUET_CONVERTED_INTERVAL
 * = 21; BB_PARQUET_CONVERTED_NONE (-1) when the schema element has none. */
typedef enum bb_parquet_converted_type {
  BB_PARQUET_CONVERTED_TYPES(BB_PARQUET_CONVERTED_ENUM_ROW_)
} bb_parquet_converted_type;
#define BB_PARQUET_CONVERTED_NONE (-1)

/* TimeUnit of TIME and TIMESTAMP (the TimeUnit union's field ids). */
enum {
  BB_PARQUET_UNIT_MILLIS = 1,
  BB_PARQUET_UNIT_MICROS = 2,
  BB_PARQUET_UNIT_NANOS = 3
};

#undef BB_PARQUET_PHYSICAL_ENUM_ROW_
#undef BB_PARQUET_LOGICAL_ENUM_ROW_
#undef BB_PARQUET_CONVERTED_ENUM_ROW_

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_PARQUET_TYPES_H_ */
