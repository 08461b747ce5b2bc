#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`blockbloom build` and `probe` round trips: bitsets equal to the Parquet
and Kudu models on every tier, probes answering as the models, and parquet-mr's
reference bitset rebuilt and probed in place.

usage: build_probe_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import (  # noqa: E402
    FileTestCase, PARQUET_MR_HASHES, ToolTestCase, U64_MAX, info_json, kudu_model_bitset,
    kudu_model_find, model_bitset, parquet_model_find, read_bytes, run, write_hashes)


class BuildProbeRoundTrip(ToolTestCase):
    NUM_BYTES = 4096

    def setUp(self):
        super().setUp()
        seed = random.randrange(1 << 32)
        self.rng = random.Random(seed)
        self.seed_note = "random seed %d" % seed
        self.members = [self.rng.getrandbits(64) for _ in range(2000)]
        self.members += [0, 1, U64_MAX]
        self.members_path = self.path("members.txt")
        write_hashes(self.members_path, self.members)

    def test_build_matches_the_parquet_model(self):
        built = self.build(self.members_path, self.path("f.bin"), self.NUM_BYTES)
        self.assertEqual(len(built), self.NUM_BYTES)
        self.assertEqual(built, model_bitset(self.members, self.NUM_BYTES), self.seed_note)

    def test_inserted_hashes_all_probe_1(self):
        self.build(self.members_path, self.path("f.bin"), self.NUM_BYTES)
        lines = self.probe(self.path("f.bin"), self.NUM_BYTES, self.members_path).splitlines()
        self.assertEqual(len(lines), len(self.members))
        self.assertEqual(set(lines), {"1"}, self.seed_note)

    def test_inputs_longer_than_one_batch_build_and_probe_as_the_model(self):
        # The input is streamed in batches of 65536 lines: across batch
        # boundaries the filter and the probe answers must match the model.
        keys = [self.rng.getrandbits(64) for _ in range(65536 * 2 + 5)]
        keys_path = self.path("many.txt")
        write_hashes(keys_path, keys)
        num_bytes = 1024
        built = self.build(keys_path, self.path("many.bin"), num_bytes)
        self.assertEqual(built, model_bitset(keys, num_bytes), self.seed_note)
        small = self.build(self.members_path, self.path("small.bin"), num_bytes)
        lines = self.probe(self.path("small.bin"), num_bytes, keys_path).splitlines()
        self.assertEqual(lines, [parquet_model_find(small, h) for h in keys], self.seed_note)
        count = self.probe(self.path("small.bin"), num_bytes, keys_path, count=True)
        self.assertEqual(int(count), lines.count("1"))

    def test_a_file_larger_than_bytes_at_offset_0_needs_allow_trailing(self):
        # A raw file holds no size: --bytes 2048 on a 4096-byte filter would
        # silently answer 0 for inserted keys.
        filt = self.path("f.bin")
        self.build(self.members_path, filt, self.NUM_BYTES)
        half = self.NUM_BYTES // 2
        args = ["probe", "--layout", "parquet", "--filter", filt, "--bytes", str(half),
                "--input", self.members_path, "--count"]
        for extra in ([], ["--offset", "0"]):
            with self.subTest(extra=extra):
                self.assertFails(args + extra, filt, "the file is %d bytes" % self.NUM_BYTES,
                                 "--bytes is %d" % half, "--allow-trailing", usage=False)
        self.assertOk(run(args + ["--allow-trailing"]))
        # The whole file, or a range at another offset, needs no flag.
        self.assertEqual(self.probe(filt, self.NUM_BYTES, self.members_path, count=True),
                         "%d\n" % len(self.members))
        self.assertOk(run(args[:-1] + ["--offset", "32"]))
        # --allow-trailing only means something for a raw filter at offset 0.
        self.assertFails(args + ["--allow-trailing", "--offset", "32"], "--allow-trailing",
                         usage=True)
        self.assertIn("--allow-trailing", run(["probe", "--help"]).stdout)

    def test_other_hashes_mostly_probe_0(self):
        self.build(self.members_path, self.path("f.bin"), self.NUM_BYTES)
        others = [self.rng.getrandbits(64) for _ in range(4000)]
        others_path = self.path("others.txt")
        write_hashes(others_path, others)
        lines = self.probe(self.path("f.bin"), self.NUM_BYTES, others_path).splitlines()
        self.assertEqual(len(lines), len(others))
        self.assertTrue(set(lines) <= {"0", "1"})
        model = model_bitset(self.members, self.NUM_BYTES)
        expected = [parquet_model_find(model, h) for h in others]
        self.assertEqual(lines, expected, self.seed_note)
        # 16 bits per key: about 0.13% false positives; allow plenty of slack.
        self.assertLess(lines.count("1"), len(others) // 50, self.seed_note)

    def test_count_equals_the_number_of_1_lines(self):
        self.build(self.members_path, self.path("f.bin"), self.NUM_BYTES)
        mixed = self.members[:300] + [self.rng.getrandbits(64) for _ in range(700)]
        mixed_path = self.path("mixed.txt")
        write_hashes(mixed_path, mixed)
        lines = self.probe(self.path("f.bin"), self.NUM_BYTES, mixed_path).splitlines()
        count = self.probe(self.path("f.bin"), self.NUM_BYTES, mixed_path, count=True)
        self.assertEqual(count, "%d\n" % lines.count("1"))
        self.assertGreaterEqual(lines.count("1"), 300)

    def test_every_supported_isa_builds_identical_bytes(self):
        supported = info_json()["supported_isas"]
        reference = self.build(self.members_path, self.path("ref.bin"), self.NUM_BYTES,
                               isa="scalar")
        for isa in supported:
            with self.subTest(isa=isa):
                self.assertEqual(info_json(isa=isa)["selected_isa"], isa)
                out = self.path("f-%s.bin" % isa)
                self.assertEqual(self.build(self.members_path, out, self.NUM_BYTES, isa=isa),
                                 reference, self.seed_note)

    def test_every_supported_isa_probes_identically(self):
        self.build(self.members_path, self.path("f.bin"), self.NUM_BYTES)
        mixed = self.members[:500] + [self.rng.getrandbits(64) for _ in range(1500)]
        mixed_path = self.path("mixed.txt")
        write_hashes(mixed_path, mixed)
        reference = self.probe(self.path("f.bin"), self.NUM_BYTES, mixed_path, isa="scalar")
        for isa in info_json()["supported_isas"]:
            with self.subTest(isa=isa):
                self.assertEqual(self.probe(self.path("f.bin"), self.NUM_BYTES, mixed_path,
                                            isa=isa), reference)

    def test_probe_at_an_unaligned_offset_answers_as_the_plain_file(self):
        plain = self.build(self.members_path, self.path("f.bin"), self.NUM_BYTES)
        for offset in (13, 208):
            with self.subTest(offset=offset):
                padded_path = self.path("padded-%d.bin" % offset)
                with open(padded_path, "wb") as f:
                    f.write(bytes(self.rng.getrandbits(8) for _ in range(offset)))
                    f.write(plain)
                    f.write(b"\xff" * 7)  # junk after the bitset too
                mixed = self.members[:200] + [self.rng.getrandbits(64) for _ in range(800)]
                mixed_path = self.path("mixed.txt")
                write_hashes(mixed_path, mixed)
                self.assertEqual(
                    self.probe(padded_path, self.NUM_BYTES, mixed_path, offset=offset),
                    self.probe(self.path("f.bin"), self.NUM_BYTES, mixed_path))

    def test_hex_spaces_tabs_and_crlf_are_accepted(self):
        sample = self.members[:50] + [1]
        plain_path = self.path("plain.txt")
        write_hashes(plain_path, sample)
        fancy_path = self.path("fancy.txt")
        formats = ("0x%x", "0X%X", "%d", " \t%d\t ", "\t0x%016x")
        with open(fancy_path, "w", encoding="ascii", newline="") as f:
            for i, h in enumerate(sample[:-1]):
                f.write(formats[i % len(formats)] % h + ("\r\n" if i % 2 else "\n"))
            f.write("  0x00000000000000000000000000000001")  # leading zeros, no final newline
        plain = self.build(plain_path, self.path("plain.bin"), 1024)
        self.assertEqual(plain, model_bitset(sample, 1024))
        self.assertEqual(self.build(fancy_path, self.path("fancy.bin"), 1024), plain)

    def test_input_from_stdin(self):
        stdin_text = "".join("%d\n" % h for h in self.members)
        result = run(["build", "--layout", "parquet", "--bytes", str(self.NUM_BYTES),
                      "--input", "-", "-o", self.path("f.bin")], stdin_text=stdin_text)
        self.assertOk(result)
        self.assertEqual(read_bytes(self.path("f.bin")),
                         model_bitset(self.members, self.NUM_BYTES))

    def test_empty_input_builds_an_empty_filter(self):
        empty_path = self.path("empty.txt")
        open(empty_path, "w").close()
        self.assertEqual(self.build(empty_path, self.path("f.bin"), 64), bytes(64))
        self.assertEqual(self.probe(self.path("f.bin"), 64, empty_path), "")
        self.assertEqual(self.probe(self.path("f.bin"), 64, empty_path, count=True), "0\n")

    def test_build_replaces_an_existing_output(self):
        out = self.path("f.bin")
        with open(out, "wb") as f:
            f.write(b"old content that is longer than the filter" * 200)
        self.assertEqual(self.build(self.members_path, out, 64), model_bitset(self.members, 64))
        self.assertEqual(sorted(os.listdir(self.dir)), ["f.bin", "members.txt"])


class InteropParquetMrBloomFilter(ToolTestCase):
    """parquet-mr's bloom_filter.xxhash.bin: 16-byte header, then 1024 bytes."""

    def setUp(self):
        super().setUp()
        testdata = os.environ.get("BLOCKBLOOM_TESTDATA", "")
        self.reference = os.path.join(testdata, "bloom_filter.xxhash.bin")
        if not testdata or not os.path.isfile(self.reference):
            self.skipTest("shared testdata is absent: no bloom_filter.xxhash.bin in "
                          "BLOCKBLOOM_TESTDATA=%r" % testdata)
        self.hashes_path = self.path("strings.txt")
        write_hashes(self.hashes_path, PARQUET_MR_HASHES.values())

    def test_probe_in_place_finds_all_four_strings(self):
        lines = self.probe(self.reference, 1024, self.hashes_path, offset=16)
        self.assertEqual(lines, "1\n1\n1\n1\n")
        self.assertEqual(self.probe(self.reference, 1024, self.hashes_path, offset=16,
                                    count=True), "4\n")

    def test_build_reproduces_the_bitset_byte_for_byte(self):
        expected = read_bytes(self.reference)[16:1040]
        self.assertEqual(len(expected), 1024)
        for isa in info_json()["supported_isas"]:
            with self.subTest(isa=isa):
                built = self.build(self.hashes_path, self.path("f-%s.bin" % isa), 1024, isa=isa)
                self.assertEqual(built, expected)


class KuduLayoutRoundTrip(FileTestCase):
    """--layout kudu: 32-bit hashes, Rehash32to32 block choice, 2^k bytes."""

    NUM_BYTES = 4096
    KUDU = ["--layout", "kudu"]

    def setUp(self):
        super().setUp()
        self.members = [self.rng.getrandbits(32) for _ in range(1500)] + [0, 1, 0xFFFFFFFF]
        self.members_path = self.path("members.txt")
        write_hashes(self.members_path, self.members)

    def kudu_flags(self, num_bytes=NUM_BYTES):
        return self.KUDU + ["--bytes", str(num_bytes)]

    def test_build_matches_the_kudu_model(self):
        for num_bytes in (64, 128, self.NUM_BYTES, 1 << 16):
            with self.subTest(num_bytes=num_bytes):
                built = self.build_with(self.kudu_flags(num_bytes), self.members_path)
                self.assertEqual(len(built), num_bytes)
                self.assertEqual(built, kudu_model_bitset(self.members, num_bytes),
                                 self.seed_note)

    def test_probe_answers_as_the_model(self):
        built = self.build_with(self.kudu_flags(), self.members_path)
        others = [self.rng.getrandbits(32) for _ in range(3000)]
        mixed = self.members[:500] + others
        mixed_path = self.path("mixed.txt")
        write_hashes(mixed_path, mixed)
        lines = self.probe_with(self.kudu_flags(), self.path("f.bin"), mixed_path)
        self.assertEqual(lines, [kudu_model_find(built, h) for h in mixed], self.seed_note)
        self.assertEqual(set(lines[:500]), {"1"})
        # ~22 bits per key: false positives are rare.
        self.assertLess(lines[500:].count("1"), len(others) // 50, self.seed_note)
        count = self.run_ok(["probe"] + self.kudu_flags() + [
            "--filter", self.path("f.bin"), "--input", mixed_path, "--count"]).stdout
        self.assertEqual(count, "%d\n" % lines.count("1"))

    def test_every_supported_isa_builds_and_probes_identically(self):
        reference = self.build_with(self.kudu_flags(), self.members_path, "ref.bin", isa="scalar")
        mixed_path = self.path("mixed.txt")
        write_hashes(mixed_path, self.members[:300] + [self.rng.getrandbits(32)
                                                       for _ in range(1000)])
        answers = self.probe_with(self.kudu_flags(), self.path("ref.bin"), mixed_path,
                                  isa="scalar")
        for isa in info_json()["supported_isas"]:
            with self.subTest(isa=isa):
                self.assertEqual(self.build_with(self.kudu_flags(), self.members_path,
                                                 "f-%s.bin" % isa, isa=isa),
                                 reference, self.seed_note)
                self.assertEqual(self.probe_with(self.kudu_flags(), self.path("ref.bin"),
                                                 mixed_path, isa=isa), answers)

    def test_probe_at_an_unaligned_offset(self):
        plain = self.build_with(self.kudu_flags(), self.members_path)
        padded = self.write_bytes("padded.bin", b"\x5a" * 13 + plain + b"\xff" * 5)
        lines = self.probe_with(self.kudu_flags() + ["--offset", "13"], padded,
                                self.members_path)
        self.assertEqual(set(lines), {"1"})
        self.assertEqual(len(lines), len(self.members))

    def test_empty_input_builds_an_empty_filter(self):
        empty = self.write_bytes("empty.txt", b"")
        self.assertEqual(self.build_with(self.kudu_flags(64), empty), bytes(64))
        self.assertEqual(self.probe_with(self.kudu_flags(64), self.path("f.bin"),
                                         self.members_path), ["0"] * len(self.members))

    def test_hash_wider_than_32_bits_names_file_and_line(self):
        bad = self.write_lines("wide.txt", ["1", "0xffffffff", "4294967296", "2"])
        result = self.assertFails(["build"] + self.kudu_flags() + ["--input", bad, "-o", self.out],
                                  bad + ":3: ", "2^32-1", '"4294967296"', usage=False)
        self.assertNotIn("usage:", result.stderr)
        filt = self.write_bytes("zero.bin", bytes(self.NUM_BYTES))
        self.assertFails(["probe"] + self.kudu_flags() + ["--filter", filt, "--input", bad],
                         bad + ":3: ", "2^32-1")
        # The same line is fine for the parquet layout.
        self.run_ok(["build", "--layout", "parquet", "--bytes", "1024", "--input", bad,
                     "-o", self.out])

    def test_bytes_must_be_a_power_of_two_of_at_least_64(self):
        args = lambda n: ["build"] + self.kudu_flags(n) + ["--input", self.members_path,
                                                            "-o", self.out]
        self.assertFails(args(96), "--bytes 96", "power of two", usage=False)
        self.assertFails(args(3 * 1024), "--bytes 3072", "power of two")
        self.assertFails(args(32), "--bytes 32", "64 bytes")
        self.assertFails(args(33), "--bytes 33", "multiple of 32")
        self.assertFails(args(0), "--bytes 0")
        self.assertFails(args(1 << 40), "--bytes %d" % (1 << 40))
        filt = self.write_bytes("zero.bin", bytes(1024))
        self.assertFails(["probe"] + self.kudu_flags(96) + ["--filter", filt, "--input",
                                                              self.members_path], "power of two")

    def test_parquet_header_is_refused_for_kudu(self):
        self.assertFails(["build"] + self.kudu_flags() + ["--parquet-header", "--input",
                                                          self.members_path, "-o", self.out],
                         "--parquet-header", usage=True)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
