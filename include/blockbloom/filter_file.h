/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: a filter file that says what it holds.
 *
 * A raw bitset records neither its size, its layout, a Kudu seed nor what
 * its values are, so a reader that guesses any of them wrong answers
 * "absent" for values that are there, with no error. A filter file carries
 * all of it, and every field is checked when it is read:
 *
 *   magic, version, layout, the Kudu always-false flag, the hash seed, the
 *   value type (a Parquet physical type with its logical / converted
 *   annotation, as a bb_parquet_column without the path, or explicitly
 *   "raw hashes"), the sizing it was built for (ndv, fpp, bb_sizing kind)
 *   when known, the bitset's size, the bitset, and an XXH64 of all of it.
 *
 * The format, byte by byte, is docs/formats.md ("Filter files"). Every
 * integer is little-endian; the header is BB_FILTER_FILE_HEADER_BYTES (96)
 * bytes, so the bitset starts 32-byte aligned relative to the file's start;
 * the checksum follows the bitset. A file is exactly
 * BB_FILTER_FILE_HEADER_BYTES + num_bytes + BB_FILTER_FILE_TRAILER_BYTES
 * bytes long.
 *
 *   // write
 *   bb_parquet_column t = {sizeof t};
 *   bb_parquet_type_parse("date", 4, &t);            // parquet_value.h
 *   size_t n, written;
 *   bb_filter_file_size(&f, &n);
 *   uint8_t* buf = malloc(n);
 *   bb_filter_file_write(&f, &t, NULL, buf, n, &written);
 *   // read
 *   bb_filter g;
 *   bb_parquet_column type = {sizeof type};
 *   int32_t values;
 *   if (bb_filter_file_read(buf, n, &g, &values, &type, NULL) == BB_OK) {
 *     // values == BB_FILTER_VALUES_TYPED, type is INT32 DATE: hash with
 *     // bb_parquet_hash_text(&type, "2024-01-31", 10, 0, &h, ...), probe g
 *     bb_filter_release(&g);
 *   }
 */
#ifndef BLOCKBLOOM_FILTER_FILE_H_
#define BLOCKBLOOM_FILTER_FILE_H_

#include "blockbloom/blockbloom.h"
#include "blockbloom/parquet_file.h"
#include "blockbloom/sizing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The first 8 bytes of every filter file: "BBFILTER". */
#define BB_FILTER_FILE_MAGIC "BBFILTER"
#define BB_FILTER_FILE_MAGIC_BYTES 8u
/* The version this library writes, and the only one it reads. */
#define BB_FILTER_FILE_VERSION 1u
/* Bytes before the bitset, and after it (the XXH64 checksum). */
#define BB_FILTER_FILE_HEADER_BYTES 96u
#define BB_FILTER_FILE_TRAILER_BYTES 8u

/* What a filter's values are. */
typedef enum bb_filter_values {
  /* The filter's inputs were 64-bit hashes (Kudu: 32-bit) the caller made;
   * the file says nothing about how. */
  BB_FILTER_VALUES_RAW_HASHES = 0,
  /* Values of the file's type, hashed by the layout's rule: Parquet, XXH64
   * of the plain encoding (bb_parquet_hash_text, bb_parquet_hash_value);
   * Kudu, FastHash32 with the seed of the cell of bb_layout_column_type. */
  BB_FILTER_VALUES_TYPED = 1
} bb_filter_values;

/* The size a filter was built for, when known: bb_bytes_for(ndv, fpp, kind)
 * was asked for a size. Extensible: the caller sets struct_size to the
 * sizeof it was compiled with. */
#define BB_FILTER_SIZING_UNKNOWN (-1)
typedef struct bb_filter_file_sizing {
  size_t struct_size; /* in: sizeof(bb_filter_file_sizing) */
  int32_t kind;       /* bb_sizing, or BB_FILTER_SIZING_UNKNOWN (then ndv and fpp are 0) */
  int32_t reserved;   /* 0 */
  uint64_t ndv;       /* the number of distinct values the filter was sized for */
  double fpp;         /* the false-positive probability it was sized for, in (0, 1) */
} bb_filter_file_sizing;

/* The bb_column_type (column.h) whose rows a filter of `layout` hashes a
 * value of `type` as, and its width (FIXED_LEN_BYTE_ARRAY, INT96; else 0):
 * - BB_LAYOUT_PARQUET: bb_parquet_stored_column_type's (the stored value);
 * - BB_LAYOUT_KUDU: the Kudu cell the value is compared with: INTEGER(8/16/
 *   32/64, signed) and plain INT32 / INT64 -> BB_TYPE_INT8 .. BB_TYPE_INT64
 *   (1, 2, 4, 8 bytes), DATE -> BB_TYPE_DATE32, TIMESTAMP(MICROS) ->
 *   BB_TYPE_TIMESTAMP (UNIXTIME_MICROS), DECIMAL on INT32 / INT64 -> INT32 /
 *   INT64 (DECIMAL32 / 64: the unscaled value), FLOAT, DOUBLE, and
 *   BYTE_ARRAY (plain or STRING, ENUM, JSON, BSON) -> BB_TYPE_BYTE_ARRAY.
 *   Anything else (unsigned, INT96, TIME, other TIMESTAMP units, UUID,
 *   FLOAT16, INTERVAL, FIXED_LEN_BYTE_ARRAY, DECIMAL on bytes) has no Kudu
 *   cell: BB_ERR_TYPE_NOT_IN_LAYOUT.
 * A type whose annotation does not fit its physical type, or that cannot be
 * hashed at all (BOOLEAN, see parquet_value.h): BB_ERR_PARQUET_UNSUPPORTED;
 * a layout not a bb_layout: BB_ERR_LAYOUT_MISMATCH; struct_size below
 * sizeof(bb_parquet_column): BB_ERR_BUFFER_TOO_SMALL. Nothing written on
 * error; width may be NULL. */
