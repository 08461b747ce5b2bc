#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How `blockbloom build` (and `union` with a header) sizes a filter: --ndv and
--fpp against the model FPP, the reader-safe sizes of --parquet-header and
--any-size, and the chosen size reported on stderr.

usage: sizing_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import (  # noqa: E402
    FileTestCase, model_bitset, model_fpp, own_stderr, parquet_header, read_bytes, run,
    write_hashes)


# What Arrow C++'s, Velox's and ClickHouse's Parquet readers accept as a
# BloomFilterHeader's numBytes: a power of two from 32 B to 128 MiB.
def reader_safe(num_bytes):
    return 32 <= num_bytes <= 128 << 20 and num_bytes & (num_bytes - 1) == 0


class SizingFlags(FileTestCase):
    """build --ndv N --fpp P [--pow2]: the smallest filter meeting the target
    by the exact model, instead of --bytes."""

    def setUp(self):
        super().setUp()
        self.empty = self.write_bytes("empty.txt", b"")

    def built_size(self, layout, ndv, fpp, pow2=False):
        flags = ["--layout", layout, "--ndv", str(ndv), "--fpp", str(fpp)]
        return len(self.build_with(flags + (["--pow2"] if pow2 else []), self.empty))

    def assertSmallestMeeting(self, num_bytes, ndv, fpp, smaller):
        """num_bytes meets fpp by the model; smaller(num_bytes) does not."""
        self.assertLessEqual(model_fpp(ndv, num_bytes), fpp * (1 + 1e-9),
                             "%d bytes miss the target" % num_bytes)
        below = smaller(num_bytes)
        if below is not None:
            self.assertGreater(model_fpp(ndv, below), fpp * (1 - 1e-9),
                               "%d bytes would do; %d were chosen" % (below, num_bytes))

    def test_model_reproduces_the_published_figures(self):
        # facts.md: FPP at 8 / 10 / 16 / 20 bits per key.
        for bits, fpp in ((8, 0.0332), (10, 0.0126), (16, 0.00132), (20, 0.00042)):
            self.assertAlmostEqual(model_fpp(1000, 1000 * bits // 8) / fpp, 1, delta=0.02)
        # The Parquet spec's example: 1024 blocks with 26,214 inserts, about 1.26%.
        self.assertAlmostEqual(model_fpp(26214, 1024 * 32), 0.0126, delta=0.0002)

    def test_parquet_size_is_the_smallest_multiple_of_32(self):
        for ndv, fpp in ((1, 0.5), (7, 0.2), (1000, 0.01), (12345, 0.001), (26214, 0.0126),
                         (100000, 0.0001)):
            with self.subTest(ndv=ndv, fpp=fpp):
                size = self.built_size("parquet", ndv, fpp)
                self.assertEqual(size % 32, 0)
                self.assertSmallestMeeting(size, ndv, fpp, lambda n: n - 32 if n > 32 else None)

    def test_parquet_pow2_size_is_the_smallest_power_of_two(self):
        for ndv, fpp in ((1, 0.9), (1000, 0.01), (50000, 0.001)):
            with self.subTest(ndv=ndv, fpp=fpp):
                size = self.built_size("parquet", ndv, fpp, pow2=True)
                self.assertEqual(size & (size - 1), 0, size)
                self.assertGreaterEqual(size, 32)
                self.assertSmallestMeeting(size, ndv, fpp, lambda n: n // 2 if n > 32 else None)
                self.assertGreaterEqual(size, self.built_size("parquet", ndv, fpp))

    def test_kudu_size_is_the_smallest_power_of_two_from_64(self):
        for ndv, fpp in ((1, 0.5), (1000, 0.01), (50000, 0.001), (3, 0.0001)):
            with self.subTest(ndv=ndv, fpp=fpp):
                size = self.built_size("kudu", ndv, fpp)
                self.assertEqual(size & (size - 1), 0, size)
                self.assertGreaterEqual(size, 64)
                self.assertSmallestMeeting(size, ndv, fpp, lambda n: n // 2 if n > 64 else None)

    def test_a_sized_filter_holds_its_values(self):
        values = [self.rng.getrandbits(64) for _ in range(3000)]
        values_path = self.path("values.txt")
        write_hashes(values_path, values)
        flags = ["--layout", "parquet", "--ndv", "3000", "--fpp", "0.001"]
        built = self.build_with(flags, values_path)
        self.assertEqual(built, model_bitset(values, len(built)))
        lines = self.probe_with(["--layout", "parquet", "--bytes", str(len(built))],
                                self.path("f.bin"), values_path)
        self.assertEqual(set(lines), {"1"})

    def sizing_args(self, *flags, layout="parquet"):
        return ["build", "--layout", layout] + list(flags) + ["--input", self.empty,
                                                              "-o", self.out]

    def test_bytes_or_ndv_and_fpp_exactly(self):
        self.assertFails(self.sizing_args("--bytes", "1024", "--ndv", "10", "--fpp", "0.1"),
                         "either --bytes or --ndv", usage=True)
        self.assertFails(self.sizing_args("--bytes", "1024", "--fpp", "0.1"),
                         "either --bytes or --ndv", usage=True)
        self.assertFails(self.sizing_args("--ndv", "10"), "--ndv needs --fpp", usage=True)
        self.assertFails(self.sizing_args("--fpp", "0.1"), "--fpp needs --ndv", usage=True)
        self.assertFails(self.sizing_args(), "missing --bytes", usage=True)
        self.assertFails(self.sizing_args("--bytes", "1024", "--pow2"), "--pow2", usage=True)
        self.assertFails(self.sizing_args("--ndv", "10", "--fpp", "0.1", "--pow2", layout="kudu"),
                         "--pow2", usage=True)

    def test_fpp_outside_0_1_is_refused(self):
        for fpp in ("2", "0", "1", "-0.5", "0.0", "nan", "inf"):
            with self.subTest(fpp=fpp):
                self.assertFails(self.sizing_args("--ndv", "10", "--fpp", fpp),
                                 "--fpp " + fpp, "false-positive probability", usage=False)
        for fpp in ("abc", "0.1x", "1%", " 0.1"):
            with self.subTest(fpp=fpp):
                self.assertFails(self.sizing_args("--ndv", "10", "--fpp", fpp),
                                 "--fpp " + fpp, "not a number")

    def test_ndv_not_a_number_is_refused_and_zero_is_the_smallest_filter(self):
        self.assertFails(self.sizing_args("--ndv", "ten", "--fpp", "0.01"), "--ndv ten",
                         "not a count", "1_000_000, 1e6")
        # An empty build side: the layout's smallest filter (bb_bytes_for).
        for layout, size in (("parquet", "32 bytes (1 block,"), ("kudu", "64 bytes (2 blocks,")):
            result = self.run_ok(self.sizing_args("--ndv", "0", "--fpp", "0.01", layout=layout))
            self.assertIn("sized for --ndv 0 --fpp 0.01: " + size, result.stderr)

    def test_fpp_strtod_cannot_hold_is_out_of_range_not_junk(self):
        for fpp in ("1e-320", "1e-400"):
            with self.subTest(fpp=fpp):
                result = self.assertFails(self.sizing_args("--ndv", "10", "--fpp", fpp),
                                          "--fpp " + fpp, "out of range", "too small",
                                          usage=False)
                self.assertNotIn("not a number", result.stderr)
        result = self.assertFails(self.sizing_args("--ndv", "10", "--fpp", "1e400"),
                                  "--fpp 1e400", "out of range", usage=False)
        self.assertNotIn("not a number", result.stderr)

    def test_kudu_target_below_the_hash_collision_floor_names_the_floor(self):
        # 100 values: 100 / 2^32 = 2.33e-08 of foreign values hit whatever the size.
        for fpp in ("1e-12", "1e-9"):
            with self.subTest(fpp=fpp):
                result = self.assertFails(
                    self.sizing_args("--ndv", "100", "--fpp", fpp, layout="kudu"),
                    "--ndv 100 --fpp " + fpp, "32-bit hash collision floor", "2.33e-08")
                self.assertNotIn("2^31 - 1 blocks", result.stderr)
        # Above the floor the same target is met.
        self.run_ok(self.sizing_args("--ndv", "100", "--fpp", "1e-7", layout="kudu"))

    def test_a_target_no_filter_can_meet_is_refused(self):
        # Beyond 2^31 - 1 blocks (parquet), 32 GiB (kudu), 128 MiB (parquet --pow2).
        self.assertFails(self.sizing_args("--ndv", str(10 ** 12), "--fpp", "1e-9"),
                         "--ndv %d" % 10 ** 12)
        self.assertFails(self.sizing_args("--ndv", str(10 ** 12), "--fpp", "1e-9",
                                          layout="kudu"), "--ndv %d" % 10 ** 12)
        self.assertFails(self.sizing_args("--ndv", str(10 ** 9), "--fpp", "0.001", "--pow2"),
                         "--pow2")


class ParquetSafeSizes(FileTestCase):
    """--parquet-header writes only sizes every Parquet reader accepts, unless
    --any-size says otherwise; raw bitsets keep any multiple of 32; reading
    takes any size."""

    READERS = ("Arrow", "Velox", "ClickHouse", "power of two from 32 B to 128 MiB")

    def setUp(self):
        super().setUp()
        self.values = [self.rng.getrandbits(64) for _ in range(1000)]
        self.values_path = self.path("values.txt")
        write_hashes(self.values_path, self.values)
        self.bad = self.write_lines("bad.txt", ["not a hash"])

    def build_args(self, *flags, input_path=None):
        return (["build", "--layout", "parquet"] + list(flags) +
                ["--input", input_path or self.values_path, "-o", self.out])

    def test_ndv_fpp_with_a_header_picks_the_smallest_reader_safe_size(self):
        for ndv, fpp in ((1000, 0.01), (1, 0.5), (796696, 0.01), (796697, 0.01),
                         (12345, 0.001)):
            with self.subTest(ndv=ndv, fpp=fpp):
                built = self.build_with(["--layout", "parquet", "--ndv", str(ndv), "--fpp",
                                         str(fpp), "--parquet-header"], self.values_path)
                header_bytes = len(built) - len(built) // 32 * 32
                num_bytes = len(built) - header_bytes
                self.assertEqual(built[:header_bytes], parquet_header(num_bytes))
                self.assertTrue(reader_safe(num_bytes), num_bytes)
                self.assertLessEqual(model_fpp(ndv, num_bytes), fpp * (1 + 1e-9))
                if num_bytes > 32:
                    self.assertGreater(model_fpp(ndv, num_bytes // 2), fpp * (1 - 1e-9))
        # Exact values (docs/sizing.md): 1,000 keys at 1% are 42 blocks raw,
        # 64 with a header; a 1 MiB filter holds 796,696 keys at 1%.
        raw = self.build_with(["--layout", "parquet", "--ndv", "1000", "--fpp", "0.01"],
                              self.values_path, "raw.bin")
        self.assertEqual(len(raw), 1344)
        headed = self.build_with(["--layout", "parquet", "--ndv", "1000", "--fpp", "0.01",
                                  "--parquet-header"], self.values_path)
        self.assertEqual(headed, parquet_header(2048) + model_bitset(self.values, 2048))
        for ndv, num_bytes in ((796696, 1 << 20), (796697, 2 << 20)):
            built = self.build_with(["--layout", "parquet", "--ndv", str(ndv), "--fpp", "0.01",
                                     "--parquet-header"], self.values_path)
            self.assertEqual(len(built), len(parquet_header(num_bytes)) + num_bytes)

    def test_bytes_readers_refuse_is_refused_before_the_input_is_read(self):
        for num_bytes, instead in ((96, "64 or 128 bytes"), (1344, "1024 or 2048 bytes"),
                                   (32 * 1001, "16384 or 32768 bytes"),
                                   ((128 << 20) + 32, "at most 134217728 bytes"),
                                   (256 << 20, "at most 134217728 bytes")):
            with self.subTest(num_bytes=num_bytes):
                result = self.assertFails(
                    self.build_args("--bytes", str(num_bytes), "--parquet-header",
                                    input_path=self.bad),
                    "--bytes %d" % num_bytes, *self.READERS, instead, "--any-size",
                    "DuckDB", usage=False)
                self.assertNotIn("bad.txt", result.stderr)

    def test_any_size_writes_what_only_some_readers_read_and_probe_reads_it(self):
        built = self.build_with(["--layout", "parquet", "--bytes", "1344", "--parquet-header",
                                 "--any-size"], self.values_path)
        self.assertEqual(built, parquet_header(1344) + model_bitset(self.values, 1344))
        # Reading stays lenient: the header's 1344 bytes are probed as they are.
        lines = self.probe_with(["--layout", "parquet", "--parquet-header"], self.path("f.bin"),
                                self.values_path)
        self.assertEqual(set(lines), {"1"})
        # --ndv/--fpp with --any-size: any multiple of 32, as without a header.
        sized = self.build_with(["--layout", "parquet", "--ndv", "1000", "--fpp", "0.01",
                                 "--parquet-header", "--any-size"], self.values_path)
        self.assertEqual(sized, parquet_header(1344) + model_bitset(self.values, 1344))

    def test_a_target_beyond_128_mib_is_refused_and_any_size_lifts_it(self):
        # 10^8 keys at 0.1% need about 211 MB: no reader-safe size.
        result = self.assertFails(
            self.build_args("--ndv", "100000000", "--fpp", "0.001", "--parquet-header",
                            input_path=self.bad),
            "--ndv 100000000 --fpp 0.001 --parquet-header", "134217728 bytes, 128 MiB",
            "only reaches an FPP of", "Arrow", "--any-size", usage=False)
        self.assertNotIn("bad.txt", result.stderr)
        # With --any-size the size is accepted (a filter that large is not built
        # here: the bad first line stops the build once sizing has passed).
        self.assertFails(self.build_args("--ndv", "100000000", "--fpp", "0.001",
                                         "--parquet-header", "--any-size", input_path=self.bad),
                         "bad.txt:1:")
        self.assertFails(self.build_args("--ndv", "1000000000", "--fpp", "0.01", "--pow2"),
                         "--pow2", "only reaches an FPP of 0.995", "drop --pow2")

    def test_any_size_goes_with_parquet_header(self):
        self.assertFails(self.build_args("--bytes", "1344", "--any-size"),
                         "--any-size goes with --parquet-header", usage=True)
        self.assertFails(["union", "--any-size", self.values_path, self.values_path, "-o",
                          self.out], "--any-size goes with --parquet-header", usage=True)

    def test_raw_bitsets_keep_any_multiple_of_32(self):
        for num_bytes in (96, 1344, 32 * 1001):
            with self.subTest(num_bytes=num_bytes):
                built = self.build_with(["--layout", "parquet", "--bytes", str(num_bytes)],
                                        self.values_path)
                self.assertEqual(built, model_bitset(self.values, num_bytes))

    def test_union_writes_a_reader_safe_header_or_needs_any_size(self):
        for name in ("a.bin", "b.bin"):
            self.build_with(["--layout", "parquet", "--bytes", "96", "--parquet-header",
                             "--any-size"], self.values_path, name)
        a, b = self.path("a.bin"), self.path("b.bin")
        self.assertFails(["union", "--parquet-header", a, b, "-o", self.out], a, b,
                         "96 bytes", *self.READERS, "--any-size", usage=False)
        self.run_ok(["union", "--parquet-header", "--any-size", a, b, "-o", self.out])
        self.assertEqual(read_bytes(self.out), read_bytes(a))  # x | x = x
        for name in ("c.bin", "d.bin"):
            self.build_with(["--layout", "parquet", "--bytes", "128", "--parquet-header"],
                            self.values_path, name)
        self.run_ok(["union", "--parquet-header", self.path("c.bin"), self.path("d.bin"),
                     "-o", self.out])
        self.assertEqual(read_bytes(self.out), read_bytes(self.path("c.bin")))


class BuildReportsChosenSize(FileTestCase):
    """build --ndv N --fpp P says on stderr which size it chose and the FPP
    the model predicts for it; --bytes N says nothing."""

    LINE = re.compile(r"^blockbloom build: sized for (.*): (\d+) bytes \((\d+) blocks?, (.*)\), "
                      r"predicted FPP ([0-9.e+-]+)$")

    def setUp(self):
        super().setUp()
        self.empty = self.write_bytes("empty.txt", b"")

    def report(self, layout, *flags):
        result = self.run_ok(["build", "--layout", layout] + list(flags) +
                             ["--input", self.empty, "-o", self.out])
        lines = own_stderr(result).splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        match = self.LINE.match(lines[0])
        self.assertIsNotNone(match, lines[0])
        return match, read_bytes(self.out)

    def test_the_line_names_the_size_written_and_its_model_fpp(self):
        cases = (("parquet", ["--ndv", "1000", "--fpp", "0.01"], 1344, 0,
                  "any whole number of 32-byte blocks"),
                 ("parquet", ["--ndv", "1000", "--fpp", "0.01", "--parquet-header"], 2048, 18,
                  "as Parquet readers require"),
                 ("parquet", ["--ndv", "1000", "--fpp", "0.01", "--pow2"], 2048, 0, "--pow2"),
                 ("kudu", ["--ndv", "1000", "--fpp", "0.01"], 2048, 0, "as Kudu requires"),
                 ("parquet", ["--ndv", "1", "--fpp", "0.5"], 32, 0, "32-byte blocks"))
        for layout, flags, num_bytes, header, rule in cases:
            with self.subTest(layout=layout, flags=flags):
                match, built = self.report(layout, *flags)
                request, size, blocks, said_rule, fpp = match.groups()
                self.assertEqual(request, " ".join(flags))
                self.assertEqual(int(size), num_bytes)
                self.assertEqual(int(blocks), num_bytes // 32)
                self.assertIn(rule, said_rule)
                self.assertEqual(len(built), num_bytes + (len(parquet_header(num_bytes))
                                                          if header else 0))
                ndv = int(flags[1])
                self.assertAlmostEqual(float(fpp) / model_fpp(ndv, num_bytes), 1, delta=1e-3)
                self.assertLessEqual(float(fpp), float(flags[3]) * (1 + 1e-3))

    def test_bytes_prints_nothing(self):
        result = self.run_ok(["build", "--layout", "parquet", "--bytes", "1024", "--input",
                              self.empty, "-o", self.out])
        self.assertEqual(own_stderr(result), "")

    def test_standard_output_keeps_only_the_filter(self):
        result = run(["build", "--layout", "parquet", "--ndv", "10", "--fpp", "0.1", "--input",
                      self.empty, "-o", "-"])
        self.assertOk(result)
        self.assertEqual(result.stdout, "\0" * 32)
        self.assertIn("sized for --ndv 10 --fpp 0.1: 32 bytes (1 block,", result.stderr)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
