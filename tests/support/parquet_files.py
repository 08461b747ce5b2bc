# SPDX-License-Identifier: Apache-2.0
"""Parquet files by hand, and read back independently, for the tools' tests
(tests/aligncheck/aligncheck_test.py, tests/cli/parquet_cli_test.py).

- CompactWriter / CompactReader: the Thrift compact protocol, written here
  from the protocol's description, not from the library.
- Column, file_metadata_start(), parquet_file(), build_parquet(): footers with
  a schema, row groups and Bloom filters placed where a test wants them;
  ambiguous_paths_parquet(): two columns of one dotted path ("a.b" and a/b).
- logical_types_parquet(): a column of every logical type, its filters and
  the cases (text spellings, absent values, refusals) of an independent
  model (tests/support/xxh64_model.py), for tests/cli/parquet_logical_types_test.py
  and python/tests/test_parquet_logical_types.py.
- read_file_metadata(), walk_footer(), read_bloom_header(): a Python reader of
  footers, to compare the tools' answers with.
- column_values(): the stored values of a column chunk (PLAIN and dictionary
  pages, v1 and v2, definition levels; UNCOMPRESSED or GZIP), as the bytes
  of their plain encoding: what a Parquet writer hashes into the filter.
"""

import gzip
import os
import re
import struct
import sys
import unittest

BOOL_TRUE, BOOL_FALSE, BYTE, I16, I32, I64, DOUBLE, BINARY, LIST, SET, MAP, STRUCT = (
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)

# parquet.thrift Type
BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE_TYPE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY = range(8)
PHYSICAL_NAMES = ["BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
                  "FIXED_LEN_BYTE_ARRAY"]


class CompactWriter:
    def __init__(self):
        self.out = bytearray()
        self.last = [0]

    def varint(self, v):
        while v >= 0x80:
            self.out.append((v & 0x7F) | 0x80)
            v >>= 7
        self.out.append(v)
        return self

    def zigzag(self, v):
        return self.varint((v << 1) ^ (v >> 63))

    def field(self, fid, ftype):
        delta = fid - self.last[-1]
        if 0 < delta <= 15:
            self.out.append(delta << 4 | ftype)
        else:
            self.out.append(ftype)
            self.zigzag(fid)
        self.last[-1] = fid
        return self

    def begin(self):
        self.last.append(0)
        return self

    def end(self):
        self.out.append(0)
        self.last.pop()
        return self

    def empty_struct(self, fid):
        return self.field(fid, STRUCT).begin().end()

    def list_header(self, elem, count):
        if count < 15:
            self.out.append(count << 4 | elem)
        else:
            self.out.append(0xF0 | elem)
            self.varint(count)
        return self

    def binary(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.varint(len(data))
        self.out += data
        return self

    def raw(self, data):
        self.out += data
        return self


class CompactReader:
    """Reads Thrift compact values; skips anything it is not asked for."""

    def __init__(self, data, pos=0):
        self.data = data
        self.pos = pos

    def byte(self):
        if self.pos >= len(self.data):
            raise ValueError("truncated")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self):
        value, shift = 0, 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return value

    def zigzag(self):
        u = self.varint()
        return (u >> 1) ^ -(u & 1)

    def binary(self):
        n = self.varint()
        value = self.data[self.pos:self.pos + n]
        self.pos += n
        return value

    def list_header(self):
        b = self.byte()
        count, elem = b >> 4, b & 0x0F
        if count == 15:
            count = self.varint()
        return elem, count

    def value(self, ftype, in_collection=False):
        """One value of a compact type, as Python data: structs as {id: value}."""
        if ftype in (BOOL_TRUE, BOOL_FALSE):
            return self.byte() == 1 if in_collection else ftype == BOOL_TRUE
        if ftype == BYTE:
            return self.byte()
        if ftype in (I16, I32, I64):
            return self.zigzag()
        if ftype == DOUBLE:
            self.pos += 8
            return self.data[self.pos - 8:self.pos]
        if ftype == BINARY:
            return bytes(self.binary())
        if ftype in (LIST, SET):
            elem, count = self.list_header()
            return [self.value(elem, True) for _ in range(count)]
        if ftype == MAP:
            count = self.varint()
            if not count:
                return []
            kv = self.byte()
            return [(self.value(kv >> 4, True), self.value(kv & 0x0F, True)) for _ in range(count)]
        if ftype == STRUCT:
            return self.struct()
        raise ValueError("bad type %d" % ftype)

    def struct(self):
        fields = {}
        last = 0
        while True:
            b = self.byte()
            if b == 0:
                return fields
            ftype, delta = b & 0x0F, b >> 4
            fid = last + delta if delta else self.zigzag()
            last = fid
            fields[fid] = self.value(ftype)


# ------------------------------------------------------------------- writing

def bloom_header(num_bytes):
    """A BloomFilterHeader: numBytes, BLOCK, XXHASH, UNCOMPRESSED."""
    w = CompactWriter().begin()
    w.field(1, I32).zigzag(num_bytes)
    for fid in (2, 3, 4):
        w.field(fid, STRUCT).begin().field(1, STRUCT).begin().end().end()
    w.end()
    return bytes(w.out)


