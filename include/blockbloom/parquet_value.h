/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: values as people write them, turned into the bytes Parquet
 * hashes. The one home of the value rules: `blockbloom parquet probe`, the
 * Python package and any engine that takes values from a user call these
 * instead of keeping their own table of encodings.
 *
 * A column's type is a bb_parquet_column (parquet_file.h): the physical type,
 * FLBA length and the logical / converted annotation, as
 * bb_parquet_file_column reports it for a file's column, or as
 * bb_parquet_type_parse makes it from a name such as "date" or
 * "decimal(9,2)".
 *
 *   bb_parquet_column t = {sizeof t};
 *   uint64_t h;
 *   char why[BB_PARQUET_VALUE_ERROR_MAX];
 *   if (bb_parquet_type_parse("date", 4, &t) == BB_OK &&
 *       bb_parquet_hash_text(&t, "2024-01-31", 10, 0, &h, why, sizeof why) == BB_OK)
 *     ... bb_find(&f, h) ...
 *
 * The text forms, the bytes each becomes and each type's range are the table
 * of docs/formats.md ("Values as text", with what each engine prints). No
 * form depends on the process locale (LC_NUMERIC): '.' is the decimal point
 * under every locale, ',' never. In short:
 * - integers (INT32 / INT64 and their INTEGER / INT_n / UINT_n annotations):
 *   [-]digits in the annotation's exact range; no spaces, no '+', no leading
 *   zeros ("0" itself, "-0" refused);
 * - FLOAT / DOUBLE: [+|-] then a decimal or hexadecimal (0x) floating-point
 *   number, "nan", "inf", "infinity" (case-insensitive), rounded once to the
 *   nearest value; "-0.0" distinct from "0.0"; FLOAT16
 *   (FIXED_LEN_BYTE_ARRAY(2)) the same, rounded once to the nearest half
 *   (ties to even) from the decimal text's exact value;
 * - one NaN: every spelling of NaN ("nan", "-nan", "NaN", "+nan") is the
 *   positive quiet NaN without payload, bytes 0x7fc00000 (FLOAT),
 *   0x7ff8000000000000 (DOUBLE), 0x7e00 (FLOAT16): what Python, numpy, Java
 *   and C name NaN. A writer that stored another NaN (x86 arithmetic makes
 *   0xfff8000000000000; payloads) hashed those bits: such a value is named
 *   by its stored bytes with BB_PARQUET_TEXT_HEX, never by text;
 * - DECIMAL(p,s) on INT32, INT64 (unscaled, little-endian),
 *   FIXED_LEN_BYTE_ARRAY (big-endian two's complement, the column's length)
 *   and BYTE_ARRAY (big-endian two's complement, the fewest bytes):
 *   [-]digits[.digits][(e|E)[+|-]digits], exactly: a digit beyond the scale
 *   must be 0 ("1.230" on scale 2 is 1.23, "1.235" an error), at most p - s
 *   integer digits; "NaN" / "Infinity" are range errors;
 * - DATE: YYYY-MM-DD (proleptic Gregorian, 0001-01-01 .. 9999-12-31);
 * - TIME(unit): HH:MM:SS[.fraction], fraction digits beyond 3 / 6 / 9 for
 *   MILLIS / MICROS / NANOS only if they are zeros (never a truncation); on
 *   a UTC-adjusted TIME optionally a zone as below (converted to UTC);
 * - TIMESTAMP(unit, utc), TIMESTAMP_MILLIS / _MICROS (UTC-adjusted) and
 *   INT96: YYYY-MM-DD[ T]HH:MM:SS[.fraction], then on a UTC-adjusted column
 *   optionally a zone: an optional space, then Z, UTC, GMT or an offset
 *   +HH, +HHMM, +HH:MM, +HH:MM:SS (or -), converted to UTC. A zone on a
 *   local column (INT96 included) and a zone name (Europe/Berlin, CET: its
 *   offset needs rules this library does not carry) are refused;
 *   "infinity" / "-infinity" and BC dates are range errors;
 * - UUID (FIXED_LEN_BYTE_ARRAY(16)): 8-4-4-4-12 hex digits or 32 hex digits,
 *   either case; the 8-4-4-4-12 form also in braces {...} or after urn:uuid:;
 * - INTERVAL (FIXED_LEN_BYTE_ARRAY(12)): three little-endian uint32 (months,
 *   days, milliseconds) from "M months D days N ms"; PostgreSQL's and
 *   DuckDB's "[n year[s]] [n mon[s] | n month[s]] [n day[s]]
 *   [HH:MM:SS[.fff]]" (a year is 12 months, hours may exceed 23); ISO 8601's
 *   "P[nY][nM][nW][nD][T[nH][nM][n[.fff]S]]" (a week is 7 days). A negative
 *   part is a range error;
 * - STRING / ENUM / JSON / BSON / BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY
 *   without annotation: the text's bytes as they are (exactly type_length of
 *   them for FIXED_LEN_BYTE_ARRAY), or with BB_PARQUET_TEXT_HEX hex digits.
 * BOOLEAN (no Bloom filter hash in Parquet), an annotation that does not fit
 * its physical type, and annotations this library cannot write as text
 * (VARIANT, GEOMETRY, GEOGRAPHY, an unknown one) are
 * BB_ERR_PARQUET_UNSUPPORTED (the stored form stays possible with
 * BB_PARQUET_TEXT_PHYSICAL). */
