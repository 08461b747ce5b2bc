#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Time and memory of every text entrance of the tool for inputs of
pathological shape: values with huge exponents and a megabyte of digits
(`probe --input`, `build --input`, `parquet probe` values and `--input`),
100 MB lines, and column paths thousands of names deep (`parquet probe
--column` / `--column-path`). Each run must exit 0 (answered) or 2
(refused, with a message), within WALL_SECONDS and PEAK_BYTES, measured on
the child (ToolTestCase.run_measured: wait4 from a fresh launcher). The
bounds are generous for a noisy shared 2-core machine, and 4x under ASan.

usage: text_bounds_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
"""

import json
import os
import signal
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import WRAPPER, ToolTestCase  # noqa: E402
from parquet_files import (DOUBLE_TYPE, FIXED_LEN_BYTE_ARRAY, Column,  # noqa: E402
                           bloom_header, build_parquet, deep_column_parquet)

TOOL = None  # set from argv by cli_support.main
MIB = 1 << 20
WALL_SECONDS = 5.0
PEAK_BYTES = 64 * MIB  # the tool keeps one line of at most 1 MiB
MAX_LINE = 1 << 20     # tools/blockbloom/input_lines.h kMaxLineBytes

DIGITS = "1" * (MAX_LINE - 1)
HUGE_TEXTS = {
    "1E+999999999": "1E+999999999",
    "-1e999999999": "-1e999999999",
    "1e-999999999": "1e-999999999",
    "a 30-digit exponent": "1e999999999999999999999999999999",
    "hex 0x1p999999999": "0x1p999999999",
    "a megabyte of digits": DIGITS,
    "0.(a megabyte of digits)e-999999999": "0." + DIGITS[:MAX_LINE - 20] + "e-999999999",
}


# Runs each command of a JSON list, one at a time, from this small process:
# wait4 gives each its own peak RSS (a child forked from the test process
# would count the test's memory in its peak) and its wall time.
BATCH_LAUNCHER = """
import json, os, sys, time
folder = os.path.dirname(sys.argv[1])
with open(sys.argv[1]) as f:
    commands = json.load(f)
