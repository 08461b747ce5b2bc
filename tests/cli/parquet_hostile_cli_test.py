#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What `blockbloom parquet list` spends on footers made to cost, measured on
the child process against bounds stated here: bytes read (/proc rchar, which
Linux adds to the parent's when it reaps the child), CPU time and peak RSS
(wait4). Files are written by tests/support/parquet_files.py.

usage: parquet_hostile_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]

Under an emulator (BLOCKBLOOM_TEST_WRAPPER) the costs are the emulator's:
the measured tests are skipped there.
"""

import functools
import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
import hostile_footers  # noqa: E402
from cli_support import WRAPPER, ToolTestCase  # noqa: E402
from parquet_files import (BINARY, I32, I64, INT32, LIST, STRUCT, Column,  # noqa: E402
                           CompactWriter, bloom_header, build_parquet, file_metadata_start,
                           write_column_meta)

MIB = 1 << 20


def rchar():
    with open("/proc/self/io") as f:
        for line in f:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


uleb = hostile_footers.uleb  # Thrift compact varints


def row_groups_footer(count):
    """A file of one INT32 column and `count` row groups of 4 footer bytes
    each (a columns list of one empty chunk): no filters at all."""
    w = file_metadata_start([Column("x", INT32)])
    w.field(4, LIST).list_header(STRUCT, count)
    w.raw(b"\x19\x1c\x00\x00" * count)
    w.end()
    metadata = bytes(w.out)
    return b"PAR1" + metadata + struct.pack("<I", len(metadata)) + b"PAR1"


def wide_schema_footer(count):
    """A file of `count` INT32 columns named c000000, c000001, ... (14 footer
    bytes each: type, repetition, name) and no row group. The elements are
    written as bytes, in a fraction of a second."""
    w = CompactWriter().begin()
    w.field(1, I32).zigzag(2)
    w.field(2, LIST).list_header(STRUCT, count + 1)
    w.begin().field(4, BINARY).binary("schema").field(5, I32).zigzag(count).end()
    # type INT32 (field 1), repetition OPTIONAL (3), name (4): 7 bytes.
    w.raw(b"".join(b"\x15\x02\x25\x02\x18\x07" + b"c%06d" % i + b"\x00" for i in range(count)))
    w.field(3, I64).zigzag(0)
    w.field(4, LIST).list_header(STRUCT, 0)
    w.end()
    metadata = bytes(w.out)
    return b"PAR1" + metadata + struct.pack("<I", len(metadata)) + b"PAR1"


def shared_filter_file(blob, row_groups):
    """A file of one INT32 column whose row groups all point at one filter
    (header + bitset bytes) with its length."""
    groups = [[{"filter": blob}]] + [[{"offset": 4, "length": len(blob)}]] * (row_groups - 1)
    return build_parquet([Column("x", INT32)], groups)[0]


def many_filters_file(blob, count):
    """One INT32 column and `count` row groups whose chunks all point at one
    filter (header + bitset at offset 4): a listing of `count` filters from
    ~28 footer bytes each. The row group's bytes are written once and
    repeated (a list's structs are encoded alike), in a few ms."""
    column = Column("x", INT32)
    group = CompactWriter().begin()
    group.field(1, LIST).list_header(STRUCT, 1)
    write_column_meta(group, column, 100, 4, len(blob))
    group.field(2, I64).zigzag(0)
    group.field(3, I64).zigzag(100)
    group.end()
    w = file_metadata_start([column])
    w.field(4, LIST).list_header(STRUCT, count)
    w.raw(bytes(group.out) * count)
    w.end()
    metadata = bytes(w.out)
    return b"PAR1" + blob + metadata + struct.pack("<I", len(metadata)) + b"PAR1"


@unittest.skipIf(WRAPPER, "costs under an emulator are the emulator's")
class ParquetHostileFooters(ToolTestCase):
    def measured(self, args):
        """(exit status, stderr, bytes read, CPU seconds, peak RSS in bytes)
        of the tool (ToolTestCase.run_measured: wait4 from a fresh launcher).
        rchar counts what the launcher and the tool read: a reaped child's
        I/O is added to its parent's, and so on up."""
        before = rchar()
        status, stderr, peak = self.run_measured(args)
        read = rchar() - before
        return status, stderr, read, self.measured_cpu, peak

    def assertCost(self, measured, native_bound, what="peak RSS", unit=MIB):
        """measured < native_bound natively; under ASan (shadow memory, a
        16 MiB quarantine, 2-3x the CPU) 4x the bound, a guard against
        runaway costs only."""
        bound = native_bound * (4 if cli_support.sanitized() else 1)
        self.assertLess(measured, bound, "%s %.2f, bound %.2f" % (what, measured / unit,
                                                                   bound / unit))

    def list_measured(self, data):
        """`parquet list` of a file of these bytes, measured()'s answer."""
        path = self.path("hostile.parquet")
        with open(path, "wb") as f:
            f.write(data)
        return self.measured(["parquet", "list", path])

    def test_one_filter_shared_by_100_row_groups_is_read_once(self):
        # 16 MiB of bitset, pointed at by every row group: it was read (and
        # its density computed) once per row group, 99 times the file.
        data = shared_filter_file(bloom_header(16 * MIB) + bytes(16 * MIB), 100)
        status, stderr, read, cpu, _ = self.list_measured(data)
        self.assertEqual(status, 0, stderr)
        self.assertLess(read, 3 * len(data), "read %d bytes of a %d-byte file" % (read, len(data)))
        self.assertCost(cpu, 1.0, "CPU s", 1)

    def test_300_chunks_on_one_megabyte_header_list_in_little_cpu(self):
        # A valid header made 1 MB long by an unknown field (16) after its
        # own: a list of 999,980 one-byte i32s, which a parser must walk
        # element by element (~4 ms); then 32 bytes of bitset. It was parsed
        # once per chunk: 1.2-1.6 s.
        header = (bloom_header(32)[:-1] + b"\xc9\xf5" + uleb(999_980) + bytes(999_980) +
                  b"\x00")
        status, stderr, _, cpu, _ = self.list_measured(shared_filter_file(header + bytes(32), 300))
        self.assertEqual(status, 0, stderr)
        self.assertCost(cpu, 0.3, "CPU s", 1)

    def test_a_million_row_groups_are_refused_in_bounded_memory(self):
        # 4 MB of footer took 294 MiB, then 107 MiB kept compact (27x the
        # file); their structures (~140 bytes a 4-byte row group) pass the
        # default max_memory_bytes (8 MiB + 8 x the footer): refused, within
        # the bound on footer memory.
        data = row_groups_footer(1_000_000)
        status, stderr, _, cpu, peak = self.list_measured(data)
        self.assertEqual(status, 2, stderr)
        self.assertIn("would take more than max_memory_bytes", stderr)
        self.assertCost(peak, hostile_footers.FOOTER_MEMORY_MULTIPLE * len(data) +
                        hostile_footers.FOOTER_MEMORY_BASE)
        self.assertCost(cpu, 1.0, "CPU s", 1)

    def test_half_a_million_filters_list_in_a_small_multiple_of_the_footer(self):
        # Each listed filter kept its strings and the whole output was built
        # before printing: 444 MiB (text) and 548 MiB (--json) for a 14 MB
        # footer. Kept compact and printed a row at a time: under 8x the footer.
        data = many_filters_file(bloom_header(32) + bytes(32), 500_000)
        path = self.path("many.parquet")
        with open(path, "wb") as f:
            f.write(data)
        for extra in ([], ["--json"]):
            with self.subTest(extra=extra):
                status, stderr, _, _, peak = self.measured(["parquet", "list", path] + extra)
                self.assertEqual(status, 0, stderr)
                self.assertCost(peak, 8 * len(data))

    def test_half_a_million_columns_list_in_a_small_multiple_of_the_footer(self):
        # A column kept its path and names in two strings and a vector
        # (~160 bytes, ~250 counted), and `parquet list` five strings and a
        # map node more for every column, listed or not: 198 MiB for this
        # 7.0 MB footer. Kept in one pool (48 bytes a column and its name),
        # and text made only for listed columns: 59 MiB, under 10x the file.
        data = wide_schema_footer(500_000)
        status, stderr, _, _, peak = self.list_measured(data)
        self.assertEqual(status, 0, stderr)
        self.assertCost(peak, 10 * len(data))

    def test_a_footer_past_the_element_limit_is_refused_naming_it(self):
        status, stderr, _, _, peak = self.list_measured(row_groups_footer(1_000_001))
        self.assertEqual(status, 2, stderr)
        self.assertIn("FileMetaData.row_groups holds 1000001 elements, more than "
                      "max_container_elements 1000000", stderr)
        self.assertCost(peak, 64 * MIB)  # refused before any of it is kept


@unittest.skipIf(WRAPPER, "costs under an emulator are the emulator's")
class ParquetFooterMemory(ToolTestCase):
    """`parquet list`'s (and `probe`'s) peak RSS is bounded by the file's
    size for every shape of footer (tests/support/hostile_footers.py): under
    FOOTER_MEMORY_MULTIPLE x the file + FOOTER_MEMORY_BASE, the bound
    docs/reliability.md states, whether the footer lists or is refused
    (BB_ERR_PARQUET_LIMIT: exit 2 naming max_memory_bytes). Before, a
    schema of long shared paths took 104x its file, row groups of one-byte
    chunks 80x."""

    # Each shape at a size its structures fit the default memory limit, and
    # at one they pass it (refused); both modes at the larger.
    SIZES = (300_000, 1_300_000)

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def shape(name, size):
        """The file of a shape and size, made once for the tests of this class."""
        return hostile_footers.SHAPES[name](size)

    def list_peak(self, data, extra):
        path = self.path("shape.parquet")
        with open(path, "wb") as f:
            f.write(data)
        status, stderr, peak = self.run_measured(["parquet", "list", path] + extra)
        return status, stderr, peak

    def test_every_shape_lists_or_is_refused_within_the_bound(self):
        outcomes = {}
        for name in hostile_footers.SHAPES:
            for size in self.SIZES:
                data = self.shape(name, size)
                bound = (hostile_footers.FOOTER_MEMORY_MULTIPLE * len(data) +
                         hostile_footers.FOOTER_MEMORY_BASE)
                for extra in ([], ["--json"]) if size == self.SIZES[-1] else ([],):
                    with self.subTest(shape=name, size=len(data), extra=extra):
                        status, stderr, peak = self.list_peak(data, extra)
                        self.assertIn(status, (0, 2), stderr)
                        if status == 2:
                            self.assertIn("would take more than max_memory_bytes", stderr)
                        outcomes.setdefault(status, set()).add(name)
                        bound_here = bound * (4 if cli_support.sanitized() else 1)
                        self.assertLess(peak, bound_here, "peak %.1f MiB, bound %.1f MiB" %
                                        (peak / MIB, bound_here / MIB))
        # Both outcomes occur: the bound holds for what lists and for what is refused.
        self.assertIn("many_listed_filters", outcomes.get(0, set()))
        self.assertIn("chunks_of_one_byte", outcomes.get(2, set()))

    def test_probe_of_every_shape_stays_within_the_bound(self):
        # `parquet probe` kept each of 10^5 row groups' 32-byte filters with
        # ~200 bytes of overhead and a copy of each bad filter's reason:
        # 38 MiB for a 1.3 MB footer of row groups (bound 36 MiB; that
        # footer is now refused, the 0.3 MB one answered). Column x is in
        # most shapes; the others exit 2 naming the columns.
        answered = set()
        for name in hostile_footers.SHAPES:
            for size in self.SIZES:
                data = self.shape(name, size)
                bound = (hostile_footers.FOOTER_MEMORY_MULTIPLE * len(data) +
                         hostile_footers.FOOTER_MEMORY_BASE) * (4 if cli_support.sanitized() else 1)
                path = self.path("shape.parquet")
                with open(path, "wb") as f:
                    f.write(data)
                with self.subTest(shape=name, size=len(data)):
                    status, stderr, peak = self.run_measured(
                        ["parquet", "probe", path, "--column", "x", "1", "2", "3"])
                    self.assertIn(status, (0, 2), stderr)
                    if status == 0:
                        answered.add(name)
                    self.assertLess(peak, bound, "peak %.1f MiB, bound %.1f MiB" %
                                    (peak / MIB, bound / MIB))
        self.assertIn("many_listed_filters", answered)

    def test_the_shapes_that_cost_most_before_are_refused_naming_the_limit(self):
        # 104x and 80x their file before (186 and 155 MiB for 1.9 and 2.0 MB).
        for name in ("long_shared_paths", "chunks_of_one_byte"):
            with self.subTest(shape=name):
                status, stderr, peak = self.list_peak(self.shape(name, self.SIZES[-1]), [])
                self.assertEqual(status, 2, stderr)
                self.assertIn("footer limit:", stderr)
                self.assertIn("would take more than max_memory_bytes", stderr)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