#ifndef BLOCKBLOOM_PARQUET_VALUE_H_
#define BLOCKBLOOM_PARQUET_VALUE_H_

#include "blockbloom/parquet_file.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of the text calls (or'ed). */
enum {
  /* Byte types (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96), FLOAT and DOUBLE:
   * the text is the value's stored bytes (its plain encoding) as hex digits
   * (an even number, either case; exactly 4 / 8 bytes for FLOAT / DOUBLE,
   * the way to name a NaN a writer stored with another sign or payload).
   * Any other type: BB_ERR_VALUE_SYNTAX. */
  BB_PARQUET_TEXT_HEX = 1,
  /* The text is the stored physical value, the annotation ignored: INT32 /
   * INT64 a decimal integer in the physical type's signed range (a DATE's
   * days, a DECIMAL's unscaled value, a TIMESTAMP's count of units), FLOAT /
   * DOUBLE a number, byte types their bytes (or hex). Only when asked for. */
  BB_PARQUET_TEXT_PHYSICAL = 2
};

/* Room that always suffices for the bytes of one value of a column with
 * this type_length, written as text_len bytes of text. (In C++ with C++'s
 * casts: the same value, and no -Wold-style-cast in a consumer's code.) */
#ifdef __cplusplus
#define BB_PARQUET_ENCODED_MAX(type_length, text_len) \
  (static_cast<size_t>(text_len) + \
   static_cast<size_t>((type_length) > 0 ? (type_length) : 0) + 32u)
#else
#define BB_PARQUET_ENCODED_MAX(type_length, text_len) \
  ((size_t)(text_len) + (size_t)((type_length) > 0 ? (type_length) : 0) + 32u)
#endif

/* Room that always suffices for an error phrase or a form description. */
#define BB_PARQUET_VALUE_ERROR_MAX 256u
#define BB_PARQUET_VALUE_FORM_MAX 256u

/* The bytes Parquet hashes (the value's plain encoding, as bb_parquet_hash_value
 * takes them) for one value of `type` written as text[0 .. len) (any bytes;
 * not NUL-terminated; text may be NULL when len is 0), by the rules above.
 * Writes *out_len bytes to out[0 .. capacity). Errors, with nothing written
 * to out / *out_len:
 *   a NULL type, out_len, or out with capacity > 0         BB_ERR_NULL_POINTER
 *   type->struct_size below sizeof(bb_parquet_column)       BB_ERR_BUFFER_TOO_SMALL
 *   the type cannot be probed (see above), a flag unknown   BB_ERR_PARQUET_UNSUPPORTED
 *   the text is not of the type's form                      BB_ERR_VALUE_SYNTAX
 *   of the form but outside the type's range                BB_ERR_VALUE_RANGE
 *   capacity too small (BB_PARQUET_ENCODED_MAX suffices)   BB_ERR_BUFFER_TOO_SMALL
 * On any error, if error is not NULL and error_capacity > 0, error receives a
 * NUL-terminated English phrase that says what is wrong and what form the
 * type wants, without the value or the column's name, so that a caller can
 * write "value '2024-13-01' of column dt (INT32 DATE) " before it: e.g. "is
 * not a date: month 13 (DATE wants YYYY-MM-DD, 0001-01-01 .. 9999-12-31)". */
BB_API int bb_parquet_encode_text(const bb_parquet_column* type, const char* text, size_t len,
                                  uint32_t flags, uint8_t* out, size_t capacity, size_t* out_len,
                                  char* error, size_t error_capacity);

/* bb_parquet_encode_text, then bb_parquet_hash_value: the Parquet Bloom
 * filter hash of the value. Errors as bb_parquet_encode_text's (never
 * BB_ERR_BUFFER_TOO_SMALL); *hash untouched on error. */
BB_API int bb_parquet_hash_text(const bb_parquet_column* type, const char* text, size_t len,
                                uint32_t flags, uint64_t* hash, char* error,
                                size_t error_capacity);

/* What text a value of `type` is written as, for messages and --help: e.g.
 * "YYYY-MM-DD (0001-01-01 .. 9999-12-31)", "an integer -128 .. 127",
 * "[-]digits[.digits], at most 7 integer and 2 fraction digits". NUL-terminated
 * into out (BB_PARQUET_VALUE_FORM_MAX suffices; less that cannot hold it is
 * BB_ERR_BUFFER_TOO_SMALL, nothing written). A type that cannot be probed:
 * BB_ERR_PARQUET_UNSUPPORTED, and out says why. */