measured = []
for i, args in enumerate(commands):
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            err = os.open(os.path.join(folder, "stderr-%d.txt" % i), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(null, 0)
            os.dup2(null, 1)
            os.dup2(err, 2)
            os.execv(args[0], args)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    measured.append([os.waitstatus_to_exitcode(status), usage.ru_maxrss * 1024, time.monotonic() - start])
with open(sys.argv[2], "w") as f:
    json.dump(measured, f)
"""


@unittest.skipIf(WRAPPER, "costs under an emulator are the emulator's")
class TextBounds(ToolTestCase):
    def measured(self, runs):
        """Runs each (args, expected exit statuses, longest message) measured;
        checks its exit status and costs; returns the stderr of each."""
        commands = self.path("commands.json")
        with open(commands, "w") as f:
            json.dump([[TOOL] + args for args, _, _ in runs], f)
        env = dict(os.environ)
        if cli_support.sanitized():  # ASan keeps freed memory in a quarantine of 256 MiB
            env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=16"
        report = self.path("measured.json")
        proc = subprocess.Popen([sys.executable, "-c", BATCH_LAUNCHER, commands, report],
                                stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        try:
            proc.wait(timeout=60 + 5 * len(runs))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            self.fail("the commands still ran after %d s" % (60 + 5 * len(runs)))
        with open(report) as f:
            measured = json.load(f)
        scale = 4 if cli_support.sanitized() else 1
        errors = []
        for i, ((args, expect, message_max), (status, peak, wall)) in enumerate(zip(runs, measured)):
            with open(self.path("stderr-%d.txt" % i), "rb") as f:
                stderr = f.read().decode("utf-8", "replace")
            shown = " ".join(a if len(a) < 80 else a[:60] + "...(%d bytes)" % len(a) for a in args)
            self.assertIn(status, expect, "%s: exit %d: %s" % (shown, status, stderr[:500]))
            self.assertLess(wall, WALL_SECONDS * scale, "%s: %.2f s" % (shown, wall))
            self.assertLess(peak, PEAK_BYTES * scale, "%s: peak RSS %.1f MiB" % (shown, peak / MIB))
            self.assertLess(len(stderr), message_max, "%s: a message of %d bytes" % (shown, len(stderr)))
            errors.append(stderr)
        return errors

    def write(self, name, data):
        path = self.path(name)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return path

    def empty_filter(self, layout, type_name):
        path = self.path("%s-%s.bbf" % (layout, type_name))
        return (["build", "--layout", layout, "--bytes", "1024", "--type", type_name,
                 "--input", self.write("empty.txt", b""), "-o", path], (0,), 4096), path

    def test_huge_exponents_and_a_megabyte_of_digits_in_probe_and_build_input(self):
        inputs = {what: self.write("values-%d.txt" % i, text + "\n")
                  for i, (what, text) in enumerate(HUGE_TEXTS.items())}
        builds, runs = [], []
        for layout, types in (("parquet", ["double", "float", "float16", "decimal(38,10)", "decimal(9,2)",
                                           "int64", "date", "timestamp(us,utc)", "string"]),
                              ("kudu", ["double", "decimal(9,2)", "int64"])):
            for type_name in types:
                build, filt = self.empty_filter(layout, type_name)
                builds.append(build)
                for what, values in inputs.items():
                    runs.append((["probe", "--bits", "--filter", filt, "--input", values], (0, 2), 4096))
                    runs.append((["build", "--layout", layout, "--bytes", "1024", "--type", type_name,
                                  "--input", values, "-o", self.path("built.bbf")], (0, 2), 4096))
        self.measured(builds)
        errors = self.measured(runs)
        self.assertEqual(len(errors), 12 * 7 * 2)
        # The first filter is parquet double: 1E+999999999 is refused, naming its line.
        self.assertIn("values-0.txt:1: value \"1E+999999999\" of type DOUBLE is out of range", errors[0])
        self.assertIn("values-2.txt:1: value \"1e-999999999\" of type DOUBLE is out of range", errors[4])

    def test_hundred_megabyte_lines_are_refused_at_the_line_limit(self):
        values = self.write("huge.txt", b"7" * (100 * MIB) + b"\n")
        build, filt = self.empty_filter("parquet", "string")
        self.measured([build])
        data, _ = build_parquet([Column("d", DOUBLE_TYPE)], [[{"filter": bloom_header(32) + bytes(32)}]])
        parquet = self.write("small.parquet", data)
        runs = [(args, (2,), 4096) for args in (
            ["probe", "--bits", "--filter", filt, "--input", values],
            ["build", "--layout", "parquet", "--bytes", "1024", "--type", "string", "--input", values,
             "-o", self.path("built.bbf")],
            ["build", "--layout", "kudu", "--bytes", "1024", "--type", "double", "--input", values,
             "-o", self.path("built.bbf")],
            ["parquet", "probe", parquet, "--column", "d", "--input", values])]
        for stderr in self.measured(runs):
            self.assertIn("line longer than %d bytes" % MAX_LINE, stderr)
        self.assertFalse(os.path.exists(self.path("built.bbf")))  # nothing half-written

    def test_parquet_probe_values_with_huge_exponents(self):
        columns = [Column("d", DOUBLE_TYPE), Column("h", FIXED_LEN_BYTE_ARRAY, type_length=2, logical=("FLOAT16",)),
                   Column("m", FIXED_LEN_BYTE_ARRAY, type_length=16, logical=("DECIMAL", 10, 38))]
        data, _ = build_parquet(columns, [[{"filter": bloom_header(32) + bytes(32)}] * 3])
        parquet = self.write("small.parquet", data)
        runs = []
        for column in ("d", "h", "m"):
            for i, (what, text) in enumerate(HUGE_TEXTS.items()):
                values = self.write("values-%d.txt" % i, text + "\n")
                runs.append((["parquet", "probe", parquet, "--column", column, "--input", values], (0, 2), 4096))
                if len(text) < 100 * 1024:  # an argument holds at most 128 KiB
                    runs.append((["parquet", "probe", parquet, "--column", column, "--", text], (0, 2), 4096))
        errors = self.measured(runs)
        self.assertIn("is out of range", errors[0])  # 1E+999999999 on DOUBLE, from --input
        self.assertIn("is out of range", errors[1])  # and as an argument

    def test_column_paths_thousands_of_names_deep(self):
        depth = 5000
        data = deep_column_parquet(depth)
        parquet = self.write("deep.parquet", data)

        def names(n, name="a"):
            return "[" + ",".join(['"%s"' % name] * n) + "]"

        runs = [(["parquet", "probe", parquet, "--column", ".".join(["a"] * depth), "1"], (0,), 4096),
                (["parquet", "probe", parquet, "--column-path", names(depth), "1"], (0,), 4096),
                (["parquet", "list", parquet], (0,), 4096)]
        # Missing paths, longer than the file's: the hint ranks columns by a bounded
        # comparison; the message names the path asked for (its length, once or twice).
        for args in (["--column", ".".join(["a"] * 60000)], ["--column", ".".join(["b"] * 60000)],
                     ["--column", "x" * 120000], ["--column-path", names(20000)],
                     ["--column-path", names(20000, "b")]):
            runs.append((["parquet", "probe", parquet] + args + ["1"], (2,), 4096 + 2 * len(args[1])))
        errors = self.measured(runs)
        for stderr in errors[3:]:
            self.assertIn("no column", stderr)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