BB_API int bb_layout_column_type(uint32_t layout, const bb_parquet_column* type,
                                 uint32_t* column_type, size_t* width);

/* The size of f's filter file: BB_FILTER_FILE_HEADER_BYTES + f->num_bytes +
 * BB_FILTER_FILE_TRAILER_BYTES. */
BB_API int bb_filter_file_size(const bb_filter* f, size_t* bytes);

/* Writes f's filter file to out[0 .. capacity) and its length to *written.
 * type: NULL for raw hashes (BB_FILTER_VALUES_RAW_HASHES), else the values'
 * type (its struct_size set; path and path_len are ignored), which must be
 * one bb_layout_column_type accepts for f's layout (its codes). sizing:
 * NULL or kind BB_FILTER_SIZING_UNKNOWN when not known; else kind a
 * bb_sizing and fpp in (0, 1) (BB_ERR_INVALID_SIZING, BB_ERR_INVALID_FPP).
 * A capacity below bb_filter_file_size is BB_ERR_BUFFER_TOO_SMALL. On any
 * error nothing is written to out or *written. Whatever this writes,
 * bb_filter_file_read accepts. */
BB_API int bb_filter_file_write(const bb_filter* f, const bb_parquet_column* type,
                                const bb_filter_file_sizing* sizing, uint8_t* out,
                                size_t capacity, size_t* written);

/* Reads the filter file data[0 .. len) into *f, a new owned filter (its
 * layout, size, seed, always-false state and bits as written), and its
 * value kind into *values (bb_filter_values). type: when the values are
 * typed, their type (physical_type .. precision; path NULL, path_len 0);
 * for raw hashes every member but struct_size is 0, converted_type
 * BB_PARQUET_CONVERTED_NONE. sizing: kind, ndv, fpp as written
 * (BB_FILTER_SIZING_UNKNOWN, 0, 0 when not known). type and sizing may be
 * NULL; their struct_size is the caller's (below the C struct's:
 * BB_ERR_BUFFER_TOO_SMALL).
 *
 * Every field is checked, in this order, before anything is allocated, and
 * a file that is not exactly what its header says is refused:
 *   data NULL (with len > 0), f or values NULL          BB_ERR_NULL_POINTER
 *   8 bytes or more, the first 8 not BB_FILTER_FILE_MAGIC BB_ERR_FILTER_FILE_MAGIC
 *   shorter than header + checksum (104 bytes)          BB_ERR_FILTER_FILE_TRUNCATED
 *   a version other than BB_FILTER_FILE_VERSION         BB_ERR_FILTER_FILE_VERSION
 *   a layout not a bb_layout, an unknown flag, the
 *     always-false flag on a Parquet filter, or on a
 *     Kudu filter whose bits are not all 0               BB_ERR_FILTER_FILE_LAYOUT
 *   a Parquet filter with a nonzero seed                BB_ERR_FILTER_FILE_SEED
 *   an unknown value kind; a type that does not fit
 *     (bb_layout_column_type refuses it, a
 *     type_length on a type other than
 *     FIXED_LEN_BYTE_ARRAY); raw hashes with a type
 *     member set                                        BB_ERR_FILTER_FILE_TYPE
 *   a sizing kind not a bb_sizing nor unknown, an fpp
 *     not in (0, 1), an unknown sizing with ndv / fpp   BB_ERR_FILTER_FILE_SIZING
 *   a bitset size not valid for the layout (0, not a
 *     multiple of 32, too large; Kudu: not a power of
 *     two in 64 B .. 2^35 B), or the file's length not
 *     header + size + checksum                          BB_ERR_FILTER_FILE_SIZE
 *   the XXH64 of bytes 0 .. header + size is not the
 *     checksum                                          BB_ERR_FILTER_FILE_CHECKSUM
 *   the bitset cannot be allocated                      BB_ERR_OUT_OF_MEMORY
 * On any error *f is left zeroed (safe to release) and *values, *type and
 * *sizing are untouched. *f is overwritten unread, as by bb_filter_init: if
 * it owns a bitset, release it first or it leaks. */
BB_API int bb_filter_file_read(const uint8_t* data, size_t len, bb_filter* f, int32_t* values,
                               bb_parquet_column* type, bb_filter_file_sizing* sizing);

/* As bb_filter_file_read, with the bitset from allocator (bb_allocator;
 * NULL: the default). */
BB_API int bb_filter_file_read_with_allocator(const uint8_t* data, size_t len, bb_filter* f,
                                              int32_t* values, bb_parquet_column* type,
                                              bb_filter_file_sizing* sizing,
                                              const bb_allocator* allocator);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_FILTER_FILE_H_ */