class Column:
    """A schema leaf: its path (a list of names) and how it is annotated.
    logical: None, or a tuple: ("STRING",), ("INTEGER", bit_width, signed),
    ("DECIMAL", scale, precision), ("TIME"|"TIMESTAMP", unit 1..3, utc),
    ("DATE",), ("UUID",), ("JSON",), or (member id,) for any other."""

    LOGICAL_IDS = {"STRING": 1, "ENUM": 4, "DECIMAL": 5, "DATE": 6, "TIME": 7, "TIMESTAMP": 8,
                   "INTEGER": 10, "JSON": 12, "BSON": 13, "UUID": 14, "FLOAT16": 15}

    def __init__(self, path, physical=INT32, type_length=None, logical=None, converted=None,
                 scale=None, precision=None):
        self.path = [path] if isinstance(path, str) else list(path)
        self.physical = physical
        self.type_length = type_length
        self.logical = logical
        self.converted = converted
        self.scale = scale
        self.precision = precision

    def write_leaf(self, w, name):
        w.begin()
        w.field(1, I32).zigzag(self.physical)
        if self.type_length is not None:
            w.field(2, I32).zigzag(self.type_length)
        w.field(3, I32).zigzag(1)  # OPTIONAL
        w.field(4, BINARY).binary(name)
        if self.converted is not None:
            w.field(6, I32).zigzag(self.converted)
        if self.scale is not None:
            w.field(7, I32).zigzag(self.scale)
        if self.precision is not None:
            w.field(8, I32).zigzag(self.precision)
        if self.logical is not None:
            kind = self.logical[0]
            member = self.LOGICAL_IDS.get(kind, kind)
            w.field(10, STRUCT).begin().field(member, STRUCT).begin()
            if kind == "INTEGER":
                w.field(1, BYTE).raw(bytes([self.logical[1] & 0xFF]))
                w.field(2, BOOL_TRUE if self.logical[2] else BOOL_FALSE)
            elif kind == "DECIMAL":
                w.field(1, I32).zigzag(self.logical[1]).field(2, I32).zigzag(self.logical[2])
            elif kind in ("TIME", "TIMESTAMP"):
                w.field(1, BOOL_TRUE if self.logical[2] else BOOL_FALSE)
                w.field(2, STRUCT).begin().empty_struct(self.logical[1]).end()
            w.end().end()
        w.end()


def _schema_level(w, columns, depth, groups=None):
    """Writes the elements for columns (all sharing path[:depth]); returns the
    count. groups: {group path tuple: (repetition, converted type or None)}
    for groups that are not OPTIONAL and unannotated (LIST, MAP)."""
    written = 0
    i = 0
    while i < len(columns):
        j = i + 1
        while j < len(columns) and columns[j].path[depth] == columns[i].path[depth]:
            j += 1
        name = columns[i].path[depth]
        written += 1
        if j == i + 1 and len(columns[i].path) == depth + 1:
            columns[i].write_leaf(w, name)
        else:
            group = columns[i:j]
            children = len({tuple(c.path[:depth + 2]) for c in group})
            repetition, converted = (groups or {}).get(tuple(columns[i].path[:depth + 1]),
                                                       (1, None))
            w.begin().field(3, I32).zigzag(repetition).field(4, BINARY).binary(name)
            w.field(5, I32).zigzag(children)
            if converted is not None:
                w.field(6, I32).zigzag(converted)
            w.end()
            written += _schema_level(w, group, depth + 1, groups)
        i = j
    return written


def file_metadata_start(columns=(), groups=None):
    """A writer inside a FileMetaData holding its required fields but
    row_groups: version, the schema of columns (Column objects or paths;
    groups as _schema_level's), num_rows."""
    columns = [c if isinstance(c, Column) else Column(c) for c in columns]
    elements = CompactWriter()
    elements.begin().field(4, BINARY).binary("schema")
    elements.field(5, I32).zigzag(len({c.path[0] for c in columns})).end()
    count = 1 + _schema_level(elements, columns, 0, groups)
    w = CompactWriter().begin()
    w.field(1, I32).zigzag(2)
    w.field(2, LIST).list_header(STRUCT, count).raw(elements.out)
    w.field(3, I64).zigzag(100)
    return w


def _typed(w, ftype, value):
    """An integer value written as ftype: the integer (I32, I64), a list<i32>
    holding it (LIST) or its decimal text (BINARY), as a confused writer might."""
    if ftype == LIST:
        w.list_header(I32, 1).zigzag(value)
    elif ftype == BINARY:
        w.binary(str(value))
    else:
        w.zigzag(value)


def write_column_meta(w, column, num_values=100, offset=None, length=None, file_path=None,
                      offset_type=I64, length_type=I32):
    """A ColumnChunk holding a ColumnMetaData (offset/length: the filter's,
    written as offset_type/length_type, _typed's; file_path: the chunk's data
    in another file)."""
    w.begin()
    if file_path is not None:
        w.field(1, BINARY).binary(file_path)
    w.field(2, I64).zigzag(4)
    w.field(3, STRUCT).begin()
    w.field(1, I32).zigzag(column.physical)
    w.field(3, LIST).list_header(BINARY, len(column.path))
    for part in column.path:
        w.binary(part)
    w.field(4, I32).zigzag(0)
    w.field(5, I64).zigzag(num_values)
    if offset is not None:
        _typed(w.field(14, offset_type), offset_type, offset)
    if length is not None:
        _typed(w.field(15, length_type), length_type, length)
    w.end()  # ColumnMetaData
    w.end()  # ColumnChunk


def build_parquet(columns, row_groups, misalign=None, body_prefix=b"", groups=None):
    """A file with the schema of `columns` and one row group per entry of
    row_groups: a list with one entry per column, None (no filter) or a
    dict: "filter" (header + bitset bytes, placed in the body), or "offset"
    (a bloom_filter_offset pointing anywhere); "length" overrides
    bloom_filter_length (None or "omit": not written, as older writers do);
    "offset_type" / "length_type" the wire types they are written as (I64 /
    I32 by default; LIST or BINARY, as a confused writer might).
    "num_values" sets ColumnMetaData.num_values, "file_path" ColumnChunk.file_path. groups: the repetition and
    converted type of groups, as _schema_level's. With misalign, each bitset
    starts at a multiple of 64 plus misalign. Returns (file bytes,
    placements): placements[g][c] is None or (header offset, bitset offset,
    header + bitset length), the bitset offset as the blob's own header says
    (the header offset itself when it is not a header)."""
    columns = [c if isinstance(c, Column) else Column(c) for c in columns]
    body = bytearray(b"PAR1" + body_prefix)
    placements = []
    for group in row_groups:
        placed = []
        for spec in group:
            if spec is None or "filter" not in spec:
                placed.append(None)
                continue
            blob = spec["filter"]
            try:
                header_len = read_bloom_header(blob, 0)[0]
            except (ValueError, KeyError, IndexError):
                header_len = 0
            if misalign is not None:
                while (len(body) + header_len) % 64 != misalign:
                    body.append(0xAA)
            placed.append((len(body), len(body) + header_len, len(blob)))
            body += blob
        placements.append(placed)
    w = file_metadata_start(columns, groups)
    w.field(4, LIST).list_header(STRUCT, len(row_groups))
    for group, placed in zip(row_groups, placements):
        w.begin()
        w.field(1, LIST).list_header(STRUCT, len(group))
        for column, spec, where in zip(columns, group, placed):
            offset = length = None
            if where is not None:
                offset, length = where[0], where[2]
            if spec is not None:
                offset = spec.get("offset", offset)
                length = spec.get("length", length)
                if length == "omit":
                    length = None
            write_column_meta(w, column, spec.get("num_values", 100) if spec else 100, offset,
                              length, spec.get("file_path") if spec else None,
                              spec.get("offset_type", I64) if spec else I64,
                              spec.get("length_type", I32) if spec else I32)
        w.field(2, I64).zigzag(0)
        w.field(3, I64).zigzag(100)
        w.end()  # RowGroup
    w.field(6, BINARY).binary("parquet_files.py")
    w.end()
    metadata = bytes(w.out)
    return bytes(body) + metadata + struct.pack("<I", len(metadata)) + b"PAR1", placements


