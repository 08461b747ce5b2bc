#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""End-to-end tests of the `blockbloom` command-line tool.

usage: cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]

PATH_TO_BLOCKBLOOM may also be a script that runs the tool under an emulator,
e.g. `exec qemu-x86_64 -cpu Nehalem build/tools/blockbloom "$@"`.

Runs the named unittest classes (all of them when none is named). Exits 0 when
every test passed, 77 (meson's "skipped") when every test that ran was
skipped, and 1 on any failure or error.
"""

import errno
import json
import math
import os
import random
import re
import shlex
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
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


def parquet_model_find(bitset, h):
    """"1" if the model Parquet filter bitset may hold hash h, else "0"."""
    num_blocks = len(bitset) // 32
    block = ((h >> 32) * num_blocks) >> 32
    return _block_find(bitset, block, h & 0xFFFFFFFF)


def _block_find(bitset, block, key):
    lanes = struct.unpack_from("<8I", bitset, block * 32)
    for lane, salt in zip(lanes, SALTS):
        if not lane & (1 << (((key * salt) & 0xFFFFFFFF) >> 27)):
            return "0"
    return "1"


# Kudu / Impala runtime filter (kudu/util/block_bloom_filter.*): 32-bit hash h,
# block Rehash32to32(h) & (blocks - 1), key h; the same block as Parquet.
def kudu_block(h, num_blocks):
    return ((((h * 0x7850F11EC6D14889) + 0x6773610597CA4C63) & U64_MAX) >> 32) & (num_blocks - 1)


def kudu_model_bitset(hashes, num_bytes):
    num_blocks = num_bytes // 32
    lanes = [0] * (num_blocks * 8)
    for h in hashes:
        assert 0 <= h <= 0xFFFFFFFF
        block = kudu_block(h, num_blocks)
        for i, salt in enumerate(SALTS):
            lanes[block * 8 + i] |= 1 << (((h * salt) & 0xFFFFFFFF) >> 27)
    return struct.pack("<%dI" % len(lanes), *lanes)


def kudu_model_find(bitset, h):
    return _block_find(bitset, kudu_block(h, len(bitset) // 32), h)


def or_bytes(a, b):
    return bytes(x | y for x, y in zip(a, b))


# XXH64 (seed 0), written here from the algorithm's description (Collet's
# xxHash spec) and checked against published vectors in
# TypedValueHashing.test_python_hash_models_match_published_vectors.
_P1, _P2, _P3 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
_P4, _P5 = 0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5


def _rotl64(x, r):
    return ((x << r) | (x >> (64 - r))) & U64_MAX


def _xxh64_round(acc, lane):
    return (_rotl64((acc + lane * _P2) & U64_MAX, 31) * _P1) & U64_MAX


def xxh64(data, seed=0):
    n = len(data)
    i = 0
    if n >= 32:
        v = [(seed + _P1 + _P2) & U64_MAX, (seed + _P2) & U64_MAX, seed, (seed - _P1) & U64_MAX]
        while i + 32 <= n:
            for k in range(4):
                v[k] = _xxh64_round(v[k], int.from_bytes(data[i + 8 * k:i + 8 * k + 8], "little"))
            i += 32
        h = (_rotl64(v[0], 1) + _rotl64(v[1], 7) + _rotl64(v[2], 12) + _rotl64(v[3], 18)) & U64_MAX
        for k in range(4):
            h = (((h ^ _xxh64_round(0, v[k])) * _P1) + _P4) & U64_MAX
    else:
        h = (seed + _P5) & U64_MAX
    h = (h + n) & U64_MAX
    while i + 8 <= n:
        h ^= _xxh64_round(0, int.from_bytes(data[i:i + 8], "little"))
        h = (_rotl64(h, 27) * _P1 + _P4) & U64_MAX
        i += 8
    if i + 4 <= n:
        h ^= (int.from_bytes(data[i:i + 4], "little") * _P1) & U64_MAX
        h = (_rotl64(h, 23) * _P2 + _P3) & U64_MAX
        i += 4
    while i < n:
        h ^= (data[i] * _P5) & U64_MAX
        h = (_rotl64(h, 11) * _P1) & U64_MAX
        i += 1
    h ^= h >> 33
    h = (h * _P2) & U64_MAX
    h ^= h >> 29
    h = (h * _P3) & U64_MAX
    h ^= h >> 32
    return h


# Kudu FAST_HASH (kudu/util/hash_util.h), from facts.md; empty input hashes
# the 4 bytes of 0x7dca7eee instead (the tool never hashes a null cell).
def _fasthash_mix(x):
    x ^= x >> 23
    x = (x * 0x2127599BF4325C37) & U64_MAX
    return x ^ (x >> 47)


def fasthash64(data, seed):
    if len(data) == 0:
        data = (0x7DCA7EEE).to_bytes(4, "little")
    m = 0x880355F21E6D1965
    h = (seed ^ (len(data) * m)) & U64_MAX
    for i in range(0, len(data), 8):
        h ^= _fasthash_mix(int.from_bytes(data[i:i + 8], "little"))
        h = (h * m) & U64_MAX
    return _fasthash_mix(h)


def fasthash32(data, seed):
    h = fasthash64(data, seed)
    return (h - (h >> 32)) & 0xFFFFFFFF


# The plain (little-endian) encoding of a value of each --type.
ENCODERS = {
    "int32": lambda v: struct.pack("<i", v),
    "int64": lambda v: struct.pack("<q", v),
    "float": lambda v: struct.pack("<f", v),
    "double": lambda v: struct.pack("<d", v),
    "string": lambda v: v,
}


def model_fpp(ndv, num_bytes):
    """Exact FPP of a split block filter (facts.md, "Sizing"): lambda = ndv /
    blocks, FPP = sum_i Poisson(i; lambda) * (1 - (1 - 1/32)^i)^8."""
    lam = ndv / (num_bytes / 32)
    spread = 40 * math.sqrt(lam) + 60
    total = 0.0
    for i in range(max(0, int(lam - spread)), int(lam + spread) + 1):
        log_p = -lam + (i * math.log(lam) if i else 0.0) - math.lgamma(i + 1)
        total += math.exp(log_p) * (1 - (31 / 32) ** i) ** 8
    return total


# XXH64 (seed 0) of the strings in parquet-mr's bloom_filter.xxhash.bin.
PARQUET_MR_HASHES = {
    "hello": 0x26C7827D889F6DA3,
    "parquet": 0x3C9D29275C52E429,
    "bloom": 0x50C8FB9E62DBC53C,
    "filter": 0x2A5736CDFCD7A9A1,
}


def own_stderr(result):
    """The tool's stderr without an emulator's own warnings (qemu, in the
    emulated matrix rows, may print "qemu-x86_64: warning: ..." first)."""
    return "".join(line for line in result.stderr.splitlines(True) if not line.startswith("qemu-"))


# Runs argv[2:] as a child and writes "EXIT_STATUS PEAK_RSS_KIB" to argv[1]
# (negative status: killed by that signal): ToolTestCase.run_measured. It
# ignores SIGTERM itself, so that a SIGTERM to its process group stops the
# child only.
MEASURE_LAUNCHER = """
import os, signal, sys
pid = os.fork()
if pid == 0:
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # whatever the test runner inherited
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write("%d %d %r" % (os.waitstatus_to_exitcode(status), usage.ru_maxrss,
                          usage.ru_utime + usage.ru_stime))
"""


_SANITIZED = []


def sanitized():
    """Whether the tool is built with AddressSanitizer (the ASan row), whose
    shadow memory and quarantine make its peak RSS no measure of the tool's."""
    if not _SANITIZED:
        with open(TOOL, "rb") as f:
            _SANITIZED.append("ASAN_OPTIONS" in os.environ or b"__asan_init" in f.read())
    return _SANITIZED[0]


RAW_EXPORT_DEFAULTS = True  # filter_file_cli_test.py, which tests the defaults, sets False


def as_raw_export(args):
    """args with the flags these tests' build / probe / union calls leave out.
    The tests of this file predate filter files (filter_file_cli_test.py tests
    those, the commands' default): they test the bare bitsets, now an explicit
    export format, and inputs of hashes, now explicit too. So a call without
    --format (or --parquet-header, which is --format parquet) gets --format
    raw, and a build or probe that names no value type (--type, --hash,
    --raw-hashes) gets --raw-hashes, as the commands took them before."""
    args = list(args)
    if (not RAW_EXPORT_DEFAULTS or not args or args[0] not in ("build", "probe", "union") or
            "--help" in args or "-h" in args):
        return args
    extra = []
    if not any(a.startswith("--format") or a == "--parquet-header" for a in args):
        extra += ["--format", "raw"]
    if args[0] != "union" and not any(a.startswith(("--type", "--hash", "--raw-hashes"))
                                      for a in args):
        extra.append("--raw-hashes")
    return args[:1] + extra + args[1:]


def run(args, isa=None, stdin_text=None):
    """Runs the tool; BLOCKBLOOM_ISA is set to isa, or removed when None.
    build / probe / union get as_raw_export's flags."""
    args = as_raw_export(args)
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
    OLD = b"previous filter contents\n"

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="blockbloom-cli-")
        self.dir = self._tmp.name
        self.out = self.path("out.bin")

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def assertOk(self, result):
        self.assertEqual(result.returncode, 0,
                         "exit %d, stderr: %s" % (result.returncode, result.stderr))

    def run_measured(self, args, timeout=30, stdout=None, stop_after=None):
        """Runs the tool; returns (exit status, stderr, peak RSS in bytes);
        self.measured_cpu is then its CPU seconds (user + system).
        The peak is the child's own (wait4), so no address-space limit is
        needed, which a sanitizer build could not run under. The tool is
        started by a fresh small Python (MEASURE_LAUNCHER), not forked from
        this one: the kernel counts in a child's peak what it was forked
        from (all of this test process, or its peak when vforked). stdout: a
        file name for the output, else it is dropped. stop_after: seconds
        after which the tool is sent SIGTERM (an endless run)."""
        report = os.path.join(self.dir, "measured.txt")
        env = dict(os.environ)
        if sanitized():  # ASan keeps freed memory in a quarantine of 256 MiB
            env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=16"
        with open(os.path.join(self.dir, "stderr.txt"), "w+b") as err:
            out = open(stdout, "wb") if stdout else subprocess.DEVNULL
            try:
                proc = subprocess.Popen([sys.executable, "-c", MEASURE_LAUNCHER, report] +
                                        WRAPPER + [TOOL] + as_raw_export(args), stdin=subprocess.DEVNULL,
                                        stdout=out, stderr=err, env=env,
                                        start_new_session=True)
            finally:
                if stdout:
                    out.close()
            try:
                if stop_after is not None:
                    try:
                        proc.wait(stop_after)
                    except subprocess.TimeoutExpired:
                        os.killpg(proc.pid, signal.SIGTERM)  # the tool: the launcher ignores it
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)  # the launcher and the tool
                proc.wait()
                self.fail("%r still running after %d s" % (args, timeout))
            err.seek(0)
            stderr = err.read().decode("utf-8", "replace")
        os.remove(os.path.join(self.dir, "stderr.txt"))
        with open(report) as f:
            code, peak_kib, cpu = f.read().split()
        os.remove(report)
        self.measured_cpu = float(cpu)
        return int(code), stderr, int(peak_kib) * 1024

    def run_ok(self, args, isa=None, stdin_text=None):
        result = run(args, isa=isa, stdin_text=stdin_text)
        self.assertOk(result)
        return result

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
            set(info), {"version", "selected_isa", "isas", "compiled_isas", "supported_isas",
                        "forced_isa", "forced_isa_refused", "prefetch", "caches", "cpu"})
        self.assertIsInstance(info["version"], str)
        self.assertRegex(info["version"], r"^\d+\.\d+\.\d+")
        self.assertIsInstance(info["selected_isa"], str)
        # "isas" is the library's registry (bb_isa_name), best first, scalar
        # last; the compiled and supported tiers are among its names.
        self.assertIsInstance(info["isas"], list)
        self.assertEqual(info["isas"][-1], "scalar")
        self.assertEqual(len(set(info["isas"])), len(info["isas"]))
        for key in ("compiled_isas", "supported_isas"):
            self.assertIsInstance(info[key], list)
            self.assertTrue(info[key], key + " is empty")
            for name in info[key]:
                self.assertIn(name, info["isas"])
        self.assertIsNone(info["forced_isa"])
        self.assertIsNone(info["forced_isa_refused"])
        self.assertEqual(set(info["cpu"]), {"vendor", "brand", "microarchitecture"})
        for key in ("vendor", "brand", "microarchitecture"):
            self.assertIsInstance(info["cpu"][key], str)
        self.assertEqual(set(info["prefetch"]),
                         {"hint", "distance", "override_refused", "defaults"})
        # Nothing set: the defaults of the size classes apply.
        self.assertEqual(info["prefetch"]["hint"], "default")
        self.assertEqual(info["prefetch"]["distance"], 0)
        self.assertIsNone(info["prefetch"]["override_refused"])
        defaults = info["prefetch"]["defaults"]
        self.assertGreaterEqual(len(defaults), 1)
        # The classes follow the detected caches: the first starts at the L2
        # (the reference machine's 1 MiB when no cache is reported) and the
        # last at the L3 when there is one larger than the L2.
        caches = info["caches"]
        self.assertEqual(set(caches), {"source", "l1d_bytes", "l2_bytes", "l3_bytes",
                                       "l3_sharing", "l3_per_core_bytes"})
        self.assertIn(caches["source"],
                      {"cpuid leaf 4", "cpuid leaf 0x8000001d", "sysfs", "none"})
        if caches["l2_bytes"]:
            self.assertEqual(defaults[0]["min_bytes"], caches["l2_bytes"])
        if caches["l3_bytes"] > max(caches["l2_bytes"], 1 << 20):
            self.assertEqual(defaults[-1]["min_bytes"], caches["l3_bytes"])
        if caches["source"] == "none":
            self.assertEqual([c["min_bytes"] for c in defaults], [1 << 20, 4 << 20, 32 << 20])
        for before, after in zip(defaults, defaults[1:]):
            self.assertLess(before["min_bytes"], after["min_bytes"])
        for c in defaults:
            self.assertEqual(set(c), {"min_bytes", "hint", "distance"})
            self.assertIn(c["hint"], {"l1", "l2", "l3"})
            self.assertTrue(1 <= c["distance"] <= 512, c)

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
        self.assertIn("from " + info["caches"]["source"], rows["caches"])
        for c in info["prefetch"]["defaults"]:
            self.assertIn(" %s at %d" % (c["hint"], c["distance"]), rows["prefetch"])
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


