/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: a Parquet file's Bloom filters, found through its footer.
 *
 * A bb_parquet_file is an opaque, read-only handle on one file's FileMetaData
 * (the Thrift compact footer): its columns (schema leaves: dotted path,
 * physical and logical type) and, for each row group, each column chunk's
 * Bloom filter (ColumnMetaData bloom_filter_offset / bloom_filter_length) with
 * a status of its own, so that one corrupt filter does not hide the others.
 * Filters are then loaded into an owned, aligned bb_filter (a copy) or, when
 * the whole file is in memory, viewed in place; values are hashed as Parquet
 * does (bb_parquet_hash_value) and probed with bb_find.
 *
 *   bb_parquet_file* pf;
 *   char why[256];
 *   if (bb_parquet_file_open_path(&pf, "f.parquet", why, sizeof why) != BB_OK) ...
 *   size_t c;   // "might row group 2 hold 42 in column c?"
 *   bb_parquet_column col = {sizeof col};
 *   bb_filter f;
 *   uint64_t h;
 *   int32_t v = 42;
 *   if (bb_parquet_file_find_column(pf, "c", 1, &c) == BB_OK &&
 *       bb_parquet_file_column(pf, c, &col) == BB_OK &&
 *       bb_parquet_hash_value(col.physical_type, col.type_length, &v, 4, &h) == BB_OK &&
 *       bb_parquet_file_load_filter(pf, 2, c, &f) == BB_OK) {
 *     int maybe = bb_find(&f, h);
 *     bb_filter_release(&f);
 *   }
 *   bb_parquet_file_close(pf);
 *
 * Three ways to open, by what the caller has:
 * - a path: the file's last 64 KiB (all of it, when smaller) are read at
 *   open with one pread and kept with the handle, so that the footer, filter
 *   headers and filters of a small file cost one read; what lies before them
 *   is read (pread) when needed, so the file may be of any size (beyond 4 GiB
 *   too) and is never mapped (a file truncated meanwhile gives an error when a
 *   byte outside those 64 KiB is read, never SIGBUS).
 *   Only regular files are opened (a FIFO or device is refused at once,
 *   never waited on). The descriptor stays open until bb_parquet_file_close.
 * - the whole file in memory (read or mmapped by the caller): borrowed, not
 *   copied; it must outlive the handle and every view made from it.
 * - the FileMetaData bytes alone (what an engine that read the footer itself
 *   holds; without the 8-byte length + "PAR1" tail): copied. Such a handle
 *   describes the columns and where the filters are, but cannot read them.
 *
 * Each open checks the whole footer and, when it can read the file's bytes
 * (path, memory), every filter's BloomFilterHeader (each distinct offset
 * once, however many chunks point at it). Errors of the file as a
 * whole fail the open (BB_ERR_PARQUET_NOT_PARQUET, _FOOTER_MALFORMED,
 * _IO, _LIMIT); errors of one filter are that filter's status (bb_parquet_chunk).
 *
 * Chunks are addressed by (row group, column): every row group holds one
 * chunk per column, the columns being the schema's leaves in depth-first
 * order (column i of every row group is leaf i).
 *
 * Everything a handle returns (paths, reasons) is owned by it and valid until
 * bb_parquet_file_close. A handle is never modified after it is opened:
 * concurrent calls on one handle from several threads are safe.
 *
 * Structs passed in are extensible: the caller sets struct_size to the
 * sizeof it was compiled with, and the library writes only that many bytes,
 * so a later version may append members without breaking older callers. */
#ifndef BLOCKBLOOM_PARQUET_FILE_H_
#define BLOCKBLOOM_PARQUET_FILE_H_

#include "blockbloom/blockbloom.h"
#include "blockbloom/parquet_types.h" /* the type enums */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_parquet_file bb_parquet_file;

