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
 *   +HH, +HHMM, +HH:MM, +HH:MM:SS (or -), converted to UTC before the
 *   range check (the years 0001 .. 9999 are the UTC instant's:
 *   0001-01-01T00:30:00+01:00 is a range error). A zone on a
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

#include "blockbloom/column.h"
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
 *   (syntax first: a text with both faults, "2024-13-01 1x:00:00", is
 *   BB_ERR_VALUE_SYNTAX; the range is checked only for well-formed text)
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

/* ------------------------------------------------------------------------
 * Values of a source kind into a typed column.
 *
 * A binding holds values of its own kinds (a Python int, a numpy int32
 * array, datetime64[ns], an Arrow decimal128, a tz-aware timestamp, ...).
 * These calls turn a value of a given source kind into the bytes the column's
 * type stores, by one table (docs/formats.md, "Values into a typed filter"),
 * so that every entrance answers the same for the same value:
 * - convert, when the value has exactly one meaning in the type (an int64
 *   that fits an INT32 column, microseconds on a NANOS column, 1.0 on an
 *   integer column, an Arrow decimal on a DECIMAL column of any physical type);
 * - BB_VALUE_NOT_IN_TYPE, when no value of the type can equal it (out of the
 *   type's range, not integral on an integer column, finer than the column's
 *   unit, more fraction digits than the scale): a probe answers "absent", as
 *   SQL's = would, and an insert inserts nothing for it;
 * - an error naming the value's kind and what the type wants, when the value
 *   is ambiguous in the type (BB_ERR_VALUE_AMBIGUOUS) or of a kind the type
 *   cannot be compared with (BB_ERR_VALUE_KIND).
 * TEXT sources keep the text rules above exactly (a typo is an error, not
 * "absent").
 *
 * The table, source kind (rows) x the type's kind (columns):
 *   INT / UINT: integer columns if in the annotation's range (a UINT_32
 *     column holds 0 .. 2^32-1 as the INT32 of the same bits), else absent;
 *     FLOAT / DOUBLE / FLOAT16 the nearest value, as the text rule reads
 *     the digits (absent past the finite range);
 *     DECIMAL(p,s): unscaled v * 10^s, absent past the precision; DATE /
 *     TIME / TIMESTAMP / INT96: BB_ERR_VALUE_AMBIGUOUS (days? seconds?)
 *     unless BB_PARQUET_TEXT_PHYSICAL; byte types: BB_ERR_VALUE_KIND.
 *   FLOAT: integer columns if integral and in range (1.0 -> 1; NaN, inf
 *     absent); DOUBLE as is; FLOAT / FLOAT16 the value if exact, else the
 *     nearest to the double's shortest round-trip text (0.1 finds the
 *     float 0.1, as the text "0.1" does; absent past the finite range;
 *     NaN: the quiet NaN the text rule writes for "nan"); DECIMAL through the
 *     double's shortest round-trip decimal text (0.1 -> 0.1); others refused.
 *   DECIMAL: integer columns if integral and in range; FLOAT / DOUBLE /
 *     FLOAT16 the nearest value (absent past the type's finite range);
 *     DECIMAL(p,s) an exact rescale (absent if digits are lost or past the
 *     precision); others refused.
 *   DATE: DATE columns (date64 milliseconds: whole days, else absent); a
 *     local TIMESTAMP / INT96: midnight in its unit; a UTC-adjusted
 *     TIMESTAMP: BB_ERR_VALUE_AMBIGUOUS (midnight where?); others refused.
 *   TIMESTAMP, zone NAIVE: a local TIMESTAMP / INT96 in its unit exactly
 *     (a finer remainder or overflow: absent); a UTC-adjusted TIMESTAMP read
 *     as UTC (numpy's and the text rule's convention); DATE if exactly
 *     midnight, else absent; others refused.
 *   TIMESTAMP, zone UTC (tz-aware): a UTC-adjusted TIMESTAMP exactly; a
 *     local TIMESTAMP / INT96, a DATE: BB_ERR_VALUE_AMBIGUOUS (which wall
 *     clock?); others refused.
 *   TIME: TIME columns in their unit exactly (a finer remainder, outside
 *     0 .. 24h: absent); others refused.
 *   TEXT: bb_parquet_encode_text on every type (flags apply): on STRING,
 *     BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96 the bytes as they are
 *     (FIXED_LEN_BYTE_ARRAY: exactly its length, else BB_ERR_VALUE_SYNTAX),
 *     on UUID and INTERVAL their text forms.
 *   BYTES: byte types the bytes (FIXED_LEN_BYTE_ARRAY / INT96 of another
 *     length: absent); others BB_ERR_VALUE_KIND.
 *   BOOL: BB_ERR_VALUE_KIND everywhere (Parquet has no BOOLEAN hash).
 * "refused" is BB_ERR_VALUE_KIND. INT96 takes TIMESTAMP and DATE sources as
 * a local NANOS timestamp. A type that cannot be hashed (BOOLEAN, an
 * annotation that does not fit its physical type, ...) is
 * BB_ERR_PARQUET_UNSUPPORTED, as for text.
 * ------------------------------------------------------------------------ */

