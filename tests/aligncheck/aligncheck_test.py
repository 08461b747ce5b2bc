#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""End-to-end tests of `blockbloom-aligncheck` (tools/aligncheck/).

usage: aligncheck_test.py PATH_TO_BLOCKBLOOM_ALIGNCHECK [TestClass ...]

BLOCKBLOOM_TEST_WRAPPER (e.g. "qemu-x86_64 -cpu Haswell") runs the tool under
an emulator, as in tests/cli/cli_support.py. BLOCKBLOOM_TESTDATA names the
shared test data folder (real Parquet files); tests that need it are skipped,
with the reason, when it is absent.

Runs the named unittest classes (all when none is named). Exits 0 when every
test passed, 77 (meson's "skipped") when every test that ran was skipped, 1 on
any failure.

The expected answers come from code written here, not from the tool: a
block-by-block straddle count, and a small Thrift compact reader
(tests/support/parquet_files.py) that walks Parquet footers and BloomFilterHeaders
on its own.
"""

import json
import os
import shlex
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from parquet_files import (BINARY, I32, I64, LIST, STRUCT, CompactWriter,  # noqa: E402
                           bloom_header, file_metadata_start, parquet_file, read_bloom_header,
                           testdata_file, walk_footer)

TOOL = None  # set from argv in main()
WRAPPER = shlex.split(os.environ.get("BLOCKBLOOM_TEST_WRAPPER", ""))
TESTDATA = os.environ.get("BLOCKBLOOM_TESTDATA", "")

E5_PROFILES = ["e5-v1", "e5-v2", "e5-v3", "e5-v4"]
# What --cpu auto must say under each qemu model of the test matrix.
QEMU_MODEL_PROFILE = {"SandyBridge": "e5-v1", "IvyBridge": "e5-v2", "Haswell": "e5-v3",
                      "Broadwell": "e5-v4", "Nehalem": "generic", "Westmere": "generic",
                      "qemu64": "generic", "Skylake-Client": "generic"}


def run(args):
    return subprocess.run(WRAPPER + [TOOL] + [str(a) for a in args], capture_output=True,
                          text=True, timeout=600)


def straddling(start, blocks, boundary):
    """Blocks of 32 bytes from byte `start` whose first and last byte lie in
    different `boundary`-sized units: the definition, one block at a time."""
    return sum(1 for i in range(blocks)
               if (start + 32 * i) // boundary != (start + 32 * i + 31) // boundary)


def own_stderr(result):
    """The tool's stderr without an emulator's own warnings (qemu, in the
    emulated matrix rows, may print "qemu-x86_64: warning: ..." first)."""
    return "".join(line for line in result.stderr.splitlines(True) if not line.startswith("qemu-"))


# ------------------------------------------------------------------- tests

class ToolTestCase(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp, name)

    def write(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return self.path(name)

    def report(self, args, expect_exit=None):
        result = run(list(args) + ["--json"])
        if expect_exit is not None:
            self.assertEqual(result.returncode, expect_exit,
                             "exit %d for %s\nstdout: %s\nstderr: %s" %
                             (result.returncode, args, result.stdout[-2000:], result.stderr))
        self.assertIn(result.returncode, (0, 1), result.stderr)
        return json.loads(result.stdout)

    def assertBadInput(self, args, *fragments):
        result = run(args)
        self.assertEqual(result.returncode, 2,
                         "%s exited %d\nstdout: %s\nstderr: %s" %
                         (args, result.returncode, result.stdout, result.stderr))
        self.assertEqual(result.stdout, "", "nothing is reported on bad input")
        stderr = own_stderr(result)
        self.assertTrue(stderr.startswith("blockbloom-aligncheck: "), result.stderr)
        for fragment in fragments:
            self.assertIn(fragment, stderr)
        return result


class ExitStatus(ToolTestCase):
    """0 when nothing straddles, 1 when something does, 2 on bad input."""

    def setUp(self):
        super().setUp()
        self.blob = self.write("blob.bin", bytes(range(256)) * 64)  # 16 KiB

    def test_aligned_bitset_exits_0(self):
        for offset in (0, 32, 64, 4096):
            result = run(["--cpu", "e5-v4", "--file", self.blob, "--offset", offset, "--bytes", 1024])
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            self.assertIn("aligned", result.stdout)

    def test_straddling_bitset_exits_1(self):
        for offset in (16, 48, 52, 4090):
            result = run(["--cpu", "e5-v4", "--file", self.blob, "--offset", offset, "--bytes", 1024])
            self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
            self.assertIn("MISALIGNED", result.stdout)
            self.assertIn("bb_filter_init", result.stdout)  # the fix names the call

    def test_bad_input_exits_2_with_a_message_naming_the_problem(self):
        missing = self.path("missing.bin")
        self.assertBadInput(["--file", missing, "--bytes", 32], missing, "cannot open")
        self.assertBadInput(["--file", self.blob, "--offset", 16384, "--bytes", 32],
                            "too short", "16384")
        self.assertBadInput(["--file", self.blob, "--offset", 16000, "--bytes", 1024],
                            "runs past")
        self.assertBadInput(["--file", self.blob, "--bytes", 100], "not a multiple of 32")
        self.assertBadInput(["--bytes", 100], "not a multiple of 32")
        self.assertBadInput(["--bytes", 0], "--bytes 0")
        self.assertBadInput(["--bytes", "12x"], "not a number")
        self.assertBadInput(["--file", self.blob], "--file needs --bytes N or --parquet-header")
        self.assertBadInput([], "nothing to check")
        self.assertBadInput(["--bogus"], "unknown flag --bogus")
        self.assertBadInput(["--offset", 3, "--bytes", 32], "--offset is for --file")
        self.assertBadInput(["--parquet", self.blob, "--bytes", 32], "no --bytes")
        self.assertBadInput(["--parquet", self.blob, "--file", self.blob], "one thing at a time")
        self.assertBadInput(["--keys", 5, "--bytes", 32], "--keys is for --measure")
        self.assertBadInput(["--cpu", "e5-v9", "--bytes", 32], "unknown --cpu")
        # A corrupt header: bytes 0..255 are no BloomFilterHeader.
        self.assertBadInput(["--file", self.blob, "--offset", 5, "--parquet-header"],
                            "BloomFilterHeader at --offset 5")


class Version(ToolTestCase):
    """--version prints "blockbloom X.Y.Z" (the library's version; meson.build's
    project version when BLOCKBLOOM_PROJECT_VERSION gives it) and exits 0."""

    def test_version_prints_the_library_version_and_exits_0(self):
        result = run(["--version"])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertRegex(result.stdout, r"^blockbloom \d+\.\d+\.\d+\n$")
        expected = os.environ.get("BLOCKBLOOM_PROJECT_VERSION")
        if expected:
            self.assertEqual(result.stdout, "blockbloom %s\n" % expected)

    def test_version_with_arguments_is_bad_input(self):
        self.assertBadInput(["--version", "--json"], "--version takes no arguments")


class JsonReport(ToolTestCase):
    """--json: the keys the issue asks for, with the right types."""

    def check_common(self, report, mode, count):
        self.assertIs(type(report["profile"]), str)
        self.assertIs(type(report["profile_reason"]), str)
        self.assertTrue(report["profile_reason"])
        self.assertEqual(report["mode"], mode)
        self.assertIs(type(report["filters"]), list)
        self.assertEqual(len(report["filters"]), count)
        details = report["profile_details"]
        for key in ("line_bytes", "page_bytes", "huge_page_bytes"):
            self.assertIs(type(details[key]), int, key)
        for f in report["filters"]:
            for key in ("offset", "bytes", "blocks", "blocks_straddling_line",
                        "blocks_straddling_page", "blocks_straddling_huge_page",
                        "footprint_bytes"):
                self.assertIs(type(f[key]), int, key)
            self.assertIs(type(f["aligned"]), bool)
            self.assertIs(type(f["fix"]), str)
            self.assertIs(type(f["extra_line_fills_per_probe"]), float)
            self.assertEqual(f["blocks"] * 32, f["bytes"])
            self.assertEqual(f["aligned"], f["blocks_straddling_line"] == 0)
            self.assertEqual(sorted(f["alignment"]), ["mod_128", "mod_32", "mod_4096", "mod_64"])
            for m in (32, 64, 128, 4096):
                self.assertEqual(f["alignment"]["mod_%d" % m], f["offset"] % m)
            for key in ("fits_l1d", "fits_l2", "fits_llc"):
                self.assertIn(type(f[key]), (bool, type(None)), key)
        self.assertIs(type(report["all_aligned"]), bool)

    def test_file_report(self):
        blob = self.write("blob.bin", bytes(8192))
        report = self.report(["--cpu", "e5-v3", "--file", blob, "--offset", 16, "--bytes", 2048], 1)
        self.check_common(report, "file", 1)
        self.assertEqual(report["profile"], "e5-v3")
        self.assertEqual(report["profile_reason"], "forced by --cpu e5-v3")
        self.assertIsNone(report["cpu"])  # not examined when forced
        f = report["filters"][0]
        self.assertEqual((f["offset"], f["bytes"], f["blocks"]), (16, 2048, 64))
        self.assertEqual(f["blocks_straddling_line"], 32)
        self.assertEqual(f["file"], blob)
        self.assertFalse(f["aligned"])
        self.assertFalse(report["all_aligned"])
        self.assertAlmostEqual(f["extra_line_fills_per_probe"], 0.5)
        self.assertIs(type(f["estimated_extra_cycles_per_probe"]), float)

    def test_allocation_report(self):
        report = self.report(["--bytes", 4096], 0)
        self.check_common(report, "allocation", 1)
        self.assertIs(type(report["filters"][0]["address"]), str)
        self.assertIsNotNone(report["cpu"])  # --cpu auto examined this CPU
        self.assertIs(type(report["cpu"]["caches"]), dict)

    def test_parquet_report_has_a_column_per_filter(self):
        data, _ = parquet_file([(["a"], 256), (["b", "c"], 512), (["no_filter"], None)], 16)
        path = self.write("t.parquet", data)
        report = self.report(["--cpu", "e5-v1", "--parquet", path], 1)
        self.check_common(report, "parquet", 2)
        self.assertEqual(report["column_chunks"], 3)
        self.assertEqual(report["column_chunks_without_bloom_filter"], 1)
        self.assertEqual([f["column"] for f in report["filters"]], ["a", "b.c"])
        for f in report["filters"]:
            self.assertIs(type(f["column"]), str)
            self.assertIs(type(f["row_group"]), int)
            self.assertIs(type(f["header_offset"]), int)
            self.assertEqual(f["header_offset"] + f["header_bytes"], f["offset"])


class LibraryAllocation(ToolTestCase):
    """--bytes N alone: bb_filter_init's real address is 64-byte aligned."""

    def test_every_size_is_64_byte_aligned_and_straddles_nothing(self):
        # Heap sizes and the mmap path (1 MiB and up).
        for n in (32, 64, 96, 4096, 65536, 1 << 20, 3 << 20):
            report = self.report(["--cpu", "e5-v4", "--bytes", n], 0)
            f = report["filters"][0]
            address = int(f["address"], 16)
            self.assertEqual(address % 64, 0, f["address"])
            self.assertEqual(f["offset"], address)
            self.assertEqual(f["alignment"]["mod_64"], 0)
            self.assertEqual((f["bytes"], f["blocks"]), (n, n // 32))
            self.assertEqual(f["blocks_straddling_line"], 0)
            self.assertEqual(f["blocks_straddling_page"], 0)
            self.assertTrue(f["aligned"])
            self.assertIn("none needed", f["fix"])

    def test_text_form_says_aligned(self):
        result = run(["--cpu", "e5-v2", "--bytes", 1024])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("allocated by bb_filter_init", result.stdout)
        self.assertIn("blocks straddling a cache line: 0 of 32", result.stdout)


class FileBitset(ToolTestCase):
    """--file/--offset/--bytes and --parquet-header against the definition."""

    def test_counts_match_a_block_by_block_count(self):
        blob = self.write("blob.bin", bytes(1 << 20) + bytes(8192))
        for offset in (0, 16, 32, 48, 52, 4090, 4064, 4080):
            for n in (32, 64, 512, 4096, 65536, 1 << 20):
                report = self.report(["--cpu", "e5-v4", "--file", blob, "--offset", offset,
                                      "--bytes", n])
                f = report["filters"][0]
                blocks = n // 32
                self.assertEqual(f["offset"], offset)
                self.assertEqual(f["blocks_straddling_line"], straddling(offset, blocks, 64),
                                 (offset, n))
                self.assertEqual(f["blocks_straddling_pair"], straddling(offset, blocks, 128))
                self.assertEqual(f["blocks_straddling_page"], straddling(offset, blocks, 4096),
                                 (offset, n))
                self.assertEqual(f["aligned"], f["blocks_straddling_line"] == 0)

    def test_parquet_header_points_at_the_header(self):
        for misalign in (0, 16, 20, 48):
            header = bloom_header(1024)
            pad = (64 + misalign - len(header) - 100 % 64) % 64
            offset = 100 + pad
            blob = self.write("h.bin", bytes(offset) + header + bytes(1024) + bytes(10))
            report = self.report(["--cpu", "e5-v4", "--file", blob, "--offset", offset,
                                  "--parquet-header"])
            f = report["filters"][0]
            self.assertEqual(f["header_offset"], offset)
            self.assertEqual(f["header_bytes"], len(header))
            self.assertEqual(f["offset"], offset + len(header))
            self.assertEqual(f["offset"] % 64, misalign)
            self.assertEqual(f["bytes"], 1024)
            self.assertEqual(f["aligned"], misalign % 32 == 0)
            if not f["aligned"]:
                self.assertIn("bb_parquet_filter_read", f["fix"])
            # --bytes may confirm the header's size, and must agree with it.
            self.report(["--file", blob, "--offset", offset, "--parquet-header", "--bytes", 1024])
            self.assertBadInput(["--file", blob, "--offset", offset, "--parquet-header",
                                 "--bytes", 2048], "does not match numBytes 1024")

    def test_parquet_mr_filter_file(self):
        path = os.path.join(TESTDATA, "bloom_filter.xxhash.bin")
        if not TESTDATA or not os.path.isfile(path):
            self.skipTest("shared testdata is absent: no bloom_filter.xxhash.bin in "
                          "BLOCKBLOOM_TESTDATA=%r" % TESTDATA)
        report = self.report(["--cpu", "e5-v4", "--file", path, "--parquet-header"], 1)
        f = report["filters"][0]
        self.assertEqual((f["offset"], f["bytes"]), (16, 1024))  # 16-byte header
        self.assertEqual(f["blocks_straddling_line"], 16)


class ParquetFooterMatchesIndependentWalk(ToolTestCase):
    """--parquet on files written here: the tool's rows equal a Python walk."""

    def check_against_walk(self, path, report):
        with open(path, "rb") as f:
            data = f.read()
        expected = []
        for chunk in walk_footer(data):
            if chunk["offset"] is None:
                continue
            header_bytes, num_bytes = read_bloom_header(data, chunk["offset"])
            expected.append((chunk["row_group"], chunk["path"], chunk["offset"],
                             chunk["offset"] + header_bytes, num_bytes))
        got = [(f["row_group"], f["column"], f["header_offset"], f["offset"], f["bytes"])
               for f in report["filters"]]
        self.assertEqual(got, expected)
        for f in report["filters"]:
            blocks = f["bytes"] // 32
            self.assertEqual(f["blocks_straddling_line"], straddling(f["offset"], blocks, 64))
            self.assertEqual(f["blocks_straddling_page"], straddling(f["offset"], blocks, 4096))
            self.assertEqual(f["aligned"], f["offset"] % 32 == 0)
        return expected

    def test_aligned_filters_exit_0(self):
        data, bitsets = parquet_file([(["a"], 1024), (["b"], 32), (["c"], 4096)], 0)
        path = self.write("aligned.parquet", data)
        report = self.report(["--cpu", "e5-v4", "--parquet", path], 0)
        self.check_against_walk(path, report)
        self.assertEqual([f["offset"] for f in report["filters"]], bitsets)
        self.assertTrue(report["all_aligned"])

    def test_misaligned_filters_exit_1_and_are_flagged(self):
        for misalign in (16, 20, 36, 52):
            filters = [(["x%d" % i], 32 * (i + 1) * 16) for i in range(20)]  # > 15: long list header
            data, bitsets = parquet_file(filters, misalign)
            path = self.write("m.parquet", data)
            report = self.report(["--cpu", "e5-v2", "--parquet", path], 1)
            self.check_against_walk(path, report)
            self.assertEqual([f["offset"] for f in report["filters"]], bitsets)
            self.assertTrue(all(not f["aligned"] for f in report["filters"]))
            # Bitsets that cross 4096 have a page-straddling block.
            self.assertTrue(any(f["blocks_straddling_page"] for f in report["filters"]))

    def test_a_file_without_filters_checks_nothing(self):
        data, _ = parquet_file([(["a"], None), (["b"], None)], 0)
        path = self.write("none.parquet", data)
        report = self.report(["--cpu", "e5-v4", "--parquet", path], 0)
        self.assertEqual(report["filters"], [])
        self.assertEqual(report["column_chunks"], 2)
        self.assertEqual(report["column_chunks_without_bloom_filter"], 2)

    def test_text_form_is_a_table_with_one_row_per_chunk(self):
        data, _ = parquet_file([(["first"], 256), (["second"], 256)], 20)
        path = self.write("t.parquet", data)
        result = run(["--cpu", "e5-v4", "--parquet", path])
        self.assertEqual(result.returncode, 1, result.stderr)
        rows = [line for line in result.stdout.splitlines() if "MISALIGNED" in line]
        self.assertEqual(len(rows), 2, result.stdout)
        self.assertIn("first", rows[0])
        self.assertIn("second", rows[1])
        self.assertIn("bb_parquet_filter_read", result.stdout)


    def test_hostile_column_paths_are_escaped_in_text_and_exact_in_json(self):
        # An ESC sequence (clear screen), a newline that would forge a row, a
        # C1 CSI (U+009B) and an invalid byte; UTF-8 text passes unchanged.
        hostile = ["evil\x1b[2J", "a\nb", "c\u009bd", "\u00e9t\u00e9"]
        data, _ = parquet_file([(hostile, 256)], 20)
        # The first "é" made invalid, in the schema and in path_in_schema alike.
        data = data.replace(b"\xc3\xa9t", b"\xff\xa9t")
        path = self.write("hostile.parquet", data)
        result = run(["--cpu", "e5-v4", "--parquet", path])
        self.assertEqual(result.returncode, 1, result.stderr)
        for raw in ("\x1b", "\x9b", "a\nb"):
            self.assertNotIn(raw, result.stdout)
        escaped = "evil\\x1b[2J.a\\x0ab.c\\xc2\\x9bd.\\xff\\xa9t\u00e9"
        rows = [line for line in result.stdout.splitlines() if "MISALIGNED" in line]
        self.assertEqual(len(rows), 1, result.stdout)
        self.assertIn(escaped, rows[0])
        self.assertIn("fix, e.g. for " + escaped + ":", result.stdout)
        # JSON carries the bytes exactly (as JSON escapes).
        report = self.report(["--cpu", "e5-v4", "--parquet", path], 1)
        self.assertTrue(report["filters"][0]["column"].startswith("evil\x1b[2J.a\nb."))

    def test_hostile_column_path_is_escaped_in_error_messages(self):
        w = file_metadata_start([["x\x1b]0;owned\x07\ny"]])
        w.field(4, LIST).list_header(STRUCT, 1).begin()
        w.field(1, LIST).list_header(STRUCT, 1).begin()
        w.field(3, STRUCT).begin()
        w.field(3, LIST).list_header(BINARY, 1).binary("x\x1b]0;owned\x07\ny")
        w.field(14, I64).zigzag(1 << 40)
        w.end().end().end().end()
        metadata = bytes(w.out)
        data = b"PAR1" + metadata + struct.pack("<I", len(metadata)) + b"PAR1"
        result = self.assertBadInput(["--parquet", self.write("far.parquet", data)],
                                     "(x\\x1b]0;owned\\x07\\x0ay)")
        self.assertNotIn("\x1b", result.stderr)
        self.assertEqual(len(own_stderr(result).splitlines()), 1, result.stderr)


class RealParquetTestdata(ToolTestCase):
    """--parquet on the real files in ../shared/testdata."""

    def data_file(self, name):
        return testdata_file(self, name)

    def test_impala_file_lists_all_16_filters_and_flags_the_misaligned(self):
        path = self.data_file("parquet-bloom-filtering.parquet")
        report = self.report(["--cpu", "e5-v4", "--parquet", path], 1)
        expected = ParquetFooterMatchesIndependentWalk.check_against_walk(self, path, report)
        self.assertEqual(len(expected), 16)
        self.assertEqual(len(report["filters"]), 16)
        self.assertEqual(report["column_chunks"], 16)
        columns = ["int8_col", "int16_col", "int32_col", "int64_col", "float_col", "double_col",
                   "string_col", "char_col"]
        self.assertEqual([f["column"] for f in report["filters"]], columns * 2)
        self.assertEqual(report["filters"][0]["offset"], 9908)
        for f in report["filters"]:
            self.assertEqual(f["bytes"], 512)
            self.assertNotEqual(f["offset"] % 32, 0)
            self.assertFalse(f["aligned"])
            self.assertEqual(f["blocks_straddling_line"], 8)
        self.assertEqual(report["filters_straddling"], 16)
        # float_col's bitsets (12020.., 16244..) cross the pages at 12288 and 16384.
        self.assertEqual([f["column"] for f in report["filters"] if f["blocks_straddling_page"]],
                         ["float_col", "float_col"])

    def test_parquet_mr_file_has_one_filter_at_208(self):
        path = self.data_file("data_index_bloom_encoding_stats.parquet")
        report = self.report(["--cpu", "e5-v4", "--parquet", path], 1)
        ParquetFooterMatchesIndependentWalk.check_against_walk(self, path, report)
        self.assertEqual(len(report["filters"]), 1)
        f = report["filters"][0]
        self.assertEqual((f["column"], f["header_offset"], f["offset"], f["bytes"]),
                         ("String", 192, 208, 1024))
        self.assertEqual(f["blocks_straddling_line"], 16)
        self.assertFalse(f["aligned"])


class CorruptParquet(ToolTestCase):
    """Corrupt inputs exit 2 with a message, and report nothing."""

    def setUp(self):
        super().setUp()
        self.good, _ = parquet_file([(["a"], 1024), (["b"], 512)], 16)

    def test_truncated_file(self):
        for cut in (1, 4, 8, 9, 100, len(self.good) - 5):
            path = self.write("cut.parquet", self.good[:-cut])
            self.assertBadInput(["--parquet", path], path)
        self.assertBadInput(["--parquet", self.write("empty.parquet", b"")], "too short")
        self.assertBadInput(["--parquet", self.write("short.parquet", b"PAR1PAR1")], "too short")

    def test_bad_magic(self):
        path = self.write("magic.parquet", self.good[:-4] + b"PARX")
        self.assertBadInput(["--parquet", path], "bad magic")
        path = self.write("head.parquet", b"XAR1" + self.good[4:])
        self.assertBadInput(["--parquet", path], "bad magic")

    def test_footer_length_past_the_file(self):
        data = self.good[:-8] + struct.pack("<I", len(self.good)) + b"PAR1"
        path = self.write("long.parquet", data)
        self.assertBadInput(["--parquet", path], "footer length %d" % len(self.good))

    def test_corrupt_footer_thrift(self):
        (length,) = struct.unpack("<I", self.good[-8:-4])
        start = len(self.good) - 8 - length
        # The FileMetaData cut short, with the length adjusted: truncated Thrift.
        data = self.good[:start] + self.good[start:start + 10] + struct.pack("<I", 10) + b"PAR1"
        self.assertBadInput(["--parquet", self.write("t.parquet", data)], "corrupt footer")
        # A field type nibble of 15 is no Thrift compact type.
        data = self.good[:start] + b"\x1f" + self.good[start + 1:]
        self.assertBadInput(["--parquet", self.write("m.parquet", data)], "corrupt footer",
                            "malformed")

    def test_bloom_filter_offset_past_the_end(self):
        w = file_metadata_start([["far"]])
        w.field(4, LIST).list_header(STRUCT, 1).begin()
        w.field(1, LIST).list_header(STRUCT, 1).begin()
        w.field(3, STRUCT).begin()
        w.field(3, LIST).list_header(BINARY, 1).binary("far")
        w.field(14, I64).zigzag(1 << 40)
        w.end().end().end().end()
        metadata = bytes(w.out)
        data = b"PAR1" + metadata + struct.pack("<I", len(metadata)) + b"PAR1"
        self.assertBadInput(["--parquet", self.write("far.parquet", data)],
                            "bloom_filter_offset %d is outside the file" % (1 << 40), "(far)")

    def test_bloom_filter_length_zero_or_negative_is_invalid(self):
        for length in (0, -1, -(1 << 31)):
            with self.subTest(length=length):
                w = file_metadata_start([["len"]])
                w.field(4, LIST).list_header(STRUCT, 1).begin()
                w.field(1, LIST).list_header(STRUCT, 1).begin()
                w.field(3, STRUCT).begin()
                w.field(3, LIST).list_header(BINARY, 1).binary("len")
                w.field(14, I64).zigzag(4)
                w.field(15, I32).zigzag(length)
                w.end().end().end().end()
                metadata = bytes(w.out)
                data = (b"PAR1" + bloom_header(32) + bytes(32) + metadata +
                        struct.pack("<I", len(metadata)) + b"PAR1")
                result = self.assertBadInput(["--parquet", self.write("len.parquet", data)],
                                             "bloom_filter_length %d is invalid" % length,
                                             "(len)")
                self.assertNotIn("runs past the end", result.stderr)

    def test_file_metadata_without_its_required_fields_is_malformed(self):
        # "PAR1" 00 (a FileMetaData that is only a stop byte) 01000000 "PAR1":
        # valid Thrift, but no Parquet footer, not a file without column chunks.
        path = self.write("stop.parquet", b"PAR1\x00\x01\x00\x00\x00PAR1")
        self.assertEqual(os.path.getsize(path), 13)
        self.assertBadInput(["--parquet", path], "corrupt footer", "lacks required",
                            "version (field 1)", "schema (field 2)", "num_rows (field 3)",
                            "row_groups (field 4)")
        # Each required field missing alone, the others present.
        fields = [(1, I32, lambda w: w.zigzag(2)),
                  (2, LIST, lambda w: w.list_header(STRUCT, 0)),
                  (3, I64, lambda w: w.zigzag(0)),
                  (4, LIST, lambda w: w.list_header(STRUCT, 0))]
        names = {1: "version", 2: "schema", 3: "num_rows", 4: "row_groups"}
        for left_out in names:
            with self.subTest(left_out=left_out):
                w = CompactWriter().begin()
                for fid, ftype, value in fields:
                    if fid != left_out:
                        value(w.field(fid, ftype))
                w.end()
                metadata = bytes(w.out)
                data = b"PAR1" + metadata + struct.pack("<I", len(metadata)) + b"PAR1"
                result = self.assertBadInput(["--parquet", self.write("m.parquet", data)],
                                             "lacks required %s (field %d)"
                                             % (names[left_out], left_out))
                for other in names:
                    if other != left_out:
                        self.assertNotIn(names[other] + " (", result.stderr)
        # A required field of the wrong type is skipped (as Thrift's readers
        # do): missing, and the message says it was there.
        w = CompactWriter().begin()
        w.field(1, I64).zigzag(2)
        w.end()
        data = b"PAR1" + bytes(w.out) + struct.pack("<I", len(w.out)) + b"PAR1"
        self.assertBadInput(["--parquet", self.write("t.parquet", data)],
                            "lacks required version (field 1, present but not an i32)")
        # All four present and no column chunk: a valid, empty file.
        w = CompactWriter().begin()
        for fid, ftype, value in fields:
            value(w.field(fid, ftype))
        w.end()
        data = b"PAR1" + bytes(w.out) + struct.pack("<I", len(w.out)) + b"PAR1"
        self.assertEqual(run(["--parquet", self.write("ok.parquet", data)]).returncode, 0)

    def test_missing_file(self):
        path = self.path("absent.parquet")
        self.assertBadInput(["--parquet", path], path, "cannot open")


class NonRegularInput(ToolTestCase):
    """--parquet / --file naming a FIFO: exit 2 at once, never a wait in open()."""

    def assertRefusedQuickly(self, args, path):
        try:
            result = subprocess.run(WRAPPER + [TOOL] + [str(a) for a in args],
                                    capture_output=True, text=True, timeout=20)
        except subprocess.TimeoutExpired:
            self.fail("%r still waits after 20 s" % args)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(path + ": not a regular file", result.stderr)
        self.assertEqual(result.stdout, "")

    def test_fifo_is_refused(self):
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        self.assertRefusedQuickly(["--parquet", fifo], fifo)
        self.assertRefusedQuickly(["--file", fifo, "--bytes", 32], fifo)
        self.assertRefusedQuickly(["--file", fifo, "--parquet-header"], fifo)

    def test_directory_is_refused(self):
        self.assertRefusedQuickly(["--parquet", self.tmp], self.tmp)


class CpuProfiles(ToolTestCase):
    """--cpu and --sku; --cpu auto on the (emulated) CPU this runs on."""

    def test_forced_profiles_have_the_e5_geometry(self):
        for name in E5_PROFILES:
            report = self.report(["--cpu", name, "--bytes", 64], 0)
            d = report["profile_details"]
            self.assertEqual(report["profile"], name)
            self.assertEqual((d["line_bytes"], d["l1d_bytes"], d["l2_bytes"], d["llc_bytes"]),
                             (64, 32768, 262144, 2621440))
            self.assertEqual((d["page_bytes"], d["huge_page_bytes"]), (4096, 2 << 20))
            self.assertEqual(d["adjacent_line_prefetch_bytes"], 128)

    def test_sku_gives_its_whole_llc(self):
        report = self.report(["--sku", "e5-2630v4", "--bytes", 64], 0)
        d = report["profile_details"]
        self.assertEqual(report["profile"], "e5-v4")
        self.assertEqual((d["sku"], d["cores"], d["llc_bytes"]), ("e5-2630v4", 10, 25 << 20))
        self.assertIn("e5-2630v4", report["profile_reason"])
        # 16 MiB fits the 25 MiB LLC of the SKU but not one core's 2.5 MiB.
        self.assertTrue(self.report(["--sku", "e5-2630v4", "--bytes", 16 << 20])
                        ["filters"][0]["fits_llc"])
        self.assertFalse(self.report(["--cpu", "e5-v4", "--bytes", 16 << 20])
                         ["filters"][0]["fits_llc"])
        self.assertBadInput(["--sku", "e5-9999v9", "--bytes", 64], "unknown --sku")
        self.assertBadInput(["--cpu", "e5-v1", "--sku", "e5-2630v4", "--bytes", 64],
                            "is an e5-v4 part, not e5-v1")

    def test_auto_names_a_profile_and_why(self):
        report = self.report(["--cpu", "auto", "--bytes", 4096], 0)
        self.assertIn(report["profile"], E5_PROFILES + ["generic"])
        self.assertTrue(report["profile_reason"])
        model = None
        if "-cpu" in WRAPPER:
            model = WRAPPER[WRAPPER.index("-cpu") + 1]
        if model in QEMU_MODEL_PROFILE:
            self.assertEqual(report["profile"], QEMU_MODEL_PROFILE[model],
                             report["profile_reason"])
        if report["profile"] == "generic":
            self.assertIn("generic profile from the detected geometry", report["profile_reason"])
        else:
            self.assertIn("cpu_features reports INTEL_", report["profile_reason"])
        # The default is auto.
        self.assertEqual(self.report(["--bytes", 4096])["profile"], report["profile"])


class MeasureRuns(ToolTestCase):
    """--measure runs and reports both timings (their ratio is not tested)."""

    def test_measure_json(self):
        report = self.report(["--measure", "--bytes", 4096, "--keys", 20000], 0)
        m = report["measure"]
        self.assertEqual((m["bytes"], m["keys"], m["shift_bytes"]), (4096, 20000, 48))
        for key in ("aligned_ns_per_key", "misaligned_ns_per_key", "ratio"):
            self.assertIs(type(m[key]), float)
            self.assertGreater(m[key], 0)
        self.assertTrue(m["hits_agree"])

    def test_measure_uses_the_checked_filter(self):
        blob = self.write("blob.bin", bytes(range(256)) * 16)
        report = self.report(["--file", blob, "--offset", 16, "--bytes", 2048, "--measure",
                              "--keys", 5000], 1)
        self.assertEqual(report["measure"]["bytes"], 2048)
        self.assertIn(blob, report["measure"]["content"])
        result = run(["--measure", "--bytes", 1024, "--keys", 1000])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("ns/key", result.stdout)
        self.assertIn("ratio", result.stdout)


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
    from tool_test_runner import run_unittests  # tests/support/tool_test_runner.py

    sys.exit(run_unittests(sys.modules[__name__], sys.argv))