class PrefetchOverrideFromEnvironment(ToolTestCase):
    def info_with(self, **variables):
        env = dict(os.environ, **variables)
        result = subprocess.run(WRAPPER + [TOOL, "info", "--json"], capture_output=True, text=True,
                                env=env, timeout=120)
        self.assertOk(result)
        return json.loads(result.stdout)

    def test_valid_values_are_shown(self):
        info = self.info_with(BLOCKBLOOM_PREFETCH_DISTANCE="128", BLOCKBLOOM_PREFETCH_HINT="l1")
        self.assertEqual({k: v for k, v in info["prefetch"].items() if k != "defaults"},
                         {"hint": "l1", "distance": 128, "override_refused": None})

    def test_a_bad_value_is_refused_with_a_reason_in_both_forms(self):
        info = self.info_with(BLOCKBLOOM_PREFETCH_DISTANCE="9999")
        self.assertIn("BLOCKBLOOM_PREFETCH_DISTANCE", info["prefetch"]["override_refused"])
        env = dict(os.environ, BLOCKBLOOM_PREFETCH_DISTANCE="9999")
        result = subprocess.run(WRAPPER + [TOOL, "info"], capture_output=True, text=True, env=env,
                                timeout=120)
        self.assertOk(result)
        self.assertIn("prefetch override:", result.stdout)
        self.assertIn("refused", result.stdout)


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