def ambiguous_paths_parquet(top_filter, nested_filter):
    """A file whose two INT32 columns share the dotted path "a.b", as pyarrow
    and DuckDB write them: a top-level column literally named "a.b" (column
    0, filter top_filter) and field b of group a (column 1, nested_filter),
    beside field c of group a (column 2, no filter). The filters are header
    + bitset bytes. Returns the file's bytes."""
    columns = [Column(["a.b"], INT32), Column(["a", "b"], INT32), Column(["a", "c"], INT32)]
    data, _ = build_parquet(columns, [[{"filter": top_filter}, {"filter": nested_filter}, None]])
    return data


def parquet_file(filters, misalign):
    """A file with a Parquet footer and one Bloom filter per column chunk:
    filters = [(path parts, bitset bytes or None)], in one row group. Each
    header is placed so that its bitset starts at a multiple of 64 plus
    `misalign`. Returns (file bytes, [bitset offset or None per chunk])."""
    group = []
    for _, num_bytes in filters:
        if num_bytes is None:
            group.append(None)
        else:
            group.append({"filter": bloom_header(num_bytes) + bytes(num_bytes)})
    data, placements = build_parquet([Column(path) for path, _ in filters], [group], misalign)
    return data, [p[1] if p else None for p in placements[0]]


# ------------------------------------------------------------------- reading

def testdata_file(test, name):
    """The path of a file of ../shared/testdata (BLOCKBLOOM_TESTDATA), or the
    test skipped with the reason when it is absent."""
    folder = os.environ.get("BLOCKBLOOM_TESTDATA", "")
    path = os.path.join(folder, name)
    if not folder or not os.path.isfile(path):
        test.skipTest("shared testdata is absent: no %s in BLOCKBLOOM_TESTDATA=%r" % (name, folder))
    return path


def read_file_metadata(data):
    """The FileMetaData of a whole file as {field id: value} (nested)."""
    (length,) = struct.unpack("<I", data[-8:-4])
    return CompactReader(data, len(data) - 8 - length).struct()


def schema_leaves(meta):
    """[(dotted path, SchemaElement dict, max definition level)] in order."""
    elements = meta[2]
    leaves = []

    def visit(i, prefix, def_level):
        e = elements[i]
        name = e[4].decode("utf-8", "surrogateescape")
        level = def_level + (1 if e.get(3, 0) != 0 else 0)
        path = prefix + [name]
        if e.get(5):
            j = i + 1
            for _ in range(e[5]):
                j = visit(j, path, level)
            return j
        leaves.append((".".join(path), e, level))
        return i + 1

    j = 1
    for _ in range(elements[0].get(5, 0)):
        j = visit(j, [], 0)
    return leaves


def walk_footer(data):
    """[{"row_group", "path", "offset"}] for every column chunk: path from
    path_in_schema, offset the bloom_filter_offset or None."""
    meta = read_file_metadata(data)
    chunks = []
    for g, group in enumerate(meta[4]):
        for chunk in group[1]:
            cmd = chunk.get(3, {})
            path = ".".join(p.decode("utf-8", "surrogateescape") for p in cmd.get(3, []))
            chunks.append({"row_group": g, "path": path, "offset": cmd.get(14)})
    return chunks


def read_bloom_header(data, offset):
    """(header length, numBytes) of the BloomFilterHeader at offset."""
    r = CompactReader(data, offset)
    header = r.struct()
    return r.pos - offset, header[1]


def _uleb(buf, pos):
    value, shift = 0, 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def rle_hybrid(buf, bit_width, count):
    """count values of the RLE / bit-packed hybrid encoding (Encodings.md)."""
    out = []
    pos = 0
    mask = (1 << bit_width) - 1
    while len(out) < count:
        header, pos = _uleb(buf, pos)
        if header & 1:  # bit-packed: groups of 8 values
            groups = header >> 1
            n = groups * bit_width
            bits = int.from_bytes(buf[pos:pos + n], "little")
            pos += n
            out += [(bits >> (k * bit_width)) & mask for k in range(groups * 8)]
        else:  # a run of one value
            width = (bit_width + 7) // 8
            out += [int.from_bytes(buf[pos:pos + width], "little")] * (header >> 1)
            pos += width
    return out[:count]


def plain_values(buf, physical, type_length, count):
    """The plain-encoded bytes of each of count values (BYTE_ARRAY: payload only)."""
    widths = {INT32: 4, INT64: 8, INT96: 12, FLOAT: 4, DOUBLE_TYPE: 8,
              FIXED_LEN_BYTE_ARRAY: type_length}
    values = []
    pos = 0
    for _ in range(count):
        if physical == BYTE_ARRAY:
            (n,) = struct.unpack_from("<I", buf, pos)
            values.append(bytes(buf[pos + 4:pos + 4 + n]))
            pos += 4 + n
        else:
            w = widths[physical]
            values.append(bytes(buf[pos:pos + w]))
            pos += w
    return values


def _decompress(page, codec):
    if codec == 0:
        return page
    if codec == 2:
        return gzip.decompress(page)
    raise unittest.SkipTest("column chunk codec %d cannot be decoded here" % codec)


