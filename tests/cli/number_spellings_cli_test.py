#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Counts and sizes as people type them: every count flag (build --ndv,
join-demo --rows, --small, --sample-rows) and size flag (build, probe and tune
--bytes, probe --offset) takes 1e6, 1_000_000, 1000000 and 0xF4240 (sizes also
16MiB) exactly, through the one parser of tools/common/number_parse (its unit
test: tests/cli/number_parse_test.cc), and refuses anything else naming the
flag, the text, the problem and the accepted forms, in two lines.

usage: number_spellings_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import FileTestCase, own_stderr, read_bytes, write_hashes  # noqa: E402

COUNT_FORMS = "a count is written 1000000, 1_000_000, 1e6, 2.5e6 or 0xF4240"
SIZE_FORMS = "a size is written 16777216, 16_777_216, 0x1000000, 1.6e7 (16000000), or with a binary unit 16MiB"
AMBIGUOUS = "ambiguous unit: K, M, G and T may mean powers of 2 or of 10"


class CountAndSizeSpellings(FileTestCase):
    def setUp(self):
        super().setUp()
        self.keys = self.path("keys.txt")
        write_hashes(self.keys, [self.rng.getrandbits(64) for _ in range(100)])

    def build_args(self, *flags):
        return ["build", "--layout", "parquet"] + list(flags) + ["--input", self.keys, "-o", self.out]

    def test_ndv_spellings_build_the_same_filter(self):
        built = set()
        for ndv in ("1000000", "1e6", "1E+6", "1_000_000", "1.0e6", "0.001e9", "1000000000e-3",
                    "0xF4240"):
            with self.subTest(ndv=ndv):
                result = self.run_ok(self.build_args("--ndv", ndv, "--fpp", "0.01"))
                self.assertIn("sized for --ndv 1000000 --fpp 0.01: ", result.stderr)
                built.add(read_bytes(self.out))
        self.assertEqual(len(built), 1)
        self.assertGreater(len(built.pop()), 1000000)  # sized for a million, not for 1

    def test_bytes_spellings_build_the_same_filter(self):
        built = {}
        for size in ("1024", "1_024", "1.024e3", "0x400", "1KiB", "1kib", "1.0e0KiB",
                     "0.0009765625MiB"):
            with self.subTest(size=size):
                self.run_ok(self.build_args("--bytes", size))
                built[size] = read_bytes(self.out)
        self.assertEqual({len(b) for b in built.values()}, {1024})
        self.assertEqual(len(set(built.values())), 1)

    def test_probe_offset_and_bytes_take_sizes(self):
        filter_bytes = self.build_with(["--layout", "parquet", "--bytes", "64"], self.keys)
        # The bitset after 1 KiB of zeros: at the wrong offset every key is absent.
        padded = self.write_bytes("padded.bin", bytes(1024) + filter_bytes)
        for offset, size in (("1024", "64"), ("1KiB", "0.0625KiB"), ("0x400", "6.4e1"),
                             ("1_024", "64")):
            with self.subTest(offset=offset, size=size):
                result = self.run_ok(["probe", "--layout", "parquet", "--filter", padded,
                                      "--offset", offset, "--bytes", size, "--input", self.keys,
                                      "--count"])
                self.assertEqual(result.stdout, "100\n")
        result = self.run_ok(["probe", "--layout", "parquet", "--filter", padded, "--offset", "1000",
                              "--bytes", "64", "--input", self.keys, "--count"])
        self.assertNotEqual(result.stdout, "100\n")

    def test_join_demo_counts(self):
        result = self.run_ok(["join-demo", "--rows", "1e4", "--small", "2e1", "--sample-rows",
                              "1_000", "--json"])
        report = json.loads(result.stdout)
        self.assertEqual((report["rows"], report["small_rows"]), (10000, 20))

    def test_tune_bytes_takes_a_size(self):
        # Below this CPU's L2 (any CPU's is over 1 KiB): refused, naming the size read.
        self.assertFails(["tune", "--bytes", "1KiB"], "--bytes 1024: less than", usage=False)

    def assertRefusedSpelling(self, args, flag, text, problem, forms):
        result = self.assertFails(args, usage=True)
        lines = own_stderr(result).splitlines()
        self.assertEqual(len(lines), 2, lines)
        self.assertTrue(lines[0].startswith("blockbloom: %s %s: %s (%s" % (flag, text, problem, forms)),
                        lines[0])

    def test_every_count_flag_refuses_other_spellings_alike(self):
        refused = (("1.5", "not a whole number"), ("1e-3", "not a whole number"),
                   ("1,000", "not a count"), ("1e30", "larger than 2^64-1"),
                   ("16M", "not a count"), ("-1", "not a count"))
        commands = {
            "--ndv": lambda v: self.build_args("--ndv", v, "--fpp", "0.01"),
            "--rows": lambda v: ["join-demo", "--rows", v],
            "--small": lambda v: ["join-demo", "--small", v],
            "--sample-rows": lambda v: ["join-demo", "--sample-rows", v],
        }
        for flag, args in commands.items():
            for text, problem in refused:
                with self.subTest(flag=flag, text=text):
                    self.assertRefusedSpelling(args(text), flag, text, problem, COUNT_FORMS)

    def test_every_size_flag_refuses_other_spellings_alike(self):
        refused = (("1.5", "not a whole number"), ("0.1KiB", "not a whole number"),
                   ("16M", AMBIGUOUS), ("16MB", AMBIGUOUS), ("4k", AMBIGUOUS),
                   ("16 MiB", "not a size in bytes"), ("16PiB", "not a size in bytes"),
                   ("0x10KiB", "not a size in bytes"), ("16777216TiB", "larger than 2^64-1"))
        filter_path = self.write_bytes("f.bin", bytes(64))
        probe = ["probe", "--layout", "parquet", "--filter", filter_path, "--input", self.keys]
        commands = {
            ("build", "--bytes"): lambda v: self.build_args("--bytes", v),
            ("probe", "--bytes"): lambda v: probe + ["--bytes", v],
            ("probe", "--offset"): lambda v: probe + ["--bytes", "64", "--offset", v],
            ("tune", "--bytes"): lambda v: ["tune", "--bytes", v],
        }
        for (command, flag), args in commands.items():
            for text, problem in refused:
                with self.subTest(command=command, flag=flag, text=text):
                    self.assertRefusedSpelling(args(text), flag, text, problem, SIZE_FORMS)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
