# SPDX-License-Identifier: Apache-2.0
"""Parquet files by hand, and read back independently, for the tools' tests
(tests/aligncheck/aligncheck_test.py, tests/cli/parquet_cli_test.py).

- CompactWriter / CompactReader: the Thrift compact protocol, written here
  from the protocol's description, not from the library.
- Column, file_metadata_start(), parquet_file(), build_parquet(): footers with
  a schema, row groups and Bloom filters placed where a test wants them;
  ambiguous_paths_parquet(): two columns of one dotted path ("a.b" and a/b).
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


def _schema_level(w, columns, depth):
    """Writes the elements for columns (all sharing path[:depth]); returns the count."""
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
            w.begin().field(3, I32).zigzag(1).field(4, BINARY).binary(name)
            w.field(5, I32).zigzag(children).end()
            written += _schema_level(w, group, depth + 1)
        i = j
    return written


def file_metadata_start(columns=()):
    """A writer inside a FileMetaData holding its required fields but
    row_groups: version, the schema of columns (Column objects or paths),
    num_rows."""
    columns = [c if isinstance(c, Column) else Column(c) for c in columns]
    elements = CompactWriter()
    elements.begin().field(4, BINARY).binary("schema")
    elements.field(5, I32).zigzag(len({c.path[0] for c in columns})).end()
    count = 1 + _schema_level(elements, columns, 0)
    w = CompactWriter().begin()
    w.field(1, I32).zigzag(2)
    w.field(2, LIST).list_header(STRUCT, count).raw(elements.out)
    w.field(3, I64).zigzag(100)
    return w


def write_column_meta(w, column, num_values=100, offset=None, length=None):
    """A ColumnChunk holding a ColumnMetaData (offset/length: the filter's)."""
    w.begin()
    w.field(2, I64).zigzag(4)
    w.field(3, STRUCT).begin()
    w.field(1, I32).zigzag(column.physical)
    w.field(3, LIST).list_header(BINARY, len(column.path))
    for part in column.path:
        w.binary(part)
    w.field(4, I32).zigzag(0)
    w.field(5, I64).zigzag(num_values)
    if offset is not None:
        w.field(14, I64).zigzag(offset)
    if length is not None:
        w.field(15, I32).zigzag(length)
    w.end()  # ColumnMetaData
    w.end()  # ColumnChunk


def build_parquet(columns, row_groups, misalign=None, body_prefix=b""):
    """A file with the schema of `columns` and one row group per entry of
    row_groups: a list with one entry per column, None (no filter) or a
    dict: "filter" (header + bitset bytes, placed in the body), or "offset"
    (a bloom_filter_offset pointing anywhere); "length" overrides
    bloom_filter_length (None or "omit": not written, as older writers do).
    "num_values" sets ColumnMetaData.num_values. With misalign, each bitset
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
    w = file_metadata_start(columns)
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
                              length)
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


# ------------------------------------------------- every logical type

def _java_decimal_bytes(unscaled):
    """BigInteger.toByteArray: big-endian two's complement, the fewest bytes."""
    bits = (~unscaled).bit_length() if unscaled < 0 else unscaled.bit_length()
    return unscaled.to_bytes(bits // 8 + 1, "big", signed=True)


def _decimal(scale, packer):
    import decimal
    return lambda text: packer(int(decimal.Decimal(text).scaleb(scale)))


def _epoch_delta(text):
    import datetime
    text = re.sub(r"\.\d+", "", text).replace("Z", "+00:00")
    dt = datetime.datetime.fromisoformat(text)
    if dt.tzinfo is not None:
        dt = dt.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return dt - datetime.datetime(1970, 1, 1)


def _fraction_nanos(text):
    """Nanoseconds of the fraction after the last '.', else 0 (any digits <= 9)."""
    m = re.search(r"\.(\d+)", text)
    return int(((m.group(1) if m else "") + "000000000")[:9])


def _timestamp(per_second):
    def encode(text):
        d = _epoch_delta(text)
        nanos = _fraction_nanos(text)
        return struct.pack("<q", (d.days * 86400 + d.seconds) * per_second +
                           nanos // (10 ** 9 // per_second))
    return encode


def _time(per_second, fmt):
    def encode(text):
        h, m, s = (int(p) for p in text.split(".")[0].split(":"))
        nanos = _fraction_nanos(text)
        return struct.pack(fmt, ((h * 60 + m) * 60 + s) * per_second +
                           nanos // (10 ** 9 // per_second))
    return encode


def _date(text):
    import datetime
    return struct.pack("<i", (datetime.date.fromisoformat(text) - datetime.date(1970, 1, 1)).days)


def _int96(text):
    d = _epoch_delta(text)
    return struct.pack("<qI", d.seconds * 10 ** 9 + _fraction_nanos(text), d.days + 2440588)


def _uuid(text):
    import uuid
    return uuid.UUID(text).bytes


def _interval(text):
    w = text.split()
    return struct.pack("<III", int(w[0]), int(w[2]), int(w[4]))


def _pack(fmt):
    return lambda text: struct.pack(fmt, int(text) if fmt[-1] in "iIqQ" else float(text))


# (Column, the type as messages name it, the stored values as text, their
# bytes worked out here with struct / datetime / decimal / uuid).
LOGICAL_TYPE_COLUMNS = [
    (Column("i8", INT32, logical=("INTEGER", 8, True)), "INT32 INTEGER(8,true)",
     ["-128", "5", "127"], _pack("<i")),
    (Column("u8", INT32, logical=("INTEGER", 8, False)), "INT32 INTEGER(8,false)",
     ["0", "255"], _pack("<i")),
    (Column("i16", INT32, logical=("INTEGER", 16, True)), "INT32 INTEGER(16,true)",
     ["-32768", "12"], _pack("<i")),
    (Column("u16", INT32, logical=("INTEGER", 16, False)), "INT32 INTEGER(16,false)",
     ["65535"], _pack("<i")),
    (Column("i32", INT32, logical=("INTEGER", 32, True)), "INT32 INTEGER(32,true)",
     ["-2147483648", "7"], _pack("<i")),
    (Column("u32", INT32, logical=("INTEGER", 32, False)), "INT32 INTEGER(32,false)",
     ["4294967295", "1"], _pack("<I")),
    (Column("i64", INT64, logical=("INTEGER", 64, True)), "INT64 INTEGER(64,true)",
     ["-9223372036854775808", "3"], _pack("<q")),
    (Column("u64", INT64, logical=("INTEGER", 64, False)), "INT64 INTEGER(64,false)",
     ["18446744073709551615"], _pack("<Q")),
    (Column("c_i8", INT32, converted=15), "INT32 INT_8", ["-5", "100"], _pack("<i")),
    (Column("c_u8", INT32, converted=11), "INT32 UINT_8", ["200"], _pack("<i")),
    (Column("c_i16", INT32, converted=16), "INT32 INT_16", ["-300"], _pack("<i")),
    (Column("c_u16", INT32, converted=12), "INT32 UINT_16", ["60000"], _pack("<i")),
    (Column("c_i32", INT32, converted=17), "INT32 INT_32", ["-70000"], _pack("<i")),
    (Column("c_u32", INT32, converted=13), "INT32 UINT_32", ["4000000000"], _pack("<I")),
    (Column("c_i64", INT64, converted=18), "INT64 INT_64", ["-1"], _pack("<q")),
    (Column("c_u64", INT64, converted=14), "INT64 UINT_64", ["18446744073709551615"],
     _pack("<Q")),
    (Column("f", FLOAT), "FLOAT", ["1.5", "-0.0", "inf"], _pack("<f")),
    (Column("d", DOUBLE_TYPE), "DOUBLE", ["2.25", "-1e300", "0x1p-3"],
     lambda t: struct.pack("<d", float.fromhex(t) if t.startswith("0x") else float(t))),
    (Column("dec32", INT32, logical=("DECIMAL", 2, 9)), "INT32 DECIMAL(9,2)",
     ["123", "-1.5", "9999999.99"], _decimal(2, lambda u: struct.pack("<i", u))),
    (Column("dec64", INT64, logical=("DECIMAL", 4, 18)), "INT64 DECIMAL(18,4)",
     ["12345.6789", "-0.0001"], _decimal(4, lambda u: struct.pack("<q", u))),
    (Column("decflba", FIXED_LEN_BYTE_ARRAY, 16, logical=("DECIMAL", 10, 38)),
     "FIXED_LEN_BYTE_ARRAY(16) DECIMAL(38,10)", ["-1.5", "1234567890123456789012345678"],
     _decimal(10, lambda u: u.to_bytes(16, "big", signed=True))),
    (Column("decbin", BYTE_ARRAY, logical=("DECIMAL", 2, 20)), "BYTE_ARRAY DECIMAL(20,2)",
     ["1.28", "-1.28", "0", "123456789012345678.9"], _decimal(2, _java_decimal_bytes)),
    (Column("c_dec", INT32, converted=5, scale=2, precision=9), "INT32 DECIMAL(9,2)",
     ["42.42"], _decimal(2, lambda u: struct.pack("<i", u))),
    (Column("date", INT32, logical=("DATE",)), "INT32 DATE",
     ["2024-01-31", "1970-01-01", "0001-01-01", "9999-12-31"], _date),
    (Column("c_date", INT32, converted=6), "INT32 DATE", ["2000-02-29"], _date),
    (Column("t_ms", INT32, logical=("TIME", 1, False)), "INT32 TIME(MILLIS,false)",
     ["12:34:56.789", "00:00:00"], _time(1000, "<i")),
    (Column("t_us", INT64, logical=("TIME", 2, True)), "INT64 TIME(MICROS,true)",
     ["23:59:59.999999"], _time(10 ** 6, "<q")),
    (Column("t_ns", INT64, logical=("TIME", 3, False)), "INT64 TIME(NANOS,false)",
     ["01:02:03.123456789"], _time(10 ** 9, "<q")),
    (Column("ts_ms_utc", INT64, logical=("TIMESTAMP", 1, True)), "INT64 TIMESTAMP(MILLIS,true)",
     ["2024-01-31T12:00:00.5Z", "1969-12-31 23:59:59"], _timestamp(1000)),
    (Column("ts_us_local", INT64, logical=("TIMESTAMP", 2, False)),
     "INT64 TIMESTAMP(MICROS,false)", ["2024-01-31 12:00:00.000001"], _timestamp(10 ** 6)),
    (Column("ts_ns_utc", INT64, logical=("TIMESTAMP", 3, True)), "INT64 TIMESTAMP(NANOS,true)",
     ["2024-01-31T13:00:00.123456789+01:00"], _timestamp(10 ** 9)),
    (Column("ts_ms_local", INT64, logical=("TIMESTAMP", 1, False)),
     "INT64 TIMESTAMP(MILLIS,false)", ["2024-01-31 12:00:00"], _timestamp(1000)),
    (Column("ts_us_utc", INT64, logical=("TIMESTAMP", 2, True)), "INT64 TIMESTAMP(MICROS,true)",
     ["2024-01-31 12:00:00Z"], _timestamp(10 ** 6)),
    (Column("ts_ns_local", INT64, logical=("TIMESTAMP", 3, False)),
     "INT64 TIMESTAMP(NANOS,false)", ["2024-01-31 12:00:00"], _timestamp(10 ** 9)),
    (Column("c_ts_ms", INT64, converted=9), "INT64 TIMESTAMP_MILLIS",
     ["2024-01-31T12:00:00.123Z"], _timestamp(1000)),
    (Column("c_ts_us", INT64, converted=10), "INT64 TIMESTAMP_MICROS",
     ["2024-01-31T12:00:00.123456"], _timestamp(10 ** 6)),
    (Column("int96", INT96), "INT96", ["1970-01-01 00:00:01", "2024-01-31 12:00:00.123456789"],
     _int96),
    (Column("str", BYTE_ARRAY, logical=("STRING",)), "BYTE_ARRAY STRING",
     ["h\u00e9llo", "", "x y"], lambda t: t.encode()),
    (Column("blob", BYTE_ARRAY), "BYTE_ARRAY", ["abc"], lambda t: t.encode()),
    (Column("uuid", FIXED_LEN_BYTE_ARRAY, 16, logical=("UUID",)),
     "FIXED_LEN_BYTE_ARRAY(16) UUID", ["123e4567-e89b-12d3-a456-426614174000",
                                       "00112233445566778899AABBCCDDEEFF"], _uuid),
    (Column("interval", FIXED_LEN_BYTE_ARRAY, 12, converted=21),
     "FIXED_LEN_BYTE_ARRAY(12) INTERVAL", ["1 months 2 days 3 ms"], _interval),
    (Column("half", FIXED_LEN_BYTE_ARRAY, 2, logical=("FLOAT16",)),
     "FIXED_LEN_BYTE_ARRAY(2) FLOAT16", ["1.5", "-2", "65504"], _pack("<e")),
    (Column(["st", "a"], INT32), "INT32", ["17"], _pack("<i")),
    (Column(["lst", "list", "element"], INT64), "INT64", ["-17"], _pack("<q")),
]


def logical_types_parquet(path, filter_blob):
    """Writes to path a one-row-group file with a column of each type of
    LOGICAL_TYPE_COLUMNS (INTEGER and INT_n / UINT_n, FLOAT, DOUBLE, DECIMAL
    on INT32 / INT64 / FIXED_LEN_BYTE_ARRAY / BYTE_ARRAY and as a converted
    type, DATE, TIME and TIMESTAMP in every unit, UTC and local, the legacy
    TIMESTAMP_MILLIS / _MICROS, INT96, STRING, BYTE_ARRAY, UUID, INTERVAL,
    FLOAT16, a struct field st.a, a list element lst.list.element), each
    with a Bloom filter holding its stored values. filter_blob(list of
    bytes) -> BloomFilterHeader + bitset (an independent model, e.g.
    tests/cli/parquet_cli_test.py's filter_blob). Returns a list of
    (column path, type as messages name it, [(text, bytes)]): the values as
    text and the bytes each must become, for probe tests of any front end
    (the CLI, blockbloom.parquet.probe)."""
    columns, group, table = [], [], []
    for column, type_name, texts, encode in LOGICAL_TYPE_COLUMNS:
        pairs = [(t, encode(t)) for t in texts]
        columns.append(column)
        group.append({"filter": filter_blob([b for _, b in pairs])})
        table.append((".".join(column.path), type_name, pairs))
    data, _ = build_parquet(columns, [group])
    with open(path, "wb") as f:
        f.write(data)
    return table