def column_values(data, meta, row_group, column):
    """The non-null values stored in a column chunk, as plain-encoded bytes."""
    cmd = meta[4][row_group][1][column][3]
    path, element, max_def = schema_leaves(meta)[column]
    physical, codec = cmd[1], cmd[4]
    if physical == BOOLEAN:
        raise unittest.SkipTest("BOOLEAN values are not decoded")
    type_length = element.get(2)
    pos = cmd.get(11, cmd[9])
    end = pos + cmd[7]
    dictionary = None
    values = []
    def_width = max_def.bit_length()
    while pos < end:
        r = CompactReader(data, pos)
        header = r.struct()
        page = data[r.pos:r.pos + header[3]]
        pos = r.pos + header[3]
        kind = header[1]
        if kind == 2:  # DICTIONARY_PAGE
            body = _decompress(page, codec)
            dictionary = plain_values(body, physical, type_length, header[7][1])
            continue
        if kind == 0:  # DATA_PAGE
            body = _decompress(page, codec)
            dph = header[5]
            n, encoding = dph[1], dph[2]
            at = 0
            levels = [max_def] * n
            if max_def > 0:
                (length,) = struct.unpack_from("<I", body, at)
                levels = rle_hybrid(body[at + 4:at + 4 + length], def_width, n)
                at += 4 + length
            rest = body[at:]
        elif kind == 3:  # DATA_PAGE_V2: levels uncompressed, before the values
            dph = header[8]
            n, encoding = dph[1], dph[4]
            rep_len, def_len = dph[6], dph[5]
            levels = [max_def] * n
            if max_def > 0:
                levels = rle_hybrid(page[rep_len:rep_len + def_len], def_width, n)
            rest = page[rep_len + def_len:]
            if dph.get(7, True):
                rest = _decompress(rest, codec)
        else:
            continue
        present = sum(1 for level in levels if level == max_def)
        if encoding == 0:  # PLAIN
            values += plain_values(rest, physical, type_length, present)
        elif encoding in (2, 8):  # PLAIN_DICTIONARY, RLE_DICTIONARY
            indices = rle_hybrid(rest[1:], rest[0], present)
            values += [dictionary[i] for i in indices]
        else:
            raise unittest.SkipTest("%s: page encoding %d is not decoded here" % (path, encoding))
    return values


# ------------------------------------------------ every logical type, modelled

# parquet.thrift ConvertedType numbers used below.
CONVERTED = {"UTF8": 0, "MAP": 1, "LIST": 3, "ENUM": 4, "DECIMAL": 5, "DATE": 6,
             "TIME_MILLIS": 7, "TIME_MICROS": 8, "TIMESTAMP_MILLIS": 9, "TIMESTAMP_MICROS": 10,
             "UINT_8": 11, "UINT_16": 12, "UINT_32": 13, "UINT_64": 14, "INT_8": 15,
             "INT_16": 16, "INT_32": 17, "INT_64": 18, "JSON": 19, "INTERVAL": 21}
MILLIS, MICROS, NANOS = 1, 2, 3  # TimeUnit member ids
_UNIT_DIGITS = {MILLIS: 3, MICROS: 6, NANOS: 9}
_EPOCH = None  # datetime.datetime(1970, 1, 1), set on first use
JULIAN_EPOCH_DAY = 2440588  # the Julian day of 1970-01-01 (INT96)


def _value(plain, texts, objects=(), hex_texts=()):
    """One value of a case: its plain-encoding bytes, the text forms a user
    types for it, Python objects that stand for it (the not-yet-merged typed
    probe), and hex spellings (--hex, byte types only)."""
    return {"bytes": bytes(plain), "texts": list(texts), "objects": list(objects),
            "hex": list(hex_texts)}


def _twos_complement_be(v, width=None):
    """Big-endian two's complement: width bytes, or the fewest that hold v."""
    if width is None:
        width = 1
        while not -(1 << (8 * width - 1)) <= v < (1 << (8 * width - 1)):
            width += 1
    return (v % (1 << (8 * width))).to_bytes(width, "big")


def _decimal_plain(column, unscaled):
    if column.physical == INT32:
        return struct.pack("<i", unscaled)
    if column.physical == INT64:
        return struct.pack("<q", unscaled)
    if column.physical == FIXED_LEN_BYTE_ARRAY:
        return _twos_complement_be(unscaled, column.type_length)
    return _twos_complement_be(unscaled)


def _micros_since_epoch(dt):
    import datetime
    delta = dt - datetime.datetime(1970, 1, 1)
    return (delta.days * 86400 + delta.seconds) * 10**6 + delta.microseconds


def _today_form(column, plain):
    """(text, hex) of a value in the form today's `parquet probe` takes
    (tools/blockbloom/parquet/value_encoding.cc): INT32 / INT64 decimal
    integers (an unsigned annotation's value, else the signed physical
    value), FLOAT / DOUBLE a number, byte types hex. Also the Python object
    today's blockbloom.parquet.probe takes."""
    if column.physical in (INT32, INT64):
        unsigned = ((column.logical and column.logical[0] == "INTEGER" and not column.logical[2])
                    or (column.logical is None and column.converted in (11, 12, 13, 14)))
        v = int.from_bytes(plain, "little", signed=not unsigned)
        return str(v), False, v
    if column.physical == FLOAT:
        v = struct.unpack("<f", plain)[0]
        return repr(v), False, v
    if column.physical == DOUBLE_TYPE:
        v = struct.unpack("<d", plain)[0]
        return repr(v), False, v
    return plain.hex(), True, plain


def _physical_form(column, plain):
    """(text, hex) for --physical (BB_PARQUET_TEXT_PHYSICAL): INT32 / INT64
    the signed physical value, FLOAT / DOUBLE a number, byte types hex."""
    if column.physical in (INT32, INT64):
        return str(int.from_bytes(plain, "little", signed=True)), False
    text, hex_, _ = _today_form(column, plain)
    return text, hex_