/* The kind of a value as the caller's language holds it. Values are stable. */
typedef enum bb_value_kind {
  BB_VALUE_INT = 1,       /* a signed integer (int64_t; a column: INT8..INT64 bb_column) */
  BB_VALUE_UINT = 2,      /* an unsigned integer (uint64_t; a column: UINT8..UINT64) */
  BB_VALUE_FLOAT = 3,     /* a binary floating-point number (double; a column: FLOAT / DOUBLE) */
  BB_VALUE_DECIMAL = 4,   /* an exact decimal: scalar = text "[-]digits[.digits][e[+-]digits]";
                             column = unscaled integers (INT32 / INT64 columns, or
                             FIXED_LEN_BYTE_ARRAY width 16 / 32: little-endian two's complement,
                             Arrow's decimal128 / decimal256) with src->scale */
  BB_VALUE_DATE = 5,      /* days since 1970-01-01 (int64_t scalar; INT32 / DATE32 column);
                             unit BB_PARQUET_UNIT_MILLIS: Arrow date64 milliseconds */
  BB_VALUE_TIMESTAMP = 6, /* a count of `unit` since 1970-01-01T00:00:00; zone says what clock */
  BB_VALUE_TIME = 7,      /* a count of `unit` since midnight */
  BB_VALUE_TEXT = 8,      /* text: the text rules of bb_parquet_encode_text (flags apply), which
                             on STRING / BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY take the bytes as
                             they are (UTF-8) */
  BB_VALUE_BYTES = 9,     /* raw bytes (Python bytes): byte types only */
  BB_VALUE_BOOL = 10      /* a boolean: refused on every type (Parquet has no BOOLEAN hash) */
} bb_value_kind;

/* Units of TIMESTAMP / TIME / DATE sources: the Parquet units
 * (BB_PARQUET_UNIT_MILLIS 1, _MICROS 2, _NANOS 3 of parquet_file.h) plus
 * seconds and days. */
enum {
  BB_VALUE_UNIT_SECONDS = 4,
  BB_VALUE_UNIT_DAYS = 5
};

/* TIMESTAMP / TIME sources: what clock the count is on. */
enum {
  BB_VALUE_ZONE_NAIVE = 0, /* a wall-clock reading with no zone (numpy datetime64, a naive
                              datetime, an Arrow timestamp without tz) */
  BB_VALUE_ZONE_UTC = 1    /* an instant: the count is UTC (a tz-aware value, converted to UTC) */
};

