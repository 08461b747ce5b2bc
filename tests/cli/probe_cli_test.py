#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`blockbloom probe`: each value beside its answer (as `parquet probe`
prints them; --json; the bare 1/0 lines with --bits), a forgotten
--parquet-header refused naming the flag and `parquet probe`, a FIFO refused
at once (probe and union operands), a filter file truncated while read no
crash.

usage: probe_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import (  # noqa: E402
    FileTestCase, WRAPPER, as_raw_export, model_bitset, own_stderr, parquet_header,
    parquet_model_find, read_bytes, write_hashes)

TOOL = None  # set from argv by cli_support.main


class ProbeShowsEachValue(FileTestCase):
    """probe prints each value beside its answer, VALUE<TAB>maybe|absent, as
    `parquet probe` does (the value escaped by the one text rule; exact in
    --json); --bits keeps the bare 1/0 lines, --count the number of maybes."""

    BYTES = 1024

    def setUp(self):
        super().setUp()
        self.members = [self.rng.getrandbits(64) for _ in range(300)]
        self.others = [self.rng.getrandbits(64) for _ in range(200)]
        self.bitset = model_bitset(self.members, self.BYTES)
        self.filter = self.write_bytes("f.bin", self.bitset)
        self.keys = self.members + self.others
        self.keys_path = self.path("keys.txt")
        write_hashes(self.keys_path, self.keys)

    def probe_args(self, *form):
        return ["probe", "--layout", "parquet", "--filter", self.filter, "--bytes",
                str(self.BYTES), "--input", self.keys_path] + list(form)

    def expected(self):
        return [parquet_model_find(self.bitset, h) == "1" for h in self.keys]

    def test_each_value_beside_its_answer(self):
        maybe = self.expected()
        self.assertIn(False, maybe[300:], "no foreign key is absent: the test shows nothing")
        lines = self.run_ok(self.probe_args()).stdout.splitlines()
        self.assertEqual(lines, ["%d\t%s" % (h, "maybe" if m else "absent")
                                 for h, m in zip(self.keys, maybe)])
        self.assertEqual(lines[:300], ["%d\tmaybe" % h for h in self.members])  # no false negative

    def test_bits_and_count_answer_alike(self):
        maybe = self.expected()
        self.assertEqual(self.run_ok(self.probe_args("--bits")).stdout,
                         "".join("1\n" if m else "0\n" for m in maybe))
        self.assertEqual(self.run_ok(self.probe_args("--count")).stdout, "%d\n" % sum(maybe))

    def test_json_gives_each_value_and_answer(self):
        report = json.loads(self.run_ok(self.probe_args("--json")).stdout)
        self.assertEqual(report, {"filter": self.filter, "layout": "parquet",
                                  "results": [{"value": str(h), "maybe": m}
                                              for h, m in zip(self.keys, self.expected())]})
        counted = json.loads(self.run_ok(self.probe_args("--count", "--json")).stdout)
        self.assertEqual(counted, {"filter": self.filter, "layout": "parquet",
                                   "values": len(self.keys), "maybe": sum(self.expected())})
        empty = self.write_bytes("empty.txt", b"")
        report = json.loads(self.run_ok(["probe", "--layout", "parquet", "--filter", self.filter,
                                         "--bytes", str(self.BYTES), "--input", empty,
                                         "--json"]).stdout)
        self.assertEqual(report["results"], [])

    def test_values_are_shown_by_the_one_escaping_rule(self):
        values = [b"a\tb", b"back\\slash", b"\xff\xfe", "caf\u00e9".encode("utf-8")]
        values_path = self.write_lines("values.txt", values)
        self.run_ok(["build", "--format", "file", "--layout", "parquet", "--bytes", "64", "--type",
                     "string", "--input", values_path, "-o", self.out])
        probe = ["probe", "--format", "file", "--filter", self.out, "--input", values_path]
        result = run_bytes(probe)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, b"a\\x09b\tmaybe\nback\\\\slash\tmaybe\n"
                                        b"\\xff\\xfe\tmaybe\ncaf\xc3\xa9\tmaybe\n")
        report = json.loads(run_bytes(probe + ["--json"]).stdout)
        self.assertEqual([r["value"].encode("utf-8", "surrogateescape") for r in report["results"]],
                         values)

    def test_a_bad_line_prints_nothing_of_its_batch(self):
        bad = self.write_lines("bad.txt", ["1", "2", "x"])
        for form in ([], ["--json"], ["--bits"], ["--count"]):
            with self.subTest(form=form):
                self.assertFails(["probe", "--layout", "parquet", "--filter", self.filter,
                                  "--bytes", str(self.BYTES), "--input", bad] + form,
                                 bad + ":3: ", usage=False)

    def test_values_are_streamed_in_bounded_memory(self):
        """64 MiB of long string values, each printed beside its answer: the
        lines are kept a batch (at most 4 MiB) at a time, never all."""
        line = b"v" * (512 << 10)
        values = self.write_bytes("long.txt", b"".join(line + b"%d\n" % i for i in range(128)))
        self.run_ok(["build", "--format", "file", "--layout", "parquet", "--bytes", "1024",
                     "--type", "string", "--input", values, "-o", self.out])
        out = self.path("answers.txt")
        code, stderr, peak = self.run_measured(["probe", "--format", "file", "--filter", self.out,
                                                "--input", values, "--type", "string"], stdout=out)
        self.assertEqual(code, 0, stderr)
        with open(out, "rb") as f:
            self.assertEqual(f.read(), b"".join(line + b"%d\tmaybe\n" % i for i in range(128)))
        if not WRAPPER:  # an emulator's peak is its own
            bound = (200 << 20) if cli_support.sanitized() else (40 << 20)
            self.assertLess(peak, bound, "peak RSS %.1f MiB" % (peak / 2 ** 20))

    def test_bits_with_json_or_count_is_a_usage_error(self):
        for other in ("--json", "--count"):
            with self.subTest(other=other):
                result = self.assertFails(self.probe_args("--bits", other), "--bits", other,
                                          "give one", usage=True)
                self.assertEqual(len(own_stderr(result).splitlines()), 2)


