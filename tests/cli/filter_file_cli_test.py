#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""blockbloom build / probe / union with filter files.

usage: filter_file_cli_test.py BLOCKBLOOM_EXE TEST_CLASS

A filter file records layout, type, seed and size, so a filter built from a
key file answers 1 for every line of that file when probed with no hashing
flag; a flag that contradicts the file, a damaged file, a union of files
built differently and a build that would overwrite its own input are each
refused with exit status 2 and nothing written.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import FileTestCase, read_bytes, xxh64  # noqa: E402

# docs/formats.md, "Filter files": field offsets of the 96-byte header.
HEADER = 96
LAYOUT_AT, SEED_AT, VALUES_AT, PHYSICAL_AT, NUM_BYTES_AT = 12, 20, 24, 28, 88

# Keys of each type, as a user's file would hold them.
KEYS = {
    "int64": ["0", "-1", "42", "9223372036854775807", "-9223372036854775808", "123456789012"],
    "string": ["alpha", "beta gamma", "", "Z\u00fcrich", "  padded  ", "x" * 300],
    "date": ["1970-01-01", "2024-02-29", "0001-01-01", "9999-12-31", "1999-12-31"],
    "decimal(9,2)": ["0.00", "1.5", "-7.25", "9999999.99", "-0.01", "12"],
    "decimal(30,4)": ["12345678901234567890.1234", "-1", "0.0001"],
    "timestamp(us,utc)": ["2024-01-31 12:34:56.123456", "1970-01-01T00:00:00Z"],
}


def reseal(data):
    """data with its XXH64 trailer recomputed (the model in cli_support.py)."""
    body = data[:-8]
    return body + struct.pack("<Q", xxh64(body))


class FilterFileRoundTrip(FileTestCase):
    def build_file(self, keys_path, out_name, *flags):
        out = self.path(out_name)
        self.run_ok(["build"] + list(flags) + ["--input", keys_path, "-o", out])
        return out

    def test_keys_probed_with_no_hashing_flag_all_answer_1(self):
        for layout in ("parquet", "kudu"):
            for type_name, keys in KEYS.items():
                if layout == "kudu" and type_name == "decimal(30,4)":
                    continue  # no Kudu cell: refused, see the test below
                with self.subTest(layout=layout, type=type_name):
                    keys_path = self.write_lines("keys.txt", keys)
                    seed = ["--seed", "77"] if layout == "kudu" else []
                    out = self.build_file(keys_path, "f.bbf", "--layout", layout, "--ndv", "1000",
                                          "--fpp", "0.001", "--type", type_name, *seed)
                    data = read_bytes(out)
                    self.assertEqual(data[:8], b"BBFILTER")
                    self.assertEqual(struct.unpack_from("<I", data, SEED_AT)[0],
                                     77 if layout == "kudu" else 0)
                    result = self.run_ok(["probe", "--bits", "--filter", out, "--input", keys_path])
                    self.assertEqual(result.stdout.splitlines(), ["1"] * len(keys))
                    # The same flags as the file's are accepted, not needed.
                    again = self.run_ok(["probe", "--bits", "--filter", out, "--input", keys_path,
                                         "--type", type_name, "--layout", layout] + seed)
                    self.assertEqual(again.stdout, result.stdout)

    def test_crlf_and_lf_key_files_build_and_probe_alike(self):
        # "\r\n" is a line end for every type, strings included: a filter
        # built from a CRLF file answers 1 for the LF file's lines and the
        # reverse (the '\r' used to be a string's last byte: every probe of
        # the other file's lines then answered 0, silently).
        for layout in ("parquet", "kudu"):
            for type_name in ("string", "binary", "int64", "date"):
                keys = KEYS.get(type_name, KEYS["string"])
                with self.subTest(layout=layout, type=type_name):
                    lf = self.write_lines("lf.txt", keys)
                    crlf = self.write_lines("crlf.txt", keys, newline="\r\n")
                    flags = ("--layout", layout, "--bytes", "1024", "--type", type_name)
                    from_lf = self.build_file(lf, "lf.bbf", *flags)
                    from_crlf = self.build_file(crlf, "crlf.bbf", *flags)
                    self.assertEqual(read_bytes(from_lf), read_bytes(from_crlf))
                    for filt, other in ((from_crlf, lf), (from_lf, crlf)):
                        result = self.run_ok(["probe", "--bits", "--filter", filt, "--input", other])
                        self.assertEqual(result.stdout.splitlines(), ["1"] * len(keys))
        # One '\r' goes, at a last line without '\n' too; other '\r' stay.
        keys = self.write_bytes("cr.txt", b"a\rb\r\r\nlast\r")
        out = self.build_file(keys, "cr.bbf", "--layout", "parquet", "--bytes", "1024", "--type", "string")
        hashes = self.write_lines("hashes.txt", [str(xxh64(b"a\rb\r")), str(xxh64(b"last"))])
        raw = self.build_file(hashes, "r.bbf", "--layout", "parquet", "--bytes", "1024", "--raw-hashes")
        self.assertEqual(read_bytes(out)[HEADER:HEADER + 1024], read_bytes(raw)[HEADER:HEADER + 1024])

    def test_values_not_inserted_mostly_answer_0(self):
        keys_path = self.write_lines("keys.txt", [str(i) for i in range(0, 2000, 2)])
        out = self.build_file(keys_path, "f.bbf", "--layout", "parquet", "--ndv", "1000",
                              "--fpp", "0.001", "--type", "int64")
        others = self.write_lines("others.txt", [str(i) for i in range(1, 2000, 2)])
        hits = int(self.run_ok(["probe", "--filter", out, "--input", others, "--count"]).stdout)
        self.assertLess(hits, 20)  # about 1 expected at fpp 0.001

    def test_values_hash_as_parquet_does(self):
        # A date is its INT32 days: XXH64 of 4 little-endian bytes (the model).
        keys_path = self.write_lines("keys.txt", ["1970-01-11"])
        raw_path = self.write_lines("hash.txt", [str(xxh64(struct.pack("<i", 10)))])
        out = self.build_file(keys_path, "f.bbf", "--layout", "parquet", "--bytes", "1024",
                              "--type", "date")
        raw = self.build_file(raw_path, "r.bbf", "--layout", "parquet", "--bytes", "1024",
                              "--raw-hashes")
        self.assertEqual(read_bytes(out)[HEADER:HEADER + 1024], read_bytes(raw)[HEADER:HEADER + 1024])
        self.assertEqual(self.run_ok(["probe", "--bits", "--filter", raw, "--input", raw_path]).stdout, "1\n")

    def test_build_needs_a_type_or_raw_hashes(self):
        keys_path = self.write_lines("keys.txt", ["1"])
        self.assertFails(["build", "--layout", "parquet", "--bytes", "64", "--input", keys_path,
                          "-o", self.out], "missing --type T", "--raw-hashes", usage=True)
        self.assertFails(["build", "--layout", "parquet", "--bytes", "64", "--type", "int64",
                          "--raw-hashes", "--input", keys_path, "-o", self.out], "give one")
        self.assertFails(["build", "--layout", "kudu", "--bytes", "64", "--type", "uint32",
                          "--input", keys_path, "-o", self.out], "uint32", "kudu")
        self.assertFails(["build", "--layout", "kudu", "--bytes", "64", "--type", "decimal(30,4)",
                          "--input", keys_path, "-o", self.out], "kudu")
        bad = self.write_lines("bad.txt", ["2024-13-01"])
        self.assertFails(["build", "--layout", "parquet", "--bytes", "64", "--type", "date",
                          "--input", bad, "-o", self.out], "bad.txt:1:", "2024-13-01", "month")


