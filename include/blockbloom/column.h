/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: typed columns with nulls. One descriptor, bb_column, says what
 * an Arrow-style engine holds (the type, the value buffers, an optional
 * validity bitmap); five calls hash such a column or insert / probe it into a
 * filter of either layout, hashing 1024 rows at a time on the library's stack.
 *
 * What is hashed, per type and layout, is the table of docs/formats.md
 * ("Typed columns"):
 * - Parquet (BB_LAYOUT_PARQUET): XXH64, seed 0, of the plain encoding of the
 *   physical type the value is stored as, after the widening a Parquet writer
 *   does (INT8/INT16 sign-extended and UINT8/UINT16 zero-extended to INT32;
 *   UINT32/UINT64 as the INT32/INT64 of the same bits; DATE64 milliseconds as
 *   INT32 days, truncated toward zero as Arrow's writer does).
 * - Kudu (BB_LAYOUT_KUDU): FastHash32, with the filter's hash_seed, of the
 *   bytes of the Kudu cell the value is compared with: INT8 is 1 byte, INT16
 *   2, INT32/DATE32/FLOAT 4, INT64/TIMESTAMP/DOUBLE 8, a byte array its bytes
 *   (an empty one by Kudu's empty rule). Kudu has no unsigned, INT96 or
 *   time-of-day type: those are BB_ERR_TYPE_NOT_IN_LAYOUT.
 *
 * Nulls: a row whose validity bit is 0 is never hashed into a filter; it is
 * left out of inserts (a column of only nulls leaves the filter as it was,
 * and a Kudu filter always-false) and answers "no match" on probes (its
 * bitmap bit is 0; it is not in the selection). No unit conversion is done
 * except DATE64 -> days: time and timestamp values are hashed as the integers
 * they are, so present them in the unit the file stores (Arrow's Parquet
 * writer stores time32[s] as milliseconds and may coerce timestamp units). */
#ifndef BLOCKBLOOM_COLUMN_H_
#define BLOCKBLOOM_COLUMN_H_

#include "blockbloom/blockbloom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the values are, as an Arrow-style engine holds them. Values are stable
 * (bindings may hard-code them); 0 is no type, so a BB_COLUMN_INIT whose type
 * was not set is refused with BB_ERR_UNKNOWN_COLUMN_TYPE. */
typedef enum bb_column_type {
  BB_TYPE_INT8 = 1,      /* int8_t: Parquet INT32 (sign-extended); Kudu INT8, 1 byte */
  BB_TYPE_INT16 = 2,     /* int16_t: Parquet INT32 (sign-extended); Kudu INT16, 2 bytes */
  BB_TYPE_INT32 = 3,     /* int32_t: Parquet INT32; Kudu INT32 (and DECIMAL32) */
  BB_TYPE_INT64 = 4,     /* int64_t: Parquet INT64; Kudu INT64 (and DECIMAL64) */
  BB_TYPE_UINT8 = 5,     /* uint8_t: Parquet INT32 (zero-extended); Kudu: refused */
  BB_TYPE_UINT16 = 6,    /* uint16_t: Parquet INT32 (zero-extended); Kudu: refused */
  BB_TYPE_UINT32 = 7,    /* uint32_t: Parquet INT32 of the same bits; Kudu: refused */
  BB_TYPE_UINT64 = 8,    /* uint64_t: Parquet INT64 of the same bits; Kudu: refused */
  BB_TYPE_FLOAT = 9,     /* float: its 4 bytes (NaN payloads and -0.0 are distinct keys) */
  BB_TYPE_DOUBLE = 10,   /* double: its 8 bytes */
  BB_TYPE_DATE32 = 11,   /* int32_t days: Parquet INT32 (DATE); Kudu DATE */
  BB_TYPE_DATE64 = 12,   /* int64_t milliseconds: hashed as the int32 days v / 86400000 */
  BB_TYPE_TIME32 = 13,   /* int32_t (s or ms, as held): Parquet INT32; Kudu: refused */
  BB_TYPE_TIME64 = 14,   /* int64_t (us or ns, as held): Parquet INT64; Kudu: refused */
  BB_TYPE_TIMESTAMP = 15, /* int64_t (any unit, as held): Parquet INT64; Kudu UNIXTIME_MICROS */
  BB_TYPE_INT96 = 16,    /* 12 bytes each, as stored: Parquet INT96; Kudu: refused */
  BB_TYPE_FIXED_LEN_BYTE_ARRAY = 17, /* `width` bytes each: Parquet FLBA; Kudu the w bytes
                                        (BINARY, or DECIMAL128 as its 16 little-endian bytes) */
  BB_TYPE_BYTE_ARRAY = 18,      /* Arrow binary/string: int32 offsets; Parquet BYTE_ARRAY */
  BB_TYPE_LARGE_BYTE_ARRAY = 19 /* Arrow large_binary/large_string: int64 offsets */
} bb_column_type;

/* A column of `length` rows. Fill it with BB_COLUMN_INIT and set the fields
 * the type uses; every other field must stay 0 / NULL (BB_ERR_INVALID_COLUMN).
 *
 * struct_size is the caller's sizeof(bb_column): a later version of this
 * library may add fields at the end, and will still accept the sizes of
 * earlier versions (giving the new fields their zero meaning); a size this
 * library does not know is BB_ERR_INVALID_COLUMN. */
typedef struct bb_column {
  uint32_t struct_size; /* sizeof(bb_column) */
  uint32_t type;        /* bb_column_type */
  size_t length;        /* number of rows */
  /* FIXED_LEN_BYTE_ARRAY: bytes per value, >= 1. INT96: 0 or 12. Other
   * fixed-width types: 0 or the type's own width (1, 2, 4 or 8). Byte arrays: 0. */
  size_t width;
  /* Fixed-width types: the `length` values, `width` (or the type's) bytes
   * each, native byte order, any alignment. Byte arrays: NULL. */
  const void* values;
  /* Byte arrays: length + 1 offsets (int32 for BYTE_ARRAY, int64 for
   * LARGE_BYTE_ARRAY, any alignment); value i is data[offsets[i] ..
   * offsets[i + 1]). Every offset, those of null rows included, must be
   * >= 0, non-decreasing and <= data_len (BB_ERR_INVALID_OFFSETS), as Arrow
   * requires; offsets[0] need not be 0 (a slice). NULL allowed if length == 0. */
  const void* offsets;
  const void* data;     /* byte arrays: NULL only if data_len == 0 */
  size_t data_len;      /* byte arrays: bytes readable at data */
  /* NULL: every row is valid. Else row i is valid iff bit (validity_offset + i)
   * is 1: bit k is (validity[k / 8] >> (k % 8)) & 1, Arrow's layout, so a
   * sliced Arrow array passes its own bitmap and offset. Only the bytes
   * holding bits validity_offset .. validity_offset + length - 1 are read. */
  const uint8_t* validity;
  size_t validity_offset; /* any value (ignored when validity is NULL) */
} bb_column;

/* Every field zero but struct_size: `bb_column c = BB_COLUMN_INIT;`. */
#define BB_COLUMN_INIT {sizeof(bb_column), 0, 0, 0, NULL, NULL, NULL, 0, NULL, 0}

/* Checks, in this order, before anything is read past the descriptor or
 * written (out-parameters and outputs stay untouched on error):
 *   a NULL col or filter (or a filter without a bitset)      -> BB_ERR_NULL_POINTER
 *   struct_size not one this library knows                   -> BB_ERR_INVALID_COLUMN
 *   type not a bb_column_type                                -> BB_ERR_UNKNOWN_COLUMN_TYPE
 *   width wrong for the type                                 -> BB_ERR_INVALID_COLUMN_WIDTH
 *   a field the type does not use set, or length too large for
 *     its buffers (length * width, length + 1 offsets, or
 *     validity_offset + length beyond SIZE_MAX - 7)           -> BB_ERR_INVALID_COLUMN
 *   with length > 0: values / offsets / data (data_len > 0)
 *     or the output NULL                                     -> BB_ERR_NULL_POINTER
 *   insert into a read-only view                             -> BB_ERR_READ_ONLY
 *   a selection of length >= 2^32                            -> BB_ERR_BATCH_TOO_LARGE
 *   a filter of no known layout                              -> BB_ERR_LAYOUT_MISMATCH
 *   a type the layout has no meaning for                     -> BB_ERR_TYPE_NOT_IN_LAYOUT
 *   offsets negative, decreasing or past data_len            -> BB_ERR_INVALID_OFFSETS
 * (with length == 0, offsets may be NULL; if given, offsets[0] is checked). */

/* The Parquet hashes of the column's valid rows, in row order, compacted:
 * hashes[0 .. *num_hashes) (num_hashes may be NULL), ready for
 * bb_insert_batch / bb_insert_batch_partition. hashes has room for `length`.
 * For a hash per row, leave validity NULL: null slots are then hashed as
 * whatever their bytes are. hashes may be the values array itself (the same
 * address) when a value is at least 8 bytes wide (INT64, UINT64, DOUBLE,
 * DATE64, TIME64, TIMESTAMP, INT96, FIXED_LEN_BYTE_ARRAY of width >= 8): each
 * hash is written after its value was read. Any other overlap is undefined. */
BB_API int bb_parquet_hash_column(const bb_column* col, uint64_t* hashes, size_t* num_hashes);

/* The same with Kudu's hash (FastHash32 with `seed`), for bb_kudu_insert_batch.
 * In place (hashes == values) for values at least 4 bytes wide. */
BB_API int bb_kudu_hash_column(const bb_column* col, uint32_t seed, uint32_t* hashes,
                               size_t* num_hashes);

/* Hashes the valid rows with the filter's layout (Kudu: its hash_seed) and
 * inserts them. Nulls are left out. */
BB_API int bb_insert_column(bb_filter* f, const bb_column* col);

/* Probes every row: bit i of bitmap (LSB first) is 1 iff row i is valid and
 * may be in the filter. Writes exactly (length + 7) / 8 bytes, the unused high
 * bits of the last one as 0; *hits (may be NULL) is the number of 1 bits.
 * bitmap may be the column's own validity bits (bitmap == validity +
 * validity_offset / 8 with validity_offset % 8 == 0): the result then
 * replaces them in place. Any other overlap with the inputs is undefined. */
BB_API int bb_find_column_bitmap(const bb_filter* f, const bb_column* col, uint8_t* bitmap,
                                 size_t* hits);

/* Probes every row: writes the indices (ascending, 0 = the column's first
 * row) of the valid rows that may be in the filter to selection[0 .. *hits).
 * selection has room for `length` entries (entries past *hits are
 * unspecified); length must be below 2^32. */
BB_API int bb_find_column_select(const bb_filter* f, const bb_column* col, uint32_t* selection,
                                 size_t* hits);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_COLUMN_H_ */