def parquet_header(num_bytes):
    """The Thrift compact BloomFilterHeader parquet-mr writes (facts.md):
    numBytes as a zigzag varint, then BLOCK, XXHASH, UNCOMPRESSED."""
    zigzag = num_bytes << 1
    varint = b""
    while True:
        byte = zigzag & 0x7F
        zigzag >>= 7
        if zigzag:
            varint += bytes([byte | 0x80])
        else:
            varint += bytes([byte])
            break
    return b"\x15" + varint + bytes.fromhex("1c1c0000" * 3 + "00")


class FileTestCase(ToolTestCase):
    """Helpers to write input files and to build or probe with any flags."""

    def setUp(self):
        super().setUp()
        seed = random.randrange(1 << 32)
        self.rng = random.Random(seed)
        self.seed_note = "random seed %d" % seed

    def write_lines(self, name, lines, newline="\n"):
        """lines: str or bytes items, each written followed by newline."""
        path = self.path(name)
        with open(path, "wb") as f:
            for line in lines:
                if isinstance(line, str):
                    line = line.encode("utf-8")
                f.write(line + newline.encode("ascii"))
        return path

    def write_bytes(self, name, data):
        path = self.path(name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def build_with(self, flags, input_path, out_name="f.bin", isa=None):
        out = self.path(out_name)
        self.run_ok(["build"] + flags + ["--input", input_path, "-o", out], isa=isa)
        return read_bytes(out)

    def probe_with(self, flags, filter_path, input_path, isa=None):
        return self.run_ok(["probe"] + flags + ["--filter", filter_path, "--input", input_path],
                           isa=isa).stdout.splitlines()

    def reference_file(self):
        """parquet-mr's bloom_filter.xxhash.bin, or skip the test."""
        testdata = os.environ.get("BLOCKBLOOM_TESTDATA", "")
        path = os.path.join(testdata, "bloom_filter.xxhash.bin")
        if not testdata or not os.path.isfile(path):
            self.skipTest("shared testdata is absent: no bloom_filter.xxhash.bin in "
                          "BLOCKBLOOM_TESTDATA=%r" % testdata)
        return path


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
                         "not an unsigned 64-bit number")
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
        return ["probe", "--layout", "parquet", "--parquet-header", "--filter", filter_path,
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


class OutputThatIsNotARegularFile(FileTestCase):
    """-o onto a device, FIFO, symlink or "-": written in place or through the
    link, never replaced by a plain file; a write error exits 2."""

    def setUp(self):
        super().setUp()
        self.hashes = self.write_lines("h.txt", ["1", "2", "3"])
        self.expected = model_bitset([1, 2, 3], 64)

    def build_args(self, out):
        return ["build", "--layout", "parquet", "--bytes", "64", "--input", self.hashes,
                "-o", out]

    def run_binary(self, args):
        """Runs the tool in the test's directory: a file it wrongly names "-" lands there."""
        return subprocess.run(WRAPPER + [os.path.abspath(TOOL)] + as_raw_export(args),
                              capture_output=True, cwd=self.dir, timeout=120)

    def assertNoTempFile(self, directory):
        self.assertEqual([n for n in os.listdir(directory) if ".tmp." in n], [])

    def test_character_device_is_written_in_place(self):
        fake_null = self.path("fakenull")
        try:
            os.mknod(fake_null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError:
            self.skipTest("mknod needs root")
        self.run_ok(self.build_args(fake_null))
        info = os.stat(fake_null)
        self.assertTrue(stat.S_ISCHR(info.st_mode), "the device node was replaced")
        self.assertEqual(info.st_rdev, os.makedev(1, 3))
        self.assertNoTempFile(self.dir)

    def test_fifo_is_written_in_place(self):
        fifo = self.path("fifo")
        os.mkfifo(fifo)
        received = []
        # A daemon: if the tool never opens the FIFO, the blocked reader must
        # not keep the test alive.
        reader = threading.Thread(target=lambda: received.append(read_bytes(fifo)), daemon=True)
        reader.start()
        result = run(self.build_args(fifo))
        reader.join(30)
        self.assertOk(result)
        self.assertEqual(received, [self.expected])
        self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced")
        self.assertNoTempFile(self.dir)

    def test_dev_full_is_an_error(self):
        # Reached through a link in the test's own directory: a tool with the
        # old bug then replaces the link, never the real /dev/full.
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        full = self.path("full")
        os.symlink("/dev/full", full)
        result = run(self.build_args(full))
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(full, result.stderr)
        self.assertIn(os.strerror(errno.ENOSPC), result.stderr)
        self.assertTrue(os.path.islink(full))

    def test_symlink_is_followed_and_kept(self):
        os.mkdir(self.path("real"))
        target = self.write_bytes("real/f.bin", self.OLD)
        os.chmod(target, 0o600)
        link = self.path("link.bin")
        os.symlink("real/f.bin", link)  # relative to the link's directory
        chain = self.path("chain.bin")
        os.symlink(link, chain)  # a link to a link
        for out in (link, chain):
            with self.subTest(out=out):
                self.run_ok(self.build_args(out))
                self.assertTrue(os.path.islink(link) and os.path.islink(chain))
                self.assertEqual(os.readlink(link), "real/f.bin")
                self.assertEqual(read_bytes(target), self.expected)
                self.assertEqual(os.stat(target).st_mode & 0o777, 0o600)
                self.assertNoTempFile(self.dir)
                self.assertNoTempFile(self.path("real"))
                self.write_bytes("real/f.bin", self.OLD)

    def test_dangling_symlink_creates_its_target(self):
        link = self.path("link.bin")
        os.symlink("made.bin", link)
        self.run_ok(self.build_args(link))
        self.assertTrue(os.path.islink(link))
        self.assertEqual(read_bytes(self.path("made.bin")), self.expected)

    def test_dash_is_standard_output(self):
        for args in (self.build_args("-"),
                     ["union", self.write_bytes("a.bin", self.expected),
                      self.write_bytes("b.bin", bytes(64)), "-o", "-"]):
            with self.subTest(command=args[0]):
                result = self.run_binary(args)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertEqual(result.stdout, self.expected)
                self.assertFalse(os.path.exists(self.path("-")))

    def test_dev_stdout_on_a_pipe_is_written_in_place(self):
        # /dev/stdout is a link to /proc/self/fd/1; a link of the test's own
        # keeps a tool with the old bug away from the real /dev/stdout.
        if not os.path.exists("/proc/self/fd/1"):
            self.skipTest("no /proc/self/fd")
        stdout_link = self.path("stdout")
        os.symlink("/proc/self/fd/1", stdout_link)
        result = self.run_binary(self.build_args(stdout_link))  # stdout is a pipe here
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, self.expected)
        self.assertTrue(os.path.islink(stdout_link))
        self.assertNoTempFile(self.dir)

    def test_help_describes_the_output_rules(self):
        text = self.run_ok(["--help"]).stdout
        for words in ("-o - writes standard output", "written in\n  place",
                      "keeps its mode", "SIGINT, SIGTERM or SIGHUP", "must be\n  regular files"):
            self.assertIn(words, text)

    def test_dash_as_a_filter_to_read_is_refused_clearly(self):
        a = self.write_bytes("a.bin", self.expected)
        self.assertFails(["probe", "--layout", "parquet", "--filter", "-", "--bytes", "64",
                          "--input", self.hashes], "--filter -", "not standard input")
        self.assertFails(["union", "-", a, "-o", self.out], "not standard input")
        self.assertFails(["union", a, "-", "-o", self.out], "not standard input")


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
        self.assertRefusedQuickly(["probe", "--layout", "parquet", "--filter", self.fifo,
                                   "--bytes", "32", "--input", self.hashes])
        self.assertRefusedQuickly(["probe", "--layout", "parquet", "--filter", self.fifo,
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
        self.assertEqual(out.decode(), "1\n" * len(self.members))

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


class InterruptedBuildLeavesNoTempFile(FileTestCase):
    """SIGTERM / SIGINT / SIGHUP while a large OUT is being written: the
    temporary file is removed, OUT is untouched, the tool dies of the signal."""

    BYTES = 1 << 29  # 512 MiB: writing and syncing it takes long enough to interrupt

    def setUp(self):
        super().setUp()
        self.hashes = self.write_lines("h.txt", ["1", "2", "3"])
        self.out = self.write_bytes("f.bin", self.OLD)

    def temp_files(self):
        return [n for n in os.listdir(self.dir) if n.startswith(".f.bin.tmp.")]

    def interrupt_while_writing(self, sig):
        """Starts a build, waits until its temporary file exists, sends sig."""
        proc = subprocess.Popen(
            WRAPPER + [TOOL, "build", "--format", "raw", "--raw-hashes", "--layout", "parquet", "--bytes", str(self.BYTES),
                       "--input", self.hashes, "-o", self.out],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            # Under nohup (or any parent that ignores them) the signals would be
            # inherited as ignored, and the tool rightly keeps them so: start it
            # as a terminal would, with their default action.
            preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL)
                                for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)])
        try:
            deadline = time.monotonic() + 60
            while not self.temp_files() and proc.poll() is None:
                if time.monotonic() > deadline:
                    self.fail("no temporary file appeared")
                time.sleep(0.001)
            self.assertIsNone(proc.poll(), "the build ended before it could be interrupted")
            proc.send_signal(sig)
            proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        return proc.returncode

    def test_each_signal_removes_the_temporary_file(self):
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            with self.subTest(signal=sig.name):
                self.assertEqual(self.interrupt_while_writing(sig), -sig)
                self.assertEqual(self.temp_files(), [])
                self.assertEqual(read_bytes(self.out), self.OLD)

    def test_an_ignored_signal_stays_ignored(self):
        # nohup: SIGHUP ignored before the tool starts; the build then completes.
        result = subprocess.run(
            WRAPPER + [TOOL, "build", "--format", "raw", "--raw-hashes", "--layout", "parquet", "--bytes", "64",
                       "--input", self.hashes, "-o", self.out],
            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),
            capture_output=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(read_bytes(self.out), model_bitset([1, 2, 3], 64))