BB_API int bb_parquet_value_form(const bb_parquet_column* type, uint32_t flags, char* out,
                                 size_t capacity);

/* A type by name (ASCII case-insensitive), written into *type (whose
 * struct_size the caller sets; every other member is overwritten):
 *   int8 int16 int32 int64 uint8 uint16 uint32 uint64   INT32/INT64 + INTEGER(bits, sign)
 *   float double                                         FLOAT, DOUBLE
 *   float16                                              FIXED_LEN_BYTE_ARRAY(2) FLOAT16
 *   string enum json bson                                BYTE_ARRAY + that annotation
 *   binary  (also byte_array)                            BYTE_ARRAY
 *   fixed(n) (also fixed_len_byte_array(n)), n >= 1      FIXED_LEN_BYTE_ARRAY(n)
 *   uuid                                                 FIXED_LEN_BYTE_ARRAY(16) UUID
 *   int96                                                INT96
 *   interval                                             FIXED_LEN_BYTE_ARRAY(12) INTERVAL
 *   date                                                 INT32 DATE
 *   time(ms|us|ns[,utc])                                 TIME: ms on INT32, else INT64
 *   timestamp(ms|us|ns[,utc])                            INT64 TIMESTAMP (utc: adjusted)
 *   decimal(p,s), 1 <= p, 0 <= s <= p                    INT32 if p <= 9, INT64 if p <= 18,
 *                                                        else FIXED_LEN_BYTE_ARRAY of the
 *                                                        fewest bytes holding p digits
 *   decimal(p,s,int32|int64|binary|fixed(n))             DECIMAL on that physical type
 *   boolean                                              BOOLEAN (then unsupported to hash)
 * Spaces are not allowed. Anything else: BB_ERR_UNKNOWN_TYPE_NAME (a decimal
 * whose precision does not fit the physical type named: the same). A NULL
 * type, or name with len > 0: BB_ERR_NULL_POINTER; struct_size below
 * sizeof(bb_parquet_column): BB_ERR_BUFFER_TOO_SMALL. */
BB_API int bb_parquet_type_parse(const char* name, size_t len, bb_parquet_column* type);

/* What kind of value a type's text is, for a binding that turns its own
 * objects into text (a date object into "YYYY-MM-DD", ...) and leaves the
 * rules to bb_parquet_encode_text. FLOAT, DOUBLE and FLOAT16 are
 * BB_PARQUET_KIND_FLOAT; INT96 is BB_PARQUET_KIND_TIMESTAMP (NANOS, local). */
typedef enum bb_parquet_kind {
  BB_PARQUET_KIND_INTEGER = 1,
  BB_PARQUET_KIND_FLOAT = 2,
  BB_PARQUET_KIND_DECIMAL = 3,
  BB_PARQUET_KIND_DATE = 4,
  BB_PARQUET_KIND_TIME = 5,
  BB_PARQUET_KIND_TIMESTAMP = 6,
  BB_PARQUET_KIND_UUID = 7,
  BB_PARQUET_KIND_INTERVAL = 8,
  BB_PARQUET_KIND_BYTES = 9
} bb_parquet_kind;

/* The kind of `type`'s values written as text (flags as for
 * bb_parquet_encode_text) and, for TIME / TIMESTAMP, the unit
 * (BB_PARQUET_UNIT_*; else 0); *utc 1 for a UTC-adjusted timestamp, else 0.
 * Any out-pointer may be NULL. A type that cannot be probed:
 * BB_ERR_PARQUET_UNSUPPORTED, nothing written. */
BB_API int bb_parquet_value_kind(const bb_parquet_column* type, uint32_t flags, int32_t* kind,
                                 int32_t* time_unit, int32_t* utc);

/* The bb_column_type (column.h) whose plain values are this type's stored
 * values, so that an engine's array of them can be hashed with
 * bb_parquet_hash_column / bb_insert_column: INT32 -> BB_TYPE_INT32 (also
 * for DATE, TIME(MILLIS), DECIMAL on INT32, unsigned annotations as their
 * bits), INT64 -> BB_TYPE_INT64, FLOAT, DOUBLE, INT96, FIXED_LEN_BYTE_ARRAY
 * (*width its length), BYTE_ARRAY -> BB_TYPE_BYTE_ARRAY; *width 0 except for
 * FIXED_LEN_BYTE_ARRAY and INT96 (12). BOOLEAN or an unknown physical type:
 * BB_ERR_PARQUET_UNSUPPORTED. */
BB_API int bb_parquet_stored_column_type(const bb_parquet_column* type, uint32_t* column_type,
                                         size_t* width);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_PARQUET_VALUE_H_ */
