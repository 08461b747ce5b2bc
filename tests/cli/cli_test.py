#!/usr/bin/env python3
"""End-to-end tests of the `blockbloom` command-line tool.

usage: cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]

PATH_TO_BLOCKBLOOM may also be a script that runs the tool under an emulator,
e.g. `exec qemu-x86_64 -cpu Nehalem build/tools/blockbloom "$@"`.

Runs the named unittest classes (all of them when none is named). Exits 0 when
every test passed, 77 (meson's "skipped") when every test that ran was
skipped, and 1 on any failure or error.
"""

import json
import os
import random
import shlex
import struct
import subprocess
import sys
import tempfile
import unittest

TOOL = None  # set from argv in main()
# Under emulation (the qemu test matrix), e.g. "qemu-x86_64 -cpu Nehalem":
# the tool then runs on the same emulated CPU as the rest of the suite.
WRAPPER = shlex.split(os.environ.get("BLOCKBLOOM_TEST_WRAPPER", ""))

U64_MAX = (1 << 64) - 1

# Parquet split block Bloom filter, from the spec's published constants: a
# slow, independent model that the tool's output is compared with.
SALTS = (0x47B6137B, 0x44974D91, 0x8824AD5B, 0xA2B7289D,
         0x705495C7, 0x2DF1424B, 0x9EFC4947, 0x5C6BFB31)


def model_bitset(hashes, num_bytes):
    num_blocks = num_bytes // 32
    lanes = [0] * (num_blocks * 8)
    for h in hashes:
        block = ((h >> 32) * num_blocks) >> 32
        key = h & 0xFFFFFFFF
        for i, salt in enumerate(SALTS):
            lanes[block * 8 + i] |= 1 << (((key * salt) & 0xFFFFFFFF) >> 27)
    return struct.pack("<%dI" % len(lanes), *lanes)


# XXH64 (seed 0) of the strings in parquet-mr's bloom_filter.xxhash.bin.
PARQUET_MR_HASHES = {
    "hello": 0x26C7827D889F6DA3,
    "parquet": 0x3C9D29275C52E429,
    "bloom": 0x50C8FB9E62DBC53C,
    "filter": 0x2A5736CDFCD7A9A1,
}


def run(args, isa=None, stdin_text=None):
    """Runs the tool; BLOCKBLOOM_ISA is set to isa, or removed when None."""
    env = dict(os.environ)
    env.pop("BLOCKBLOOM_ISA", None)
    if isa is not None:
        env["BLOCKBLOOM_ISA"] = isa
    return subprocess.run(WRAPPER + [TOOL] + list(args), env=env, input=stdin_text,
                          capture_output=True, text=True, timeout=120)


def info_json(isa=None):
    result = run(["info", "--json"], isa=isa)
    if result.returncode != 0:
        raise AssertionError("info --json exited %d: %s" % (result.returncode, result.stderr))
    return json.loads(result.stdout)


def write_hashes(path, hashes):
    with open(path, "w", encoding="ascii") as f:
        f.write("".join("%d\n" % h for h in hashes))


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


class ToolTestCase(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="blockbloom-cli-")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def assertOk(self, result):
        self.assertEqual(result.returncode, 0,
                         "exit %d, stderr: %s" % (result.returncode, result.stderr))

    def build(self, hashes_path, out_path, num_bytes, isa=None):
        result = run(["build", "--layout", "parquet", "--bytes", str(num_bytes),
                      "--input", hashes_path, "-o", out_path], isa=isa)
        self.assertOk(result)
        return read_bytes(out_path)

    def probe(self, filter_path, num_bytes, hashes_path, offset=None, count=False, isa=None):
        args = ["probe", "--layout", "parquet", "--filter", filter_path,
                "--bytes", str(num_bytes), "--input", hashes_path]
        if offset is not None:
            args += ["--offset", str(offset)]
        if count:
            args.append("--count")
        result = run(args, isa=isa)
        self.assertOk(result)
        return result.stdout