class ReplacedOutputKeepsModeAndOwner(FileTestCase):
    """A rebuilt OUT keeps the mode (and owner) of the file it replaces."""

    def setUp(self):
        super().setUp()
        self.hashes = self.write_lines("h.txt", ["1", "2", "3"])

    def build_over(self, out):
        self.run_ok(["build", "--layout", "parquet", "--bytes", "64", "--input", self.hashes,
                     "-o", out])
        self.assertEqual(read_bytes(out), model_bitset([1, 2, 3], 64))

    def test_a_0600_output_stays_0600(self):
        for mode in (0o600, 0o640, 0o444, 0o755):
            with self.subTest(mode=oct(mode)):
                out = self.write_bytes("f.bin", self.OLD)
                os.chmod(out, mode)
                self.build_over(out)
                self.assertEqual(os.stat(out).st_mode & 0o7777, mode)
                os.chmod(out, 0o600)
                os.remove(out)

    def test_union_keeps_the_mode_too(self):
        a = self.write_bytes("a.bin", model_bitset([1], 64))
        out = self.write_bytes("f.bin", self.OLD)
        os.chmod(out, 0o600)
        self.run_ok(["union", a, a, "-o", out])
        self.assertEqual(os.stat(out).st_mode & 0o7777, 0o600)

    def test_a_new_output_gets_0666_less_the_umask(self):
        out = self.path("new.bin")
        old_mask = os.umask(0o027)
        try:
            self.build_over(out)
        finally:
            os.umask(old_mask)
        self.assertEqual(os.stat(out).st_mode & 0o7777, 0o640)

    def test_the_owner_is_kept_where_permitted(self):
        if os.geteuid() != 0:
            self.skipTest("only root can give a file to another owner")
        out = self.write_bytes("f.bin", self.OLD)
        os.chown(out, 12345, 23456)
        self.build_over(out)
        info = os.stat(out)
        self.assertEqual((info.st_uid, info.st_gid), (12345, 23456))