/* A column: a leaf of the schema. */
typedef struct bb_parquet_column {
  size_t struct_size;         /* in: sizeof(bb_parquet_column) */
  const char* path;           /* names from the root's child to the leaf joined with '.', as the
                                 file's bytes (nothing escaped; may hold any byte, even NUL);
                                 path_len bytes followed by a NUL */
  size_t path_len;
  int32_t physical_type;      /* bb_parquet_physical_type */
  int32_t type_length;        /* FIXED_LEN_BYTE_ARRAY: bytes per value (> 0); otherwise 0 */
  int32_t logical_type;       /* bb_parquet_logical_type */
  int32_t converted_type;     /* bb_parquet_converted_type, or BB_PARQUET_CONVERTED_NONE */
  int32_t bit_width;          /* INTEGER: 8, 16, 32 or 64 (as written); else 0 */
  int32_t is_signed;          /* INTEGER: 1 signed, 0 unsigned */
  int32_t time_unit;          /* TIME, TIMESTAMP: BB_PARQUET_UNIT_*; else 0 */
  int32_t is_adjusted_to_utc; /* TIME, TIMESTAMP: 1 or 0 */
  int32_t scale;              /* DECIMAL (LogicalType, else SchemaElement.scale); else 0 */
  int32_t precision;          /* DECIMAL (LogicalType, else SchemaElement.precision); else 0 */
} bb_parquet_column;

/* A column chunk and its Bloom filter. */
typedef struct bb_parquet_chunk {
  size_t struct_size;      /* in: sizeof(bb_parquet_chunk) */
  int64_t num_values;      /* ColumnMetaData.num_values (nulls included); -1 without meta_data */
  int32_t has_filter;      /* 1 if ColumnMetaData has a bloom_filter_offset, else 0 (also
                              when the field is of another wire type: skipped, as Thrift's
                              readers skip it) */
  int32_t filter_status;   /* has_filter: BB_OK, or why the filter cannot be used: a
                              bb_parquet_header_read code for its BloomFilterHeader, or
                              BB_ERR_PARQUET_FOOTER_MALFORMED for an offset or length that
                              cannot be right, a bloom_filter_length other than the header's
                              size + its numBytes included (neither is trusted: such a
                              filter is never loaded, so it never answers "absent"); else
                              BB_ERR_PARQUET_NO_FILTER */
  const char* filter_error; /* NULL when filter_status is BB_OK, else why, in English */
  int64_t filter_offset;   /* bloom_filter_offset: the file offset of the BloomFilterHeader */
  int64_t filter_length;   /* bloom_filter_length (header + bitset); older writers omit it
                              (or a writer gives another wire type, skipped as absent):
                              then the header's size + its numBytes when the header was read,
                              else 0 (unknown) */
  int32_t filter_checked;  /* 1 if the header was read and checked (a handle that can read the
                              file); 0 for one opened from the footer alone */
  int32_t reserved;        /* 0 */
  uint64_t bitset_offset;  /* filter_checked and BB_OK: the file offset of the bitset */
  uint64_t bitset_bytes;   /* filter_checked and BB_OK: the header's numBytes */
} bb_parquet_chunk;

/* Opening. On success *file is a new handle (close it with
 * bb_parquet_file_close); on error *file is untouched and, if error is not
 * NULL and error_capacity > 0, error receives why (at most error_capacity - 1
 * bytes and a NUL; file paths and column names in it are as given). */
BB_API int bb_parquet_file_open_path(bb_parquet_file** file, const char* path, char* error,
                                     size_t error_capacity);
BB_API int bb_parquet_file_open_memory(bb_parquet_file** file, const uint8_t* data, size_t len,
                                       char* error, size_t error_capacity);
BB_API int bb_parquet_file_open_footer(bb_parquet_file** file, const uint8_t* file_metadata,
                                       size_t len, char* error, size_t error_capacity);

/* What an open may spend on a footer, so that a small hostile footer cannot
 * make it take gigabytes (every list of a few bytes per element becomes a
 * structure of tens of bytes per element). Past either limit the open fails
 * with BB_ERR_PARQUET_LIMIT and a reason naming the limit, its value and
 * what the footer holds. A member left 0 (or beyond struct_size) takes its
 * default, which no real file reaches:
 * - max_container_elements: the most elements of any list the footer walk
 *   keeps (the schema, the row groups, a row group's columns, a chunk's
 *   path_in_schema). Default 1,000,000, Arrow's container limit.
 * - max_memory_bytes: the most memory the parsed footer may take beside its
 *   own bytes: what every column (its path and names), chunk, filter state,
 *   distinct error text and, during the open, parse of a distinct filter
 *   offset takes, reservations and vectors' growth included (about 170
 *   bytes a chunk, 110 a column and its path). Default 8 MiB + 8 times
 *   the FileMetaData length, so that the memory of an open is bounded by
 *   the file's size whatever the footer's shape: a real footer spends tens
 *   of its bytes per chunk and stays far below it; a footer of lists whose
 *   elements take a byte or two each (a million empty row groups in 7 MB)
 *   passes it.
 * The open functions without _limits use the defaults. */
