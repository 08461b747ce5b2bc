# SPDX-License-Identifier: Apache-2.0
"""Parquet files whose footers are made to cost memory, one per shape a
footer reader could expand: every list or string of the FileMetaData that a
reader might copy per element, written as Thrift compact bytes by hand (a
repeated element is encoded once and its bytes repeated, so that each file
of a few MB is written in a fraction of a second). Used by the
footer-memory tests of the tool (ParquetFooterMemory in
tests/cli/parquet_hostile_cli_test.py) and of Python
(python/tests/test_parquet_footer_memory.py), which measure the peak RSS of
a child reading each one against the bound docs/reliability.md states.

Every file has a 32-byte filter (header + bitset) at offset 4 that chunks
may point at, so that `parquet list` lists them (and keeps their rows).
"""

import struct

from parquet_files import BINARY, I32, I64, LIST, STRUCT, bloom_header

MIB = 1 << 20
# The bound docs/reliability.md states for reading a footer: the peak RSS of
# `blockbloom parquet list` (and what Python's blockbloom.parquet adds to
# the interpreter's, beside the rows it returns) stays under this many
# times the file's size plus FOOTER_MEMORY_BASE.
FOOTER_MEMORY_MULTIPLE = 16
FOOTER_MEMORY_BASE = 16 * MIB
FILTER = bloom_header(32) + bytes(32)
FILTER_OFFSET = 4


def uleb(v):
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    return bytes(out + bytes([v]))


def binary(data):
    return uleb(len(data)) + data


def list_header(elem, count):
    return bytes([count << 4 | elem]) if count < 15 else bytes([0xF0 | elem]) + uleb(count)


def leaf(name):
    """A SchemaElement: type INT32 (field 1), name (field 4)."""
    return b"\x15\x02\x38" + binary(name) + b"\x00"


def group(name, children):
    """A SchemaElement: name (field 4), num_children (field 5)."""
    return b"\x48" + binary(name) + b"\x15" + uleb(children << 1) + b"\x00"


def header(fid, last, ftype):
    """A field header of id fid after field last."""
    delta = fid - last
    return bytes([delta << 4 | ftype]) if 0 < delta <= 15 else bytes([ftype]) + uleb(fid << 1)


def zigzag(v):
    return uleb((v << 1) ^ (v >> 63) if v < 0 else v << 1)


def chunk(filter_offset=FILTER_OFFSET, meta=b"", meta_last=0, file_path=None):
    """A ColumnChunk: file_path (field 1) if given, then a ColumnMetaData of
    meta (its fields up to meta_last, encoded) and bloom_filter_offset
    (field 14) unless filter_offset is None."""
    out = b""
    last = 0
    if file_path is not None:
        out += header(1, 0, BINARY) + binary(file_path)
        last = 1
    out += header(3, last, STRUCT) + meta
    if filter_offset is not None:
        out += header(14, meta_last, I64) + zigzag(filter_offset)
    return out + b"\x00\x00"


def row_group(chunks, count):
    """A RowGroup: its columns list (count chunks, encoded) and num_rows."""
    return b"\x19" + list_header(STRUCT, count) + chunks + b"\x16\xc8\x01\x00"


def file_of(schema, schema_count, root_children, groups=b"", group_count=0, extra=b"",
            body=b""):
    """A Parquet file: the filter at offset 4, then a FileMetaData of the
    schema elements below the root (encoded, schema_count of them, the
    root's children root_children), group_count row groups (encoded) and
    extra (FileMetaData fields from 5 on, their headers after field 4); body
    goes between the filter and the FileMetaData."""
    out = bytearray(b"\x15\x04")  # version 2
    out += b"\x19" + list_header(STRUCT, schema_count + 1)
    out += group(b"schema", root_children) + schema
    out += b"\x16\xc8\x01"  # num_rows 100
    out += b"\x19" + list_header(STRUCT, group_count) + groups
    out += extra + b"\x00"
    return b"PAR1" + FILTER + body + bytes(out) + struct.pack("<I", len(out)) + b"PAR1"


def short_names(count):
    return [b"c%06d" % i for i in range(count)]


def one_column_groups(chunks, body=b""):
    """File bytes: one INT32 column "x" and one row group per chunk given."""
    return file_of(leaf(b"x"), 1, 1, b"".join(row_group(c, 1) for c in chunks), len(chunks),
                   body=body)


# --------------------------------------------------------------- the shapes
# Each makes a file of about `size` bytes.

def many_columns(size):
    """The widest schema for its bytes: leaves of 12 bytes, no row group."""
    n = size // 12
    return file_of(b"".join(leaf(x) for x in short_names(n)), n, n)


def long_shared_paths(size):
    """One group of a long name that every leaf's path repeats (the footer
    spells it once, the dotted paths once per leaf), every leaf listed (its
    chunk points at the filter): whatever a reader copies per column."""
    name = b"g" * 200
    n = size // 16
    schema = group(name, n) + b"".join(leaf(b"%05x" % i) for i in range(n))
    return file_of(schema, n + 1, 1, row_group(chunk() * n, n), 1)


def many_listed_columns(size):
    """The widest schema whose every column is listed: 16 footer bytes a
    column (its leaf and its chunk in one row group)."""
    n = size // 16
    schema = b"".join(leaf(x) for x in short_names(n))
    return file_of(schema, n, n, row_group(chunk() * n, n), 1)