class HelpListsEverything(ToolTestCase):
    def test_help_names_every_command_and_flag(self):
        for args in (["--help"], ["-h"], ["help"]):
            with self.subTest(args=args):
                text = self.run_ok(args).stdout
                for word in ("blockbloom info", "blockbloom build", "blockbloom probe",
                             "blockbloom union", "--layout parquet|kudu", "--bytes", "--ndv",
                             "--fpp", "--pow2", "--raw-hashes", "--format file|raw|parquet",
                             "--type",
                             "--seed", "--parquet-header", "--offset", "--count", "--input",
                             "-o OUT", "--json", "string", "int32", "int64", "float", "double",
                             "nan", "BLOCKBLOOM_ISA", "blockbloom tune", "--seconds",
                             "BLOCKBLOOM_PREFETCH_HINT", "--any-size", "blockbloom join-demo",
                             "COMMAND --help"):
                    self.assertIn(word, text)

    def test_help_names_allow_trailing_and_the_kudu_seed_hazard(self):
        text = self.run_ok(["probe", "--help"]).stdout
        self.assertIn("[--allow-trailing]", text)
        # A filter file records its size and seed; bare bitsets are the exports.
        self.assertNotIn("silently", text)
        self.assertIn("seed and size are read from it", text)



class Version(ToolTestCase):
    """--version prints "blockbloom X.Y.Z", the library's version (as info
    reports it, and meson.build's project version when the test is given it in
    BLOCKBLOOM_PROJECT_VERSION), and exits 0."""

    def test_version_prints_the_library_version_and_exits_0(self):
        result = self.run_ok(["--version"])
        self.assertRegex(result.stdout, r"^blockbloom \d+\.\d+\.\d+\n$")
        self.assertEqual(own_stderr(result), "")
        version = result.stdout.split()[1]
        self.assertEqual(version, info_json()["version"])
        expected = os.environ.get("BLOCKBLOOM_PROJECT_VERSION")
        if expected:
            self.assertEqual(version, expected)

    def test_version_with_arguments_is_a_usage_error(self):
        self.assertFails(["--version", "extra"], "--version takes no arguments", usage=True)


