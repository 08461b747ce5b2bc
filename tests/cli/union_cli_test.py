#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`blockbloom union`: the OR of two filters of either layout, with or without
headers, identical on every tier, mismatches and bad inputs refused.

usage: union_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import (  # noqa: E402
    FileTestCase, info_json, kudu_model_bitset, model_bitset, or_bytes, parquet_header, read_bytes,
    write_hashes)


class UnionOfTwoFilters(FileTestCase):
    """union A B -o C: the OR of two filters of one layout and size."""

    def setUp(self):
        super().setUp()
        self.set_a = [self.rng.getrandbits(32) for _ in range(600)]
        self.set_b = [self.rng.getrandbits(32) for _ in range(600)]
        self.path_a = self.path("a.txt")
        self.path_b = self.path("b.txt")
        write_hashes(self.path_a, self.set_a)
        write_hashes(self.path_b, self.set_b)

    def build_pair(self, flags):
        a = self.build_with(flags, self.path_a, "a.bin")
        b = self.build_with(flags, self.path_b, "b.bin")
        return a, b

    def test_parquet_union_is_the_or(self):
        a, b = self.build_pair(["--layout", "parquet", "--bytes", "4096"])
        self.run_ok(["union", self.path("a.bin"), self.path("b.bin"), "-o", self.out])
        united = read_bytes(self.out)
        self.assertEqual(united, or_bytes(a, b))
        self.assertEqual(united, model_bitset(self.set_a + self.set_b, 4096), self.seed_note)
        both = self.path("both.txt")
        write_hashes(both, self.set_a + self.set_b)
        lines = self.probe_with(["--layout", "parquet", "--bytes", "4096"], self.out, both)
        self.assertEqual(set(lines), {"1"})

    def test_kudu_union_is_the_or(self):
        a, b = self.build_pair(["--layout", "kudu", "--bytes", "2048"])
        self.run_ok(["union", "--layout", "kudu", self.path("a.bin"), self.path("b.bin"),
                     "-o", self.out])
        self.assertEqual(read_bytes(self.out), or_bytes(a, b))
        self.assertEqual(read_bytes(self.out), kudu_model_bitset(self.set_a + self.set_b, 2048))

    def test_union_with_parquet_headers(self):
        a, b = self.build_pair(["--layout", "parquet", "--bytes", "1024", "--parquet-header"])
        header = parquet_header(1024)
        self.run_ok(["union", "--parquet-header", self.path("a.bin"), self.path("b.bin"),
                     "-o", self.out])
        self.assertEqual(read_bytes(self.out),
                         header + or_bytes(a[len(header):], b[len(header):]))

    def test_a_forgotten_parquet_header_names_the_flag(self):
        """Files that start with a BloomFilterHeader, united as raw bitsets
        (or as filter files): refused naming --parquet-header, as probe does,
        not "not a multiple of 32 bytes"; nothing written."""
        self.build_pair(["--layout", "parquet", "--bytes", "1024", "--parquet-header"])
        a, b = self.path("a.bin"), self.path("b.bin")
        header_bytes = os.path.getsize(a) - 1024
        for fmt in (["--format", "raw"], ["--layout", "parquet"], []):
            with self.subTest(format=fmt):
                result = self.assertFails(["union", a, b, "-o", self.out] + fmt,
                                          a + ": its first bytes are a Parquet BloomFilterHeader "
                                          "(its 1024-byte bitset follows at offset %d), not a raw "
                                          "bitset: add --parquet-header" % header_bytes,
                                          usage=False)
                self.assertNotIn("multiple of 32", result.stderr)
        # The default, filter files (as_raw_export gives the others --format raw).
        self.assertFails(["union", "--format", "file", a, b, "-o", self.out],
                                  a + ": not a blockbloom filter file: its first bytes are a "
                                  "Parquet BloomFilterHeader", "add --format parquet (or "
                                  "--parquet-header)", usage=False)
        # With the flag, the same files unite.
        self.run_ok(["union", "--parquet-header", a, b, "-o", self.out])

    def test_every_supported_isa_unites_identically(self):
        a, b = self.build_pair(["--layout", "parquet", "--bytes", "8192"])
        for isa in info_json()["supported_isas"]:
            with self.subTest(isa=isa):
                self.run_ok(["union", self.path("a.bin"), self.path("b.bin"), "-o", self.out],
                            isa=isa)
                self.assertEqual(read_bytes(self.out), or_bytes(a, b))

    def test_output_may_replace_an_input(self):
        a, b = self.build_pair(["--layout", "parquet", "--bytes", "1024"])
        self.run_ok(["union", "-o", self.path("a.bin"), self.path("a.bin"), self.path("b.bin")])
        self.assertEqual(read_bytes(self.path("a.bin")), or_bytes(a, b))

    def test_size_mismatch_names_both_sizes_and_writes_nothing(self):
        self.build_with(["--layout", "parquet", "--bytes", "1024"], self.path_a, "a.bin")
        self.build_with(["--layout", "parquet", "--bytes", "2048"], self.path_b, "b.bin")
        self.assertFails(["union", self.path("a.bin"), self.path("b.bin"), "-o", self.out],
                         "1024", "2048", self.path("a.bin"), self.path("b.bin"), usage=False)
        self.build_with(["--layout", "parquet", "--bytes", "1024", "--parquet-header"],
                        self.path_a, "ha.bin")
        self.build_with(["--layout", "parquet", "--bytes", "2048", "--parquet-header"],
                        self.path_b, "hb.bin")
        self.assertFails(["union", "--parquet-header", self.path("ha.bin"), self.path("hb.bin"),
                          "-o", self.out], "1024", "2048")

    def test_invalid_inputs_are_refused(self):
        odd = self.write_bytes("odd.bin", bytes(33))
        k96 = self.write_bytes("k96.bin", bytes(96))
        empty = self.write_bytes("empty.bin", b"")
        good = self.write_bytes("good.bin", bytes(1024))
        headed = self.write_bytes("headed.bin", parquet_header(1024) + bytes(1024) + b"x")
        self.assertFails(["union", odd, odd, "-o", self.out], odd, "multiple of 32")
        self.assertFails(["union", "--layout", "kudu", k96, k96, "-o", self.out], k96,
                         "power of two")
        self.assertFails(["union", empty, good, "-o", self.out], empty)
        self.assertFails(["union", good, self.path("missing.bin"), "-o", self.out],
                         "missing.bin", "cannot open")
        self.assertFails(["union", "--parquet-header", headed, headed, "-o", self.out], headed,
                         "follow the bitset")
        self.assertFails(["union", "--parquet-header", good, good, "-o", self.out], good)

    def test_usage_mistakes(self):
        good = self.write_bytes("good.bin", bytes(1024))
        self.assertFails(["union", good, "-o", self.out], "two filter files", usage=True)
        self.assertFails(["union", good, good, good, "-o", self.out], "unexpected argument",
                         usage=True)
        self.assertFails(["union", good, good], "missing --output", usage=True)
        self.assertFails(["union", "--layout", "kudu", "--parquet-header", good, good, "-o",
                          self.out], "--parquet-header", usage=True)
        self.assertFails(["union", "--layout", "arrow", good, good, "-o", self.out],
                         "unknown layout")


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