def deep_nesting(size):
    """A chain of groups, each one level deeper, with a leaf at each level
    (every one listed): the leaves' paths grow with the depth, quadratic in
    the footer, until the memory limit (or, that lifted, the cap on the
    paths) refuses them."""
    name = b"d" * 20
    depth = size // 40
    schema = b"".join(group(name, 2) + leaf(b"x") for _ in range(depth - 1))
    schema += group(name, 1) + leaf(b"x")
    return file_of(schema, 2 * depth, 1, row_group(chunk() * depth, depth), 1)


def chunks_of_one_byte(size):
    """Row groups of 64 columns whose chunks are one stop byte each: the
    most chunks for the bytes."""
    columns = 64
    groups = size // (columns + 6)
    schema = b"".join(leaf(x) for x in short_names(columns))
    return file_of(schema, columns, columns, row_group(b"\x00" * columns, columns) * groups, groups)


def many_row_groups(size):
    """Row groups of one empty chunk (7 bytes each)."""
    n = size // 7
    return file_of(leaf(b"x"), 1, 1, row_group(b"\x00", 1) * n, n)


def many_listed_filters(size):
    """Row groups of one chunk pointing at the filter: a listed row each."""
    one = row_group(chunk(), 1)
    n = size // len(one)
    return file_of(leaf(b"x"), 1, 1, one * n, n)


def distinct_bad_offsets(size):
    """Chunks each with a distinct negative bloom_filter_offset: an error
    text of its own for each (kept once per distinct text)."""
    return one_column_groups([chunk(-1 - i) for i in range(size // 12)])


def distinct_header_offsets(size):
    """Chunks each pointing at a distinct offset of a zero-filled body (no
    header parses there): one header parse kept per distinct offset, and an
    error text of its own for each."""
    n = size // 20
    start = FILTER_OFFSET + len(FILTER)
    return one_column_groups([chunk(start + i) for i in range(n)], body=bytes(n))


def distinct_file_paths(size):
    """Chunks each with a distinct 100-byte file_path (data in another
    file): the reason a chunk's filter is not read quotes it."""
    n = size // 115
    return one_column_groups([chunk(file_path=b"%0100d" % i) for i in range(n)])


def long_path_in_schema(size):
    """Every chunk repeats its column's long path_in_schema (checked
    against the schema, never kept)."""
    name = b"p" * 1000
    path = header(3, 0, LIST) + list_header(BINARY, 1) + binary(name)
    n = size // (len(path) + 12)
    return file_of(leaf(name), 1, 1, row_group(chunk(meta=path, meta_last=3), 1) * n, n)


def long_names(size):
    """A few columns of very long names (each kept once, and listed)."""
    n = 4
    name_len = size // n
    schema = b"".join(leaf(bytes([97 + i]) * name_len) for i in range(n))
    return file_of(schema, n, n, row_group(chunk() * n, n), 1)


def big_key_value_metadata(size):
    """FileMetaData.key_value_metadata (field 5): many entries, some of them
    long, none of which a Bloom filter reader needs."""
    entry = header(1, 0, BINARY) + binary(b"k" * 20) + header(2, 1, BINARY) + binary(b"v" * 100)
    n = size // (2 * len(entry))
    entries = (entry + b"\x00") * n + header(1, 0, BINARY) + binary(b"K" * (size // 2)) + b"\x00"
    kv = header(5, 4, LIST) + list_header(STRUCT, n + 1) + entries
    return file_of(leaf(b"x"), 1, 1, row_group(chunk(), 1), 1, kv)


def big_statistics(size):
    """Chunks whose Statistics (ColumnMetaData field 12) hold huge min / max
    values, and whose encodings (field 2) and encoding_stats (field 13)
    lists are long: all skipped by a Bloom filter reader."""
    value = b"s" * (size // 8)
    stats = (header(1, 0, BINARY) + binary(value) + header(2, 1, BINARY) + binary(value) +
             header(5, 2, BINARY) + binary(value) + header(6, 5, BINARY) + binary(value) + b"\x00")
    encodings = header(2, 0, LIST) + list_header(I32, size // 8) + b"\x00" * (size // 8)
    page_stat = b"\x15\x00\x15\x00\x15\x02\x00"  # page_type, encoding, count
    stat_count = size // 8 // len(page_stat)
    enc_stats = list_header(STRUCT, stat_count) + page_stat * stat_count
    meta = encodings + header(12, 2, STRUCT) + stats + header(13, 12, LIST) + enc_stats
    return file_of(leaf(b"x"), 1, 1, row_group(chunk(meta=meta, meta_last=13), 1), 1)


def long_created_by(size):
    """FileMetaData.created_by (field 6), the whole footer long: kept once."""
    extra = header(6, 4, BINARY) + binary(b"w" * size)
    return file_of(leaf(b"x"), 1, 1, row_group(chunk(), 1), 1, extra)


SHAPES = {f.__name__: f for f in (
    many_columns, many_listed_columns, long_shared_paths, deep_nesting, chunks_of_one_byte,
    many_row_groups, many_listed_filters, distinct_bad_offsets, distinct_header_offsets,
    distinct_file_paths, long_path_in_schema, long_names, big_key_value_metadata, big_statistics,
    long_created_by)}
