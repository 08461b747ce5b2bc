/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom: SIMD kernels for split block Bloom filters (Parquet SBBF layout).
 *
 * A plain C API so that C, C++, Rust, Java and Go callers can bind it.
 *
 * Conventions
 * - Every function that can fail returns an int: 0 (BB_OK) on success, a
 *   negative bb_status on failure. bb_status_message() turns a code into text.
 * - bb_find() returns 1 (maybe present), 0 (definitely absent) or a negative
 *   bb_status, so `if (bb_find(f, h) > 0)` reads naturally in a hot loop.
 * - Hashes are 64-bit (Parquet: XXH64, seed 0, of the value's plain encoding).
 * - A filter is a bb_filter struct the caller owns (stack, heap, anywhere);
 *   bb_filter_init() allocates its bitset, the view functions wrap a buffer the
 *   caller owns. The bitset may sit at any byte address: in-place probing of a
 *   Parquet file at an odd offset is supported and free of undefined behaviour.
 * - Every call that initialises a bb_filter (bb_filter_init*, bb_kudu_filter_init*,
 *   bb_kudu_import, bb_parquet_filter_read) overwrites *f without reading it,
 *   so an uninitialised struct (stack garbage) is fine. The flip side: if *f
 *   still owns a bitset from an earlier init, that bitset is NOT freed and
 *   leaks. Call bb_filter_release(f) first (it zeroes *f; releasing a view or
 *   a zeroed struct is harmless). The library cannot detect this, not even in
 *   debug builds: the bytes of an uninitialised struct can be exactly those of
 *   a live filter (a helper that inits a local bb_filter and returns it by
 *   value leaves a copy of it in the stack slot the next call reuses), so any
 *   check would abort correct programs.
 * - The kernel (ISA tier) is chosen once, when the library is loaded; see the
 *   ISA section below; blockbloom/tuning.h sets how
 *   the batch calls prefetch.
 */
#ifndef BLOCKBLOOM_BLOCKBLOOM_H_
#define BLOCKBLOOM_BLOCKBLOOM_H_

#include <stddef.h>
#include <stdint.h>

#include "blockbloom/version.h" /* BB_VERSION_MAJOR, _MINOR, _PATCH, _STRING */

/* BB_API marks the functions libblockbloom.so exports: the library is built
 * with hidden visibility, so everything not marked (the kernels, the
 * dispatcher, the bundled cpu_features) stays inside it, and the linker
 * version script (blockbloom.map) gives each exported symbol the version node
 * BLOCKBLOOM_0. docs/architecture.md says what counts as an ABI change. */
#if defined(__GNUC__) || defined(__clang__)
#define BB_API __attribute__((visibility("default")))
#else
#define BB_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes. Values are stable: bindings may hard-code them. */
typedef enum bb_status {
  BB_OK = 0,
  BB_ERR_NULL_POINTER = -1,            /* a required pointer is NULL (with n > 0 for arrays) */
  BB_ERR_SIZE_ZERO = -2,               /* filter size of 0 bytes */
  BB_ERR_SIZE_NOT_MULTIPLE_OF_32 = -3, /* filter size is not a whole number of 32-byte blocks */
  BB_ERR_TOO_MANY_BLOCKS = -4,         /* more than 2^31 - 1 blocks */
  BB_ERR_OUT_OF_MEMORY = -5,           /* the bitset could not be allocated */
  BB_ERR_READ_ONLY = -6,               /* insert into a read-only view */
  BB_ERR_BATCH_TOO_LARGE = -7,         /* selection vector batch with more than 2^32 - 1 hashes */
  BB_ERR_UNKNOWN_ISA = -8,             /* ISA name is not one of bb_isa_name(i) */
  BB_ERR_ISA_NOT_COMPILED = -9,        /* ISA exists but is not built for this architecture */
  BB_ERR_ISA_UNSUPPORTED = -10,        /* ISA is built but this CPU cannot run it */
  BB_ERR_LAYOUT_MISMATCH = -11,        /* a Parquet call on a Kudu filter, or the reverse */
  BB_ERR_FILTER_MISMATCH = -12,        /* union/intersect of filters of different layout, size or
                                          (Kudu) hash_seed: bb_filter_mismatch says which */
  BB_ERR_NOT_POWER_OF_TWO = -13,       /* Kudu filter size is not a power of two */
  BB_ERR_LOG_SPACE_OUT_OF_RANGE = -14, /* Kudu log_space_bytes outside 6 .. 35 */
  BB_ERR_INVALID_FPP = -15,            /* target false-positive probability not in (0, 1) */
  BB_ERR_INVALID_NDV = -16,            /* reserved: no call returns it now (every ndv, 0
                                          included, sizes a filter: bb_bytes_for) */
  BB_ERR_HEADER_TRUNCATED = -17,       /* the buffer ends inside the Parquet BloomFilterHeader */
  BB_ERR_HEADER_MALFORMED = -18,       /* not a valid Thrift compact BloomFilterHeader */
  BB_ERR_HEADER_NUM_BYTES = -19,       /* header numBytes <= 0, not a multiple of 32, or too large */
  BB_ERR_BITSET_TRUNCATED = -20,       /* header numBytes runs past the end of the buffer */
  BB_ERR_UNSUPPORTED_ALGORITHM = -21,  /* BloomFilterAlgorithm other than BLOCK */
  BB_ERR_UNSUPPORTED_HASH = -22,       /* hash other than XXHASH (Parquet) or FAST_HASH (Kudu) */
  BB_ERR_UNSUPPORTED_COMPRESSION = -23, /* BloomFilterCompression other than UNCOMPRESSED */
  BB_ERR_BUFFER_TOO_SMALL = -24,       /* output buffer too small for what is to be written */
  BB_ERR_INVALID_OFFSETS = -25,        /* string column offsets decrease or run past the data */
  BB_ERR_INVALID_SIZING = -26,         /* unknown bb_sizing kind */
  BB_ERR_INVALID_PARTITION = -27,      /* num_parts is 0 or part >= num_parts (or, for
                                          bb_partition_hashes, above the filter's block count) */
  BB_ERR_INVALID_PREFETCH_HINT = -28,  /* not a bb_prefetch_level (tuning.h) */
  BB_ERR_FILTERS_OVERLAP = -29,        /* union/intersect of views whose bitsets partly overlap */
  BB_ERR_DIRECTORY_SIZE_MISMATCH = -30, /* Kudu directory: bloom_data_size is not 2^log_space_bytes */
  /* Parquet files (parquet_file.h): */
  BB_ERR_PARQUET_NOT_PARQUET = -31,      /* under 12 bytes, no "PAR1" at start and end, or encrypted */
  BB_ERR_PARQUET_FOOTER_MALFORMED = -32, /* FileMetaData not valid, or a filter offset/length wrong */
  BB_ERR_PARQUET_NO_SUCH_CHUNK = -33,    /* row group or column index past the file's, or no such path */
  BB_ERR_PARQUET_NO_FILTER = -34,        /* the column chunk has no Bloom filter */
  BB_ERR_PARQUET_IO = -35,               /* the file cannot be opened or read, or is not a regular file */
  BB_ERR_PARQUET_UNSUPPORTED = -36,      /* a view of a file not in memory, a filter of a footer-only
                                            handle, a value not of its physical type (or BOOLEAN) */
  /* Typed columns (column.h): */
  BB_ERR_UNKNOWN_COLUMN_TYPE = -37,  /* bb_column type is not a bb_column_type */
  BB_ERR_INVALID_COLUMN_WIDTH = -38, /* FIXED_LEN_BYTE_ARRAY width 0, or a width not the type's */
  BB_ERR_TYPE_NOT_IN_LAYOUT = -39,   /* the type has no meaning in the filter's layout (Kudu: unsigned, INT96, time) */
  BB_ERR_INVALID_COLUMN = -40,       /* bb_column struct_size unknown, an unused field set, or length too large */
  /* Pipeline probes and allocators (blockbloom.h): */
  BB_ERR_SELECTION_OUT_OF_RANGE = -41, /* an input selection holds a row index >= n */
  BB_ERR_INVALID_ALLOCATOR = -42,      /* a bb_allocator without its allocate or deallocate */
  BB_ERR_ALLOCATOR_MISALIGNED = -43,   /* the allocator's memory is not BB_ALLOC_ALIGNMENT-aligned */
  BB_ERR_SELECTION_OVERLAP = -44,      /* sel_out overlaps sel_in without being sel_in */
  /* Adaptive filters (adaptive.h) and reader-safe Parquet sizes (parquet_format.h): */
  BB_ERR_INVALID_ROW_COUNT = -45,       /* adaptive.h: sample_rows 0, or more rows passed than probed */
  BB_ERR_INVALID_REJECT_FRACTION = -46, /* adaptive.h: min_reject_fraction not in 0 .. 1, or NaN */
  BB_ERR_PARQUET_SIZE_LIMIT = -47,      /* BB_SIZE_PARQUET_SAFE: even 128 MiB misses the target */
  BB_ERR_PARQUET_UNSAFE_SIZE = -48,     /* header write: not a power of two in 32 B .. 128 MiB */
  /* Values as text (parquet_value.h) and column paths (parquet_file.h): */
  BB_ERR_VALUE_SYNTAX = -49,            /* the text is not of the form the column's type is written in */
  BB_ERR_VALUE_RANGE = -50,             /* the text is of the form but outside the type's range */
  BB_ERR_UNKNOWN_TYPE_NAME = -51,       /* bb_parquet_type_parse: not a type name it knows */
  BB_ERR_PARQUET_AMBIGUOUS_COLUMN = -52, /* a dotted path that names more than one column */
  BB_ERR_PARQUET_LIMIT = -53,           /* a footer past a bb_parquet_limits cap (parquet_file.h) */
  /* Radix partition of a build's hashes (blockbloom.h): */
  BB_ERR_PARTITION_OVERLAP = -54,       /* bb_partition_hashes: hashes, out, counts overlap;
                                          bb_build_from_hashes: scratch overlaps hashes or filter */
  /* Arrow arrays (arrow.hpp, header-only over the Arrow C Data Interface): */
  BB_ERR_ARROW_UNSUPPORTED_TYPE = -55,  /* an Arrow format with no typed column (boolean, nested, ...) */
  BB_ERR_ARROW_MALFORMED = -56,         /* an ArrowArray not as the spec lays it out */
  BB_ERR_ARROW_DICTIONARY_INDEX = -57,  /* a valid row's dictionary index outside the dictionary */
  /* Values of a source kind into a typed column (parquet_value.h): */
  BB_ERR_VALUE_AMBIGUOUS = -58,         /* the value has more than one meaning in the column's type */
  BB_ERR_VALUE_KIND = -59,              /* a value of this kind cannot be compared with the type */
  /* Filter files (filter_file.h), each field a code of its own: */
  BB_ERR_FILTER_FILE_TRUNCATED = -60,   /* shorter than a filter file's header and checksum */
  BB_ERR_FILTER_FILE_MAGIC = -61,       /* not a filter file: no BB_FILTER_FILE_MAGIC */
  BB_ERR_FILTER_FILE_VERSION = -62,     /* a filter file version this library does not read */
  BB_ERR_FILTER_FILE_LAYOUT = -63,      /* layout unknown, or flags that contradict it */
  BB_ERR_FILTER_FILE_SEED = -64,        /* a hash seed the layout does not have (Parquet: nonzero) */
  BB_ERR_FILTER_FILE_TYPE = -65,        /* a value type that is not one, or not in the layout */
  BB_ERR_FILTER_FILE_SIZING = -66,      /* a sizing (kind, ndv, fpp) that cannot be */
  BB_ERR_FILTER_FILE_SIZE = -67,        /* a bitset size invalid, or not what the file holds */
  BB_ERR_FILTER_FILE_CHECKSUM = -68     /* the XXH64 checksum does not match the bytes */
} bb_status;

/* A static, never-NULL English message for any int, known code or not. */
BB_API const char* bb_status_message(int status);

/* Library version, e.g. "0.1.0". */
BB_API const char* bb_version(void);

/* ---------------------------------------------------------------- filters */

#define BB_BLOCK_BYTES 32u
#define BB_MAX_BLOCKS 0x7fffffffu /* Parquet: block count must fit a signed 32-bit int */
#define BB_ALLOC_ALIGNMENT 64u    /* alignment of every bitset the library allocates */

enum {
  BB_FILTER_OWNED = 1u,       /* data was allocated by the library; released by bb_filter_release */
  BB_FILTER_READ_ONLY = 2u,   /* created by a *_readonly view: inserts are refused */
  BB_FILTER_ALWAYS_FALSE = 4u /* Kudu: nothing inserted yet; finds answer 0 without reading */
};

/* Where a hash goes. Both set one bit in each of the 8 lanes of one block. */
typedef enum bb_layout {
  /* Parquet SBBF (Arrow, Impala's Parquet filter, DuckDB, ClickHouse): 64-bit
   * hash h, block ((h >> 32) * z) >> 32, key (uint32_t)h, any 1 <= z < 2^31. */
  BB_LAYOUT_PARQUET = 0,
  /* Kudu / Impala runtime filter: 32-bit hash h, block Rehash32to32(h) & (z - 1),
   * key h, z a power of two >= 2, an always-false state until the first insert. */
  BB_LAYOUT_KUDU = 1
} bb_layout;

/* Where an owned bitset's memory comes from, so that an engine's memory
 * tracker sees every byte (bb_filter_init_with_allocator). allocate returns
 * `bytes` bytes (the filter size: a multiple of 32, not necessarily of
 * `alignment`) aligned to `alignment` (BB_ALLOC_ALIGNMENT), or NULL;
 * deallocate gets back exactly a pointer allocate returned and the same
 * `bytes`. The library zeroes the memory itself. Both are called with ctx,
 * from whatever thread inits, copies or releases the filter. The struct is
 * not copied: the filter keeps the pointer, so the bb_allocator (and ctx)
 * must outlive every filter made with it, copies included. */
typedef struct bb_allocator {
  void* (*allocate)(void* ctx, size_t bytes, size_t alignment);
  void (*deallocate)(void* ctx, void* ptr, size_t bytes);
  void* ctx;
} bb_allocator;

/* Treat the fields as read-only; initialise with one of the bb_filter_init* calls.
 * 40 bytes on LP64 targets (8 + 8 + 4 * 4 + 8), 28 on ILP32. */
typedef struct bb_filter {
  uint8_t* data;       /* block 0; lane i of block b is the little-endian uint32 at 32*b + 4*i */
  size_t num_bytes;    /* 32 * num_blocks */
  uint32_t num_blocks; /* 1 .. BB_MAX_BLOCKS (Kudu: a power of two, 2 .. 2^30) */
  uint32_t flags;      /* BB_FILTER_* */
  uint32_t layout;     /* bb_layout */
  uint32_t hash_seed;  /* Kudu: the FastHash seed the filter's values are hashed with */
  const bb_allocator* allocator; /* owned bitsets: where data came from; NULL = the default */
} bb_filter;

/* BB_OK if num_bytes is a valid filter size (a non-zero multiple of 32 of at
 * most BB_MAX_BLOCKS blocks), else the code bb_filter_init would return. */
BB_API int bb_filter_check_size(size_t num_bytes);

/* Allocates a zeroed, 64-byte-aligned bitset of num_bytes. On failure *f is
 * left zeroed (safe to release). *f is overwritten unread: it must not own a
 * bitset (release it first, or it leaks); see Conventions above. */
BB_API int bb_filter_init(bb_filter* f, size_t num_bytes);

/* As bb_filter_init, with the bitset from allocator (see bb_allocator), which
 * bb_filter_release gives it back to. The default allocator (bb_filter_init)
 * takes small bitsets from the heap and maps those of 1 MiB and more (2 MiB
 * aligned, offered to transparent huge pages, zeroed lazily by the kernel);
 * an allocator's memory is zeroed here with memset, so every page of it is
 * touched at once. Refused: a NULL allocator (BB_ERR_NULL_POINTER), one
 * without its allocate or deallocate (BB_ERR_INVALID_ALLOCATOR), a NULL from
 * allocate (BB_ERR_OUT_OF_MEMORY), and memory not aligned to
 * BB_ALLOC_ALIGNMENT (BB_ERR_ALLOCATOR_MISALIGNED: it is deallocated at once).
 * On any error *f is left zeroed and nothing stays allocated. */
BB_API int bb_filter_init_with_allocator(bb_filter* f, size_t num_bytes,
                                         const bb_allocator* allocator);

/* Wraps a caller-owned bitset (any alignment). Nothing is copied or zeroed.
 * As for bb_filter_init, *f must not own a bitset (it would leak). */
BB_API int bb_filter_init_view(bb_filter* f, void* data, size_t num_bytes);

/* As bb_filter_init_view, but inserts return BB_ERR_READ_ONLY; the library
 * never writes through data. For probing a bitset in a read-only mapping. */
BB_API int bb_filter_init_view_readonly(bb_filter* f, const void* data, size_t num_bytes);

/* Frees an owned bitset (through the allocator it came from) and zeroes *f.
 * Safe on NULL, on views, and twice. */
BB_API void bb_filter_release(bb_filter* f);

/* Sets every bit to 0, in place: the filter then holds nothing. A Kudu
 * filter becomes always-false again, as if new. Views are cleared too (the
 * caller's bytes); a read-only view is refused (BB_ERR_READ_ONLY, untouched).
 * Not safe concurrently with inserts or finds on the same filter. */
BB_API int bb_filter_clear(bb_filter* f);

/* A new owned filter with src's layout, size, seed, bits and always-false
 * state, its bitset from src's allocator (the default one when src is a view
 * or was made by bb_filter_init). The copy is writable even if src is a
 * read-only view. On error *dst is untouched. *dst is overwritten unread, as
 * by bb_filter_init: if it owns a bitset, release it first or it leaks (so
 * dst == src only turns a view into an owned copy of its bytes). */
BB_API int bb_filter_copy(bb_filter* dst, const bb_filter* src);

/* 1 if a and b are the same filter as far as any probe or serialization can
 * tell: the same layout, size and seed, the same always-false state, and
 * (unless both are always-false, whose bits count for nothing) the same
 * bits; 0 if not; < 0 on error. Where the bits live (owned, view, read-only,
 * alignment, allocator) does not count. */
BB_API int bb_filter_equal(const bb_filter* a, const bb_filter* b);

/* Sets the 8 bits of hash in its block. */
BB_API int bb_insert(bb_filter* f, uint64_t hash);

/* 1 if all 8 bits of hash are set (maybe present), 0 if not (absent), < 0 on error. */
BB_API int bb_find(const bb_filter* f, uint64_t hash);

/* Inserts n hashes (hashes may be NULL when n == 0). */
BB_API int bb_insert_batch(bb_filter* f, const uint64_t* hashes, size_t n);

/* Multi-threaded build: inserts those of the n hashes whose block lies in
 * partition `part` of `num_parts` (equal block ranges). Calls for different
 * parts may run concurrently on one filter -- they write disjoint blocks, no
 * atomics -- and together insert exactly what bb_insert_batch(hashes, n)
 * would, byte for byte. Typical use: thread t of T calls it with part t over
 * the whole hash array. Any other concurrent write to the filter is a race;
 * concurrent finds are safe (docs/concurrency.md). */
BB_API int bb_insert_batch_partition(bb_filter* f, const uint64_t* hashes, size_t n, uint32_t part,
                                     uint32_t num_parts);

/* The radix partition of a multi-threaded build: writes the n hashes to
 * out grouped by the partition of the filter's blocks their block lies in
 * (the num_parts equal block ranges of bb_insert_batch_partition), part 0
 * first, the hashes of each part in input order, and counts[p] = the number
 * in part p: part p is out[counts[0] + ... + counts[p-1] ..] for counts[p]
 * hashes. out has room for n hashes; counts has num_parts entries; no two
 * of hashes, out and counts may overlap (BB_ERR_PARTITION_OVERLAP, nothing
 * written). A part is at
 * least one block: 1 <= num_parts <= f->num_blocks, else
 * BB_ERR_INVALID_PARTITION (take min(threads, f->num_blocks) parts). Only
 * reads f (its size); nothing is inserted.
 * Then bb_insert_batch of part p's hashes writes only part p's blocks, so
 * threads that insert different parts run concurrently on one filter
 * without atomics, and all the parts together set exactly the bytes
 * bb_insert_batch(hashes, n) would. Unlike bb_insert_batch_partition, where
 * each thread reads every hash, each thread then inserts only its own. For
 * T threads: thread s partitions its 1/T slice of the hashes into T parts,
 * all wait (a barrier), thread t inserts part t of every slice (recipe:
 * docs/concurrency.md). */
BB_API int bb_partition_hashes(const bb_filter* f, const uint64_t* hashes, size_t n,
                               uint32_t num_parts, uint64_t* out, size_t* counts);

/* Whole builds, for a caller that holds all of a filter's keys at once (an
 * engine's build side): inserts the n hashes, setting exactly the bytes
 * bb_insert_batch(f, hashes, n) would. Filters of 1 GiB and more (and more
 * than twice the CPU's L3, where that is larger) are built in 512 block
 * ranges (2 MiB each at 1 GiB): one pass puts each hash in its range's
 * share of scratch (a range whose share is full has its further hashes
 * inserted at once), then the ranges are inserted one by one, so the
 * misses of each range's inserts are served from the nearer caches. Smaller filters are one bb_insert_batch (scratch unused, nothing
 * allocated): there the partition's extra memory traffic (writing and
 * reading back 8 bytes a hash) cost more than the cache misses it saves
 * (measured on an Intel Xeon with a 300 MiB L3 up to 512 MiB:
 * docs/benchmarks.md, "Issue 35"). Memory: scratch has room for n hashes
 * (8n bytes) and overlaps neither the hashes nor the filter's bitset
 * (BB_ERR_PARTITION_OVERLAP, nothing written); when it is NULL and the
 * filter is partitioned, the call takes n hashes' worth (rounded up to 64
 * bytes) from the filter's allocator (the default one for bb_filter_init
 * filters and views) and gives it back before it returns
 * (BB_ERR_OUT_OF_MEMORY, nothing inserted, if it cannot;
 * BB_ERR_ALLOCATOR_MISALIGNED if a custom allocator's block is not 64-byte
 * aligned). A scratch the
 * caller keeps across builds saves mapping and faulting in fresh pages each
 * time. Its contents afterwards are unspecified. Not safe concurrently with
 * other writes to the filter. */
BB_API int bb_build_from_hashes(bb_filter* f, const uint64_t* hashes, size_t n, uint64_t* scratch);

/* The whole build by several threads: inserts those of the n hashes that
 * belong to part `part` of `num_parts` (1 <= num_parts, part < num_parts,
 * else BB_ERR_INVALID_PARTITION). Thread t of T calls it with part t over
 * the whole hash array and one scratch for all (room for n hashes); calls
 * for different parts write disjoint blocks and disjoint lines of scratch,
 * so they run concurrently without atomics, and together set exactly the
 * bytes of bb_insert_batch(hashes, n). Each reads every hash but buckets
 * and inserts only its own. Below the size bb_build_from_hashes partitions
 * this is bb_insert_batch_partition (scratch unused); from there a part is
 * a run of the build's block ranges. A NULL scratch makes each call take
 * its own n hashes' worth from the filter's allocator. Other concurrent
 * writes to the filter, or another use of scratch meanwhile, are races. */
BB_API int bb_build_from_hashes_partition(bb_filter* f, const uint64_t* hashes, size_t n,
                                          uint64_t* scratch, uint32_t part, uint32_t num_parts);

/* Tests n hashes; bit i of the bitmap (byte i/8, bit i%8, LSB first, as Arrow
 * validity bitmaps) is 1 when hashes[i] may be present. Writes exactly
 * (n + 7) / 8 bytes; the unused high bits of the last byte are written as 0.
 * *hits (may be NULL) receives the number of set bits. */
BB_API int bb_find_batch_bitmap(const bb_filter* f, const uint64_t* hashes, size_t n,
                                uint8_t* bitmap, size_t* hits);

/* Tests n hashes; writes the indices i (ascending) of the hashes that may be
 * present to selection[0 .. *hits). selection must have room for n entries
 * (entries past *hits are unspecified). n must be below 2^32. */
BB_API int bb_find_batch_select(const bb_filter* f, const uint64_t* hashes, size_t n,
                                uint32_t* selection, size_t* hits);

/* Pipeline probes: refine what earlier filters or predicates of a scan left.
 *
 * select_from: tests hashes[sel_in[k]] for k = 0 .. m-1 (hashes holds the n
 * hashes of a batch, indexed by row) and writes the rows sel_in[k] that may
 * be present, in sel_in's order, to sel_out[0 .. *hits). sel_in may be in
 * any order and repeat rows. sel_out has room for m entries (entries past
 * *hits are unspecified) and is either sel_in itself, compacting the
 * selection in place, or does not overlap it (BB_ERR_SELECTION_OVERLAP
 * otherwise); it must not overlap hashes or the filter. A row index >= n is
 * BB_ERR_SELECTION_OUT_OF_RANGE: sel_in is checked whole before anything is
 * probed or written (one vector pass: with AVX-512 0.02 ns an entry, 3-7% of
 * the probe of an in-cache filter, under 1% from 16 MiB; docs/benchmarks.md). */
BB_API int bb_find_batch_select_from(const bb_filter* f, const uint64_t* hashes, size_t n,
                                     const uint32_t* sel_in, size_t m, uint32_t* sel_out,
                                     size_t* hits);

/* bitmap_and: bitmap &= maybe-present over the n hashes (bitmap as for
 * bb_find_batch_bitmap: (n + 7) / 8 bytes, row i at bit i % 8 of byte i / 8).
 * Rows whose bit is 0 cost no filter access where it matters: a zero byte
 * is one load and no probe, and where few rows are live (under 3/8 of a
 * window of 2048 rows; 1/2 for filters the library prefetches, from the
 * size of the CPU's L2) only the live rows are
 * probed and prefetched, so chained filters read less memory the more the
 * earlier ones rejected (elsewhere all 8 rows of a live byte are probed).
 * The bits of the last byte past n stay as they were (they are not rows of
 * this call). *hits (may be NULL) receives the number of bits below n set
 * afterwards. */
BB_API int bb_find_batch_bitmap_and(const bb_filter* f, const uint64_t* hashes, size_t n,
                                    uint8_t* bitmap, size_t* hits);

/* Combines two filters of the same layout and size (and, for Kudu, the same
 * hash_seed) into dst, bit by bit: union is OR (dst then answers yes for
 * anything either held: how per-worker filters become one), intersect is
 * AND. Filters that differ in any of these are BB_ERR_FILTER_MISMATCH, dst
 * untouched: their bits place values differently (a Kudu value's bits
 * depend on its seed), so no result could answer for both (a union would
 * keep dst's seed and lose what src held); bb_filter_mismatch says what
 * differs. dst must be writable. Kudu's always-false state is
 * honoured: a union with an always-false src changes nothing, and an
 * intersection with one makes dst always-false. The two bitsets must either
 * be the same bytes (dst->data == src->data: then the bytes stay as they are,
 * since x | x == x & x == x) or not overlap at all; views whose bitsets
 * partly overlap are refused with BB_ERR_FILTERS_OVERLAP and nothing is
 * written (the kernels read and write in differently sized chunks per ISA, so
 * an overlapping result would differ between tiers). */
BB_API int bb_filter_union(bb_filter* dst, const bb_filter* src);
BB_API int bb_filter_intersect(bb_filter* dst, const bb_filter* src);

/* Whether a and b can be combined (bb_filter_union / _intersect): BB_OK if
 * they have the same layout, size and, for Kudu, hash_seed; else
 * BB_ERR_FILTER_MISMATCH and, when reason is not NULL and capacity > 0, the
 * first that differs with both values in English ("the Kudu filters differ
 * in hash seed: 1 and 2"), NUL-terminated and cut to capacity - 1 bytes
 * (an empty string on BB_OK). Only the shapes are read, not the bits. */
BB_API int bb_filter_mismatch(const bb_filter* a, const bb_filter* b, char* reason,
                              size_t capacity);

/* ------------------------------------------------------------------- ISAs
 * Names: bb_isa_name(0 .. bb_isa_count() - 1). The best ISA the CPU
 * supports is selected when the library loads. BLOCKBLOOM_ISA=<name> in the
 * environment forces one; an unknown name, or one this build or CPU cannot
 * run, is refused (the best ISA stays selected) and the reason is reported by
 * bb_forced_isa_refused(). */

/* The ISA registry: every tier this version of the library knows, whether
 * or not this build compiled it or this CPU can run it, best first (the
 * order the dispatcher tries them; "scalar" is last). bb_isa_name(i) is the
 * i-th name for i < bb_isa_count(), NULL past the end. Lists of ISAs in
 * tests, benchmarks, scripts and bindings are derived from these. */
BB_API size_t bb_isa_count(void);
BB_API const char* bb_isa_name(size_t i);

/* Name of the ISA whose kernels the filter functions call now. */
BB_API const char* bb_selected_isa(void);

/* Comma-separated names, best first, e.g. "avx512,avx2,sse42,scalar". */
BB_API const char* bb_compiled_isas(void);
BB_API const char* bb_supported_isas(void);

/* 1 if this build has the ISA and this CPU can run it, else 0. */
BB_API int bb_isa_supported(const char* name);

/* Switches the ISA at run time (process-wide). Not meant for hot paths; calls
 * that run concurrently with it finish on either the old or the new ISA,
 * both of which give identical results. */
BB_API int bb_select_isa(const char* name);

/* The value of BLOCKBLOOM_ISA seen at load (NULL if unset or empty) and, if it
 * was refused, why (NULL if it was honoured or unset). */
BB_API const char* bb_forced_isa(void);
BB_API const char* bb_forced_isa_refused(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_BLOCKBLOOM_H_ */
