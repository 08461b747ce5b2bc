#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What the end-to-end tests of the `blockbloom` tool share (tests/cli/*_test.py):
running the tool (under an emulator when BLOCKBLOOM_TEST_WRAPPER names one),
temporary directories and input files (ToolTestCase, FileTestCase), slow
independent models of the filters and hashes the tool's output is compared
with, and the scripts' command line (main).
"""
import json
import math
import os
import random
import re
import shlex
import signal
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))

TOOL = None  # set from argv by main()
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


# The line after a usage error: "run 'blockbloom parquet probe --help' for usage".
HELP_HINT = re.compile(r"(?m)^run 'blockbloom (?:[a-z-]+ )*--help' for usage$")


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
    The per-command scripts' tests (build_probe_cli_test.py, union_cli_test.py,
    ...) predate filter files (filter_file_cli_test.py tests those, the
    commands' default): they test the bare bitsets, now an explicit
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
            # A usage error names the command's --help in one line; no error
            # reprints the usage itself (it would scroll the message away).
            self.assertNotIn("usage:", result.stderr)
            if usage is not None:
                self.assertEqual(bool(HELP_HINT.search(result.stderr)), usage, result.stderr)
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
        """probe's stdout: 1 or 0 a line (--bits), or the --count."""
        args = ["probe", "--layout", "parquet", "--filter", filter_path,
                "--bytes", str(num_bytes), "--input", hashes_path]
        if offset is not None:
            args += ["--offset", str(offset)]
        args.append("--count" if count else "--bits")
        result = run(args, isa=isa)
        self.assertOk(result)
        return result.stdout


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
        """probe's answers, "1" or "0" a line (--bits, unless flags say --count)."""
        form = [] if "--count" in flags else ["--bits"]
        return self.run_ok(["probe"] + form + flags + ["--filter", filter_path, "--input", input_path],
                           isa=isa).stdout.splitlines()

    def reference_file(self):
        """parquet-mr's bloom_filter.xxhash.bin, or skip the test."""
        testdata = os.environ.get("BLOCKBLOOM_TESTDATA", "")
        path = os.path.join(testdata, "bloom_filter.xxhash.bin")
        if not testdata or not os.path.isfile(path):
            self.skipTest("shared testdata is absent: no bloom_filter.xxhash.bin in "
                          "BLOCKBLOOM_TESTDATA=%r" % testdata)
        return path



def main(module_name, argv):
    """The command line of every script here, `SCRIPT PATH_TO_BLOCKBLOOM
    [TestClass ...]` (tests/support/tool_test_runner.py): runs the script's named
    unittest classes (all when none is named) against the tool, which this
    module's run() and run_measured() and the script's own TOOL then run.
    PATH_TO_BLOCKBLOOM may also be a script that runs the tool under an
    emulator, e.g. `exec qemu-x86_64 -cpu Nehalem build/tools/blockbloom "$@"`.
    Exits 0 when every test passed, 77 (meson's "skipped") when every test
    that ran was skipped, and 1 on any failure or error."""
    global TOOL
    if len(argv) > 1:
        TOOL = os.path.abspath(argv[1])
    from tool_test_runner import run_unittests  # tests/support/tool_test_runner.py
    return run_unittests(sys.modules[module_name], argv)
