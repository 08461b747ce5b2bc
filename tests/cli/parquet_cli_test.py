#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""End-to-end tests of `blockbloom parquet list` and `blockbloom parquet probe`.

usage: parquet_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]

As the other scripts here (tests/cli/cli_support.py's helpers and Python models): the
expected answers come from code written here, not from the tool: footers and
filters written by tests/support/parquet_files.py (and by `blockbloom build
--parquet-header`), read back by its own Thrift reader; the stored values of
real files decoded from their data pages; the Parquet split block filter
and XXH64 modelled in Python. BLOCKBLOOM_TESTDATA names the shared test data
folder; tests that need it are skipped, with the reason, when it is absent.
"""

import json
import math
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import (  # noqa: E402
    ToolTestCase, model_bitset, own_stderr, parquet_model_find, read_bytes, run, xxh64)
from parquet_files import (BYTE_ARRAY, DOUBLE_TYPE, FIXED_LEN_BYTE_ARRAY, FLOAT,  # noqa: E402
                           INT32, INT64, INT96, LIST, BOOLEAN, Column, ambiguous_paths_parquet,
                           bloom_header, build_parquet,
                           column_values, read_bloom_header, read_file_metadata, schema_leaves,
                           testdata_file, walk_footer)

TOOL = None  # set from argv by cli_support.main


def run_bytes(args):
    """The tool with stdout and stderr as bytes (hostile names are not UTF-8)."""
    return subprocess.run(cli_support.WRAPPER + [TOOL] + list(args), capture_output=True,
                          timeout=120)


def shown(text):
    """text (a str, bytes that are not UTF-8 as surrogateescape decodes them)
    as the tools print it (docs/formats.md, "The tools' output of names and
    values"): a backslash as \\\\, control bytes, C1 controls and bytes that
    are not UTF-8 as \\xHH, the rest as it is."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif 0xdc80 <= code <= 0xdcff:
            out.append("\\x%02x" % (code - 0xdc00))
        elif code < 0x20 or 0x7f <= code <= 0x9f:
            out.append("".join("\\x%02x" % b for b in ch.encode()))
        else:
            out.append(ch)
    return "".join(out)


def popcount(data):
    return sum(bin(b).count("1") for b in data)


def model_ndv(fraction, num_bytes):
    """n with 1 - (1 - 1/(32 z))^n == fraction, z = num_bytes / 32 blocks."""
    z = num_bytes // 32
    return math.log1p(-fraction) / math.log1p(-1 / (32 * z))


def filter_blob(values, num_bytes):
    """Header + bitset of a Parquet filter holding the plain-encoded values."""
    return bloom_header(num_bytes) + model_bitset([xxh64(v) for v in values], num_bytes)


def plain(physical, value):
    return {INT32: lambda v: struct.pack("<i", v), INT64: lambda v: struct.pack("<q", v),
            FLOAT: lambda v: struct.pack("<f", v), DOUBLE_TYPE: lambda v: struct.pack("<d", v)
            }.get(physical, lambda v: v)(value)


class ParquetTestCase(ToolTestCase):
    def write(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return self.path(name)

    def list_json(self, path):
        result = self.run_ok(["parquet", "list", path, "--json"])
        return json.loads(result.stdout)

    def probe(self, path, column, values, extra=()):
        """{(value, row group): "maybe"|"absent"} from the text form, checked
        against the JSON form."""
        result = self.run_ok(["parquet", "probe", path, "--column", column] + list(extra) +
                             ["--"] + list(values))
        answers = {}
        for line in result.stdout.splitlines():
            value, group, answer = line.split("\t")
            self.assertTrue(group.startswith("row_group="), line)
            answers[(value, int(group[len("row_group="):]))] = answer
        report = json.loads(self.run_ok(["parquet", "probe", path, "--column", column, "--json"] +
                                        list(extra) + ["--"] + list(values)).stdout)
        self.assertEqual(report["column"], column)
        from_json = {}
        for r in report["results"]:
            for g in r["row_groups"]:
                from_json[(r["value"], g["row_group"])] = "maybe" if g["maybe"] else "absent"
        self.assertEqual(from_json, answers)
        self.assertEqual([r["value"] for r in report["results"]], list(values))
        return answers

    def assertRefused(self, args, *fragments):
        result = run(args)
        self.assertEqual(result.returncode, 2, "%r: %s" % (args, result.stderr))
        self.assertEqual(result.stdout, "")
        self.assertRegex(result.stderr, r"(?m)^blockbloom: ")
        for fragment in fragments:
            self.assertIn(fragment, own_stderr(result))
        return result


# ------------------------------------------------------------- real files

class ParquetRealTestdata(ParquetTestCase):
    """parquet-mr's files in ../shared/testdata: list, and probe every stored value."""

    def data_file(self, name):
        return testdata_file(self, name)

    def check_list_against_python(self, path):
        data = read_bytes(path)
        report = self.list_json(path)
        meta = read_file_metadata(data)
        self.assertEqual(report["file"], path)
        self.assertEqual(report["row_groups"], len(meta[4]))
        expected = []
        for chunk in walk_footer(data):
            if chunk["offset"] is None:
                continue
            header, num_bytes = read_bloom_header(data, chunk["offset"])
            bitset = data[chunk["offset"] + header:chunk["offset"] + header + num_bytes]
            fraction = popcount(bitset) / (8 * num_bytes)
            expected.append((chunk["row_group"], chunk["path"], chunk["offset"],
                             chunk["offset"] + header, num_bytes, fraction))
        got = [(f["row_group"], f["column"], f["header_offset"], f["bitset_offset"],
                f["num_bytes"], f["bits_set_fraction"]) for f in report["filters"]]
        self.assertEqual(len(got), len(expected))
        for g, e in zip(got, expected):
            self.assertEqual(g[:5], e[:5])
            self.assertAlmostEqual(g[5], e[5], places=8)
        for f, e in zip(report["filters"], expected):
            self.assertEqual((f["status"], f["error"]), ("ok", None))
            self.assertAlmostEqual(f["estimated_ndv"], model_ndv(e[5], e[4]), places=4)
        return report

    def test_impala_file_lists_sixteen_filters(self):
        path = self.data_file("parquet-bloom-filtering.parquet")
        report = self.check_list_against_python(path)
        self.assertEqual(len(report["filters"]), 16)
        columns = ["int8_col", "int16_col", "int32_col", "int64_col", "float_col", "double_col",
                   "string_col", "char_col"]
        types = ["INT32", "INT32", "INT32", "INT64", "FLOAT", "DOUBLE", "BYTE_ARRAY", "BYTE_ARRAY"]
        self.assertEqual([f["column"] for f in report["filters"]], columns * 2)
        self.assertEqual([f["physical_type"] for f in report["filters"]], types * 2)
        self.assertEqual([f["logical_type"] for f in report["filters"]],
                         [None] * 6 + ["STRING", None] + [None] * 6 + ["STRING", None])
        self.assertEqual([f["row_group"] for f in report["filters"]], [0] * 8 + [1] * 8)
        text = self.run_ok(["parquet", "list", path]).stdout
        self.assertIn("2 row groups, 8 columns, 16 Bloom filters (0 malformed)", text)
        self.assertRegex(text, r"(?m)^0 +int8_col +INT32 +- +9892 +9908 +512 +0\.\d{4} +[\d.]+ +ok$")

    def test_parquet_mr_string_file_lists_one_filter(self):
        path = self.data_file("data_index_bloom_encoding_stats.parquet")
        report = self.check_list_against_python(path)
        f = report["filters"][0]
        self.assertEqual((len(report["filters"]), f["column"], f["header_offset"],
                          f["bitset_offset"], f["num_bytes"], f["logical_type"]),
                         (1, "String", 192, 208, 1024, "STRING"))

    def stored_values(self, path):
        """{(row group, column index): [plain-encoded values]}, from the pages."""
        data = read_bytes(path)
        meta = read_file_metadata(data)
        values = {}
        for g in range(len(meta[4])):
            for c in range(len(meta[4][g][1])):
                values[(g, c)] = column_values(data, meta, g, c)
        return data, meta, values

    # How a stored value is typed back in, by physical type: exactly.
    @staticmethod
    def as_text(physical, value):
        if physical == INT32:
            return str(struct.unpack("<i", value)[0])
        if physical == INT64:
            return str(struct.unpack("<q", value)[0])
        if physical == FLOAT:
            return struct.unpack("<f", value)[0].hex()  # strtof reads hex floats exactly
        if physical == DOUBLE_TYPE:
            return struct.unpack("<d", value)[0].hex()
        return value.decode()

    TOOL_TYPES = {INT32: "int32", INT64: "int64", FLOAT: "float", DOUBLE_TYPE: "double",
                  BYTE_ARRAY: "string"}

    def check_stored_values(self, name):
        path = self.data_file(name)
        data, meta, values = self.stored_values(path)
        leaves = schema_leaves(meta)
        report = self.list_json(path)
        by_chunk = {(f["row_group"], f["column"]): f for f in report["filters"]}
        checked = 0
        for (g, c), stored in values.items():
            column, element, _ = leaves[c]
            physical = element[1]
            f = by_chunk[(g, column)]
            self.assertTrue(stored, "no values decoded for %s in row group %d" % (column, g))
            bitset = data[f["bitset_offset"]:f["bitset_offset"] + f["num_bytes"]]
            # The filter holds exactly the stored values: rebuilt, byte for byte...
            self.assertEqual(model_bitset({xxh64(v) for v in stored}, f["num_bytes"]), bitset,
                             "%s, row group %d" % (column, g))
            texts = [self.as_text(physical, v) for v in stored]
            self.assertTrue(all("\n" not in t for t in texts))
            lines = self.write("values.txt", "".join(t + "\n" for t in texts).encode())
            # ...also by the tool's own build (the library's insert):
            built = self.path("built.bin")
            self.run_ok(["build", "--layout", "parquet", "--bytes", str(f["num_bytes"]),
                         "--hash", "xxh64", "--type", self.TOOL_TYPES[physical],
                         "--input", lines, "-o", built])
            self.assertEqual(read_bytes(built), bitset, "%s, row group %d" % (column, g))
            # Every stored value may be there.
            result = self.run_ok(["parquet", "probe", path, "--column", column, "--row-group",
                                  str(g), "--input", lines])
            answers = [line.split("\t")[2] for line in result.stdout.splitlines()]
            self.assertEqual(answers, ["maybe"] * len(texts), column)
            # Values the library says are not in the bitset (its probe of the
            # bitset in place) are absent, and the Python model agrees.
            candidates = [self.as_text(physical, plain(physical, v)) for v in self.candidates(physical)]
            cand_file = self.write("candidates.txt", "".join(t + "\n" for t in candidates).encode())
            library = self.run_ok(["probe", "--bits", "--layout", "parquet", "--filter", path, "--offset",
                                   str(f["bitset_offset"]), "--bytes", str(f["num_bytes"]),
                                   "--hash", "xxh64", "--type", self.TOOL_TYPES[physical],
                                   "--input", cand_file]).stdout.split()
            absent = [t for t, bit in zip(candidates, library) if bit == "0"]
            self.assertGreater(len(absent), len(candidates) // 2, column)
            for t in absent:
                encoded = plain(physical, self.parse(physical, t))
                self.assertEqual(parquet_model_find(bitset, xxh64(encoded)), "0", t)
            result = self.run_ok(["parquet", "probe", path, "--column", column, "--row-group",
                                  str(g), "--"] + absent)
            self.assertEqual([line.split("\t")[2] for line in result.stdout.splitlines()],
                             ["absent"] * len(absent))
            checked += 1
        return checked

    @staticmethod
    def candidates(physical):
        if physical in (INT32, INT64):
            return list(range(100000, 100200))
        if physical in (FLOAT, DOUBLE_TYPE):
            return [1000.5 + i for i in range(200)]
        return [("absent-%d" % i).encode() for i in range(200)]

    @staticmethod
    def parse(physical, text):
        if physical in (INT32, INT64):
            return int(text)
        if physical in (FLOAT, DOUBLE_TYPE):
            return float.fromhex(text)
        return text.encode()

    def test_impala_file_every_stored_value_is_maybe_and_bitsets_rebuild(self):
        self.assertEqual(self.check_stored_values("parquet-bloom-filtering.parquet"), 16)

    def test_parquet_mr_string_file_every_stored_value_is_maybe_and_bitset_rebuilds(self):
        self.assertEqual(self.check_stored_values("data_index_bloom_encoding_stats.parquet"), 1)


# -------------------------------------------------------- files made here

class ParquetListFilesMadeHere(ParquetTestCase):
    """list on files written here: every field, per-filter problems, bad files."""

    def built_filter(self, hashes, num_bytes):
        """Header + bitset as `blockbloom build --parquet-header` writes them
        (--any-size: list reads any size a header holds, as DuckDB does)."""
        lines = self.path("hashes.txt")
        cli_support.write_hashes(lines, hashes)
        out = self.path("filter.bin")
        self.run_ok(["build", "--layout", "parquet", "--bytes", str(num_bytes), "--parquet-header",
                     "--any-size", "--input", lines, "-o", out])
        return read_bytes(out)

    def test_fields_of_every_row_match_where_the_filters_were_put(self):
        columns = [Column("i8", INT32, logical=("INTEGER", 8, True)),
                   Column("u64", INT64, logical=("INTEGER", 64, False)),
                   Column("ts", INT64, logical=("TIMESTAMP", 2, True)),
                   Column("dec", INT64, logical=("DECIMAL", 3, 18)),
                   Column("olddec", FIXED_LEN_BYTE_ARRAY, type_length=5, converted=5, scale=2,
                          precision=10),
                   Column("name", BYTE_ARRAY, logical=("STRING",), converted=0),
                   Column("legacy", BYTE_ARRAY, converted=0),
                   Column(["nested", "uuid"], FIXED_LEN_BYTE_ARRAY, type_length=16,
                          logical=("UUID",)),
                   Column(["nested", "t"], INT32, logical=("TIME", 1, False)),
                   Column("nofilter", DOUBLE_TYPE)]
        groups = []
        hashes = {}
        for g in range(3):
            group = []
            for c in range(len(columns)):
                if c == len(columns) - 1:
                    group.append(None)
                    continue
                hs = [xxh64(struct.pack("<q", 1000 * g + c + k)) for k in range(5 * (c + 1))]
                hashes[(g, c)] = hs
                group.append({"filter": self.built_filter(hs, 32 * (c + 1 + g)),
                              "length": "omit" if g == 1 else None})
            groups.append(group)
        data, placements = build_parquet(columns, groups, misalign=None)
        path = self.write("f.parquet", data)
        report = self.list_json(path)
        self.assertEqual(report["row_groups"], 3)
        self.assertEqual(len(report["filters"]), 27)
        names = ["i8", "u64", "ts", "dec", "olddec", "name", "legacy", "nested.uuid", "nested.t"]
        physical = ["INT32", "INT64", "INT64", "INT64", "FIXED_LEN_BYTE_ARRAY(5)", "BYTE_ARRAY",
                    "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY(16)", "INT32"]
        logical = ["INTEGER(8,true)", "INTEGER(64,false)", "TIMESTAMP(MICROS,true)",
                   "DECIMAL(18,3)", "DECIMAL(10,2)", "STRING", "UTF8", "UUID", "TIME(MILLIS,false)"]
        for i, f in enumerate(report["filters"]):
            g, c = divmod(i, 9)
            header, bitset, length = placements[g][c]
            num_bytes = 32 * (c + 1 + g)
            self.assertEqual((f["row_group"], f["column"], f["physical_type"], f["logical_type"]),
                             (g, names[c], physical[c], logical[c]))
            self.assertEqual((f["header_offset"], f["bitset_offset"], f["num_bytes"]),
                             (header, bitset, num_bytes))
            self.assertEqual(length, bitset - header + num_bytes)
            bits = model_bitset(hashes[(g, c)], num_bytes)
            self.assertAlmostEqual(f["bits_set_fraction"], popcount(bits) / (8 * num_bytes),
                                   places=8)
            self.assertAlmostEqual(f["estimated_ndv"],
                                   model_ndv(popcount(bits) / (8 * num_bytes), num_bytes), places=4)
            self.assertEqual((f["status"], f["error"]), ("ok", None))
        text = self.run_ok(["parquet", "list", path]).stdout
        self.assertIn("3 row groups, 10 columns, 27 Bloom filters (0 malformed)", text)
        self.assertRegex(text, r"(?m)^2 +nested\.t +INT32 +TIME\(MILLIS,false\) ")

    def test_estimated_ndv_is_null_when_every_bit_is_set(self):
        blob = bloom_header(32) + b"\xff" * 32
        data, _ = build_parquet([Column("full")], [[{"filter": blob}]])
        f = self.list_json(self.write("full.parquet", data))["filters"][0]
        self.assertEqual(f["bits_set_fraction"], 1.0)
        self.assertIsNone(f["estimated_ndv"])
        self.assertEqual(f["status"], "ok")
        self.assertRegex(self.run_ok(["parquet", "list", self.path("full.parquet")]).stdout,
                         r"(?m) 1\.0000 +- +ok$")

    def test_malformed_filters_are_reported_and_the_others_listed(self):
        good = filter_blob([b"\x07\x00\x00\x00"], 64)
        columns = [Column(n) for n in ("good", "junk", "far", "zero", "long", "short", "good2")]
        group = [{"filter": good},
                 {"filter": b"\xff" * 40},
                 {"offset": 1 << 40},
                 {"filter": good, "length": 0},
                 {"filter": good, "length": 1 << 30},
                 {"filter": good, "length": 40},
                 {"filter": good, "length": "omit"}]
        data, placements = build_parquet(columns, [group])
        path = self.write("bad.parquet", data)
        result = self.run_ok(["parquet", "list", path, "--json"])
        filters = json.loads(result.stdout)["filters"]
        self.assertEqual([f["column"] for f in filters], [c.path[0] for c in columns])
        self.assertEqual([f["status"] for f in filters],
                         ["ok", "malformed", "malformed", "malformed", "malformed", "malformed",
                          "ok"])
        errors = [f["error"] for f in filters]
        self.assertIsNone(errors[0])
        self.assertIn("BloomFilterHeader at offset %d" % placements[0][1][0], errors[1])
        self.assertIn("bloom_filter_offset 1099511627776 is outside the file", errors[2])
        self.assertIn("bloom_filter_length 0 is invalid", errors[3])
        self.assertIn("runs past the end of the file", errors[4])
        self.assertIn("disagrees with bloom_filter_length 40", errors[5])
        self.assertIsNone(errors[6])
        for f in filters:
            if f["status"] == "malformed":
                self.assertEqual((f["bitset_offset"], f["num_bytes"], f["bits_set_fraction"],
                                  f["estimated_ndv"]), (None, None, None, None))
        self.assertEqual(filters[2]["header_offset"], 1 << 40)
        self.assertEqual(filters[6]["bitset_offset"], placements[0][6][1])
        text = self.run_ok(["parquet", "list", path]).stdout
        self.assertIn("7 Bloom filters (5 malformed)", text)
        self.assertIn("malformed: bloom_filter_length 0 is invalid", text)

    def test_fields_of_another_wire_type_are_skipped(self):
        """A list where parquet.thrift has an i32 (bloom_filter_length, field
        15) or an i64 (bloom_filter_offset, 14) is skipped, as Thrift's readers
        do: without an offset the chunk has no filter; with one, its filter is
        as long as its header says."""
        good = filter_blob([b"\x07\x00\x00\x00"], 64)
        data, _ = build_parquet([Column("a")], [[{"offset": 4, "length": 80,
                                                  "offset_type": LIST, "length_type": LIST}]])
        path = self.write("lists.parquet", data)
        self.assertIn("1 row groups, 1 columns, 0 Bloom filters (0 malformed)",
                      self.run_ok(["parquet", "list", path]).stdout)
        self.assertEqual(self.list_json(path)["filters"], [])
        data, placements = build_parquet([Column("b")], [[{"filter": good, "length_type": LIST}]])
        [f] = self.list_json(self.write("length_list.parquet", data))["filters"]
        self.assertEqual((f["status"], f["num_bytes"], f["bitset_offset"]),
                         ("ok", 64, placements[0][0][1]))
        answers = self.probe(self.path("length_list.parquet"), "b", ["7"])
        self.assertEqual(answers[("7", 0)], "maybe")

    def test_a_header_that_disagrees_with_bloom_filter_length_is_malformed(self):
        """numBytes and bloom_filter_length must agree: a 512-byte bitset
        whose header says 256 (bloom_filter_length 16 + 512), or one whose
        header says 512 while bloom_filter_length says 16 + 256, is malformed.
        Probed, such a row group answers maybe (with a warning), never absent,
        for all 100 values it holds."""
        held = [struct.pack("<i", v) for v in range(1000, 1100)]
        bitset = model_bitset([xxh64(v) for v in held], 512)
        says_less = bloom_header(256) + bitset
        says_more = bloom_header(512) + bitset
        other = filter_blob([struct.pack("<i", 1)], 512)
        columns = [Column("less"), Column("more")]
        data, _ = build_parquet(columns, [
            [{"filter": other}, {"filter": other}],
            [{"filter": says_less, "length": 16 + 512}, {"filter": says_more, "length": 16 + 256}]])
        path = self.write("disagree.parquet", data)
        filters = self.list_json(path)["filters"]
        by_chunk = {(f["row_group"], f["column"]): f for f in filters}
        self.assertEqual([by_chunk[(0, c)]["status"] for c in ("less", "more")], ["ok", "ok"])
        for column, header, length in (("less", 256, 528), ("more", 512, 272)):
            f = by_chunk[(1, column)]
            self.assertEqual(f["status"], "malformed")
            self.assertIn("numBytes %d (+ 16 header bytes = %d) disagrees with "
                          "bloom_filter_length %d" % (header, header + 16, length), f["error"])
            self.assertIsNone(f["num_bytes"])
        self.assertIn("4 Bloom filters (2 malformed)", self.run_ok(["parquet", "list", path]).stdout)
        texts = [str(v) for v in range(1000, 1100)]
        for column in ("less", "more"):
            answers = self.probe(path, column, texts)
            self.assertEqual({answers[(t, 1)] for t in texts}, {"maybe"}, column)
            result = self.run_ok(["parquet", "probe", path, "--column", column, "1000"])
            self.assertIn("row group 1 has a malformed Bloom filter", result.stderr)
            self.assertRefused(["parquet", "probe", path, "--column", column, "--row-group", "1",
                                "1000"], "has a malformed Bloom filter", "disagrees")

    def test_a_file_without_filters_or_row_groups_lists_nothing(self):
        data, _ = build_parquet([Column("a"), Column("b")], [[None, None]])
        report = self.list_json(self.write("none.parquet", data))
        self.assertEqual((report["row_groups"], report["filters"]), (1, []))
        data, _ = build_parquet([Column("a")], [])
        report = self.list_json(self.write("empty.parquet", data))
        self.assertEqual((report["row_groups"], report["filters"]), (0, []))
        self.assertIn("0 row groups, 1 columns, 0 Bloom filters",
                      self.run_ok(["parquet", "list", self.path("empty.parquet")]).stdout)

    def test_files_that_are_not_readable_parquet_exit_2(self):
        good, _ = build_parquet([Column("a")], [[{"filter": filter_blob([b"x"], 32)}]])
        (length,) = struct.unpack("<I", good[-8:-4])
        start = len(good) - 8 - length
        cases = [
            (b"", "too short"),
            (good[:-4] + b"PARX", "bad magic"),
            (b"XAR1" + good[4:], "bad magic"),
            (good[:-4] + b"PARE", "encrypted"),
            (good[:-8] + struct.pack("<I", len(good)) + b"PAR1", "runs past the start of the file"),
            (good[:start] + good[start:start + 10] + struct.pack("<I", 10) + b"PAR1",
             "corrupt footer"),
            (good[:start] + b"\x1f" + good[start + 1:], "malformed Thrift"),
        ]
        for data, fragment in cases:
            with self.subTest(fragment=fragment):
                path = self.write("bad.parquet", data)
                self.assertRefused(["parquet", "list", path], path + ": ", fragment)
                self.assertRefused(["parquet", "list", path, "--json"], fragment)
                self.assertRefused(["parquet", "probe", path, "--column", "a", "x"], fragment)
        # Every truncation of the footer, its length adjusted.
        for cut in range(1, length, 7):
            data = good[:start] + good[start:start + cut] + struct.pack("<I", cut) + b"PAR1"
            self.assertRefused(["parquet", "list", self.write("cut.parquet", data)],
                               "corrupt footer")

    def test_paths_that_are_no_regular_file_exit_2_at_once(self):
        missing = self.path("absent.parquet")
        self.assertRefused(["parquet", "list", missing], missing + ": cannot open")
        self.assertRefused(["parquet", "list", self.dir], self.dir + ": not a regular file")
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        try:
            result = subprocess.run(cli_support.WRAPPER + [TOOL, "parquet", "list", fifo],
                                    capture_output=True, text=True, timeout=20)
        except subprocess.TimeoutExpired:
            self.fail("parquet list of a FIFO still waits after 20 s")
        self.assertEqual(result.returncode, 2)
        self.assertIn(fifo + ": not a regular file", result.stderr)
        self.assertRefused(["parquet", "list", "-"], "not standard input")

    def test_hostile_column_paths_are_escaped_in_text_and_exact_in_json(self):
        hostile = ["evil\x1b[2J", "a\nb", "c\u009bd", "\u00e9t\u00e9"]
        data, _ = build_parquet([Column(hostile, BYTE_ARRAY)],
                                [[{"filter": filter_blob([b"v"], 32)}]])
        path = self.write("hostile.parquet", data)
        result = run_bytes(["parquet", "list", path])
        self.assertEqual(result.returncode, 0, result.stderr)
        for raw in (b"\x1b", b"\xc2\x9b", b"a\nb"):
            self.assertNotIn(raw, result.stdout)
        self.assertIn("evil\\x1b[2J.a\\x0ab.c\\xc2\\x9bd.\u00e9t\u00e9".encode(), result.stdout)
        report = json.loads(run_bytes(["parquet", "list", path, "--json"]).stdout)
        self.assertEqual(report["filters"][0]["column"], ".".join(hostile))
        # probe finds the column by its exact bytes, and escapes it in messages.
        column = ".".join(hostile)
        self.assertEqual(self.probe(path, column, ["v"]), {("v", 0): "maybe"})
        result = run_bytes(["parquet", "probe", path, "--column", column, "--row-group", "9", "v"])
        self.assertEqual(result.returncode, 2)
        self.assertNotIn(b"\x1b", result.stderr)

    def test_help_and_usage_mistakes(self):
        for args in (["parquet", "--help"], ["parquet", "list", "--help"],
                     ["parquet", "probe", "-h"], ["parquet", "help"]):
            text = self.run_ok(args).stdout
            for word in ("blockbloom parquet list FILE [--json]",
                         "blockbloom parquet probe FILE --column PATH", "--row-group N",
                         "--input FILE", "--hex", "estimated_ndv", "bits_set_fraction",
                         "VALUE<TAB>row_group=R<TAB>maybe|absent", "--physical", "DECIMAL(p,s)",
                         "YYYY-MM-DD", "BOOLEAN"):
                self.assertIn(word, text)
        self.assertIn("blockbloom parquet list FILE [--json]", self.run_ok(["--help"]).stdout)
        for args, fragment in ((["parquet"], "missing list or probe"),
                               (["parquet", "lsit"], 'unknown command "lsit"'),
                               (["parquet", "list"], "missing FILE"),
                               (["parquet", "list", "a", "b"], 'unexpected argument "b"'),
                               (["parquet", "list", "a", "--bogus"], "unknown flag --bogus"),
                               (["parquet", "probe", "f", "x"], "missing --column"),
                               (["parquet", "probe", "--column", "c"], "missing FILE"),
                               (["parquet", "probe", "f", "--column", "c"], "no values"),
                               (["parquet", "probe", "f", "--column", "c", "--row-group", "x",
                                 "v"], "--row-group x: not a count"),
                               (["parquet", "probe", "f", "--column", "c", "--row-group", "1.5",
                                 "v"], "--row-group 1.5: not a whole number")):
            with self.subTest(args=args):
                result = self.assertRefused(args, fragment)
                help_command = " ".join(["blockbloom"] + [w for w in args[:2] if w in
                                                          ("parquet", "list", "probe")])
                self.assertEqual(own_stderr(result).splitlines()[1:],
                                 ["run '%s --help' for usage" % help_command])


class ParquetProbeFilesMadeHere(ParquetTestCase):
    """probe on files written here: typed values, row groups, errors."""

    def one_column_file(self, column, values_per_group, name="t.parquet"):
        groups = []
        for values in values_per_group:
            if values is None:
                groups.append([None])
            else:
                groups.append([{"filter": filter_blob(values, 1024)}])
        data, _ = build_parquet([column], groups)
        return self.write(name, data)

    def check(self, column, stored, probes):
        """probes: [(text, plain bytes or None)]: None must be refused; the
        answers must be the Python model's."""
        path = self.one_column_file(column, [stored])
        bitset = model_bitset([xxh64(v) for v in stored], 1024)
        ok = [(t, b) for t, b in probes if b is not None]
        answers = self.probe(path, column.path[0], [t for t, _ in ok])
        for text, encoded in ok:
            expected = "maybe" if parquet_model_find(bitset, xxh64(encoded)) == "1" else "absent"
            self.assertEqual(answers[(text, 0)], expected, text)
        for text, encoded in probes:
            if encoded is None:
                self.assertRefused(["parquet", "probe", path, "--column", column.path[0], "--",
                                    text], 'value "%s"' % text, "of column " + column.path[0])
        return answers

    def test_int8_is_range_checked_and_sign_extended(self):
        stored = [struct.pack("<i", v) for v in (-128, -1, 0, 127)]
        answers = self.check(Column("i8", INT32, logical=("INTEGER", 8, True)), stored,
                             [("-128", stored[0]), ("-1", stored[1]), ("0", stored[2]),
                              ("127", stored[3]), ("5", struct.pack("<i", 5)),
                              ("128", None), ("-129", None), ("1.5", None), ("x", None)])
        for t in ("-128", "-1", "0", "127"):
            self.assertEqual(answers[(t, 0)], "maybe")

    def test_converted_int_16_and_unsigned_types(self):
        self.check(Column("i16", INT32, converted=16), [struct.pack("<i", -300)],
                   [("-300", struct.pack("<i", -300)), ("32767", struct.pack("<i", 32767)),
                    ("32768", None), ("-32769", None)])
        # UINT_32: 0 .. 2^32 - 1, stored with the bits of an INT32.
        stored = [struct.pack("<I", 4294967295)]
        answers = self.check(Column("u32", INT32, converted=13), stored,
                             [("4294967295", stored[0]), ("0", struct.pack("<i", 0)),
                              ("4294967296", None), ("-1", None), ("0x10", None)])
        self.assertEqual(answers[("4294967295", 0)], "maybe")
        self.check(Column("u16", INT32, logical=("INTEGER", 16, False)), [struct.pack("<i", 65535)],
                   [("65535", struct.pack("<i", 65535)), ("65536", None), ("-1", None)])
        stored = [struct.pack("<Q", 2 ** 64 - 1)]
        answers = self.check(Column("u64", INT64, logical=("INTEGER", 64, False)), stored,
                             [("18446744073709551615", stored[0]), ("18446744073709551616", None)])
        self.assertEqual(answers[("18446744073709551615", 0)], "maybe")
        self.check(Column("i64", INT64), [struct.pack("<q", -2 ** 63)],
                   [("-9223372036854775808", struct.pack("<q", -2 ** 63)),
                    ("9223372036854775808", None)])

    def test_floats_and_doubles_as_strtod_reads_them(self):
        stored = [struct.pack("<f", v) for v in (1.5, -0.0, float("inf"))] + [
            b"\x00\x00\xc0\x7f"]  # nan, the positive quiet NaN
        answers = self.check(Column("f", FLOAT), stored,
                             [("1.5", stored[0]), ("-0.0", stored[1]), ("0.0", struct.pack("<f", 0.0)),
                              ("inf", stored[2]), ("nan", stored[3]), ("0x1.8p0", stored[0]),
                              ("-inf", struct.pack("<f", float("-inf"))), ("1e39", None),
                              ("abc", None)])
        for t in ("1.5", "-0.0", "inf", "nan", "0x1.8p0"):
            self.assertEqual(answers[(t, 0)], "maybe", t)
        stored = [struct.pack("<d", v) for v in (0.1, -0.0)]
        answers = self.check(Column("d", DOUBLE_TYPE), stored,
                             [("0.1", stored[0]), ("-0.0", stored[1]), ("1e400", None)])
        self.assertEqual((answers[("0.1", 0)], answers[("-0.0", 0)]), ("maybe", "maybe"))

    def test_strings_fixed_length_bytes_and_hex(self):
        stored = [b"hello", b"", b"-dash", "\u00e9t\u00e9".encode()]
        answers = self.check(Column("s", BYTE_ARRAY, logical=("STRING",)), stored,
                             [("hello", b"hello"), ("-dash", b"-dash"), ("\u00e9t\u00e9", stored[3]),
                              ("hellO", b"hellO")])
        self.assertEqual(answers[("hello", 0)], "maybe")
        path = self.one_column_file(Column("s", BYTE_ARRAY), [stored], "s.parquet")
        self.assertEqual(self.probe(path, "s", ["68656c6c6f", ""], ["--hex"]),
                         {("68656c6c6f", 0): "maybe", ("", 0): "maybe"})
        self.assertRefused(["parquet", "probe", path, "--column", "s", "--hex", "abc"],
                           "odd number of hex digits")
        self.assertRefused(["parquet", "probe", path, "--column", "s", "--hex", "zz"],
                           "not hex digits")
        uuid = bytes(range(16))
        path = self.one_column_file(Column("u", FIXED_LEN_BYTE_ARRAY, type_length=4), [[b"abcd"]],
                                    "u.parquet")
        self.assertEqual(self.probe(path, "u", ["abcd", "abce"]),
                         {("abcd", 0): "maybe", ("abce", 0): "absent"})
        self.assertRefused(["parquet", "probe", path, "--column", "u", "abc"],
                           'value "abc"', "is 3 bytes, not 4")
        path = self.one_column_file(Column("id", FIXED_LEN_BYTE_ARRAY, type_length=16,
                                           logical=("UUID",)), [[uuid]], "uuid.parquet")
        self.assertEqual(self.probe(path, "id", [uuid.hex()], ["--hex"]), {(uuid.hex(), 0): "maybe"})
        path = self.one_column_file(Column("ts96", INT96), [[bytes(12)]], "i96.parquet")
        self.assertEqual(self.probe(path, "ts96", ["00" * 12], ["--hex"]), {("00" * 12, 0): "maybe"})
        self.assertRefused(["parquet", "probe", path, "--column", "ts96", "--hex", "00"],
                           "is 1 bytes, not 12")
        self.assertRefused(["parquet", "probe", self.path("s.parquet"), "--column", "s", "--hex"],
                           "no values")

    def test_hex_is_for_the_types_the_library_takes_it_and_booleans_are_refused(self):
        path = self.one_column_file(Column("n", INT32), [[struct.pack("<i", 1)]])
        self.assertRefused(["parquet", "probe", path, "--column", "n", "--hex", "01"],
                           "--hex is for INT96, FLOAT, DOUBLE, BYTE_ARRAY and "
                           "FIXED_LEN_BYTE_ARRAY columns; column n is INT32")
        # FLOAT / DOUBLE take hex as the library does: the stored bytes, any NaN.
        nan = struct.pack("<d", float("nan"))[:7] + b"\xff"
        path = self.one_column_file(Column("d", DOUBLE_TYPE), [[struct.pack("<d", 1.5), nan]],
                                    "d.parquet")
        self.assertEqual(self.probe(path, "d", [struct.pack("<d", 1.5).hex(), nan.hex()], ["--hex"]),
                         {(struct.pack("<d", 1.5).hex(), 0): "maybe", (nan.hex(), 0): "maybe"})
        path = self.one_column_file(Column("flag", BOOLEAN), [[b"\x01"]], "b.parquet")
        self.assertRefused(["parquet", "probe", path, "--column", "flag", "true"],
                           "column flag (BOOLEAN): the column is BOOLEAN")

    def test_every_row_group_or_one(self):
        path = self.one_column_file(Column("n", INT64), [
            [struct.pack("<q", 1)], [struct.pack("<q", 2)], None, [struct.pack("<q", 1)]])
        result = self.run_ok(["parquet", "probe", path, "--column", "n", "1", "2"])
        lines = result.stdout.splitlines()
        self.assertEqual(lines[:4], ["1\trow_group=0\tmaybe", "1\trow_group=1\t" +
                                     ("maybe" if parquet_model_find(
                                         model_bitset([xxh64(struct.pack("<q", 2))], 1024),
                                         xxh64(struct.pack("<q", 1))) == "1" else "absent"),
                                     "1\trow_group=2\tmaybe", "1\trow_group=3\tmaybe"])
        self.assertEqual(len(lines), 8)
        self.assertEqual(lines[6], "2\trow_group=2\tmaybe")  # no filter: cannot rule it out
        self.assertIn("warning: %s: column n in row group 2 has no Bloom filter: answered maybe"
                      % path, own_stderr(result))
        one = self.run_ok(["parquet", "probe", path, "--column", "n", "--row-group", "3", "1"])
        self.assertEqual(one.stdout, "1\trow_group=3\tmaybe\n")
        self.assertEqual(own_stderr(one), "")
        self.assertRefused(["parquet", "probe", path, "--column", "n", "--row-group", "2", "1"],
                           "column n in row group 2 has no Bloom filter")
        self.assertRefused(["parquet", "probe", path, "--column", "n", "--row-group", "4", "1"],
                           "--row-group 4: %s has 4 row groups" % path)

    def test_unknown_columns_and_columns_without_filters_exit_2(self):
        data, _ = build_parquet([Column("a"), Column(["g", "b"])],
                                [[{"filter": filter_blob([b"\x01\x00\x00\x00"], 64)}, None]])
        path = self.write("c.parquet", data)
        self.assertRefused(["parquet", "probe", path, "--column", "nope", "1"],
                           "no column nope; the closest of its 2 columns by name: a, g.b")
        self.assertRefused(["parquet", "probe", path, "--column", "g", "1"],
                           "no column g: g is a group: its columns are g.b")
        self.assertRefused(["parquet", "probe", path, "--column", "g.b", "1"],
                           "column g.b has no usable Bloom filter in any of its 1 row groups")
        data, _ = build_parquet([Column("m")], [[{"filter": b"\xff" * 20}]])
        path = self.write("m.parquet", data)
        self.assertRefused(["parquet", "probe", path, "--column", "m", "1"],
                           "has a malformed Bloom filter: BloomFilterHeader at offset 4")
        data, _ = build_parquet([Column("z")], [])
        self.assertRefused(["parquet", "probe", self.write("z.parquet", data), "--column", "z", "1"],
                           "no row groups")

    def test_input_file_negative_numbers_and_escaped_values(self):
        stored = [struct.pack("<i", v) for v in (-7, 3)]
        path = self.one_column_file(Column("n", INT32), [stored])
        values = self.write("values.txt", b"-7\n3\n42\n")
        result = self.run_ok(["parquet", "probe", path, "--column", "n", "--input", values])
        bitset = model_bitset([xxh64(v) for v in stored], 1024)
        expected42 = "maybe" if parquet_model_find(bitset, xxh64(struct.pack("<i", 42))) == "1" \
            else "absent"
        self.assertEqual(result.stdout.splitlines(),
                         ["-7\trow_group=0\tmaybe", "3\trow_group=0\tmaybe",
                          "42\trow_group=0\t" + expected42])
        # Negative numbers need no "--"; a bad line is named by file and line.
        result = self.run_ok(["parquet", "probe", path, "-7", "--column", "n", "3"])
        self.assertEqual(result.stdout, "-7\trow_group=0\tmaybe\n3\trow_group=0\tmaybe\n")
        # Integers are strict (docs/formats.md): no spaces. A CRLF line end
        # is a line end, not part of the value.
        self.assertRefused(["parquet", "probe", path, "--column", "n", "--input",
                            self.write("crlf.txt", b" 3\r\n")], 'value " 3" of column n (INT32)')
        crlf = self.run_ok(["parquet", "probe", path, "--column", "n", "--input",
                            self.write("crlf.txt", b"-7\r\n3\r\n")])
        self.assertEqual(crlf.stdout, "-7\trow_group=0\tmaybe\n3\trow_group=0\tmaybe\n")
        # Strings too: a CRLF file probes the values an LF file does.
        strings = self.one_column_file(Column("s", BYTE_ARRAY), [[b"alpha", b"beta"]], "crlf.parquet")
        for text in (b"alpha\r\nbeta\r\n", b"alpha\nbeta\r"):
            found = self.run_ok(["parquet", "probe", strings, "--column", "s", "--input",
                                 self.write("s.txt", text)])
            self.assertEqual(found.stdout, "alpha\trow_group=0\tmaybe\nbeta\trow_group=0\tmaybe\n")
        bad = self.write("bad.txt", b"1\nseven\n")
        self.assertRefused(["parquet", "probe", path, "--column", "n", "--input", bad],
                           bad + ":2: ", 'value "seven"')
        # Strings with control characters: escaped in text, exact in JSON.
        spath = self.one_column_file(Column("s", BYTE_ARRAY), [[b"a\x1bb"]], "s.parquet")
        result = run_bytes(["parquet", "probe", spath, "--column", "s", "a\x1bb", "x\ty"])
        self.assertEqual(result.stdout.splitlines()[0], b"a\\x1bb\trow_group=0\tmaybe")
        self.assertTrue(result.stdout.splitlines()[1].startswith(b"x\\x09y\trow_group=0\t"))
        report = json.loads(run_bytes(["parquet", "probe", spath, "--column", "s", "--json",
                                       "a\x1bb"]).stdout)
        self.assertEqual(report, {"column": "s", "physical_type": "BYTE_ARRAY", "results": [
            {"value": "a\x1bb", "row_groups": [{"row_group": 0, "maybe": True}]}]})


class ParquetProbeUnderAGermanLocale(ParquetTestCase):
    """Number text is read the same whatever the process locale: under
    LC_ALL=de_DE.UTF-8 (decimal point ',') `parquet probe` reads 1.5 as 1.5
    and refuses 1,5, as the library's locale-free parser does (a strtod would
    do the opposite once anything called setlocale). The locale is compiled
    into the test's directory with localedef and found through LOCPATH."""

    one_column_file = ParquetProbeFilesMadeHere.one_column_file
    check = ParquetProbeFilesMadeHere.check

    @classmethod
    def setUpClass(cls):
        cls.locales = None  # made once for the class: localedef takes seconds
        if shutil.which("localedef") is None:
            cls.skip_reason = "localedef is not installed: cannot make a de_DE.UTF-8 locale"
            return
        cls._locale_tmp = tempfile.TemporaryDirectory(prefix="blockbloom-locale-")
        locales = cls._locale_tmp.name
        # localedef exits 1 on mere warnings: the files it wrote decide.
        subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8",
                        os.path.join(locales, "de_DE.UTF-8")], capture_output=True)
        if os.path.isfile(os.path.join(locales, "de_DE.UTF-8", "LC_NUMERIC")):
            cls.locales = locales
        cls.skip_reason = "localedef could not make de_DE.UTF-8 (no de_DE locale source?)"

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "_locale_tmp", None) is not None:
            cls._locale_tmp.cleanup()

    def setUp(self):
        super().setUp()
        if self.locales is None:
            self.skipTest(self.skip_reason)
        locales = self.locales
        saved = {k: os.environ.get(k) for k in ("LC_ALL", "LOCPATH")}

        def restore():
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        self.addCleanup(restore)
        os.environ["LOCPATH"] = locales
        os.environ["LC_ALL"] = "de_DE.UTF-8"
        # A program that asks for the environment's locale does get German numbers.
        got = subprocess.run([sys.executable, "-c", "import locale; locale.setlocale(locale.LC_ALL, '');"
                              " print(locale.localeconv()['decimal_point'])"],
                             capture_output=True, text=True)
        self.assertEqual(got.stdout.strip(), ",", got.stderr)

    def test_float_and_double_text(self):
        for physical, fmt in ((DOUBLE_TYPE, "<d"), (FLOAT, "<f")):
            with self.subTest(physical=physical):
                stored = [struct.pack(fmt, v) for v in (1.5, -0.25, float("nan"))]
                answers = self.check(Column("x", physical), stored,
                                     [("1.5", stored[0]), ("15e-1", stored[0]), ("0x1.8p0", stored[0]),
                                      ("-0.25", stored[1]), ("-nan", stored[2]),
                                      ("2.5", struct.pack(fmt, 2.5)), ("1,5", None), ("-0,25", None)])
                for text in ("1.5", "15e-1", "0x1.8p0", "-0.25", "-nan"):
                    self.assertEqual(answers[(text, 0)], "maybe", text)

    def test_decimal_text(self):
        stored = [struct.pack("<i", 150)]
        answers = self.check(Column("d", INT32, logical=("DECIMAL", 2, 9)), stored,
                             [("1.5", stored[0]), ("1.50", stored[0]), ("15E-1", stored[0]),
                              ("1,5", None)])
        self.assertEqual(answers[("1.5", 0)], "maybe")


class ParquetProbeStreams(ParquetTestCase):
    """probe --input streams: memory bounded whatever the input."""

    BOUND = 40 << 20  # peak RSS allowed, in bytes (the tool takes 7-13 MiB, before 68-215)
    SANITIZED_BOUND = 200 << 20  # under ASan (its shadow memory): a guard against runaway only

    @staticmethod
    def sized(native, emulated):
        """How many values or row groups a test streams. Under an emulator the
        peak is the emulator's and is not checked, so the inputs only need to
        cross a chunk boundary (65,536 lines), not to weigh: the full sizes
        cost 20-36 s per emulated row of the test matrix."""
        return emulated if cli_support.WRAPPER else native

    def all_maybe_file(self, row_groups=1, column=Column("n", INT64)):
        """One column (INT64 n) whose filter, shared by every row group, has
        every bit set: every answer is maybe, so the expected output is known."""
        blob = bloom_header(1024) + b"\xff" * 1024
        data, placements = build_parquet([column], [[{"filter": blob}]])
        if row_groups > 1:
            header, _, length = placements[0][0]
            data, _ = build_parquet([column], [[{"filter": blob}]] + [
                [{"offset": header, "length": length}]] * (row_groups - 1))
        return self.write("all.parquet", data)

    def measured(self, args, stdout=None, stop_after=None):
        """run_measured, its peak checked against BOUND."""
        code, stderr, peak = self.run_measured(args, stdout=stdout, stop_after=stop_after)
        if not cli_support.WRAPPER:  # an emulator's peak is its own
            bound = self.SANITIZED_BOUND if cli_support.sanitized() else self.BOUND
            self.assertLess(peak, bound, "peak RSS %.1f MiB" % (peak / 2 ** 20))
        return code, stderr

    def test_millions_of_values_in_bounded_memory(self):
        path = self.all_maybe_file()
        n = self.sized(1000000, 70000)
        values = self.write("values.txt", b"".join(b"%d\n" % i for i in range(n)))
        out = self.path("out.txt")
        code, stderr = self.measured(["parquet", "probe", path, "--column", "n", "--input",
                                      values], stdout=out)
        self.assertEqual(code, 0, stderr)
        self.assertEqual(read_bytes(out), b"".join(b"%d\trow_group=0\tmaybe\n" % i
                                                   for i in range(n)))
        # The JSON form streams too, and is one document (300,000 values: it
        # took 68 MiB, and 215 MiB for the million).
        n = self.sized(300000, 70000)
        values = self.write("values.txt", b"".join(b"%d\n" % i for i in range(n)))
        code, stderr = self.measured(["parquet", "probe", path, "--column", "n", "--json",
                                      "--input", values], stdout=out)
        self.assertEqual(code, 0, stderr)
        self.assertEqual(read_bytes(out), b'{"column": "n", "physical_type": "INT64", "results": [' +
                         b",".join(b'\n  {"value": "%d", "row_groups": [{"row_group": 0, '
                                   b'"maybe": true}]}' % i for i in range(n)) + b"\n]}\n")

    def test_a_dataset_file_of_many_values_and_row_groups_in_bounded_memory(self):
        # A dataset (a directory) of one file: its 4M answers are kept as bits
        # and written in pieces as the file's turn comes, never as one text.
        path = self.all_maybe_file(row_groups=self.sized(100, 4))
        n = self.sized(40000, 20000)
        values = self.write("values.txt", b"".join(b"%d\n" % i for i in range(n)))
        for form in ([], ["--json"]):
            with self.subTest(form=form):
                code, stderr, peak = self.run_measured(
                    ["parquet", "probe", os.path.dirname(path), "--column", "n", "--input",
                     values] + form)
                self.assertEqual(code, 0, stderr)
                if not cli_support.WRAPPER:
                    bound = self.SANITIZED_BOUND if cli_support.sanitized() else 64 << 20
                    self.assertLess(peak, bound, "peak RSS %.1f MiB" % (peak / 2 ** 20))

    def test_answers_across_chunks_are_the_models(self):
        # 200,000 values cross several chunks; every 1,000th is in the filter.
        stored = [struct.pack("<q", i) for i in range(0, 200000, 1000)]
        bitset = model_bitset([xxh64(v) for v in stored], 1024)
        data, _ = build_parquet([Column("n", INT64)], [[{"filter": bloom_header(1024) + bitset}]])
        path = self.write("n.parquet", data)
        values = self.write("values.txt", b"".join(b"%d\n" % i for i in range(200000)))
        lines = self.run_ok(["parquet", "probe", path, "--column", "n", "--input",
                             values]).stdout.splitlines()
        self.assertEqual([line.split("\t")[0] for line in lines], [str(i) for i in range(200000)])
        for i in range(0, 200000, 1000):
            self.assertEqual(lines[i], "%d\trow_group=0\tmaybe" % i)
        for i in range(7, 200000, 4999):  # a sample of the others, against the model
            expected = "maybe" if parquet_model_find(bitset, xxh64(struct.pack("<q", i))) == "1" \
                else "absent"
            self.assertEqual(lines[i], "%d\trow_group=0\t%s" % (i, expected))

    def test_a_line_without_end_after_many_values_is_refused_in_bounded_memory(self):
        path = self.all_maybe_file(column=Column("s", BYTE_ARRAY))
        n = self.sized(600000, 70000)
        lines = [b"value %033d\n" % i for i in range(n)]  # 40 bytes each
        values = self.write("values.txt", b"".join(lines) +
                            b"7" * (3 << 20))  # no newline: as /dev/urandom may be
        out = self.path("out.txt")
        code, stderr = self.measured(["parquet", "probe", path, "--column", "s", "--input",
                                      values], stdout=out)
        self.assertEqual(code, 2, stderr)
        self.assertIn("%s:%d: line longer than 1048576 bytes" % (values, n + 1), stderr)
        # What was printed is the answers of the first lines, whole lines only
        # (--help: a refusal prints nothing of its chunk).
        printed = read_bytes(out)
        expected = b"".join(line[:-1] + b"\trow_group=0\tmaybe\n" for line in lines)
        self.assertTrue(expected.startswith(printed))
        self.assertTrue(printed == b"" or printed.endswith(b"\n"))
        self.assertLess(len(printed), len(expected))

    def test_endless_input_of_strings_runs_in_bounded_memory(self):
        # /dev/urandom as strings: every line is a value, and it never ends
        # (it took 6.7 GB in 16 s); stopped after half a second.
        path = self.all_maybe_file(column=Column("s", BYTE_ARRAY))
        code, stderr = self.measured(["parquet", "probe", path, "--column", "s", "--input",
                                      "/dev/urandom"], stop_after=0.5)
        self.assertEqual(code, -signal.SIGTERM, stderr)

    def test_a_bad_value_in_a_small_input_prints_nothing(self):
        path = self.all_maybe_file()
        bad = self.write("bad.txt", b"".join(b"%d\n" % i for i in range(1000)) + b"seven\n")
        result = self.assertRefused(["parquet", "probe", path, "--column", "n", "--input", bad],
                                    bad + ":1001: ", 'value "seven"')
        self.assertEqual(result.stdout, "")

    def test_many_row_groups_stream_their_answers(self):
        groups = self.sized(20000, 2000)
        path = self.all_maybe_file(groups)
        values = [str(v) for v in range(100)]
        out = self.path("out.txt")
        code, stderr = self.measured(["parquet", "probe", path, "--column", "n"] + values,
                                     stdout=out)
        self.assertEqual(code, 0, stderr)
        rows = [b"\trow_group=%d\tmaybe\n" % g for g in range(groups)]
        self.assertEqual(read_bytes(out), b"".join(v.encode() + r for v in values for r in rows))


class ParquetOneEscapingRule(ParquetTestCase):
    """Names and values that are not UTF-8: exact in JSON (surrogateescape),
    one escaping rule in text on stdout and stderr."""

    def test_names_that_are_not_utf8_stay_distinct_in_json(self):
        blob = filter_blob([b"v"], 32)
        data, _ = build_parquet([Column([b"\xff"], BYTE_ARRAY), Column([b"\xfe"], BYTE_ARRAY),
                                 Column([b"ok", b"\xc3(\xe9t\xc3\xa9"], BYTE_ARRAY)],
                                [[{"filter": blob}] * 3])
        path = self.write("names.parquet", data)
        result = run_bytes(["parquet", "list", path, "--json"])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn(b'"\\udcff"', result.stdout)
        result.stdout.decode("utf-8")  # the document itself is valid UTF-8
        filters = json.loads(result.stdout)["filters"]
        names = [[b"\xff"], [b"\xfe"], [b"ok", b"\xc3(\xe9t\xc3\xa9"]]
        self.assertEqual([[n.encode("utf-8", "surrogateescape") for n in f["path"]]
                          for f in filters], names)
        self.assertEqual([f["column"].encode("utf-8", "surrogateescape") for f in filters],
                         [b".".join(n) for n in names])
        self.assertEqual(filters[2]["column"], "ok.\udcc3(\udce9t\u00e9")
        # --column-path takes the names as --json writes them (\udcXX: the byte).
        for f in filters:
            result = run_bytes(["parquet", "probe", path, "--column-path", json.dumps(f["path"]),
                                "v"])
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(result.stdout, b"v\trow_group=0\tmaybe\n")
        # Text: each byte that is not UTF-8 as \xHH, the valid ones as they are.
        text = run_bytes(["parquet", "list", path]).stdout
        for shown in (b" \\xff ", b" \\xfe ", " ok.\\xc3(\\xe9t\u00e9 ".encode()):
            self.assertIn(shown, text)

    def test_values_that_are_not_utf8_are_exact_in_probe_json(self):
        stored = [b"\xff", b"a\xfeb"]
        data, _ = build_parquet([Column("s", BYTE_ARRAY)], [[{"filter": filter_blob(stored, 64)}]])
        path = self.write("s.parquet", data)
        lines = self.write("values.txt", b"\xff\na\xfeb\n\xfe\n")
        result = run_bytes(["parquet", "probe", path, "--column", "s", "--json", "--input", lines])
        self.assertEqual(result.returncode, 0, result.stderr)
        results = json.loads(result.stdout)["results"]
        self.assertEqual([r["value"] for r in results], ["\udcff", "a\udcfeb", "\udcfe"])
        self.assertEqual([r["value"].encode("utf-8", "surrogateescape") for r in results],
                         [b"\xff", b"a\xfeb", b"\xfe"])
        self.assertEqual([r["row_groups"][0]["maybe"] for r in results[:2]], [True, True])

    def test_tab_backslash_and_bad_byte_print_alike_on_stdout_and_stderr(self):
        value = b"t\tb\\x\xff\n"  # tab, backslash, a byte that is not UTF-8, newline
        shown = b"t\\x09b\\\\x\\xff\\x0a"
        data, _ = build_parquet([Column([value], BYTE_ARRAY), Column("n", INT32)],
                                [[{"filter": filter_blob([value], 64)},
                                  {"filter": filter_blob([b"\x01\x00\x00\x00"], 64)}]])
        path = self.write("v.parquet", data)
        # stdout: the value probed, and the column listed.
        result = run_bytes(["parquet", "probe", path, "--column", value, "--", value])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, shown + b"\trow_group=0\tmaybe\n")
        self.assertRegex(run_bytes(["parquet", "list", path]).stdout,
                         b"(?m)^0 +" + re.escape(shown) + b" +BYTE_ARRAY ")
        # stderr: the same value refused (an INT32 column) and the column not found.
        result = run_bytes(["parquet", "probe", path, "--column", "n", "--", value])
        self.assertEqual(result.returncode, 2)
        self.assertIn(b'value "' + shown + b'" of column n (INT32)', result.stderr)
        lines = self.write("values.txt", value + b"\n")  # ... from --input, the newline
        result = run_bytes(["parquet", "probe", path, "--column", "n", "--input", lines])
        self.assertIn(b'value "' + shown[:-len(b"\\x0a")] + b'" of column n', result.stderr)
        result = run_bytes(["parquet", "probe", path, "--column", value + b"x", "1"])
        self.assertEqual(result.returncode, 2)
        self.assertIn(b"no column " + shown + b"x", result.stderr)