class FilterFileRefusals(FileTestCase):
    def setUp(self):
        super().setUp()
        self.keys = self.write_lines("keys.txt", ["1", "2", "3"])
        self.filt = self.path("f.bbf")
        self.run_ok(["build", "--layout", "kudu", "--bytes", "256", "--seed", "5", "--type",
                     "int64", "--input", self.keys, "-o", self.filt])

    def test_flags_that_contradict_the_file_are_refused(self):
        probe = ["probe", "--bits", "--filter", self.filt, "--input", self.keys]
        self.assertFails(probe + ["--type", "int32"], "--type int32", "contradicts", "INT64")
        self.assertFails(probe + ["--raw-hashes"], "--raw-hashes", "contradicts")
        self.assertFails(probe + ["--seed", "6"], "--seed 6", "seed 5")
        self.assertFails(probe + ["--layout", "parquet"], "--layout parquet", "kudu filter")
        self.assertFails(probe + ["--bytes", "512"], "--bytes 512", "256 bytes")
        self.assertFails(probe + ["--offset", "0"], "--offset", usage=True)

    def test_a_filter_file_probed_as_raw_or_parquet_bytes_is_refused(self):
        # Its 96-byte header would be probed as bits: 0 for keys that are there, exit 0.
        parquet = self.path("p.bbf")
        self.run_ok(["build", "--layout", "parquet", "--bytes", "1024", "--type", "int64",
                     "--input", self.keys, "-o", parquet])
        raw = ["probe", "--bits", "--filter", parquet, "--layout", "parquet", "--bytes", "1024", "--type",
               "int64", "--input", self.keys]
        for flags, dropped in ((["--format", "raw", "--allow-trailing"], "--format raw"),
                               (["--format", "raw"], "--format raw"),
                               (["--format", "parquet"], "--format parquet")):
            with self.subTest(flags=flags):
                result = self.assertFails(raw + flags, "is a blockbloom filter file", "drop " + dropped)
                self.assertNotIn("--allow-trailing if", result.stderr)
        self.assertEqual(self.run_ok(["probe", "--bits", "--filter", parquet, "--input", self.keys]).stdout,
                         "1\n1\n1\n")

    def test_build_refuses_to_overwrite_its_input(self):
        before = read_bytes(self.keys)
        os.symlink(self.keys, self.path("link.txt"))
        os.link(self.keys, self.path("hard.txt"))
        for out in (self.keys, self.path("link.txt"), self.path("hard.txt"),
                    os.path.join(self.dir, ".", "keys.txt")):
            with self.subTest(out=out):
                result = cli_support.run(["build", "--layout", "parquet", "--bytes", "64", "--type",
                                       "int64", "--input", self.keys, "-o", out])
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn("same file", result.stderr)
                self.assertEqual(read_bytes(self.keys), before)
        self.assertEqual(sorted(os.listdir(self.dir)), ["f.bbf", "hard.txt", "keys.txt", "link.txt"])

    def test_damaged_files_are_refused(self):
        good = read_bytes(self.filt)
        damages = {
            "size": (lambda d: d[:NUM_BYTES_AT] + struct.pack("<Q", 128) + d[NUM_BYTES_AT + 8:],
                     "not header + bitset + checksum long"),
            "type": (lambda d: d[:PHYSICAL_AT] + struct.pack("<i", 0) + d[PHYSICAL_AT + 4:],
                     "value type is not valid"),
            "seed": (lambda d: d[:LAYOUT_AT] + struct.pack("<I", 0) + d[LAYOUT_AT + 4:],
                     "hash seed"),
            "value kind": (lambda d: d[:VALUES_AT] + struct.pack("<i", 3) + d[VALUES_AT + 4:],
                           "value type is not valid"),
            "bitset": (lambda d: d[:HEADER + 3] + bytes([d[HEADER + 3] ^ 1]) + d[HEADER + 4:],
                       "checksum"),
            "truncated": (lambda d: d[:-1], "not header + bitset + checksum long"),
            "short": (lambda d: d[:50], "shorter than"),
        }
        for name, (damage, fragment) in damages.items():
            for sealed in (False, True) if name != "bitset" else (False,):
                with self.subTest(damage=name, sealed=sealed):
                    data = damage(good)
                    if sealed and len(data) > HEADER + 8:
                        data = reseal(data)
                    bad = self.write_bytes("bad.bbf", data)
                    self.assertFails(["probe", "--filter", bad, "--input", self.keys], bad,
                                     fragment)
        # "seed" above turned the Kudu file into a Parquet one, which has no seed 5.
        raw = self.write_bytes("raw.bin", bytes(64))
        self.assertFails(["probe", "--filter", raw, "--input", self.keys], "not a blockbloom filter",
                         "--format raw")

    def test_union_refuses_files_built_differently(self):
        def build(name, *flags):
            out = self.path(name)
            self.run_ok(["build"] + list(flags) + ["--input", self.keys, "-o", out])
            return out
        base = ["--bytes", "256", "--type", "int64"]
        kudu5 = self.filt
        cases = {
            "seeds differ": build("k6.bbf", "--layout", "kudu", "--seed", "6", *base),
            "layouts differ": build("p.bbf", "--layout", "parquet", *base),
            "sizes differ": build("k512.bbf", "--layout", "kudu", "--seed", "5", "--bytes", "512",
                                  "--type", "int64"),
            "value types differ": build("ki32.bbf", "--layout", "kudu", "--seed", "5", "--bytes",
                                        "256", "--type", "int32"),
        }
        for fragment, other in cases.items():
            with self.subTest(fragment=fragment):
                self.assertFails(["union", kudu5, other, "-o", self.out], "cannot unite", fragment)
        raw = build("kraw.bbf", "--layout", "kudu", "--seed", "5", "--bytes", "256", "--raw-hashes")
        self.assertFails(["union", kudu5, raw, "-o", self.out], "value types differ", "raw hashes")

    def test_union_of_alike_files_answers_for_both(self):
        more = self.write_lines("more.txt", ["100", "200"])
        other = self.path("g.bbf")
        self.run_ok(["build", "--layout", "kudu", "--bytes", "256", "--seed", "5", "--type",
                     "int64", "--input", more, "-o", other])
        self.run_ok(["union", self.filt, other, "-o", self.out])
        both = self.write_lines("both.txt", ["1", "2", "3", "100", "200"])
        self.assertEqual(self.run_ok(["probe", "--bits", "--filter", self.out, "--input", both]).stdout,
                         "1\n" * 5)
        self.assertEqual(read_bytes(self.out)[:HEADER - 8], read_bytes(self.filt)[:HEADER - 8])


if __name__ == "__main__":
    cli_support.RAW_EXPORT_DEFAULTS = False  # the commands as a user types them
    sys.exit(cli_support.main(__name__, sys.argv))
