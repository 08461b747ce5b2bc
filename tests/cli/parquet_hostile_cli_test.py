#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What `blockbloom parquet list` spends on footers made to cost, measured on
the child process against bounds stated here: bytes read (/proc rchar, which
Linux adds to the parent's when it reaps the child), CPU time and peak RSS
(wait4). Files are written by tests/parquet_files.py.

usage: parquet_hostile_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]

Under an emulator (BLOCKBLOOM_TEST_WRAPPER) the costs are the emulator's:
the measured tests are skipped there.
"""

import os
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from parquet_files import (INT32, LIST, STRUCT, Column, bloom_header,  # noqa: E402
                           build_parquet, file_metadata_start)

TOOL = None  # set from argv in main()
WRAPPER = os.environ.get("BLOCKBLOOM_TEST_WRAPPER", "")
MIB = 1 << 20


def rchar():
    with open("/proc/self/io") as f:
        for line in f:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


# Runs the tool from a small Python (-I -S) and reports its wait4 usage:
# Linux starts a forked child's peak RSS at its parent's RSS, so the tool is
# forked from this ~10 MiB trampoline, not from the test with its files.
TRAMPOLINE = """
import os, sys
pid = os.fork()
if pid == 0:
    err = os.open(sys.argv[1], os.O_WRONLY)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.dup2(err, 2)
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024)
"""


def measured_run(args):
    """(exit status, stderr, bytes the tool read, its CPU seconds, its peak
    RSS in bytes). rchar counts what the trampoline and the tool read (a
    reaped child's I/O is added to its parent's, and so on up)."""
    with tempfile.NamedTemporaryFile() as err:
        before = rchar()
        child = subprocess.run([sys.executable, "-I", "-S", "-c", TRAMPOLINE, err.name, TOOL] +
                               list(args), stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=120)
        read = rchar() - before - len(child.stdout) - len(child.stderr)
        assert child.returncode == 0, child.stderr
        status, cpu, peak = child.stdout.split()
        stderr = open(err.name, "rb").read().decode("utf-8", "replace")
    return int(status), stderr, read, float(cpu), int(peak)


def uleb(v):
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    return bytes(out + bytes([v]))


def row_groups_footer(count):
    """A file of one INT32 column and `count` row groups of 4 footer bytes
    each (a columns list of one empty chunk): no filters at all."""
    w = file_metadata_start([Column("x", INT32)])
    w.field(4, LIST).list_header(STRUCT, count)
    w.raw(b"\x19\x1c\x00\x00" * count)
    w.end()
    metadata = bytes(w.out)
    return b"PAR1" + metadata + struct.pack("<I", len(metadata)) + b"PAR1"


def shared_filter_file(blob, row_groups):
    """A file of one INT32 column whose row groups all point at one filter
    (header + bitset bytes) with its length."""
    groups = [[{"filter": blob}]] + [[{"offset": 4, "length": len(blob)}]] * (row_groups - 1)
    return build_parquet([Column("x", INT32)], groups)[0]


@unittest.skipIf(WRAPPER, "costs under an emulator are the emulator's")
class ParquetHostileFooters(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="blockbloom-hostile-")

    def tearDown(self):
        self._tmp.cleanup()

    def list_measured(self, data):
        """`parquet list` of a file of these bytes, measured_run's answer."""
        path = os.path.join(self._tmp.name, "hostile.parquet")
        with open(path, "wb") as f:
            f.write(data)
        return measured_run(["parquet", "list", path])

    def test_one_filter_shared_by_100_row_groups_is_read_once(self):
        # 16 MiB of bitset, pointed at by every row group: it was read (and
        # its density computed) once per row group, 99 times the file.
        data = shared_filter_file(bloom_header(16 * MIB) + bytes(16 * MIB), 100)
        status, stderr, read, cpu, _ = self.list_measured(data)
        self.assertEqual(status, 0, stderr)
        self.assertLess(read, 3 * len(data), "read %d bytes of a %d-byte file" % (read, len(data)))
        self.assertLess(cpu, 1.0)

    def test_300_chunks_on_one_megabyte_header_list_in_little_cpu(self):
        # A valid header made 1 MB long by an unknown field (16) after its
        # own: a list of 999,980 one-byte i32s, which a parser must walk
        # element by element (~4 ms); then 32 bytes of bitset. It was parsed
        # once per chunk: 1.2-1.6 s.
        header = (bloom_header(32)[:-1] + b"\xc9\xf5" + uleb(999_980) + bytes(999_980) +
                  b"\x00")
        status, stderr, _, cpu, _ = self.list_measured(shared_filter_file(header + bytes(32), 300))
        self.assertEqual(status, 0, stderr)
        self.assertLess(cpu, 0.3)

    def test_a_million_row_groups_list_in_bounded_memory(self):
        # 4 MB of footer took 294 MiB; kept compact it is ~100 bytes a chunk.
        status, stderr, _, cpu, peak = self.list_measured(row_groups_footer(1_000_000))
        self.assertEqual(status, 0, stderr)
        self.assertLess(peak, 150 * MIB, "peak RSS %.1f MiB" % (peak / MIB))
        self.assertLess(cpu, 1.0)

    def test_a_footer_past_the_element_limit_is_refused_naming_it(self):
        status, stderr, _, _, peak = self.list_measured(row_groups_footer(1_000_001))
        self.assertEqual(status, 2, stderr)
        self.assertIn("FileMetaData.row_groups holds 1000001 elements, more than "
                      "max_container_elements 1000000", stderr)
        self.assertLess(peak, 64 * MIB)  # refused before any of it is kept


if __name__ == "__main__":
    from tool_test_runner import run_unittests  # tests/tool_test_runner.py

    sys.exit(run_unittests(sys.modules[__name__], sys.argv))