def run_bytes(args):
    """The tool's output as bytes (values that are not UTF-8); args as given
    (a filter file, without as_raw_export's flags)."""
    return subprocess.run(WRAPPER + [TOOL] + list(args), capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=60)


class ProbeForgottenParquetHeader(FileTestCase):
    """probe without --parquet-header, where the bytes at the offset are a
    valid BloomFilterHeader: refused (exit 2), pointing to --parquet-header
    and to `blockbloom parquet probe` for real Parquet files."""

    def setUp(self):
        super().setUp()
        self.members = [self.rng.getrandbits(64) for _ in range(300)]
        self.members_path = self.path("members.txt")
        write_hashes(self.members_path, self.members)

    def raw_probe(self, filter_path, *extra, layout="parquet"):
        return (["probe", "--bits", "--layout", layout, "--filter", filter_path, "--bytes", "1024",
                 "--input", self.members_path] + list(extra))

    def assertForgotten(self, args, offset, num_bytes, bitset_at):
        self.assertFails(args, "the bytes at --offset %d are a Parquet BloomFilterHeader" % offset,
                         "its %d-byte bitset follows at offset %d" % (num_bytes, bitset_at),
                         "add --parquet-header",
                         "blockbloom parquet probe FILE --column PATH", usage=False)

    def test_a_header_at_the_offset_is_refused(self):
        headed = self.build_with(["--layout", "parquet", "--bytes", "1024", "--parquet-header"],
                                 self.members_path)
        head = len(parquet_header(1024))
        for offset in (0, 13, 4099):
            with self.subTest(offset=offset):
                padded = self.write_bytes("padded.bin", bytes(self.rng.getrandbits(8)
                                                              for _ in range(offset)) +
                                          headed + b"\xff" * 1100)
                self.assertForgotten(self.raw_probe(padded, "--offset", str(offset)), offset,
                                     1024, offset + head)
                # With the flag, the same bytes probe as the filter they are.
                lines = self.probe_with(["--layout", "parquet", "--parquet-header", "--offset",
                                         str(offset)], padded, self.members_path)
                self.assertEqual(set(lines), {"1"})
        # No --offset: offset 0 (instead of the message about trailing bytes).
        self.assertForgotten(self.raw_probe(self.path("f.bin")), 0, 1024, head)
        self.assertForgotten(self.raw_probe(self.path("f.bin"), "--allow-trailing"), 0, 1024,
                             head)

    def test_a_header_with_a_bitset_larger_than_the_first_read_is_found(self):
        self.build_with(["--layout", "parquet", "--bytes", str(1 << 20), "--parquet-header"],
                        self.members_path)
        self.assertForgotten(self.raw_probe(self.path("f.bin"), "--offset", "0"), 0, 1 << 20,
                             len(parquet_header(1 << 20)))

    def test_raw_bitsets_and_broken_headers_probe_as_before(self):
        # A raw filter inside a larger file: probed raw, as always.
        raw = self.build_with(["--layout", "parquet", "--bytes", "1024"], self.members_path)
        padded = self.write_bytes("padded.bin", b"\x15" * 7 + raw + b"\x00" * 50)
        lines = self.probe_with(["--layout", "parquet", "--bytes", "1024", "--offset", "7"],
                                padded, self.members_path)
        self.assertEqual(set(lines), {"1"})
        # A header whose bitset runs past the end of the file is no header
        # (bb_parquet_filter_read would refuse it): the bytes are probed raw.
        cut = self.write_bytes("cut.bin", parquet_header(2048) + raw)
        result = self.run_ok(["probe", "--layout", "parquet", "--filter", cut, "--bytes", "1024",
                              "--offset", "0", "--allow-trailing", "--input",
                              self.members_path, "--count"])
        self.assertRegex(result.stdout, r"^\d+\n$")
        # The Kudu layout takes no Parquet header: nothing to forget.
        kudu_file = self.write_bytes("kudu.bin", parquet_header(1024) + bytes(1024))
        small = self.write_lines("small.txt", ["1", "2"])
        result = self.run_ok(["probe", "--bits", "--layout", "kudu", "--filter", kudu_file, "--bytes",
                              "1024", "--offset", "0", "--allow-trailing", "--input", small])
        self.assertEqual(result.stdout, "0\n0\n")

    def test_header_errors_point_to_parquet_probe(self):
        raw = self.write_bytes("raw.bin", b"\xff" * 1024)
        self.assertFails(["probe", "--layout", "parquet", "--parquet-header", "--filter", raw,
                          "--input", self.members_path], raw, "BloomFilterHeader",
                         "blockbloom parquet probe FILE --column PATH", usage=False)
        self.assertFails(["probe", "--layout", "parquet", "--parquet-header", "--filter", raw,
                          "--offset", "1024", "--input", self.members_path], raw,
                         "BloomFilterHeader", "blockbloom parquet probe", usage=False)