def _integer_cases():
    out = []
    for bits in (8, 16, 32, 64):
        physical = INT64 if bits == 64 else INT32
        width = 8 if bits == 64 else 4
        for signed in (True, False):
            lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
            name = ("int%d" if signed else "uint%d") % bits
            converted = CONVERTED[("INT_%d" if signed else "UINT_%d") % bits]
            values = (lo, 0, hi, 5) if signed else (0, 1, hi, 5)
            for how, column in (("logical", Column([name], physical, logical=("INTEGER", bits, signed))),
                                ("converted", Column([name + "_c"], physical, converted=converted))):
                def plain(v):  # the value's bits, little-endian, in the physical width
                    return (v % (1 << (8 * width))).to_bytes(width, "little")
                stored = [_value(plain(v), [str(v)], [v]) for v in values]
                refusals = [(str(hi + 1), "range"), (str(lo - 1), "range"), (" 5", "syntax"),
                            ("+5", "syntax"), ("05", "syntax"), ("5.0", "syntax"), ("", "syntax"),
                            ("0x10", "syntax")]
                if signed:
                    refusals.append(("-0", "syntax"))
                out.append({"column": column, "type": "%s (%s)" % (name.upper(), how),
                            "stored": stored,
                            "absent": [_value(plain(v), [str(v)], [v]) for v in (6, hi - 1)],
                            "refusals": refusals})
    return out


def _float_cases():
    out = []
    for physical, fmt, name in ((FLOAT, "<f", "float"), (DOUBLE_TYPE, "<d", "double")):
        column = Column([name], physical)

        def v(x, texts):
            return _value(struct.pack(fmt, x), texts, [x])
        out.append({"column": column, "type": name.upper(),
                    "stored": [v(1.5, ["1.5", "1.50", "0x1.8p0", "15e-1"]),
                               v(-0.0, ["-0.0", "-0"]),
                               v(float("inf"), ["inf", "INF", "Inf", "Infinity", "+inf"]),
                               v(-2.25, ["-2.25"]),
                               # The positive quiet NaN: every spelling of NaN is it.
                               v(float("nan"), ["nan", "NaN", "-nan", "-NaN", "+nan"])],
                    "absent": [v(0.0, ["0.0", "0"]), v(2.5, ["2.5"]),
                               v(float("-inf"), ["-inf", "-Infinity"])],
                    "refusals": [("abc", "syntax"), ("", "syntax"), ("1.5x", "syntax"),
                                 ("1,5", "syntax"), ("1e999", "range"), ("-1e999", "range"),
                                 ("1e-999", "range"), ("nan(1)", "syntax"), ("--1", "syntax"),
                                 (" 1.5", "syntax")]})
    half = Column(["half"], FIXED_LEN_BYTE_ARRAY, 2, logical=("FLOAT16",))

    def h(x, texts):
        b = struct.pack("<e", x)
        # The object is the half itself (0.1 as a float is no half: absent, by the value table).
        return _value(b, texts, [struct.unpack("<e", b)[0]], [b.hex()])
    out.append({"column": half, "type": "FLOAT16",
                "stored": [h(1.5, ["1.5", "1.50"]), h(-0.0, ["-0.0"]),
                           h(0.1, ["0.1"]),  # rounded to the nearest half
                           h(65504.0, ["65504"])],
                "absent": [h(0.0, ["0.0"]), h(2.0, ["2"])],
                "refusals": [("abc", "syntax"), ("", "syntax"), ("1e6", "range"),
                             ("-70000", "range"), ("1e-10", "range")]})
    return out


def _decimal_cases():
    import decimal
    from decimal import Decimal
    out = []
    specs = [
        # (column, scale, precision, [(text, other spellings)], absent, refusals)
        (Column(["dec9_2"], INT32, logical=("DECIMAL", 2, 9)), 2, 9,
         [("123.45", ["1.2345E+2", "12345e-2"]), ("123.40", ["123.4", "123.400", "1.234E2"]),
          ("-0.05", ["-5E-2"]), ("0.00", ["0", "0.0", "-0.00", "0E-10", "0E+999999999"]),
          ("9999999.99", []), ("-9999999.99", []), ("-123.45", [])],
         ["123.46", "1.00"],
         [("1234567890", "range"), ("12345678", "range"), ("1.234", "syntax"), ("abc", "syntax"),
          ("1E+999999999", "range"), ("NaN", "range"), ("1.2345E+1", "syntax"), ("1e", "syntax"),
          ("", "syntax"), (" 1.5", "syntax"), ("1.2.3", "syntax"),
          (".5", "syntax"), ("00.5", "syntax"), ("+1.5", "syntax")]),
        (Column(["dec4_1"], INT32, logical=("DECIMAL", 1, 4)), 1, 4,
         [("999.9", []), ("-999.9", []), ("0.5", [])],
         ["1.5"],
         [("99999", "range"), ("1000", "range"), ("0.55", "syntax")]),
        (Column(["dec18_4"], INT64, logical=("DECIMAL", 4, 18)), 4, 18,
         [("12345678901234.5678", []), ("-1.0001", []), ("1.1000", ["1.1", "1.10"])],
         ["2"],
         [("123456789012345", "range"), ("1.00001", "syntax")]),
        (Column(["dec20_3"], FIXED_LEN_BYTE_ARRAY, 9, logical=("DECIMAL", 3, 20)), 3, 20,
         [("12345678901234567.890", ["12345678901234567.89"]), ("-1.000", ["-1"]),
          ("99999999999999999.999", [])],
         ["0"],
         [("123456789012345678", "range"), ("0.0001", "syntax")]),
        (Column(["dec30_5"], BYTE_ARRAY, logical=("DECIMAL", 5, 30)), 5, 30,
         [("1234567890123456789012345.67890", []), ("-0.00001", []), ("0.00128", []),
          ("0.00127", []), ("-0.00128", []), ("0.00000", ["0"])],
         ["0.00129"],
         [("12345678901234567890123456", "range"), ("0.000001", "syntax")]),
        (Column(["dec_converted"], INT32, converted=CONVERTED["DECIMAL"], scale=2, precision=5),
         2, 5,
         [("-123.45", []), ("999.99", [])],
         ["123.45"],
         [("1000", "range"), ("1.001", "syntax")]),
    ]
    for column, scale, precision, stored, absent, refusals in specs:
        def v(text, others=()):
            d = Decimal(text)
            unscaled = int(d.scaleb(scale, decimal.Context(prec=100)))  # exact: 38 digits fit
            plain = _decimal_plain(column, unscaled)
            hex_texts = [plain.hex()] if column.physical in (FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY) else []
            return _value(plain, [text] + list(others), [d], hex_texts)
        out.append({"column": column, "type": "DECIMAL(%d,%d)" % (precision, scale),
                    "stored": [v(t, o) for t, o in stored], "absent": [v(t) for t in absent],
                    "refusals": refusals})
    return out


