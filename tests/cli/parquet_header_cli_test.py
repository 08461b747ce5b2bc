#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`blockbloom build` / `probe` with --parquet-header: the Thrift
BloomFilterHeader written before the bitset (parquet-mr's file rebuilt whole),
read back at any offset, corrupt headers refused.

usage: parquet_header_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import (  # noqa: E402
    FileTestCase, PARQUET_MR_HASHES, info_json, model_bitset, parquet_header, parquet_model_find,
    read_bytes, write_hashes, xxh64)


class ParquetHeader(FileTestCase):
    """--parquet-header: Thrift BloomFilterHeader + bitset, as in Parquet files."""

    def setUp(self):
        super().setUp()
        self.members = [self.rng.getrandbits(64) for _ in range(500)]
        self.members_path = self.path("members.txt")
        write_hashes(self.members_path, self.members)

    def test_build_writes_the_header_then_the_bitset(self):
        # Sizes every Parquet reader accepts as they are; others with --any-size.
        for num_bytes, flags in ((32, []), (1024, []), (4096, []), (1 << 20, []),
                                 (96, ["--any-size"]), (32 * 1001, ["--any-size"])):
            with self.subTest(num_bytes=num_bytes):
                built = self.build_with(["--layout", "parquet", "--bytes", str(num_bytes),
                                         "--parquet-header"] + flags, self.members_path)
                self.assertEqual(built, parquet_header(num_bytes) +
                                 model_bitset(self.members, num_bytes))

    def test_build_reproduces_the_parquet_mr_file(self):
        reference = read_bytes(self.reference_file())
        self.assertEqual(len(reference), 1040)
        strings = self.write_lines("strings.txt", PARQUET_MR_HASHES)
        for isa in info_json()["supported_isas"]:
            with self.subTest(isa=isa):
                built = self.build_with(["--layout", "parquet", "--bytes", "1024", "--hash",
                                         "xxh64", "--type", "string", "--parquet-header"],
                                        strings, isa=isa)
                self.assertEqual(built, reference)
        sized = self.build_with(["--layout", "parquet", "--ndv", "4", "--fpp", "0.0001",
                                 "--pow2", "--hash", "xxh64", "--type", "string"], strings)
        self.assertLessEqual(len(sized), 1024)

    def test_probe_reads_the_parquet_mr_header(self):
        reference = self.reference_file()
        strings = self.write_lines("strings.txt", list(PARQUET_MR_HASHES) + ["absent", "x"])
        lines = self.probe_with(["--layout", "parquet", "--parquet-header", "--offset", "0",
                                 "--hash", "xxh64", "--type", "string"], reference, strings)
        self.assertEqual(lines[:4], ["1", "1", "1", "1"])
        bitset = read_bytes(reference)[16:]
        self.assertEqual(lines[4:], [parquet_model_find(bitset, xxh64(b"absent")),
                                     parquet_model_find(bitset, xxh64(b"x"))])
        hashes = self.path("hashes.txt")
        write_hashes(hashes, PARQUET_MR_HASHES.values())
        self.assertEqual(self.probe_with(["--layout", "parquet", "--parquet-header", "--bytes",
                                          "1024"], reference, hashes), ["1"] * 4)

    def test_probe_finds_a_header_at_an_unaligned_offset(self):
        headed = self.build_with(["--layout", "parquet", "--bytes", "4096", "--parquet-header"],
                                 self.members_path)
        mixed = self.members[:100] + [self.rng.getrandbits(64) for _ in range(900)]
        mixed_path = self.path("mixed.txt")
        write_hashes(mixed_path, mixed)
        bitset = headed[len(parquet_header(4096)):]
        expected = [parquet_model_find(bitset, h) for h in mixed]
        for offset in (0, 13, 4099):
            with self.subTest(offset=offset):
                padded = self.write_bytes("padded.bin", bytes(self.rng.getrandbits(8)
                                                              for _ in range(offset)) +
                                          headed + b"\xff" * 9)
                lines = self.probe_with(["--layout", "parquet", "--parquet-header", "--offset",
                                         str(offset)], padded, mixed_path)
                self.assertEqual(lines, expected, self.seed_note)

    def probe_args(self, filter_path, *extra):
        return ["probe", "--bits", "--layout", "parquet", "--parquet-header", "--filter", filter_path,
                "--input", self.members_path] + list(extra)

    def test_bytes_must_agree_with_the_header(self):
        headed = self.path("f.bin")
        self.build_with(["--layout", "parquet", "--bytes", "1024", "--parquet-header"],
                        self.members_path)
        self.run_ok(self.probe_args(headed, "--bytes", "1024"))
        self.assertFails(self.probe_args(headed, "--bytes", "2048"), "--bytes 2048", "1024",
                         headed)
        self.assertFails(self.probe_args(headed, "--bytes", "33"), "--bytes 33")

    def test_corrupt_headers_are_refused_naming_the_file(self):
        good = parquet_header(1024) + bytes(1024)
        cases = {
            "empty": (b"", "BloomFilterHeader"),
            "truncated-header": (good[:2], "BloomFilterHeader"),
            "truncated-header-10": (good[:10], "BloomFilterHeader"),
            "num-bytes-33": (parquet_header(33) + bytes(64), "numBytes"),
            "num-bytes-0": (parquet_header(0) + bytes(64), "numBytes"),
            "bitset-truncated": (good[:1000], "truncated"),
            "not-thrift": (b"\xff" * 64, ""),
            "wrong-type": (b"\x16" + good[1:], ""),
        }
        for name, (data, fragment) in cases.items():
            with self.subTest(case=name):
                path = self.write_bytes(name + ".bin", data)
                self.assertFails(self.probe_args(path), path + ": ", fragment, usage=False)
        # An offset at or past the end.
        path = self.write_bytes("good.bin", good)
        self.assertFails(self.probe_args(path, "--offset", str(len(good))), path,
                         "BloomFilterHeader")
        self.assertFails(self.probe_args(path, "--offset", str(len(good) + 1)), path,
                         "too short")
        self.assertFails(self.probe_args(path, "--offset", "1"), path)

    def test_a_size_numbytes_cannot_hold_is_refused_before_the_input_is_read(self):
        # numBytes is a Thrift i32: 2^31 bytes is a valid bitset but no header
        # can say so. The bad input line must not be what is reported.
        # (Without --any-size nothing above 128 MiB gets that far: ParquetSafeSizes.)
        bad = self.write_lines("bad.txt", ["not a hash"])
        for sizing in (["--bytes", "2147483648"], ["--bytes", str((1 << 35))]):
            with self.subTest(sizing=sizing):
                result = self.assertFails(["build", "--layout", "parquet"] + sizing +
                                          ["--parquet-header", "--any-size", "--input", bad,
                                           "-o", self.out],
                                          "signed 32-bit integer", "at most 2147483616 bytes")
                self.assertNotIn("bad.txt", result.stderr)
        # The limit itself is accepted as far as the flags go: the input is read.
        self.assertFails(["build", "--layout", "parquet", "--bytes", "2147483616",
                          "--parquet-header", "--any-size", "--input", bad, "-o", self.out],
                         "bad.txt:1: not an unsigned 64-bit number")

    def test_kudu_layout_takes_no_header(self):
        filt = self.write_bytes("f.bin", parquet_header(1024) + bytes(1024))
        self.assertFails(["probe", "--layout", "kudu", "--parquet-header", "--filter", filt,
                          "--input", self.members_path], "--parquet-header", usage=True)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
