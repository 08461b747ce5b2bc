#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`blockbloom build` and `probe` refusing bad usage and bad input: every error
exits 2, says what is wrong (file and line, the limit it broke) and never
touches OUT; input lines at and past the line limit; endless input in bounded
memory.

usage: bad_usage_and_input_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import (  # noqa: E402
    ToolTestCase, U64_MAX, model_bitset, own_stderr, read_bytes, run, write_hashes)


class RejectsBadUsageAndInput(ToolTestCase):
    """Every error exits 2, says what is wrong, and never touches OUT."""

    def setUp(self):
        super().setUp()
        self.good_input = self.path("hashes.txt")
        write_hashes(self.good_input, [1, 2, 3, 0xFFFFFFFFFFFFFFFF])
        self.out = self.path("out.bin")

    def build_args(self, **overrides):
        flags = {"--layout": "parquet", "--bytes": "1024", "--input": self.good_input,
                 "-o": self.out}
        flags.update(overrides)
        args = ["build"]
        for key, value in flags.items():
            if value is not None:
                args += [key, value]
        return args

    def test_output_name_too_long_for_the_temporary_file_names_the_real_limit(self):
        # OUT is written as ".OUT.tmp.XXXXXX" beside it: 12 bytes more, so a
        # name within the file system's limit may still be one too long.
        name_max = os.pathconf(self.dir, "PC_NAME_MAX")
        longest = name_max - 12
        for length in (longest + 1, name_max - 10, name_max):
            with self.subTest(length=length):
                long_out = self.path("o" * length)
                result = self.assertFails(self.build_args(**{"-o": long_out}),
                                          "-o: the file name is %d bytes" % length,
                                          "at most %d" % longest, str(name_max))
                self.assertNotIn("File name too long", result.stderr)
                a = self.path("a.bin")
                with open(a, "wb") as f:
                    f.write(bytes(64))
                self.assertFails(["union", a, a, "-o", long_out], "at most %d" % longest)
                os.remove(a)
        self.assertFails(self.build_args(**{"-o": self.path("o" * (name_max + 1))}),
                         "-o: the file name is %d bytes" % (name_max + 1),
                         "more than the %d bytes this file system allows" % name_max)
        # The longest name that works is accepted.
        self.run_ok(self.build_args(**{"-o": self.path("o" * longest)}))
        self.assertTrue(os.path.isfile(self.path("o" * longest)))

    def test_control_characters_in_names_are_escaped_in_messages(self):
        # A file name with an ESC sequence and a newline (a forged second line).
        hostile = self.path("in\x1b[2J\nblockbloom: all good\u00e9.txt")
        result = self.assertFails(self.build_args(**{"--input": hostile}),
                                  "in\\x1b[2J\\x0ablockbloom: all good\u00e9.txt: cannot open")
        self.assertNotIn("\x1b", result.stderr)
        self.assertEqual(len(own_stderr(result).splitlines()), 1, result.stderr)

    def test_endless_input_fails_fast_in_bounded_memory(self):
        # /dev/zero has no newline: the whole input was once read first.
        filt = self.path("f.bin")
        with open(filt, "wb") as f:
            f.write(bytes(1024))
        for args in (self.build_args(**{"--input": "/dev/zero"}),
                     self.build_args(**{"--input": "/dev/zero", "--hash": "xxh64",
                                        "--type": "string"}),
                     ["probe", "--layout", "parquet", "--filter", filt, "--bytes", "1024",
                      "--input", "/dev/zero", "--count"]):
            with self.subTest(args=args):
                code, stderr, peak = self.run_measured(args)
                self.assertEqual(code, 2, stderr)
                self.assertIn("/dev/zero:1: line longer than 1048576 bytes", stderr)
                self.assertLess(peak, 200 << 20, "peak RSS %d bytes" % peak)
                self.assertFalse(os.path.exists(self.out))

    def test_a_line_at_the_limit_is_taken_one_past_it_is_refused(self):
        limit = 1 << 20
        ok = self.path("long-ok.txt")
        with open(ok, "wb") as f:
            f.write(b"a\n" + b"x" * limit + b"\n" + b"y" * limit)  # the last without '\n'
        self.run_ok(["build", "--layout", "parquet", "--bytes", "1024", "--hash", "xxh64",
                     "--type", "string", "--input", ok, "-o", self.out])
        bad = self.path("long-bad.txt")
        with open(bad, "wb") as f:
            f.write(b"a\n" + b"x" * (limit + 1) + b"\n")
        self.assertFails(["build", "--layout", "parquet", "--bytes", "1024", "--hash", "xxh64",
                          "--type", "string", "--input", bad, "-o", self.out],
                         bad + ":2: line longer than 1048576 bytes")

    def test_a_crlf_line_at_the_limit_is_taken_as_its_lf_twin(self):
        # The limit counts the line without its "\r\n": a CRLF file takes the
        # lines an LF file takes, at the limit too, and refuses the same ones.
        limit = 1 << 20
        filters = []
        for name, end in (("lf", b"\n"), ("crlf", b"\r\n")):
            keys = self.path("limit-%s.txt" % name)
            with open(keys, "wb") as f:
                f.write(b"a" + end + b"x" * limit + end + b"y" * limit + end[:-1])
            out = self.path("limit-%s.bbf" % name)
            self.run_ok(["build", "--layout", "parquet", "--bytes", "1024", "--type", "string",
                         "--input", keys, "-o", out])
            with open(out, "rb") as f:
                filters.append(f.read())
            bad = self.path("limit-bad-%s.txt" % name)
            with open(bad, "wb") as f:
                f.write(b"a" + end + b"x" * (limit + 1) + end)
            self.assertFails(["build", "--layout", "parquet", "--bytes", "1024", "--type", "string",
                              "--input", bad, "-o", self.out],
                             bad + ":2: line longer than 1048576 bytes")
        self.assertEqual(filters[0], filters[1])

    def test_help_prints_usage_and_exits_0(self):
        for args, command in ((["--help"], "probe"), (["build", "--help"], "build"),
                              (["probe", "-h"], "probe"), (["info", "--help"], "info")):
            with self.subTest(args=args):
                result = run(args)
                self.assertOk(result)
                self.assertIn("usage:", result.stdout)
                self.assertIn("blockbloom " + command, result.stdout)

    def test_no_command_and_unknown_command(self):
        self.assertFails([], "missing command", usage=True)
        self.assertFails(["frobnicate"], "unknown command", "frobnicate", usage=True)

    def test_bad_flag(self):
        self.assertFails(self.build_args() + ["--bogus"], "unknown flag --bogus", usage=True)
        self.assertFails(["info", "--yaml"], "unknown flag --yaml", usage=True)
        self.assertFails(self.build_args() + ["stray"], "unexpected argument", usage=True)
        self.assertFails(self.build_args() + ["--bytes", "64"], "--bytes given twice", usage=True)

    def test_missing_flag_or_value(self):
        self.assertFails(self.build_args(**{"--bytes": None}), "missing --bytes", usage=True)
        self.assertFails(self.build_args(**{"--layout": None}), "missing --layout", usage=True)
        self.assertFails(self.build_args(**{"-o": None}), "missing --output", usage=True)
        self.assertFails(self.build_args(**{"--input": None}), "missing --input", usage=True)
        self.assertFails(self.build_args(**{"-o": None}) + ["-o"], "missing value for --output",
                         usage=True)
        self.assertFails(["build", "--bytes", "--layout", "parquet"], "missing value for --bytes",
                         usage=True)

    def test_bytes_not_a_whole_number_of_blocks(self):
        self.assertFails(self.build_args(**{"--bytes": "33"}), "--bytes 33",
                         "not a multiple of 32")

    def test_bytes_zero(self):
        self.assertFails(self.build_args(**{"--bytes": "0"}), "--bytes 0", "0 bytes")

    def test_bytes_too_many_blocks(self):
        self.assertFails(self.build_args(**{"--bytes": str(1 << 40)}), "more than 2^31 - 1 blocks")

    def test_bytes_not_a_number(self):
        # The accepted spellings: number_spellings_cli_test.py.
        self.assertFails(self.build_args(**{"--bytes": "1k"}), "--bytes 1k", "ambiguous unit",
                         "16MiB")
        self.assertFails(self.build_args(**{"--bytes": "-32"}), "--bytes -32: not a size in bytes")

    def test_nonexistent_input_file(self):
        missing = self.path("no-such-file.txt")
        self.assertFails(self.build_args(**{"--input": missing}), missing, "cannot open")

    def test_non_numeric_line_names_file_and_line(self):
        bad = self.path("bad.txt")
        with open(bad, "w") as f:
            f.write("1\n0x2\n12x\n4\n")
        self.assertFails(self.build_args(**{"--input": bad}),
                         bad + ':3: not an unsigned 64-bit number: "12x"', usage=False)

    def test_bad_lines_of_every_kind(self):
        cases = {
            "-5": "not an unsigned 64-bit number",
            "+5": "not an unsigned 64-bit number",
            "18446744073709551616": "larger than 2^64-1",
            "0x10000000000000000": "larger than 2^64-1",
            "0x": "not an unsigned 64-bit number",
            "1 2": "not an unsigned 64-bit number",
            "0x1g": "not an unsigned 64-bit number",
            "1.0": "not an unsigned 64-bit number",
            "": "empty line",
            " \t\r": "empty line",
        }
        for text, fragment in cases.items():
            with self.subTest(line=text):
                bad = self.path("bad.txt")
                with open(bad, "w", newline="") as f:
                    f.write("7\n" + text + "\n8\n")
                self.assertFails(self.build_args(**{"--input": bad}), bad + ":2: ", fragment)
                os.remove(bad)
        self.assertFails(self.build_args(**{"--input": "-"}), "<stdin>:2: ",
                         stdin_text="1\nnope\n")

    def test_largest_hash_is_accepted(self):
        edge = self.path("edge.txt")
        with open(edge, "w") as f:
            f.write("18446744073709551615\n0xffffffffffffffff\n0\n")
        result = run(self.build_args(**{"--input": edge}))
        self.assertOk(result)
        self.assertEqual(read_bytes(self.out), model_bitset([U64_MAX, 0], 1024))

    def test_unknown_layout(self):
        self.assertFails(self.build_args(**{"--layout": "arrow"}), "unknown layout", "arrow")
        filt = self.path("filter.bin")
        with open(filt, "wb") as f:
            f.write(bytes(1024))
        self.assertFails(["probe", "--layout", "impala", "--filter", filt, "--bytes", "1024",
                          "--input", self.good_input], "unknown layout")

    def test_output_is_a_directory_leaves_no_temp_file(self):
        target = self.path("dir")
        os.mkdir(target)
        with open(os.path.join(target, "keep"), "w") as f:
            f.write("x")
        self.assertFails(self.build_args(**{"-o": target}), target)
        self.assertEqual(os.listdir(target), ["keep"])

    def test_output_in_missing_directory(self):
        self.assertFails(self.build_args(**{"-o": self.path("missing/out.bin")}), "missing/out.bin")

    def probe_args(self, filter_path, offset, num_bytes):
        return ["probe", "--bits", "--layout", "parquet", "--filter", filter_path, "--offset", str(offset),
                "--bytes", str(num_bytes), "--input", self.good_input]

    def test_filter_file_too_short_for_offset_plus_bytes(self):
        filt = self.path("filter.bin")
        with open(filt, "wb") as f:
            f.write(bytes(1040))
        self.assertOk(run(self.probe_args(filt, 16, 1024)))
        self.assertFails(self.probe_args(filt, 17, 1024), filt, "too short")
        self.assertFails(self.probe_args(filt, 0, 2048), filt, "too short")
        self.assertFails(self.probe_args(filt, 1 << 63, 1024), filt, "too short")
        self.assertFails(self.probe_args(filt, U64_MAX, 32), filt, "too short")

    def test_unreadable_filter_file(self):
        missing = self.path("no-filter.bin")
        self.assertFails(self.probe_args(missing, 0, 1024), missing, "cannot open")
        self.assertFails(self.probe_args(self.dir, 0, 32), self.dir, "not a regular file")

    def test_probe_bytes_rejected_by_the_library(self):
        filt = self.path("filter.bin")
        with open(filt, "wb") as f:
            f.write(bytes(1024))
        self.assertFails(self.probe_args(filt, 0, 33), "--bytes 33", "not a multiple of 32")
        self.assertFails(self.probe_args(filt, 0, 0), "--bytes 0")

    def test_probe_non_numeric_line(self):
        filt = self.path("filter.bin")
        with open(filt, "wb") as f:
            f.write(bytes(1024))
        bad = self.path("bad.txt")
        with open(bad, "w") as f:
            f.write("1\n2\nthree\n")
        self.assertFails(["probe", "--layout", "parquet", "--filter", filt, "--bytes", "1024",
                          "--input", bad, "--count"], bad + ":3:", '"three"')


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