class NonRegularFilterIsRefusedAtOnce(FileTestCase):
    """A FIFO (or directory) where a filter file is read: exit 2 at once,
    never a wait in open() for a writer that will not come."""

    def setUp(self):
        super().setUp()
        self.hashes = self.write_lines("h.txt", ["1"])
        self.fifo = self.path("fifo")
        os.mkfifo(self.fifo)

    def assertRefusedQuickly(self, args):
        try:
            result = subprocess.run(WRAPPER + [TOOL] + as_raw_export(args), capture_output=True,
                                    text=True, timeout=20)
        except subprocess.TimeoutExpired:
            self.fail("%r still waits after 20 s" % args)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(self.fifo + ": not a regular file", result.stderr)
        self.assertEqual(result.stdout, "")

    def test_probe_filter_fifo(self):
        self.assertRefusedQuickly(["probe", "--bits", "--layout", "parquet", "--filter", self.fifo,
                                   "--bytes", "32", "--input", self.hashes])
        self.assertRefusedQuickly(["probe", "--bits", "--layout", "parquet", "--filter", self.fifo,
                                   "--parquet-header", "--input", self.hashes])

    def test_union_operand_fifo(self):
        other = self.write_bytes("a.bin", bytes(64))
        self.assertRefusedQuickly(["union", self.fifo, other, "-o", self.path("o.bin")])
        self.assertRefusedQuickly(["union", other, self.fifo, "-o", self.path("o.bin")])
        self.assertFalse(os.path.exists(self.path("o.bin")))