class JoinDemo(ToolTestCase):
    """join-demo: the semi-join with a runtime filter. Small runs, so that the
    class stays within seconds even in a debugoptimized build; the timings are
    not checked (only that they are positive numbers), the counts are."""

    ROWS = 100000
    COUNT_KEYS = ("rows_passing_filter", "true_matches", "false_positives", "kept_keys",
                  "filter_bytes")

    def demo(self, *args, isa=None):
        result = run(["join-demo", "--json"] + list(args), isa=isa)
        self.assertOk(result)
        self.assertNotIn("\r", result.stderr, "a progress bar although stderr is a pipe")
        return json.loads(result.stdout)

    def assertFppNear(self, report):
        """|measured - predicted| <= 5 * sqrt(p(1-p)/N) + 0.2 * p, N the rows that
        are not true matches: five binomial standard deviations of sampling
        noise, plus 20% of p for the filter itself -- bb_fpp is the expectation
        over all filters of that size, and a given filter's own FPP varies with
        how its few blocks happened to fill (at 1,000 keys, ~40 blocks, that
        spread is ~9% of p; at 10,000 keys ~3%). Over seeds 1..200 the largest
        deviation seen was 0.76 of this bound at --rows 100000, and at most 0.5
        of it in the other runs below (--rows 200000 --small 20000 at --fpp
        0.002, 0.01 and 0.05; unselective at --rows 100000)."""
        p = report["predicted_fpp"]
        n = report["rows"] - report["true_matches"]
        bound = 5 * math.sqrt(p * (1 - p) / n) + 0.2 * p
        self.assertLessEqual(abs(report["measured_fpp"] - p), bound, report)

    def assertConsistent(self, report):
        """The counts agree with each other and with how the tables are made."""
        self.assertEqual(report["false_negatives"], 0)
        # Every key of the big table is distinct, so each kept key matches one row.
        self.assertEqual(report["true_matches"], report["kept_keys"])
        self.assertEqual(report["false_positives"],
                         report["rows_passing_filter"] - report["true_matches"])
        self.assertAlmostEqual(
            report["measured_fpp"],
            report["false_positives"] / (report["rows"] - report["true_matches"]))
        self.assertEqual(report["no_filter"]["rows_passing"], report["true_matches"])
        self.assertEqual(report["filter_plus_exact"]["rows_passing"], report["true_matches"])
        self.assertEqual(report["filter_plus_exact"]["isa"], report["selected_isa"])
        for name, isa in report["isas"].items():
            with self.subTest(isa=name):
                self.assertEqual(isa["rows_passing"], report["rows_passing_filter"])
                self.assertGreater(isa["seconds"], 0)
                self.assertGreater(isa["rows_per_s"], 0)

    def test_every_forced_isa_gives_the_same_counts(self):
        supported = info_json()["supported_isas"]
        reports = {}
        for isa in supported:
            with self.subTest(forced=isa):
                report = self.demo("--rows", str(self.ROWS), isa=isa)
                self.assertEqual(report["selected_isa"], isa)
                # Section (b) covers every supported ISA, whichever is selected.
                self.assertEqual(sorted(report["isas"]), sorted(supported))
                self.assertEqual(report["rows"], self.ROWS)
                self.assertConsistent(report)
                self.assertFppNear(report)
                self.assertFalse(report["filter_disabled"])
                reports[isa] = report
        counts = {isa: tuple(r[k] for k in self.COUNT_KEYS) for isa, r in reports.items()}
        self.assertEqual(len(set(counts.values())), 1, counts)

    def test_selective_small_table(self):
        report = self.demo("--rows", str(self.ROWS))
        self.assertEqual(report["scenario"], "selective")
        self.assertEqual(report["small_rows"], 2000)
        # some_int1 % 2 == 1 keeps about half: 1000 +- 5 binomial sigmas (~16).
        self.assertLess(abs(report["kept_keys"] - 1000), 80)
        self.assertEqual(report["predicted_fpp"], report["predicted_fpp"])  # not null/NaN
        self.assertLessEqual(report["predicted_fpp"], 0.01)
        # Same seed, same tables; another seed, other keys.
        again = self.demo("--rows", str(self.ROWS))
        other = self.demo("--rows", str(self.ROWS), "--seed", "7")
        self.assertEqual([again[k] for k in self.COUNT_KEYS], [report[k] for k in self.COUNT_KEYS])
        self.assertNotEqual([other[k] for k in self.COUNT_KEYS],
                            [report[k] for k in self.COUNT_KEYS])

    def test_measured_fpp_is_near_predicted(self):
        # 10,000 kept keys and 200,000 rows: a filter of ~400 blocks, and
        # ~1,900 expected false positives; several seeds and targets.
        for seed, fpp in (("1", "0.01"), ("2", "0.01"), ("3", "0.05"), ("4", "0.002")):
            with self.subTest(seed=seed, fpp=fpp):
                report = self.demo("--rows", "200000", "--small", "20000", "--seed", seed,
                                   "--fpp", fpp)
                self.assertConsistent(report)
                self.assertLessEqual(report["predicted_fpp"], float(fpp))
                self.assertFppNear(report)

    def test_adaptive_filter_stays_on_when_selective(self):
        report = self.demo("--rows", str(self.ROWS))
        self.assertFalse(report["filter_disabled"])
        adaptive = report["adaptive"]
        self.assertEqual(adaptive["sample_rows"], self.ROWS)  # the default 10^6 > rows
        self.assertEqual(adaptive["rows_not_filtered"], 0)
        self.assertEqual(adaptive["saved_seconds_estimate"], 0)
        self.assertEqual(report["filter_plus_exact"]["rows_filtered"], self.ROWS)

    def test_adaptive_filter_turns_off_when_unselective(self):
        report = self.demo("--rows", str(self.ROWS), "--scenario", "unselective")
        self.assertEqual(report["scenario"], "unselective")
        self.assertEqual(report["kept_keys"], self.ROWS - self.ROWS // 20)  # index % 20 != 0
        self.assertConsistent(report)
        self.assertFppNear(report)
        self.assertTrue(report["filter_disabled"])

        # A sample smaller than the table, ending inside a 64 Ki-row chunk: the
        # rest of the rows skip the filter and go to the exact set directly.
        report = self.demo("--rows", "300000", "--scenario", "unselective",
                           "--sample-rows", "100000")
        self.assertConsistent(report)
        self.assertTrue(report["filter_disabled"])
        adaptive, scan = report["adaptive"], report["filter_plus_exact"]
        self.assertEqual(adaptive["sample_rows"], 100000)
        self.assertLess(adaptive["sample_rejected"], 0.1 * 100000)
        self.assertEqual(scan["rows_filtered"], 100000)
        self.assertEqual(adaptive["rows_not_filtered"], 200000)
        self.assertEqual(scan["exact_probes"], scan["rows_passing_filter"] + 200000)
        self.assertGreater(adaptive["saved_seconds_estimate"], 0)

    def test_min_reject_bounds(self):
        # 0: a filter never rejects less than nothing; 1: it always lets a match through.
        self.assertFalse(self.demo("--rows", "20000", "--scenario", "unselective",
                                   "--min-reject", "0")["filter_disabled"])
        self.assertTrue(self.demo("--rows", "20000", "--min-reject", "1")["filter_disabled"])

    def test_table_for_people(self):
        result = run(["join-demo", "--rows", str(self.ROWS)])
        self.assertOk(result)
        text = result.stdout
        for line in ("rows scanned", "rows passing the filter", "true matches",
                     "false negatives                       0", "false positives",
                     "measured FPP", "predicted", "(a) no filter", "(c) filter + exact check",
                     "adaptive filter:", "kept on", "peak memory"):
            self.assertIn(line, text)
        for isa in info_json()["supported_isas"]:
            self.assertRegex(text, r"(?m)^\(b\) filter alone, %s\b.* [0-9.]+x$" % isa)
        result = run(["join-demo", "--rows", str(self.ROWS), "--scenario", "unselective"])
        self.assertOk(result)
        self.assertIn("switched off", result.stdout)

    def test_help_describes_join_demo(self):
        text = self.run_ok(["join-demo", "--help"]).stdout
        for word in ("blockbloom join-demo", "--rows", "--small", "--scenario selective",
                     "--scenario unselective", "--fpp", "--seed", "--sample-rows",
                     "--min-reject", "--json", "some_int1 % 2 == 1"):
            self.assertIn(word, text)

    def test_nonsensical_arguments_exit_2(self):
        cases = [
            (["--rows", "0"], "--rows 0"),
            (["--rows", "many"], "--rows many: not an unsigned"),
            (["--fpp", "2"], "--fpp 2"),
            (["--fpp", "0"], "--fpp 0"),
            (["--fpp", "1"], "--fpp 1"),
            (["--fpp", "-0.1"], "--fpp -0.1"),
            (["--fpp", "nan"], "--fpp nan"),
            (["--fpp", "often"], "--fpp often: not a number"),
            (["--small", "0"], "--small 0"),
            (["--small", "3"], "--small 3: must be even"),
            (["--rows", "1000", "--small", "2000"], "--small 2000"),
            (["--scenario", "sometimes"], 'unknown scenario "sometimes"'),
            (["--min-reject", "1.5"], "--min-reject 1.5"),
            (["--min-reject", "-0.1"], "--min-reject -0.1"),
            (["--sample-rows", "0"], "--sample-rows 0"),
            (["--seed", "-1"], "--seed -1"),
            (["--bogus"], "unknown flag --bogus"),
            (["--rows", "10", "--rows", "20"], "--rows given twice"),
        ]
        for args, fragment in cases:
            with self.subTest(args=args):
                self.assertFails(["join-demo"] + args, fragment)

    def test_sizes_beyond_memory_are_refused_up_front_in_both_scenarios(self):
        # Selective: the heaps and the exact set for --small keys would grow
        # during the scan of 2^64 - 1 rows; refused before it starts.
        cases = [
            (["--rows", str(U64_MAX), "--small", str(U64_MAX - 1)],
             "the selective build side (%d keys)" % (U64_MAX - 1), "use a smaller --small"),
            (["--rows", str(10 ** 14), "--small", str(2 * 10 ** 12)],
             "the selective build side (%d keys)" % (2 * 10 ** 12), "use a smaller --small"),
            (["--rows", str(U64_MAX), "--scenario", "unselective"],
             "the unselective build side", "use fewer --rows"),
        ]
        for args, *fragments in cases:
            with self.subTest(args=args):
                started = time.monotonic()
                self.assertFails(["join-demo"] + args, "more than this machine's", *fragments)
                self.assertLess(time.monotonic() - started, 20.0)


class Tune(ToolTestCase):
    """tune: the prefetch sweep on a small buffer with a short budget. The
    timings are machine-dependent, so only their shape is checked: every
    cell of the grid measured, positive, and the best among them."""

    SMALL = ["--bytes", str(4 << 20), "--seconds", "0.5"]
    HINTS = ["none", "l1", "l2", "l3"]
    DISTANCES = [8, 16, 32, 64, 128, 192, 256]

    def tune(self, *args):
        return self.run_ok(["tune"] + self.SMALL + list(args))

    def assertSettingOk(self, setting, value_key):
        self.assertIn(setting["hint"], self.HINTS)
        if setting["hint"] == "none":
            self.assertEqual(setting["distance"], 0)  # no distance applies
        else:
            self.assertIn(setting["distance"], self.DISTANCES)
        self.assertGreater(setting[value_key], 0)

    def test_json_has_the_grid_the_best_and_the_find_comparison(self):
        report = json.loads(self.tune("--json").stdout)
        self.assertEqual(
            set(report),
            {"bytes", "budget_seconds", "seconds", "cpu", "huge_pages", "hints", "distances",
             "runs_per_cell", "lines_per_run", "grid", "best", "no_prefetch_ns_per_line",
             "find_batch_bitmap", "classes", "environment", "code"})
        self.assertEqual(report["bytes"], 4 << 20)
        self.assertEqual(report["budget_seconds"], 0.5)
        self.assertEqual(report["hints"], self.HINTS)
        self.assertEqual(report["distances"], self.DISTANCES)
        self.assertGreaterEqual(report["runs_per_cell"], 3)
        self.assertGreater(report["lines_per_run"], 0)
        # The budget is honoured, with room for a loaded machine.
        self.assertLess(report["seconds"], 10 * 0.5)

        grid = report["grid"]
        self.assertEqual([(c["hint"], c["distance"]) for c in grid],
                         [("none", 0)] + [(h, d) for h in self.HINTS[1:] for d in self.DISTANCES])
        for cell in grid:
            self.assertSettingOk(cell, "ns_per_line")
        best = report["best"]
        self.assertSettingOk(best, "ns_per_line")
        self.assertEqual(best["ns_per_line"], min(c["ns_per_line"] for c in grid))
        self.assertEqual(report["no_prefetch_ns_per_line"], grid[0]["ns_per_line"])

        find = report["find_batch_bitmap"]
        self.assertEqual(find["isa"], info_json()["selected_isa"])
        self.assertEqual(find["batch"], 1024)
        self.assertEqual({k: find["best"][k] for k in ("hint", "distance")},
                         {k: best[k] for k in ("hint", "distance")})
        self.assertSettingOk(find["best"], "ns_per_key")
        # Nothing set: the library's defaults by size class are in force.
        self.assertEqual((find["default"]["hint"], find["default"]["distance"]), ("default", 0))
        self.assertGreater(find["default"]["ns_per_key"], 0)
        self.assertGreater(find["default_over_best"], 0)
        self.assertClassesOk(report["classes"], None)

        if best["hint"] == "none":
            self.assertEqual(report["environment"], "BLOCKBLOOM_PREFETCH_HINT=none")
            self.assertEqual(report["code"], "bb_set_prefetch_hint(BB_PREFETCH_NONE);")
        else:
            self.assertEqual(report["environment"],
                             "BLOCKBLOOM_PREFETCH_DISTANCE=%d BLOCKBLOOM_PREFETCH_HINT=%s"
                             % (best["distance"], best["hint"]))
            self.assertEqual(report["code"],
                             "bb_set_prefetch_distance(%d); bb_set_prefetch_hint(BB_PREFETCH_%s);"
                             % (best["distance"], best["hint"].upper()))

    CLASS_BYTES = [2 << 20, 8 << 20, 16 << 20, 32 << 20]
    CLASS_GRID = [(h, d) for h in ("l1", "l2", "l3") for d in (32, 64, 128, 192, 256)]

    def library_default(self, size):
        """(hint, distance) of the library's defaults for a filter of size bytes."""
        chosen = None
        for c in info_json()["prefetch"]["defaults"]:
            if size >= c["min_bytes"]:
                chosen = (c["hint"], c["distance"])
        return chosen

    def assertClassesOk(self, classes, forced):
        """The per-size-class find timings: one entry per class, the grid in
        order, the best its lowest cell, the default the setting in force
        (forced, or the library's defaults of that size when None)."""
        self.assertEqual([c["bytes"] for c in classes], self.CLASS_BYTES)
        for c in classes:
            self.assertEqual(set(c), {"bytes", "grid", "best", "default", "default_over_best"})
            self.assertEqual([(g["hint"], g["distance"]) for g in c["grid"]], self.CLASS_GRID)
            for g in c["grid"]:
                self.assertGreater(g["ns_per_key"], 0)
            self.assertEqual(c["best"]["ns_per_key"], min(g["ns_per_key"] for g in c["grid"]))
            self.assertIn((c["best"]["hint"], c["best"]["distance"]), self.CLASS_GRID)
            expected = forced or self.library_default(c["bytes"])
            self.assertEqual((c["default"]["hint"], c["default"]["distance"]), expected)
            self.assertGreater(c["default"]["ns_per_key"], 0)
            self.assertAlmostEqual(c["default_over_best"],
                                   c["default"]["ns_per_key"] / c["best"]["ns_per_key"], places=2)

    def test_default_is_the_setting_in_force(self):
        env = dict(os.environ, BLOCKBLOOM_PREFETCH_HINT="l3", BLOCKBLOOM_PREFETCH_DISTANCE="192")
        env.pop("BLOCKBLOOM_ISA", None)
        result = subprocess.run(WRAPPER + [TOOL, "tune", "--json"] + self.SMALL, env=env,
                                capture_output=True, text=True, timeout=120)
        self.assertOk(result)
        report = json.loads(result.stdout)
        default = report["find_batch_bitmap"]["default"]
        self.assertEqual((default["hint"], default["distance"]), ("l3", 192))
        self.assertClassesOk(report["classes"], ("l3", 192))
        # Only the distance set: each class keeps its default hint.
        env = dict(os.environ, BLOCKBLOOM_PREFETCH_DISTANCE="96")
        env.pop("BLOCKBLOOM_ISA", None)
        env.pop("BLOCKBLOOM_PREFETCH_HINT", None)
        result = subprocess.run(WRAPPER + [TOOL, "tune", "--json"] + self.SMALL, env=env,
                                capture_output=True, text=True, timeout=120)
        self.assertOk(result)
        for c in json.loads(result.stdout)["classes"]:
            self.assertEqual((c["default"]["hint"], c["default"]["distance"]),
                             (self.library_default(c["bytes"])[0], 96))

    def test_table_for_people(self):
        text = self.tune().stdout
        self.assertIn("4 MiB buffer", text)
        self.assertRegex(text, r"(?m)^hint +none +8 +16 +32 +64 +128 +192 +256$")
        for hint in self.HINTS:
            self.assertRegex(text, r"(?m)^%s +[0-9]" % hint)
        self.assertEqual(text.count("*"), 2)  # the legend and the best cell
        found = re.search(r"(?m)^best: (none|l1|l2|l3)(?: at (\d+) keys ahead)?", text)
        self.assertIsNotNone(found, text)
        if found.group(1) != "none":
            self.assertIn(int(found.group(2)), self.DISTANCES)
            self.assertIn("BLOCKBLOOM_PREFETCH_DISTANCE=%s BLOCKBLOOM_PREFETCH_HINT=%s"
                          % (found.group(2), found.group(1)), text)
            self.assertIn("bb_set_prefetch_distance(%s); bb_set_prefetch_hint(BB_PREFETCH_%s);"
                          % (found.group(2), found.group(1).upper()), text)
        self.assertRegex(text, r"(?m)^  best +.* [0-9.]+ ns/key$")
        self.assertRegex(text, r"(?m)^  default +.* [0-9.]+ ns/key \([0-9.]+x the best\)$")
        self.assertIn("find_batch_bitmap per size class", text)
        for size in self.CLASS_BYTES:
            hint, distance = self.library_default(size)
            self.assertRegex(text, r"(?m)^  %d MiB +(l1|l2|l3) at \d+ keys ahead +[0-9.]+ +"
                             r"%s at %d keys ahead +[0-9.]+ +[0-9.]+x$" % (size >> 20, hint, distance))

    def test_help_describes_tune(self):
        text = self.run_ok(["tune", "--help"]).stdout
        for word in ("blockbloom tune [--bytes N] [--seconds S] [--json]", "none|l1|l2|l3",
                     "BLOCKBLOOM_PREFETCH_DISTANCE", "bb_set_prefetch_hint"):
            self.assertIn(word, text)

    @property
    def MIN_BYTES(self):
        return info_json()["prefetch"]["defaults"][0]["min_bytes"]

    def test_bad_arguments_exit_2(self):
        cases = [
            (["--bytes", "0"], "--bytes 0: less than %d bytes (this CPU's L2)" % self.MIN_BYTES),
            (["--bytes", "100"], "--bytes 100: less than %d bytes" % self.MIN_BYTES),
            (["--bytes", "100"], "not a multiple of 32"),
            (["--bytes", "1000"], "below which the batch kernels do not prefetch"),
            # The bound is the first prefetch class blockbloom info lists.
            (["--bytes", str(self.MIN_BYTES - 32)], "--bytes %d: less than" % (self.MIN_BYTES - 32)),
            (["--bytes", "1048576000000000000"], "--bytes 1048576000000000000"),
            (["--bytes", str(self.MIN_BYTES + 16)],
             "--bytes %d: not a multiple of 32" % (self.MIN_BYTES + 16)),
            (["--bytes", "lots"], "--bytes lots: not an unsigned"),
            (["--bytes", "-1"], "--bytes -1"),
            (["--seconds", "0"], "--seconds 0: must be more than 0"),
            (["--seconds", "-1"], "--seconds -1"),
            (["--seconds", "nan"], "--seconds nan"),
            (["--seconds", "inf"], "--seconds inf"),
            (["--seconds", "soon"], "--seconds soon: not a number"),
            (["--json", "--json"], "--json given twice"),
            (["--bogus"], "unknown flag --bogus"),
            (["extra"], 'unexpected argument "extra"'),
        ]
        for args, fragment in cases:
            with self.subTest(args=args):
                self.assertFails(["tune"] + args, fragment)


# What Arrow C++'s, Velox's and ClickHouse's Parquet readers accept as a
# BloomFilterHeader's numBytes: a power of two from 32 B to 128 MiB.
def reader_safe(num_bytes):
    return 32 <= num_bytes <= 128 << 20 and num_bytes & (num_bytes - 1) == 0


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


class PerCommandHelp(ToolTestCase):
    """`blockbloom COMMAND --help` (also -h, `blockbloom help COMMAND`) prints
    that command's usage and exits 0; a usage mistake inside a command shows
    that command's usage; --help alone shows every command."""

    COMMANDS = ("info", "build", "probe", "union", "join-demo", "tune")

    def test_each_command_prints_its_own_usage(self):
        full = self.run_ok(["--help"]).stdout
        for command in self.COMMANDS:
            for args in ([command, "--help"], [command, "-h"], ["help", command]):
                with self.subTest(args=args):
                    result = self.run_ok(args)
                    self.assertEqual(own_stderr(result), "")
                    text = result.stdout
                    self.assertTrue(text.startswith("usage:\n  blockbloom %s" % command), text)
                    for other in self.COMMANDS:
                        if other != command:
                            self.assertNotIn("  blockbloom %s " % other, text)
                    self.assertIn("blockbloom --help describes every command", text)
                    self.assertLess(len(text), len(full))
                    # The command's own usage lines are those of the full help.
                    synopsis = text.split("\n\n")[0][len("usage:\n"):]
                    self.assertIn(synopsis, full)

    def test_help_after_other_flags_still_helps(self):
        text = self.run_ok(["build", "--layout", "parquet", "--help"]).stdout
        self.assertTrue(text.startswith("usage:\n  blockbloom build"), text)

    def test_each_command_documents_its_flags(self):
        words = {
            "build": ("--layout parquet|kudu", "--bytes", "--ndv", "--fpp", "--pow2",
                      "--parquet-header", "--any-size", "-o OUT", "sizing (build)",
                      "input lines", "files (build, probe, union)", "Velox"),
            "probe": ("--filter FILE", "--offset K", "--count", "--allow-trailing",
                      "--parquet-header", "input lines",
                      "blockbloom parquet probe FILE --column PATH"),
            "union": ("A B -o OUT", "--format raw|parquet", "[--any-size]", "layouts:"),
            "info": ("[--json]",),
            "join-demo": ("--sample-rows", "--min-reject", "bb_adaptive"),
            "tune": ("--seconds", "BLOCKBLOOM_PREFETCH_DISTANCE"),
        }
        for command, expected in words.items():
            text = self.run_ok([command, "--help"]).stdout
            for word in expected:
                with self.subTest(command=command, word=word):
                    self.assertIn(word, text)
        # What belongs to other commands stays out.
        self.assertNotIn("sizing (build)", self.run_ok(["probe", "--help"]).stdout)
        self.assertNotIn("join-demo:", self.run_ok(["build", "--help"]).stdout)

    def test_a_usage_mistake_shows_that_commands_usage(self):
        for command, args in (("build", ["--bogus"]), ("probe", ["--layout"]),
                              ("union", ["a"]), ("info", ["--yaml"]),
                              ("join-demo", ["--bogus"]), ("tune", ["extra"])):
            with self.subTest(command=command):
                result = self.assertFails([command] + args, usage=True)
                usage = own_stderr(result).split("\n\n", 1)[1]
                self.assertTrue(usage.startswith("usage:\n  blockbloom %s" % command), usage)
                self.assertNotIn("commands:", usage)
        # Outside any command: every command.
        result = self.assertFails(["frobnicate"], "unknown command", usage=True)
        self.assertIn("commands:", result.stderr)

    def test_help_of_an_unknown_command_is_an_error(self):
        self.assertFails(["help", "frobnicate"], 'unknown command "frobnicate"', usage=True)
        self.assertFails(["help", "build", "probe"], "at most one command", usage=True)


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
        return (["probe", "--layout", layout, "--filter", filter_path, "--bytes", "1024",
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
        result = self.run_ok(["probe", "--layout", "kudu", "--filter", kudu_file, "--bytes",
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


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
    from tool_test_runner import run_unittests  # tests/support/tool_test_runner.py

    sys.exit(run_unittests(sys.modules[__name__], sys.argv))