/* What the caller's values are. Fields a kind does not use must be 0. */
typedef struct bb_value_source {
  uint32_t struct_size; /* sizeof(bb_value_source) */
  uint32_t kind;        /* bb_value_kind */
  int32_t bits;         /* INT / UINT / FLOAT: the source's width in bits (8, 16, 32, 64; FLOAT
                           16, 32, 64), 0 = unsized (a Python int or float); used only to pick
                           the type an untyped filter takes (bb_parquet_type_of_source), never
                           to convert */
  int32_t unit;         /* TIMESTAMP / TIME: BB_PARQUET_UNIT_* or BB_VALUE_UNIT_SECONDS;
                           DATE: BB_VALUE_UNIT_DAYS (0 means days) or BB_PARQUET_UNIT_MILLIS */
  int32_t zone;         /* TIMESTAMP / TIME: BB_VALUE_ZONE_* */
  int32_t scale;        /* DECIMAL columns: the unscaled integers' scale (0 .. 76);
                           DECIMAL scalar text: 0 */
  int32_t precision;    /* DECIMAL columns: the source's precision (0: unknown) */
} bb_value_source;

/* Returned (>= 0) by the conversion calls besides BB_OK: the value has no
 * representation in the type at all (out of the type's range, not integral
 * for an integer column, finer than the column's unit, more fraction digits
 * than the scale, a FLOAT column and a double that is not a float, ...): no
 * row of the column can equal it, so a probe answers "absent" (as SQL's =
 * would), and an insert inserts nothing for it. Not an error. */
#define BB_VALUE_NOT_IN_TYPE 1

/* One value -> the bytes its type stores (the plain encoding Parquet
 * hashes), by the table above. value points to an int64_t (INT, DATE,
 * TIMESTAMP, TIME), uint64_t (UINT), double (FLOAT), int (BOOL), or to len
 * bytes of text / bytes (TEXT, BYTES, DECIMAL); len is ignored for the
 * fixed-size kinds. flags: BB_PARQUET_TEXT_HEX / _PHYSICAL as for
 * bb_parquet_encode_text (PHYSICAL: the value is the stored physical value;
 * INT / UINT, and the counts of DATE / TIME / TIMESTAMP sources as they are,
 * then go into any INT32 / INT64 column by the physical type's signed range;
 * HEX applies to TEXT only).
 * Returns BB_OK (bytes in out[0 .. *out_len)), BB_VALUE_NOT_IN_TYPE (nothing
 * written) or an error, nothing written:
 *   a NULL type, src, out_len, value (len > 0 or a fixed-size kind),
 *   or out with capacity > 0                                 BB_ERR_NULL_POINTER
 *   type->struct_size or src->struct_size too small, or
 *   capacity too small (BB_PARQUET_ENCODED_MAX(type_length,
 *   len) suffices)                                           BB_ERR_BUFFER_TOO_SMALL
 *   the type cannot be hashed, a flag unknown                BB_ERR_PARQUET_UNSUPPORTED
 *   the value is ambiguous in the type                       BB_ERR_VALUE_AMBIGUOUS
 *   the kind cannot be compared with the type, or src is not
 *   a valid source (unknown kind or unit)                     BB_ERR_VALUE_KIND
 *   TEXT (and DECIMAL scalar text) not of the form            BB_ERR_VALUE_SYNTAX
 *   TEXT of the form but out of range                         BB_ERR_VALUE_RANGE
 * error (may be NULL) receives a NUL-terminated phrase naming the value's
 * kind, the value and what the type wants, e.g. "a tz-aware (UTC) timestamp
 * (1700000000000000), but the column is INT64 TIMESTAMP(MICROS,false) not
 * adjusted to UTC (a local wall-clock reading): convert it to the wall clock
 * you mean and drop the zone, or use a UTC-adjusted column"; for TEXT the
 * text rule's phrase after "text ('...')". */
BB_API int bb_parquet_encode_value(const bb_parquet_column* type, const bb_value_source* src,
                                   const void* value, size_t len, uint32_t flags, uint8_t* out,
                                   size_t capacity, size_t* out_len, char* error,
                                   size_t error_capacity);

/* The same, then the Parquet hash (XXH64 seed 0). Returns BB_OK,
 * BB_VALUE_NOT_IN_TYPE or an error; *hash untouched unless BB_OK. */
BB_API int bb_parquet_hash_typed_value(const bb_parquet_column* type, const bb_value_source* src,
                                       const void* value, size_t len, uint32_t flags,
                                       uint64_t* hash, char* error, size_t error_capacity);