class InfoReportsBuildAndCpu(ToolTestCase):
    def test_json_has_every_key_with_the_right_type(self):
        info = info_json()
        self.assertEqual(
            set(info), {"version", "selected_isa", "compiled_isas", "supported_isas",
                        "forced_isa", "forced_isa_refused", "cpu"})
        self.assertIsInstance(info["version"], str)
        self.assertRegex(info["version"], r"^\d+\.\d+\.\d+")
        self.assertIsInstance(info["selected_isa"], str)
        for key in ("compiled_isas", "supported_isas"):
            self.assertIsInstance(info[key], list)
            self.assertTrue(info[key], key + " is empty")
            for name in info[key]:
                self.assertIn(name, {"scalar", "sse42", "avx2", "avx512", "neon"})
        self.assertIsNone(info["forced_isa"])
        self.assertIsNone(info["forced_isa_refused"])
        self.assertEqual(set(info["cpu"]), {"vendor", "brand", "microarchitecture"})
        for key in ("vendor", "brand", "microarchitecture"):
            self.assertIsInstance(info["cpu"][key], str)

    def test_selected_is_supported_and_supported_is_compiled(self):
        info = info_json()
        self.assertIn(info["selected_isa"], info["supported_isas"])
        self.assertTrue(set(info["supported_isas"]) <= set(info["compiled_isas"]))
        self.assertIn("scalar", info["supported_isas"])
        self.assertEqual(info["selected_isa"], info["supported_isas"][0],
                         "with no override the best supported ISA is selected")

    def test_human_form_lists_the_same_facts(self):
        info = info_json()
        result = run(["info"])
        self.assertOk(result)
        rows = {}
        for line in result.stdout.splitlines():
            key, sep, value = line.partition(":")
            self.assertTrue(sep, "not a key: value line: %r" % line)
            rows[key.strip()] = value.strip()
        self.assertEqual(rows["version"], info["version"])
        self.assertEqual(rows["selected ISA"], info["selected_isa"])
        self.assertEqual(rows["supported ISAs"], ", ".join(info["supported_isas"]))
        self.assertEqual(rows["compiled ISAs"], ", ".join(info["compiled_isas"]))
        self.assertEqual(rows["BLOCKBLOOM_ISA"], "(not set)")
        self.assertIn("cpu vendor", rows)
        # The values start in one column.
        columns = {len(line) - len(line.split(":", 1)[1].lstrip())
                   for line in result.stdout.splitlines()}
        self.assertEqual(len(columns), 1, result.stdout)