#define BB_PARQUET_DEFAULT_MAX_CONTAINER_ELEMENTS 1000000u
#define BB_PARQUET_DEFAULT_MEMORY_BASE_BYTES (8u * 1024u * 1024u)
#define BB_PARQUET_DEFAULT_MEMORY_FOOTER_MULTIPLE 8u
typedef struct bb_parquet_limits {
  size_t struct_size;              /* in: sizeof(bb_parquet_limits) (at least sizeof(size_t)) */
  uint64_t max_container_elements; /* 0: BB_PARQUET_DEFAULT_MAX_CONTAINER_ELEMENTS */
  uint64_t max_memory_bytes;       /* 0: BB_PARQUET_DEFAULT_MEMORY_BASE_BYTES +
                                      BB_PARQUET_DEFAULT_MEMORY_FOOTER_MULTIPLE * footer length */
} bb_parquet_limits;

/* The opens above with limits (NULL: the defaults); a struct_size below
 * sizeof(size_t) is BB_ERR_BUFFER_TOO_SMALL. */
BB_API int bb_parquet_file_open_path_limits(bb_parquet_file** file, const char* path,
                                            const bb_parquet_limits* limits, char* error,
                                            size_t error_capacity);
BB_API int bb_parquet_file_open_memory_limits(bb_parquet_file** file, const uint8_t* data,
                                              size_t len, const bb_parquet_limits* limits,
                                              char* error, size_t error_capacity);
BB_API int bb_parquet_file_open_footer_limits(bb_parquet_file** file,
                                              const uint8_t* file_metadata, size_t len,
                                              const bb_parquet_limits* limits, char* error,
                                              size_t error_capacity);

/* Releases the handle (and closes its descriptor). Safe on NULL. Filters
 * loaded from it stay valid; views of an in-memory file stay valid as long as
 * the caller's bytes do. */
BB_API void bb_parquet_file_close(bb_parquet_file* file);

BB_API int bb_parquet_file_num_row_groups(const bb_parquet_file* file, size_t* row_groups);
BB_API int bb_parquet_file_num_columns(const bb_parquet_file* file, size_t* columns);

/* The column whose dotted path is exactly path[0 .. path_len) (bytes compared;
 * path may be NULL when path_len is 0); BB_ERR_PARQUET_NO_SUCH_CHUNK if none,
 * BB_ERR_PARQUET_AMBIGUOUS_COLUMN if more than one column has that dotted
 * path (a top-level column named "a.b" beside field b of group a: address
 * it with bb_parquet_file_find_column_names). *column untouched on error.
 * Linear in the number of columns. */
BB_API int bb_parquet_file_find_column(const bb_parquet_file* file, const char* path,
                                       size_t path_len, size_t* column);

/* The column whose path is exactly the names names[0 .. depth) (the root's
 * child first; names[i] is lens[i] bytes, compared as bytes): never
 * ambiguous. BB_ERR_PARQUET_NO_SUCH_CHUNK if none; names / lens may be NULL
 * when depth is 0 (which names no column). */
BB_API int bb_parquet_file_find_column_names(const bb_parquet_file* file,
                                             const char* const* names, const size_t* lens,
                                             size_t depth, size_t* column);

/* bb_parquet_file_find_column, and on failure a message for a person in
 * error (NUL-terminated, at most error_capacity - 1 bytes; cut at a
 * character boundary with "..." when it does not fit): for a path that names
 * no column, "no column X" and the closest columns by name (the leaves under
 * X first when X is a group, e.g. "st is a group: its columns are st.a,
 * st.b"); for an ambiguous one, each candidate's exact path as a JSON array
 * of names. */
BB_API int bb_parquet_file_lookup_column(const bb_parquet_file* file, const char* path,
                                         size_t path_len, size_t* column, char* error,
                                         size_t error_capacity);