/* A whole column of source values converted into `type` and hashed. col is a
 * bb_column (column.h) whose element type holds the source: INT8..INT64 /
 * UINT8..UINT64 for INT / UINT / DATE / TIMESTAMP / TIME (DATE32, DATE64,
 * TIME32, TIME64, TIMESTAMP as their integers), FLOAT / DOUBLE for FLOAT,
 * INT32 / INT64 / FIXED_LEN_BYTE_ARRAY(16 | 32) for DECIMAL,
 * BYTE_ARRAY / LARGE_BYTE_ARRAY for TEXT / BYTES, with its validity.
 * hashes[i] for every row i (room for col->length; rows that are null or not
 * in the type get an unspecified hash); bit i of in_type (LSB first,
 * (length + 7) / 8 bytes, the unused high bits 0; may be NULL) is 1 iff row i
 * is valid and its value is in the type. The caller inserts the hashes of the
 * 1 rows, or ANDs a probe bitmap with in_type. *num_in_type (may be NULL) is
 * the number of 1 bits. The ambiguity / kind decision is made for the column
 * before anything is written; a TEXT row's syntax or range error returns that
 * error with the row index in `error` (hashes and in_type then unspecified).
 * Errors as bb_parquet_encode_value's plus bb_parquet_hash_column's checks of
 * col (BB_ERR_INVALID_COLUMN, ...), and BB_ERR_VALUE_KIND for an element type
 * that cannot hold the source kind. hashes must not overlap col's buffers.
 * Speed: an identity conversion (int64 into INT64, int32 into INT32, double
 * into DOUBLE, microseconds into TIMESTAMP(MICROS)) hashes through the
 * library's SIMD column hashers at bb_parquet_hash_column's speed; a unit
 * change is one multiply with an overflow check per row, 1024 rows at a
 * time, then the same hashers. */
BB_API int bb_parquet_hash_typed_column(const bb_parquet_column* type, const bb_value_source* src,
                                        const bb_column* col, uint32_t flags, uint64_t* hashes,
                                        uint8_t* in_type, size_t* num_in_type, char* error,
                                        size_t error_capacity);

/* The type an untyped filter takes from the first values inserted into it:
 * what Arrow's Parquet writer makes of such values. INT bits 8 / 16 / 32 ->
 * INT32 INTEGER(bits, signed), 64 or 0 -> INT64 INTEGER(64, signed); UINT
 * likewise unsigned; FLOAT 32 -> FLOAT, 64 / 0 -> DOUBLE, 16 -> FLOAT16;
 * DATE -> INT32 DATE; TIMESTAMP -> INT64 TIMESTAMP in its unit (seconds ->
 * MILLIS: Parquet has no seconds), zone UTC -> adjusted to UTC; TIME seconds
 * and ms -> TIME(MILLIS) on INT32, us / ns -> INT64; TEXT -> BYTE_ARRAY
 * STRING; BYTES -> BYTE_ARRAY; a DECIMAL column with a precision ->
 * DECIMAL(precision, scale) on FIXED_LEN_BYTE_ARRAY of the fewest bytes that
 * hold the precision (1 .. 38 digits: 1 .. 16 bytes), as Arrow and pyarrow
 * (store_decimal_as_integer false, the default) write decimal128 / 256.
 * Spark and DuckDB store precision <= 9 / <= 18 as INT32 / INT64: a filter
 * loaded from a file has the file's type, whatever this gives.
 * A DECIMAL scalar (precision 0) and BOOL: BB_ERR_VALUE_KIND ("give the
 * filter a type"). Writes *type (whose struct_size the caller sets; path
 * NULL, every other member overwritten). NULL: BB_ERR_NULL_POINTER; a
 * struct_size too small: BB_ERR_BUFFER_TOO_SMALL. */
BB_API int bb_parquet_type_of_source(const bb_value_source* src, bb_parquet_column* type);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_PARQUET_VALUE_H_ */