class IsaOverrideFromEnvironment(ToolTestCase):
    def test_scalar_is_forced(self):
        info = info_json(isa="scalar")
        self.assertEqual(info["selected_isa"], "scalar")
        self.assertEqual(info["forced_isa"], "scalar")
        self.assertIsNone(info["forced_isa_refused"])

    def test_every_supported_isa_can_be_forced(self):
        for isa in info_json()["supported_isas"]:
            with self.subTest(isa=isa):
                info = info_json(isa=isa)
                self.assertEqual(info["selected_isa"], isa)
                self.assertIsNone(info["forced_isa_refused"])

    def test_bogus_is_refused_and_the_best_isa_stays(self):
        best = info_json()["supported_isas"][0]
        info = info_json(isa="bogus")
        self.assertEqual(info["forced_isa"], "bogus")
        self.assertIsInstance(info["forced_isa_refused"], str)
        self.assertIn("bogus", info["forced_isa_refused"])
        self.assertEqual(info["selected_isa"], best)
        self.assertEqual(info["selected_isa"], info["supported_isas"][0])

    def test_json_escapes_a_hostile_override(self):
        info = info_json(isa='a"b\\c')  # must still parse
        self.assertIsNotNone(info["forced_isa_refused"])
        self.assertNotEqual(info["selected_isa"], 'a"b\\c')


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

    def test_other_hashes_mostly_probe_0(self):
        self.build(self.members_path, self.path("f.bin"), self.NUM_BYTES)
        others = [self.rng.getrandbits(64) for _ in range(4000)]
        others_path = self.path("others.txt")
        write_hashes(others_path, others)
        lines = self.probe(self.path("f.bin"), self.NUM_BYTES, others_path).splitlines()
        self.assertEqual(len(lines), len(others))
        self.assertTrue(set(lines) <= {"0", "1"})
        model = model_bitset(self.members, self.NUM_BYTES)
        expected = [self._model_find(model, h) for h in others]
        self.assertEqual(lines, expected, self.seed_note)
        # 16 bits per key: about 0.13% false positives; allow plenty of slack.
        self.assertLess(lines.count("1"), len(others) // 50, self.seed_note)

    @staticmethod
    def _model_find(bitset, h):
        num_blocks = len(bitset) // 32
        block = ((h >> 32) * num_blocks) >> 32
        lanes = struct.unpack_from("<8I", bitset, block * 32)
        key = h & 0xFFFFFFFF
        for lane, salt in zip(lanes, SALTS):
            if not lane & (1 << (((key * salt) & 0xFFFFFFFF) >> 27)):
                return "0"
        return "1"

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


class RejectsBadUsageAndInput(ToolTestCase):
    """Every error exits 2, says what is wrong, and never touches OUT."""

    OLD = b"previous filter contents\n"

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

    def assertFails(self, args, *fragments, stdin_text=None, usage=None):
        """Runs args with and without an existing OUT; checks exit 2 and stderr."""
        for out_exists in (False, True):
            if out_exists:
                with open(self.out, "wb") as f:
                    f.write(self.OLD)
            elif os.path.exists(self.out):
                os.remove(self.out)
            before = sorted(os.listdir(self.dir))
            result = run(args, stdin_text=stdin_text)
            self.assertEqual(result.returncode, 2, "args %r: stderr %r" % (args, result.stderr))
            self.assertEqual(result.stdout, "")
            # Any line, not the first: an emulator wrapper may print warnings first.
            self.assertRegex(result.stderr, r"(?m)^blockbloom: ")
            for fragment in fragments:
                self.assertIn(fragment, result.stderr)
            if usage is not None:
                self.assertEqual("usage:" in result.stderr, usage, result.stderr)
            self.assertEqual(sorted(os.listdir(self.dir)), before, "files appeared or vanished")
            if out_exists:
                self.assertEqual(read_bytes(self.out), self.OLD)
        return result

    def test_help_prints_usage_and_exits_0(self):
        for args in (["--help"], ["build", "--help"], ["probe", "-h"], ["info", "--help"]):
            with self.subTest(args=args):
                result = run(args)
                self.assertOk(result)
                self.assertIn("usage:", result.stdout)
                self.assertIn("blockbloom probe", result.stdout)

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
        self.assertFails(self.build_args(**{"--bytes": "1k"}), "--bytes 1k",
                         "not an unsigned 64-bit number")
        self.assertFails(self.build_args(**{"--bytes": "-32"}), "not an unsigned 64-bit number")

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
        self.assertFails(self.build_args(**{"--layout": "kudu"}), "unknown layout", "kudu")
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
        return ["probe", "--layout", "parquet", "--filter", filter_path, "--offset", str(offset),
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


def main(argv):
    global TOOL
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    TOOL = os.path.abspath(argv[1])
    if not os.access(TOOL, os.X_OK):
        print("not an executable: %s" % TOOL, file=sys.stderr)
        return 2
    loader = unittest.TestLoader()
    module = sys.modules[__name__]
    names = argv[2:]
    suite = (loader.loadTestsFromNames(names, module) if names
             else loader.loadTestsFromModule(module))
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if not result.wasSuccessful():
        return 1
    if result.testsRun == 0:
        print("no tests ran", file=sys.stderr)
        return 1
    if len(result.skipped) == result.testsRun:
        for _, reason in result.skipped:
            print("SKIPPED: %s" % reason, file=sys.stderr)
        return 77  # meson: skipped
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