/* The path of `column` as names: *depth is the number of names; name i
 * (0 .. depth - 1) is returned by bb_parquet_file_column_name as a pointer
 * owned by the handle (len bytes followed by a NUL; may hold any byte). */
BB_API int bb_parquet_file_column_depth(const bb_parquet_file* file, size_t column,
                                        size_t* depth);
BB_API int bb_parquet_file_column_name(const bb_parquet_file* file, size_t column, size_t i,
                                       const char** name, size_t* len);

/* Column `column` (0 .. num_columns - 1). info->struct_size must be set. */
BB_API int bb_parquet_file_column(const bb_parquet_file* file, size_t column,
                                  bb_parquet_column* info);

/* The chunk of `column` in `row_group`. info->struct_size must be set. */
BB_API int bb_parquet_file_chunk(const bb_parquet_file* file, size_t row_group, size_t column,
                                 bb_parquet_chunk* info);

/* The chunk's filter copied into a new owned, 64-byte-aligned filter (as
 * bb_parquet_filter_read does, which it uses for an in-memory file): an
 * init, so *f is overwritten unread and, on error, left zeroed. Errors:
 * BB_ERR_PARQUET_NO_SUCH_CHUNK, BB_ERR_PARQUET_NO_FILTER, the chunk's
 * filter_status, BB_ERR_PARQUET_UNSUPPORTED for a handle opened from the
 * footer alone, BB_ERR_PARQUET_IO if reading the file fails (it shrank),
 * BB_ERR_OUT_OF_MEMORY. */
BB_API int bb_parquet_file_load_filter(const bb_parquet_file* file, size_t row_group,
                                       size_t column, bb_filter* f);

/* A read-only view of the chunk's bitset where it lies in the caller's
 * bytes (any alignment; valid as long as they are): only for a handle from
 * bb_parquet_file_open_memory, else BB_ERR_PARQUET_UNSUPPORTED (load it
 * instead). Other errors and *f as for bb_parquet_file_load_filter. */
BB_API int bb_parquet_file_view_filter(const bb_parquet_file* file, size_t row_group,
                                       size_t column, bb_filter* f);

/* The Parquet Bloom filter hash of one value given as its plain encoding:
 * XXH64, seed 0, of exactly those bytes, after checking that they are a
 * value of physical_type: 4 bytes for INT32 and FLOAT, 8 for INT64 and
 * DOUBLE, 12 for INT96, exactly type_length (> 0) for FIXED_LEN_BYTE_ARRAY,
 * any length for BYTE_ARRAY (the payload, without a length prefix; value may
 * be NULL when len is 0). Integers and floats little-endian, as stored.
 * BOOLEAN (Parquet defines no Bloom filter hash for it), an unknown type or
 * another length: BB_ERR_PARQUET_UNSUPPORTED, *hash untouched. */
BB_API int bb_parquet_hash_value(int32_t physical_type, int32_t type_length, const void* value,
                                 size_t len, uint64_t* hash);

/* A column's types by name, as `blockbloom parquet list` (and its --json, and
 * the Python blockbloom.parquet.list) print them. Physical: "INT32",
 * "FIXED_LEN_BYTE_ARRAY(16)", "TYPE(9)" for a value this library does not
 * know. Logical: the LogicalType with its parameters ("INTEGER(8,true)",
 * "DECIMAL(18,3)" as precision and scale, "TIMESTAMP(MICROS,true)",
 * "STRING", "LOGICAL(42)" for an unknown member), else the converted type's
 * name ("UINT_8", "DECIMAL(9,2)"), "" when the column has neither. Written
 * NUL-terminated into out; BB_PARQUET_TYPE_NAME_MAX bytes always suffice. A
 * smaller capacity that cannot hold the name, or a column whose struct_size
 * is below sizeof(bb_parquet_column), is BB_ERR_BUFFER_TOO_SMALL (nothing
 * written). */
#define BB_PARQUET_TYPE_NAME_MAX 64u
BB_API int bb_parquet_physical_type_name(const bb_parquet_column* column, char* out,
                                         size_t capacity);
BB_API int bb_parquet_logical_type_name(const bb_parquet_column* column, char* out,
                                        size_t capacity);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_PARQUET_FILE_H_ */