def _date_cases():
    import datetime
    out = []
    for column in (Column(["date"], INT32, logical=("DATE",)),
                   Column(["date_c"], INT32, converted=CONVERTED["DATE"])):
        def v(text):
            d = datetime.date.fromisoformat(text)
            days = (d - datetime.date(1970, 1, 1)).days
            return _value(struct.pack("<i", days), [text], [d])
        out.append({"column": column, "type": "DATE",
                    "stored": [v("2024-01-31"), v("1970-01-01"), v("1969-12-31"), v("0001-01-01"),
                               v("9999-12-31"), v("2024-02-29")],
                    "absent": [v("2024-02-01"), v("2000-01-01")],
                    "refusals": [("2024-02-30", "range"), ("2024-13-01", "range"),
                                 ("2023-02-29", "range"), ("2024-1-31", "syntax"),
                                 ("2024-01-31T00:00:00", "syntax"), ("19753", "syntax"),
                                 ("", "syntax"), (" 2024-01-31", "syntax")]})
    return out


def _time_cases():
    import datetime
    out = []
    for unit, physical, fmt in ((MILLIS, INT32, "<i"), (MICROS, INT64, "<q"), (NANOS, INT64, "<q")):
        digits = _UNIT_DIGITS[unit]
        name = {MILLIS: "millis", MICROS: "micros", NANOS: "nanos"}[unit]
        column = Column(["time_" + name], physical, logical=("TIME", unit, unit != MILLIS))

        def v(clock, fraction, others=()):
            h, m, s = (int(p) for p in clock.split(":"))
            frac = int((fraction + "0" * 9)[:9])
            nanos = ((h * 60 + m) * 60 + s) * 10**9 + frac
            count = nanos // 10 ** (9 - digits)
            text = clock + ("." + fraction if fraction else "")
            objects = []
            if frac % 1000 == 0:
                objects = [datetime.time(h, m, s, frac // 1000)]
            return _value(struct.pack(fmt, count), [text] + list(others), objects)
        fraction = "123456789"[:digits]
        utc_spellings = ["14:34:56." + fraction + "+02:00", "12:34:56." + fraction + "+00"] \
            if unit != MILLIS else []
        stored = [v("12:34:56", fraction, utc_spellings),
                  v("00:00:00", "", ["00:00:00.0", "00:00:00." + "0" * digits, "00:00:00.000000000"]),
                  v("23:59:59", "9" * digits), v("12:34:56", "5", ["12:34:56.50"])]
        refusals = [("24:00:00", "range"), ("12:34:56." + "1" * (digits + 1), "syntax"),
                    ("12:60:00", "range"), ("12:34:60", "range"), ("12:34", "syntax"),
                    ("1:02:03", "syntax"), ("", "syntax"), ("12:34:56 Europe/Berlin", "syntax")]
        if unit == MILLIS:  # local time: no zone
            refusals.append(("12:34:56Z", "syntax"))
        else:  # UTC-adjusted: a zone is converted (PostgreSQL's timetz prints +00)
            refusals.append(("12:34:56+24:00", "range"))
        out.append({"column": column, "type": "TIME(%s)" % name.upper(), "stored": stored,
                    "absent": [v("12:34:57", ""), v("01:00:00", "")], "refusals": refusals})
    return out


def _timestamp_value(column, unit, utc, local_text, fraction, count_fmt="<q", int96=False):
    """A TIMESTAMP value 'YYYY-MM-DD HH:MM:SS' + fraction (UTC wall time on a
    UTC column), with every spelling the header allows."""
    import datetime
    naive = datetime.datetime.fromisoformat(local_text)
    frac = int((fraction + "0" * 9)[:9])
    nanos = _micros_since_epoch(naive) * 1000 + frac
    tail = "." + fraction if fraction else ""
    texts = [local_text + tail, local_text.replace(" ", "T") + tail]
    if utc:
        texts += [local_text + tail + "Z", local_text.replace(" ", "T") + tail + "Z",
                  local_text + tail + "+00:00", local_text + tail + "-00:00",
                  local_text + tail + "+00", local_text + tail + " UTC", local_text + tail + " +0000"]
        for offset, sign in ((datetime.timedelta(hours=2), "+02:00"),
                             (-datetime.timedelta(hours=5, minutes=30), "-05:30")):
            shifted = (naive + offset).isoformat(sep="T" if sign == "+02:00" else " ")
            texts.append(shifted + tail + sign)
    objects = []
    if frac % 1000 == 0:
        dt = naive.replace(microsecond=frac // 1000)
        if utc:
            objects = [dt.replace(tzinfo=datetime.timezone.utc),
                       dt.replace(tzinfo=datetime.timezone.utc).astimezone(
                           datetime.timezone(datetime.timedelta(hours=2)))]
        else:
            objects = [dt]
    if int96:
        days, nanos_of_day = divmod(nanos, 86400 * 10**9)
        plain = struct.pack("<QI", nanos_of_day, JULIAN_EPOCH_DAY + days)
        return _value(plain, texts, objects, [plain.hex(), plain.hex().upper()])
    count = nanos // 10 ** (9 - _UNIT_DIGITS[unit])
    return _value(struct.pack(count_fmt, count), texts, objects)


def _timestamp_cases():
    out = []
    columns = []
    for unit in (MILLIS, MICROS, NANOS):
        for utc in (True, False):
            name = "ts_%s_%s" % ({MILLIS: "millis", MICROS: "micros", NANOS: "nanos"}[unit],
                                 "utc" if utc else "local")
            columns.append((Column([name], INT64, logical=("TIMESTAMP", unit, utc)), unit, utc,
                            "TIMESTAMP(%s,%s)" % (name.split("_")[1].upper(), str(utc).lower())))
    columns.append((Column(["ts_millis_c"], INT64, converted=CONVERTED["TIMESTAMP_MILLIS"]),
                    MILLIS, True, "TIMESTAMP_MILLIS"))
    columns.append((Column(["ts_micros_c"], INT64, converted=CONVERTED["TIMESTAMP_MICROS"]),
                    MICROS, True, "TIMESTAMP_MICROS"))
    for column, unit, utc, type_name in columns:
        digits = _UNIT_DIGITS[unit]
        fraction = "123456789"[:digits]

        def v(text, frac):
            return _timestamp_value(column, unit, utc, text, frac)
        refusals = [("2024-01-31 12:34:56." + "1" * (digits + 1), "syntax"),
                    ("2024-02-30 00:00:00", "range"), ("2024-01-31 24:00:00", "range"),
                    ("2024-01-31", "syntax"), ("2024-01-31  12:34:56", "syntax"),
                    ("2024-01-31 12:34", "syntax"), ("", "syntax")]
        if unit == NANOS:  # int64 nanoseconds reach 2262-04-11
            refusals.append(("2263-01-01 00:00:00", "range"))
        if utc:
            refusals += [("2024-01-31 12:34:56+2:00", "syntax"), ("2024-01-31 12:34:56+24:00", "range")]
        else:
            refusals += [("2024-01-31 12:34:56Z", "syntax"), ("2024-01-31 12:34:56+00:00", "syntax"),
                         ("2024-01-31T12:34:56.1+02:00", "syntax")]
        out.append({"column": column, "type": type_name,
                    "stored": [v("2024-01-31 12:34:56", fraction), v("1970-01-01 00:00:00", ""),
                               v("1969-12-31 23:59:59", "9" * digits),
                               v("2000-02-29 06:00:00", "5")],
                    "absent": [v("2024-01-31 12:34:57", ""), v("2024-01-31 12:34:56", "")],
                    "refusals": refusals})
    column = Column(["ts_int96"], INT96)

    def v96(text, frac):
        return _timestamp_value(column, NANOS, False, text, frac, int96=True)
    out.append({"column": column, "type": "INT96",
                "stored": [v96("2024-01-31 12:34:56", "123456789"), v96("1970-01-01 00:00:00", ""),
                           v96("1969-12-31 23:59:59", "999999999")],
                "absent": [v96("2024-01-31 12:34:57", "")],
                "refusals": [("2024-01-31 12:34:56Z", "syntax"), ("2024-01-31 12:34:56+02:00", "syntax"),
                             ("2024-01-31 12:34:56.1234567891", "syntax"), ("2024-01-31", "syntax")]})
    return out


def _byte_cases():
    import uuid
    out = []

    def s(text):
        b = text.encode()
        return _value(b, [text], [text, b], [b.hex()])
    for column, type_name in ((Column(["string"], BYTE_ARRAY, logical=("STRING",)), "STRING"),
                              (Column(["utf8_c"], BYTE_ARRAY, converted=CONVERTED["UTF8"]), "UTF8"),
                              (Column(["enum"], BYTE_ARRAY, logical=("ENUM",)), "ENUM"),
                              (Column(["json"], BYTE_ARRAY, logical=("JSON",)), "JSON")):
        stored = {"STRING": ["hello", "", "h\u00e9llo w\u00f6rld", " 5"],
                  "UTF8": ["hello", "-0"],
                  "ENUM": ["RED", "GREEN"],
                  "JSON": ['{"a": 1}', "[]"]}[type_name]
        out.append({"column": column, "type": type_name, "stored": [s(t) for t in stored],
                    "absent": [s("Hello"), s("hello ")], "refusals": []})
    blob = Column(["blob"], BYTE_ARRAY)

    def b(data, texts=()):
        return _value(data, texts, [data], [data.hex(), data.hex().upper()])
    out.append({"column": blob, "type": "BYTE_ARRAY",
                "stored": [b(b"\x00\xff\x10"), b(b"abc", ["abc"]), b(b"", [""])],
                "absent": [b(b"\x00\xff"), b(b"abd", ["abd"])], "refusals": []})
    uuid_column = Column(["uuid"], FIXED_LEN_BYTE_ARRAY, 16, logical=("UUID",))

    def u(text):
        value = uuid.UUID(text)
        return _value(value.bytes, [str(value), str(value).upper(), value.hex, value.hex.upper(),
                                    "{%s}" % str(value).upper(), value.urn],
                      [value], [value.hex])
    out.append({"column": uuid_column, "type": "UUID",
                "stored": [u("123e4567-e89b-12d3-a456-426614174000"),
                           u("00000000-0000-0000-0000-000000000000"),
                           u("ffffffff-ffff-ffff-ffff-ffffffffffff")],
                "absent": [u("123e4567-e89b-12d3-a456-426614174001")],
                "refusals": [("123e4567-e89b-12d3-a456-42661417400", "syntax"),
                             ("123e4567e89b-12d3-a456-426614174000", "syntax"),
                             ("{123e4567-e89b-12d3-a456-426614174000", "syntax"),
                             ("{123e4567e89b12d3a456426614174000}", "syntax"),
                             ("g23e4567-e89b-12d3-a456-426614174000", "syntax"),
                             ("123e4567-e89b-12d3-a456-4266141740000", "syntax"),
                             ("", "syntax")]})
    interval = Column(["interval"], FIXED_LEN_BYTE_ARRAY, 12, converted=CONVERTED["INTERVAL"])

    def i(months, days, ms, others=()):
        plain = struct.pack("<III", months, days, ms)
        return _value(plain, ["%d months %d days %d ms" % (months, days, ms)] + list(others), [plain],
                      [plain.hex()])
    out.append({"column": interval, "type": "INTERVAL",
                "stored": [i(14, 3, 5000, ["1 year 2 mons 3 days 00:00:05", "1 year 2 months 3 days 00:00:05",
                                           "14 mons 3 days 00:00:05.000", "P1Y2M3DT5S", "P14M3DT0H0M5.000S"]),
                           i(0, 0, 0, ["00:00:00", "PT0S", "0 days"]),
                           i(4294967295, 4294967295, 4294967295,
                             ["4294967295 mons 4294967295 days 1193:02:47.295"])],
                "absent": [i(14, 3, 5001), i(1, 0, 0, ["1 mon", "P1M"])],
                "refusals": [("4294967296 months 0 days 0 ms", "range"), ("3 days 14 months", "syntax"),
                             ("-1 months 0 days 0 ms", "range"), ("1 mon -2 days", "range"),
                             ("P1D2M", "syntax"), ("00:00:00.0001", "syntax"), ("1 fortnight", "syntax"),
                             ("", "syntax")]})
    return out


def _nested_cases():
    """A struct's field, a 3-level LIST's element, a MAP's key and value."""
    import datetime
    out = []

    def s(text):
        return _value(text.encode(), [text], [text], [text.encode().hex()])

    def d(text):
        day = datetime.date.fromisoformat(text)
        return _value(struct.pack("<i", (day - datetime.date(1970, 1, 1)).days), [text], [day])

    def n(v):
        return _value(struct.pack("<q", v), [str(v)], [v])
    out.append({"column": Column(["person", "name"], BYTE_ARRAY, logical=("STRING",)),
                "type": "STRING", "stored": [s("Ada"), s("Grace")], "absent": [s("Alan")],
                "refusals": []})
    out.append({"column": Column(["person", "birth"], INT32, logical=("DATE",)), "type": "DATE",
                "stored": [d("1815-12-10"), d("1906-12-09")], "absent": [d("1912-06-23")],
                "refusals": [("1815-12-32", "range")]})
    out.append({"column": Column(["tags", "list", "element"], BYTE_ARRAY, logical=("STRING",)),
                "type": "STRING", "stored": [s("red"), s("blue")], "absent": [s("green")],
                "refusals": []})
    out.append({"column": Column(["attrs", "key_value", "key"], BYTE_ARRAY, logical=("STRING",)),
                "type": "STRING", "stored": [s("k1"), s("k2")], "absent": [s("k3")],
                "refusals": []})
    out.append({"column": Column(["attrs", "key_value", "value"], INT64,
                                 logical=("INTEGER", 64, True)),
                "type": "INT64", "stored": [n(-7), n(1 << 40)], "absent": [n(8)],
                "refusals": [("9223372036854775808", "range")]})
    return out


NESTED_GROUPS = {("tags",): (1, CONVERTED["LIST"]), ("tags", "list"): (2, None),
                 ("attrs",): (1, CONVERTED["MAP"]), ("attrs", "key_value"): (2, None)}


def logical_types_parquet(num_bytes=1024, row_groups=1):
    """A Parquet file with one column per Parquet logical type (and per
    converted type that stands for one): INTEGER and INT_n / UINT_n, FLOAT,
    DOUBLE, FLOAT16, DECIMAL on INT32 / INT64 / FIXED_LEN_BYTE_ARRAY /
    BYTE_ARRAY and as converted type, DATE, TIME and TIMESTAMP of each unit
    (UTC-adjusted and local), TIMESTAMP_MILLIS / _MICROS, INT96, STRING,
    UTF8, ENUM, JSON, BYTE_ARRAY, UUID, INTERVAL, and a struct's field, a
    LIST's element and a MAP's key and value. Each column chunk has a Bloom
    filter of num_bytes holding its stored values, encoded to their plain
    encoding here (datetime, decimal, uuid, struct) and hashed with
    tests/support/xxh64_model.py, not with the library. With row_groups=2 the file
    has a second row group whose filters are empty (every value absent).

    Returns (file bytes, cases): one dict per column, in schema order:
      "path": the dotted path; "names": its names; "column": the Column;
      "type": what the column is (as a message might name it);
      "physical": its physical type's name;
      "stored": values in the filter, "absent": values not inserted, each
        {"bytes": plain encoding, "texts": spellings a user types for it
        (bb_parquet_encode_text's forms, include/blockbloom/parquet_value.h),
        "objects": Python objects that stand for it, "hex": hex spellings
        (byte types), "today": (text, is_hex) in the form today's `parquet
        probe` takes, "today_object": the object today's
        blockbloom.parquet.probe takes, "physical": (text, is_hex) for
        --physical, "hash": its XXH64, "maybe": the model's answer};
      "refusals": [(text, "syntax" | "range")]: texts the typed probe must
        refuse, as the header's BB_ERR_VALUE_SYNTAX or BB_ERR_VALUE_RANGE;
      "bitset": the filter's bitset as the model builds it."""
    import xxh64_model
    cases = (_integer_cases() + _float_cases() + _decimal_cases() + _date_cases() +
             _time_cases() + _timestamp_cases() + _byte_cases() + _nested_cases())
    first, second = [], []
    for case in cases:
        column = case["column"]
        case["path"] = ".".join(column.path)
        case["names"] = list(column.path)
        case["physical"] = PHYSICAL_NAMES[column.physical]
        for v in case["stored"] + case["absent"]:
            v["hash"] = xxh64_model.xxh64(v["bytes"])
            text, is_hex, obj = _today_form(column, v["bytes"])
            v["today"] = (text, is_hex)
            v["today_object"] = obj
            v["physical"] = _physical_form(column, v["bytes"])
        case["bitset"] = xxh64_model.split_block_bitset([v["hash"] for v in case["stored"]],
                                                        num_bytes)
        for v in case["stored"] + case["absent"]:
            v["maybe"] = xxh64_model.split_block_find(case["bitset"], v["hash"])
        first.append({"filter": bloom_header(num_bytes) + case["bitset"]})
        second.append({"filter": bloom_header(num_bytes) + bytes(num_bytes)})
    groups = [first] if row_groups == 1 else [first, second]
    data, _ = build_parquet([c["column"] for c in cases], groups, groups=NESTED_GROUPS)
    return data, cases


def deep_column_parquet(depth):
    """A file whose first column lies `depth` names deep (a.a.a...), the
    second b.c, each chunk with an empty 32-byte filter: for the cost of
    column paths thousands of names deep."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * depth))  # the builder writes the schema recursively
    try:
        data, _ = build_parquet([Column(["a"] * depth, INT32), Column(["b", "c"], INT64)],
                                [[{"filter": bloom_header(32) + bytes(32)}] * 2])
    finally:
        sys.setrecursionlimit(limit)
    return data