class ParquetColumnPaths(ParquetTestCase):
    """Two columns of one dotted path: a top-level "a.b" and field b of group a."""

    def ambiguous_file(self):
        top = filter_blob([struct.pack("<i", 7)], 1024)
        nested = filter_blob([struct.pack("<i", 8)], 1024)
        return self.write("ambiguous.parquet", ambiguous_paths_parquet(top, nested))

    def test_list_tells_the_two_apart(self):
        path = self.ambiguous_file()
        report = self.list_json(path)
        self.assertEqual([(f["column"], f["path"]) for f in report["filters"]],
                         [("a.b", ["a.b"]), ("a.b", ["a", "b"])])
        text = self.run_ok(["parquet", "list", path]).stdout.splitlines()
        self.assertRegex(text[2], r'^0 +\["a\.b"\] +INT32 ')
        self.assertRegex(text[3], r'^0 +\["a", "b"\] +INT32 ')
        # Paths no other column shares stay dotted, with their names in JSON.
        data, _ = build_parquet([Column(["g", "x"]), Column("y")],
                                [[{"filter": filter_blob([b"\x01\x00\x00\x00"], 64)}] * 2])
        plain_path = self.write("plain.parquet", data)
        self.assertEqual([(f["column"], f["path"]) for f in self.list_json(plain_path)["filters"]],
                         [("g.x", ["g", "x"]), ("y", ["y"])])
        text = self.run_ok(["parquet", "list", plain_path]).stdout.splitlines()
        self.assertRegex(text[2], r"^0 +g\.x +INT32 ")

    def probe_path(self, path, names_json, values, extra=()):
        result = self.run_ok(["parquet", "probe", path, "--column-path", names_json] +
                             list(extra) + ["--"] + values)
        return [line.split("\t")[2] for line in result.stdout.splitlines()]

    def test_column_path_addresses_each_and_column_refuses_the_ambiguous_path(self):
        path = self.ambiguous_file()
        bitset7 = model_bitset([xxh64(struct.pack("<i", 7))], 1024)
        bitset8 = model_bitset([xxh64(struct.pack("<i", 8))], 1024)
        model = {name: ["maybe" if parquet_model_find(b, xxh64(struct.pack("<i", v))) == "1"
                        else "absent" for v in (7, 8)]
                 for name, b in (("top", bitset7), ("nested", bitset8))}
        self.assertEqual(model["top"][0], "maybe")
        self.assertEqual(model["nested"][1], "maybe")
        self.assertEqual(self.probe_path(path, '["a.b"]', ["7", "8"]), model["top"])
        self.assertEqual(self.probe_path(path, '[ "a" , "b" ]', ["7", "8"]), model["nested"])
        # Escapes: \u0061 is "a", \" and \\ decode, a surrogate pair is one character.
        self.assertEqual(self.probe_path(path, '["\\u0061", "\\u0062"]', ["8"]),
                         model["nested"][1:])
        report = json.loads(self.run_ok(["parquet", "probe", path, "--column-path", '["a","b"]',
                                         "--json", "8"]).stdout)
        self.assertEqual(report["column"], "a.b")
        self.assertRefused(["parquet", "probe", path, "--column", "a.b", "7"],
                           "column a.b is ambiguous: 2 columns have that dotted path: "
                           '["a.b"], ["a", "b"]')
        self.assertRefused(["parquet", "probe", path, "--column", "a.c", "7"],
                           "column a.c has no usable Bloom filter")
        self.assertRefused(["parquet", "probe", path, "--column", "a", "7"],
                           'no column a: a is a group: its columns are ["a", "b"], a.c')
        self.assertRefused(["parquet", "probe", path, "--column-path", '["a"]', "7"],
                           'no column with the names ["a"]', "a is a group")
        self.assertRefused(["parquet", "probe", path, "--column-path", '["a.c"]', "7"],
                           'no column with the names ["a.c"] (the column a.c has the names '
                           '["a", "c"])')
        self.assertRefused(["parquet", "probe", path, "--column-path", '["a.b"]', "--column",
                            "a.b", "7"], "--column or --column-path, not both")

    def test_a_malformed_column_path_exits_2_naming_the_problem(self):
        path = self.ambiguous_file()
        for text, problem in (('"a.b"', "expected '[' to begin the array (at byte 0)"),
                              ("[]", "the array is empty"),
                              ('["a",]', "expected a string in double quotes (at byte 5)"),
                              ('["a"', "expected ',' or ']' after a string"),
                              ('["a"] x', "unexpected text after the array"),
                              ('["a', "the string is not closed"),
                              ('["\\x"]', "unknown escape \\x"),
                              ('["\\u00g0"]', "\\u takes 4 hex digits"),
                              ('["\\ud800"]', "a high surrogate without its low surrogate"),
                              ('["\\udc00"]', "a lone low surrogate"),
                              ('["a\tb"]', "a control character in a string"),
                              ("[a]", "expected a string in double quotes")):
            with self.subTest(text=text):
                result = self.assertRefused(["parquet", "probe", path, "--column-path", text, "7"],
                                            shown("--column-path %s: not a JSON array of strings: "
                                                  "%s" % (text, problem)))
                self.assertNotIn("usage:", result.stderr)
        # Checked before the file is read.
        self.assertRefused(["parquet", "probe", self.path("absent.parquet"), "--column-path",
                            "[]", "7"], "the array is empty")

    def test_column_path_decodes_every_escape(self):
        names = ['q"\\/\b\f\n\r\t', "\u00e9\U0001f600"]
        data, _ = build_parquet([Column(names, BYTE_ARRAY)], [[{"filter": filter_blob([b"v"], 64)}]])
        path = self.write("escapes.parquet", data)
        text = ('["q\\"\\\\\\/\\b\\f\\n\\r\\t", "\\u00E9\\ud83d\\ude00"]')
        self.assertEqual(json.loads(text), names)
        self.assertEqual(self.probe_path(path, text, ["v"]), ["maybe"])
        self.assertEqual(self.list_json(path)["filters"][0]["path"], names)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
