#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`blockbloom build` / `probe` with typed values (--hash xxh64|fasthash32
--type ...): every type hashed as the pure-Python XXH64 and FastHash models
say, bad values named with file, line and type, wrong flag combinations.

usage: typed_values_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import (  # noqa: E402
    ENCODERS, FileTestCase, PARQUET_MR_HASHES, U64_MAX, fasthash32, fasthash64, kudu_model_bitset,
    kudu_model_find, model_bitset, parquet_model_find, read_bytes, write_hashes, xxh64)


class TypedValueHashing(FileTestCase):
    """--hash xxh64 (parquet) and --hash fasthash32 (kudu) with --type T."""

    PARQUET = ["--layout", "parquet", "--bytes", "2048", "--hash", "xxh64"]

    def kudu(self, seed=None, num_bytes=2048):
        flags = ["--layout", "kudu", "--bytes", str(num_bytes), "--hash", "fasthash32"]
        return flags + (["--seed", str(seed)] if seed is not None else [])

    def test_python_hash_models_match_published_vectors(self):
        # facts.md: XXH64 of bytes 0, 1, 2, ... of length n, as signed int64.
        for n, signed in ((0, -1205034819632174695), (1, -1642502924627794072),
                          (2, 5216751715308240086), (3, -1889335612763511331)):
            self.assertEqual(xxh64(bytes(range(n))), signed & U64_MAX, n)
        for text, h in PARQUET_MR_HASHES.items():
            self.assertEqual(xxh64(text.encode()), h, text)
        # The FastHash vectors of the Kudu .NET client's tests (FastHashTests.cs).
        for data, seed, h64, h32 in ((b"ab", 0, 17293172613997361769, 2564147595),
                                     (b"abcdefg", 0, 10206404559164245992, 1497700618),
                                     (b"quick brown fox", 42, 3757424404558187042, 1676541068),
                                     (b"", 0, 4144680785095980158, 3045300040),
                                     (b"", 1234, 3296774803014270295, 811548192)):
            self.assertEqual(fasthash64(data, seed), h64, data)
            self.assertEqual(fasthash32(data, seed), h32, data)

    def test_parquet_mr_strings_rebuild_the_reference_bitset(self):
        reference = read_bytes(self.reference_file())
        strings = self.write_lines("strings.txt", PARQUET_MR_HASHES)
        built = self.build_with(["--layout", "parquet", "--bytes", "1024", "--hash", "xxh64",
                                 "--type", "string"], strings)
        self.assertEqual(built, reference[16:1040])

    def random_values(self, value_type):
        rng = self.rng
        if value_type == "int32":
            values = [rng.randrange(-2 ** 31, 2 ** 31) for _ in range(300)]
            return values + [-2 ** 31, 2 ** 31 - 1, 0], [str(v) for v in values] + [
                "-2147483648", " 2147483647\t", "0"]
        if value_type == "int64":
            values = [rng.randrange(-2 ** 63, 2 ** 63) for _ in range(300)] + [-2 ** 63,
                                                                               2 ** 63 - 1]
            return values, [str(v) for v in values]
        if value_type in ("float", "double"):
            fmt, width = ("<f", 32) if value_type == "float" else ("<d", 64)
            values = []
            while len(values) < 300:
                v = struct.unpack(fmt, rng.getrandbits(width).to_bytes(width // 8, "little"))[0]
                if math.isfinite(v) and v != 0:
                    values.append(v)
            # repr() for a double, hex (exact) for a float; plus a few plain forms.
            texts = [repr(v) if value_type == "double" else v.hex() for v in values]
            values += [1.5, -2e10, 0.0, -0.0, 0.1 if value_type == "double" else 0.5]
            texts += ["1.5", "-2e10", "0", "-0.0", "0.1" if value_type == "double" else ".5"]
            return values, texts
        # No '\n' (it ends a line) and no '\r' last (that is a CRLF line end).
        values = [bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 40))).replace(
            b"\n", b"").rstrip(b"\r") for _ in range(300)]
        values += [b"", b"hello", "gr\u00fc\u00dfe".encode(), b"a\rb", b" padded "]
        return values, values

    def test_xxh64_of_every_type_matches_the_model(self):
        for value_type in ("string", "int32", "int64", "float", "double"):
            with self.subTest(type=value_type):
                values, texts = self.random_values(value_type)
                path = self.write_lines("values-%s.txt" % value_type, texts)
                hashes = [xxh64(ENCODERS[value_type](v)) for v in values]
                built = self.build_with(self.PARQUET + ["--type", value_type], path)
                self.assertEqual(built, model_bitset(hashes, 2048), self.seed_note)
                # The same filter as building from the hashes themselves.
                hashes_path = self.path("hashes.txt")
                write_hashes(hashes_path, hashes)
                self.assertEqual(self.build_with(["--layout", "parquet", "--bytes", "2048"],
                                                 hashes_path, "g.bin"), built)
                lines = self.probe_with(self.PARQUET[:2] + ["--bytes", "2048", "--hash",
                                                             "xxh64", "--type", value_type],
                                        self.path("f.bin"), path)
                self.assertEqual(set(lines), {"1"})

    def test_fasthash32_of_every_type_matches_the_model(self):
        for value_type in ("string", "int32", "int64", "float", "double"):
            for seed in (None, 0, 1234, 0xFFFFFFFF):
                with self.subTest(type=value_type, seed=seed):
                    values, texts = self.random_values(value_type)
                    path = self.write_lines("values.txt", texts)
                    hashes = [fasthash32(ENCODERS[value_type](v), seed or 0) for v in values]
                    built = self.build_with(self.kudu(seed) + ["--type", value_type], path)
                    self.assertEqual(built, kudu_model_bitset(hashes, 2048), self.seed_note)
                    lines = self.probe_with(self.kudu(seed) + ["--type", value_type],
                                            self.path("f.bin"), path)
                    self.assertEqual(set(lines), {"1"})

    def test_probe_of_typed_values_answers_as_the_model(self):
        members = [str(v) for v in range(-500, 500)]
        others = [str(v) for v in range(10 ** 6, 10 ** 6 + 2000)]
        members_path = self.write_lines("members.txt", members)
        others_path = self.write_lines("others.txt", others)
        flags = self.PARQUET + ["--type", "int64"]
        built = self.build_with(flags, members_path)
        lines = self.probe_with(flags, self.path("f.bin"), others_path)
        self.assertEqual(lines, [parquet_model_find(built, xxh64(struct.pack("<q", int(v))))
                                 for v in others])
        self.assertLess(lines.count("1"), 100)
        kudu = self.kudu(seed=7) + ["--type", "int64"]
        built = self.build_with(kudu, members_path, "k.bin")
        lines = self.probe_with(kudu, self.path("k.bin"), others_path)
        self.assertEqual(lines, [kudu_model_find(built, fasthash32(struct.pack("<q", int(v)), 7))
                                 for v in others])

    def test_inf_nan_and_signed_zero_hash_their_ieee_bits(self):
        # Every spelling of NaN is the one NaN, the positive quiet NaN
        # (docs/formats.md, "One NaN"); -0.0 and the infinities keep their sign.
        cases = {
            "double": [("nan", 0x7FF8000000000000), ("-nan", 0x7FF8000000000000),
                       ("+NaN", 0x7FF8000000000000),
                       ("inf", 0x7FF0000000000000), ("-Infinity", 0xFFF0000000000000),
                       ("-0.0", 0x8000000000000000), ("4.9e-324", 1)],
            "float": [("NaN", 0x7FC00000), ("-NaN", 0x7FC00000), ("-inf", 0xFF800000),
                      ("-0", 0x80000000), ("1e-45", 1)],
        }
        for value_type, pairs in cases.items():
            width = 8 if value_type == "double" else 4
            for text, bits in pairs:
                with self.subTest(type=value_type, text=text):
                    path = self.write_lines("v.txt", [text])
                    built = self.build_with(self.PARQUET + ["--type", value_type], path)
                    expected = xxh64(bits.to_bytes(width, "little"))
                    self.assertEqual(built, model_bitset([expected], 2048))

    def test_string_values_are_the_exact_line_bytes(self):
        # No trimming: blanks and a '\r' inside belong to the value, an empty
        # line is the empty string, and no final newline is needed. "\r\n" is
        # a line end as "\n" is (the '\r' of a CRLF file is not the value's).
        path = self.path("crlf.txt")
        with open(path, "wb") as f:
            f.write(b"a\r\n\n  b \nc\rd\r\r\nlast")
        built = self.build_with(self.PARQUET + ["--type", "string"], path)
        hashes = [xxh64(v) for v in (b"a", b"", b"  b ", b"c\rd\r", b"last")]
        self.assertEqual(built, model_bitset(hashes, 2048))

    def bad_value_args(self, value_type, lines, layout="parquet"):
        path = self.write_lines("bad.txt", lines)
        flags = self.PARQUET if layout == "parquet" else self.kudu()
        return ["build"] + flags + ["--type", value_type, "--input", path, "-o", self.out], path

    def test_bad_values_name_file_line_and_type(self):
        cases = [
            ("int32", "2147483648", "out of range for int32"),
            ("int32", "-2147483649", "out of range for int32"),
            ("int32", "1.0", "not a valid int32"),
            ("int32", "0x10", "not a valid int32"),
            ("int64", "12x", "not a valid int64"),
            ("int64", "9223372036854775808", "out of range for int64"),
            ("int64", "--1", "not a valid int64"),
            ("int64", "-", "not a valid int64"),
            # The library's rule for integers as text (parquet_value.h), which
            # `parquet probe` and the Python package follow too: no '+', no
            # leading zeros, no "-0".
            ("int32", "+5", "not a valid int32"),
            ("int64", "007", "not a valid int64"),
            ("int64", "-0", "not a valid int64"),
            ("int64", "", "empty line"),
            ("double", "abc", "not a valid double"),
            ("double", "1e400", "out of range for double"),
            ("double", "1e-400", "out of range for double"),
            ("double", "1.5.5", "not a valid double"),
            ("double", "nan(123)", "not a valid double"),
            ("float", "1e39", "out of range for float"),
            ("float", "1e-50", "out of range for float"),
            ("float", "1,5", "not a valid float"),
            ("float", " ", "empty line"),
        ]
        for value_type, text, fragment in cases:
            for layout in ("parquet", "kudu"):
                with self.subTest(type=value_type, text=text, layout=layout):
                    args, path = self.bad_value_args(value_type, ["1", "2", text, "3"], layout)
                    # The library's phrases (parquet_value.h): "... is out of
                    # range" or "... is not ...", after the value and its type.
                    fragment = ("out of range" if fragment.startswith("out of range") else
                                "value \"%s\" of type " % text.strip()
                                if fragment.startswith("not a valid") else fragment)
                    self.assertFails(args, path + ":3: ", fragment, usage=False)
        # The limits themselves are fine.
        args, _ = self.bad_value_args("int32", ["-2147483648", "2147483647"])
        self.run_ok(args)
        args, _ = self.bad_value_args("int64", ["-9223372036854775808", "9223372036854775807"])
        self.run_ok(args)

    def test_wrong_combinations_are_usage_errors(self):
        values = self.write_lines("v.txt", ["1"])
        tail = ["--input", values, "-o", self.out]
        parquet = ["build", "--layout", "parquet", "--bytes", "1024"]
        kudu = ["build", "--layout", "kudu", "--bytes", "1024"]
        cases = [
            (kudu + ["--hash", "xxh64", "--type", "int64"], "--hash xxh64"),
            (parquet + ["--hash", "fasthash32", "--type", "int64"], "--hash fasthash32"),
            # --type alone is the default now (filter_file_cli_test.py); a type
            # and hashes at once is the contradiction.
            (parquet + ["--hash", "none", "--type", "int64"], "give one"),
            (parquet + ["--raw-hashes", "--type", "int64"], "give one"),
            (parquet + ["--hash", "xxh64"], "needs --type"),
            (kudu + ["--hash", "fasthash32"], "needs --type"),
            (parquet + ["--hash", "md5", "--type", "int64"], "unknown --hash"),
            (parquet + ["--hash", "xxh64", "--type", "uint9"], "unknown --type"),
            (parquet + ["--hash", "xxh64", "--type", "int64", "--seed", "1"], "--seed"),
            (parquet + ["--raw-hashes", "--seed", "1"], "--seed"),
            (kudu + ["--hash", "fasthash32", "--type", "int64", "--seed", "4294967296"],
             "--seed 4294967296"),
        ]
        for args, fragment in cases:
            with self.subTest(args=args):
                self.assertFails(args + tail, fragment, usage=True)
        filt = self.write_bytes("zero.bin", bytes(1024))
        self.assertFails(["probe", "--layout", "kudu", "--bytes", "1024", "--hash", "xxh64",
                          "--type", "string", "--filter", filt, "--input", values],
                         "--hash xxh64", usage=True)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
