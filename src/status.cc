// SPDX-License-Identifier: Apache-2.0
// Error messages and version: the parts of the C API that touch no filter.
#include "blockbloom/blockbloom.h"


extern "C" {

const char* bb_status_message(int status) {
  switch (status) {
    case BB_OK: return "ok";
    case BB_ERR_NULL_POINTER: return "a required pointer is NULL";
    case BB_ERR_SIZE_ZERO: return "filter size is 0 bytes; it must be at least one 32-byte block";
    case BB_ERR_SIZE_NOT_MULTIPLE_OF_32:
      return "filter size is not a multiple of 32 bytes (the block size)";
    case BB_ERR_TOO_MANY_BLOCKS: return "filter has more than 2^31 - 1 blocks (64 GiB)";
    case BB_ERR_OUT_OF_MEMORY: return "out of memory: the filter bitset could not be allocated";
    case BB_ERR_READ_ONLY: return "filter is a read-only view; inserts are refused";
    case BB_ERR_BATCH_TOO_LARGE:
      return "batch too large: a selection vector holds uint32 indices, so n must be below 2^32";
    case BB_ERR_UNKNOWN_ISA: return "unknown ISA name (the known names: bb_isa_name(0 .. bb_isa_count() - 1))";
    case BB_ERR_ISA_NOT_COMPILED: return "ISA is not compiled into this build";
    case BB_ERR_ISA_UNSUPPORTED: return "ISA is not supported by this CPU";
    case BB_ERR_LAYOUT_MISMATCH:
      return "layout mismatch: a Parquet-layout call on a Kudu-layout filter, or the reverse";
    case BB_ERR_FILTER_MISMATCH:
      return "filters differ in layout, size or (Kudu) hash seed; union and intersect need "
             "identical shapes";
    case BB_ERR_NOT_POWER_OF_TWO: return "Kudu filter size is not a power of two";
    case BB_ERR_LOG_SPACE_OUT_OF_RANGE:
      return "Kudu log_space_bytes is out of range (6 .. 35: 64 bytes .. 32 GiB)";
    case BB_ERR_INVALID_FPP:
      return "false-positive probability must be greater than 0 and less than 1";
    case BB_ERR_INVALID_NDV:
      return "invalid number of distinct values (no call returns this: an ndv of 0 sizes the "
             "smallest filter)";
    case BB_ERR_HEADER_TRUNCATED: return "buffer ends inside the Parquet BloomFilterHeader";
    case BB_ERR_HEADER_MALFORMED: return "malformed Parquet BloomFilterHeader (Thrift compact)";
    case BB_ERR_HEADER_NUM_BYTES:
      return "BloomFilterHeader numBytes is not a positive multiple of 32 within 2^31 - 1 blocks";
    case BB_ERR_BITSET_TRUNCATED:
      return "bitset truncated: header numBytes runs past the end of the buffer";
    case BB_ERR_UNSUPPORTED_ALGORITHM: return "unsupported Bloom filter algorithm (only BLOCK)";
    case BB_ERR_UNSUPPORTED_HASH:
      return "unsupported hash (Parquet: only XXHASH; Kudu: only FAST_HASH)";
    case BB_ERR_UNSUPPORTED_COMPRESSION:
      return "unsupported Bloom filter compression (only UNCOMPRESSED)";
    case BB_ERR_BUFFER_TOO_SMALL: return "output buffer too small";
    case BB_ERR_INVALID_SIZING:
      return "unknown sizing kind (BB_SIZE_PARQUET, BB_SIZE_PARQUET_POW2, BB_SIZE_KUDU or "
             "BB_SIZE_PARQUET_SAFE)";
    case BB_ERR_INVALID_PARTITION:
      return "invalid partition: num_parts is 0 or part >= num_parts, or bb_partition_hashes' "
             "num_parts exceeds the filter's block count";
    case BB_ERR_INVALID_PREFETCH_HINT:
      return "invalid prefetch hint (BB_PREFETCH_NONE, BB_PREFETCH_L1, BB_PREFETCH_L2 or BB_PREFETCH_L3)";
    case BB_ERR_FILTERS_OVERLAP:
      return "union/intersect of filters whose bitsets partly overlap in memory (not the same bytes)";
    case BB_ERR_DIRECTORY_SIZE_MISMATCH:
      return "Kudu directory bloom_data_size is a power of two other than 2^log_space_bytes";
    case BB_ERR_PARQUET_NOT_PARQUET:
      return "not a Parquet file: shorter than 12 bytes, no \"PAR1\" magic at its start and end, "
             "or an encrypted footer (\"PARE\")";
    case BB_ERR_PARQUET_FOOTER_MALFORMED:
      return "malformed Parquet footer: the FileMetaData is not valid Thrift compact, lacks a "
             "required field, disagrees with its schema, or a Bloom filter offset or length is "
             "outside the file";
    case BB_ERR_PARQUET_NO_SUCH_CHUNK:
      return "no such column chunk: a row group or column index past the file's, or a column "
             "path the schema does not have";
    case BB_ERR_PARQUET_NO_FILTER: return "the Parquet column chunk has no Bloom filter";
    case BB_ERR_PARQUET_IO:
      return "the Parquet file cannot be read: it cannot be opened, is not a regular file, a read "
             "failed, or it shrank";
    case BB_ERR_PARQUET_UNSUPPORTED:
      return "not possible here: an in-place view needs the file in memory, a filter needs the "
             "file's bytes (not the footer alone), a value must be of its physical type "
             "(4, 8, 12 or type_length bytes; no BOOLEAN)";
    case BB_ERR_UNKNOWN_COLUMN_TYPE:
      return "bb_column type is not a bb_column_type (BB_TYPE_INT8 .. BB_TYPE_LARGE_BYTE_ARRAY)";
    case BB_ERR_INVALID_COLUMN_WIDTH:
      return "bb_column width is 0 for FIXED_LEN_BYTE_ARRAY, or not the type's own width (or 0) for other types";
    case BB_ERR_TYPE_NOT_IN_LAYOUT:
      return "the column type has no meaning in the filter's layout (Kudu has no unsigned, INT96 or time-of-day type)";
    case BB_ERR_INVALID_COLUMN:
      return "invalid bb_column: struct_size unknown, a field its type does not use is set, or length too large for its buffers";
    case BB_ERR_SELECTION_OUT_OF_RANGE:
      return "input selection holds a row index >= n, the number of hashes (nothing was written)";
    case BB_ERR_INVALID_ALLOCATOR: return "bb_allocator lacks its allocate or deallocate function";
    case BB_ERR_ALLOCATOR_MISALIGNED:
      return "the allocator returned memory not aligned to BB_ALLOC_ALIGNMENT (64 bytes); it was deallocated";
    case BB_ERR_SELECTION_OVERLAP:
      return "output selection overlaps the input selection without being the same array (in place is allowed)";
    case BB_ERR_INVALID_ROW_COUNT:
      return "invalid row count: adaptive sample_rows is 0, or a batch reports more rows passing "
             "than probed";
    case BB_ERR_INVALID_REJECT_FRACTION:
      return "adaptive min_reject_fraction must be between 0 and 1 (and not NaN)";
    case BB_ERR_PARQUET_SIZE_LIMIT:
      return "no power of two up to 128 MiB, the largest bitset Parquet readers accept, meets the "
             "target false-positive probability";
    case BB_ERR_PARQUET_UNSAFE_SIZE:
      return "BloomFilterHeader numBytes is not a power of two from 32 B to 128 MiB, which Arrow, "
             "Velox and ClickHouse readers refuse (the _any_size writers allow it)";
    case BB_ERR_VALUE_SYNTAX:
      return "the value is not written in the form its column's type takes (parquet_value.h)";
    case BB_ERR_VALUE_RANGE:
      return "the value is outside the range of its column's type";
    case BB_ERR_UNKNOWN_TYPE_NAME:
      return "not a type name the library knows (bb_parquet_type_parse)";
    case BB_ERR_PARQUET_AMBIGUOUS_COLUMN:
      return "the dotted path names more than one column; give the path as a list of names";
    case BB_ERR_PARQUET_LIMIT:
      return "the Parquet footer is past a limit of bb_parquet_limits: a list of more than "
             "max_container_elements (default 1,000,000) elements, or more memory than "
             "max_memory_bytes (default 8 MiB + 8 times the footer)";
    case BB_ERR_PARTITION_OVERLAP:
      return "bb_partition_hashes: two of the hashes, the output and the counts overlap "
             "(bb_build_from_hashes: the scratch overlaps the hashes or the filter)";
    case BB_ERR_ARROW_UNSUPPORTED_TYPE:
      return "the Arrow format has no typed column (boolean, duration, interval and nested types "
             "are not taken, nor in a Kudu filter float16 and decimals of more than 38 digits; "
             "arrow.hpp)";
    case BB_ERR_ARROW_MALFORMED:
      return "the ArrowArray is not laid out as the Arrow C Data Interface says (released, a "
             "negative length or offset, the wrong n_buffers, a buffer missing, offsets or "
             "views out of range, an offset or length past what memory can hold)";
    case BB_ERR_ARROW_DICTIONARY_INDEX:
      return "a dictionary index is negative or not below the dictionary's length";
    case BB_ERR_VALUE_AMBIGUOUS:
      return "the value has more than one meaning in the column's type (a tz-aware timestamp on a "
             "local TIMESTAMP, an integer on a DATE / TIME / TIMESTAMP, a date on a UTC-adjusted "
             "TIMESTAMP): say which one you mean (parquet_value.h)";
    case BB_ERR_VALUE_KIND:
      return "a value of this kind cannot be compared with the column's type (bytes on a "
             "non-byte type, a boolean, a date on an integer column, ...; parquet_value.h)";
    case BB_ERR_FILTER_FILE_TRUNCATED:
      return "the filter file is shorter than its 96-byte header and 8-byte checksum";
    case BB_ERR_FILTER_FILE_MAGIC:
      return "not a blockbloom filter file: it does not start with \"BBFILTER\"";
    case BB_ERR_FILTER_FILE_VERSION:
      return "the filter file's version is not one this library reads (filter_file.h)";
    case BB_ERR_FILTER_FILE_LAYOUT:
      return "the filter file's layout is not parquet or kudu, or its flags contradict it (an "
             "unknown flag, always-false on a Parquet filter or on a Kudu filter with bits set)";
    case BB_ERR_FILTER_FILE_SEED:
      return "the filter file's hash seed is not one its layout has (a Parquet filter's is 0)";
    case BB_ERR_FILTER_FILE_TYPE:
      return "the filter file's value type is not valid: an unknown value kind, an annotation "
             "that does not fit its physical type, a type its layout cannot hash, or type "
             "fields set on a raw-hash filter";
    case BB_ERR_FILTER_FILE_SIZING:
      return "the filter file's sizing is not valid: an unknown sizing kind, an fpp outside "
             "(0, 1), or ndv / fpp given for an unknown sizing";
    case BB_ERR_FILTER_FILE_SIZE:
      return "the filter file's bitset size is not valid for its layout, or the file is not "
             "header + bitset + checksum long (truncated, or bytes appended)";
    case BB_ERR_FILTER_FILE_CHECKSUM:
      return "the filter file's XXH64 checksum does not match its bytes: the file is damaged";
    case BB_ERR_INVALID_OFFSETS:
      return "string offsets decrease, are negative, or run past the end of the data";
    default: return "unknown blockbloom status code";
  }
}

const char* bb_version(void) { return BB_VERSION_STRING; }

}  // extern "C"