class TruncatedFilterFileCannotCrash(FileTestCase):
    """probe and union read filter files into their own memory: a file that
    another process truncates meanwhile is no SIGBUS."""

    BYTES = 1 << 20

    def setUp(self):
        super().setUp()
        self.members = [self.rng.getrandbits(64) for _ in range(1000)]
        self.filter = self.write_bytes("f.bin", model_bitset(self.members, self.BYTES))

    def blocked_reading_stdin(self, pid):
        """True once the process waits in read(0, ...), i.e. after it took its filter."""
        try:
            with open("/proc/%d/syscall" % pid) as f:
                fields = f.read().split()
        except OSError:
            return False
        return len(fields) > 1 and fields[0] == "0" and int(fields[1], 16) == 0

    def test_truncation_after_the_read_changes_no_answer(self):
        if not os.path.exists("/proc/self/syscall"):
            self.skipTest("no /proc/PID/syscall to see when the filter has been taken")
        proc = subprocess.Popen(
            WRAPPER + [TOOL, "probe", "--format", "raw", "--raw-hashes", "--layout", "parquet", "--filter", self.filter,
                       "--bytes", str(self.BYTES), "--input", "-"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 30
            while not self.blocked_reading_stdin(proc.pid):
                if proc.poll() is not None or time.monotonic() > deadline:
                    self.fail("the probe never waited for its input")
                time.sleep(0.005)
            os.truncate(self.filter, 0)  # the filter is gone before any key is probed
            out, err = proc.communicate("".join("%d\n" % h for h in self.members).encode(),
                                        timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        self.assertEqual(proc.returncode, 0, "exit %d: %s" % (proc.returncode, err))
        # Each value beside its answer (probe's default output).
        self.assertEqual(out.decode(), "".join("%d\tmaybe\n" % h for h in self.members))

    def test_truncation_at_any_moment_is_an_answer_or_an_error(self):
        # The moment the file shrinks is left to the scheduler: either the
        # probe had all of it (exit 0) or it says which file came up short
        # (exit 2); never a signal.
        big = self.path("big.bin")
        hashes = self.write_lines("h.txt", ["%d" % h for h in self.members])
        for delay in (0, 0.001, 0.003, 0.01, 0.03):
            with self.subTest(delay=delay):
                with open(big, "wb") as f:
                    f.truncate(1 << 28)  # 256 MiB, sparse
                proc = subprocess.Popen(
                    WRAPPER + [TOOL, "probe", "--format", "raw", "--raw-hashes", "--layout", "parquet", "--filter", big,
                               "--bytes", str(1 << 28), "--input", hashes, "--count"],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                time.sleep(delay)
                os.truncate(big, 0)
                out, err = proc.communicate(timeout=120)
                self.assertIn(proc.returncode, (0, 2), err)
                if proc.returncode == 2:
                    self.assertRegex(err, re.escape(big) + ": (shrank while being read|too short)")
                else:
                    self.assertEqual(out, "0\n")


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
