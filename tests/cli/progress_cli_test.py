#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Progress of the long commands (tools/common/progress.h): on standard error
only, never in standard output or --json; quiet for short runs and with
--no-progress; a bar redrawn in place on a terminal (a pty), plain lines
otherwise. BLOCKBLOOM_TEST_PROGRESS_INTERVAL=0 (test-only) makes these small
runs report at every update, as a long run reports every few seconds.

usage: progress_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import ToolTestCase, WRAPPER  # noqa: E402

INTERVAL = "BLOCKBLOOM_TEST_PROGRESS_INTERVAL"
# "blockbloom build: inserting FILE: 65536 values, 0 s" or
# "blockbloom join-demo: (a) ...: 33% (65536 of 200000 rows), 0 s"
PROGRESS_LINE = re.compile(r"^blockbloom (build|probe|join-demo|tune): .*: "
                           r"(\d+ values|\d+% \(\d+ of \d+ [a-z ]+\)), \d+ s$")
DONE_LINE = re.compile(r"^blockbloom (build|probe|join-demo|tune): .*: done in \d+ s$")

# join-demo's and tune's measured numbers: different in every run, with or
# without progress; everything else of their JSON must be the same.
TIMING_KEYS = {"seconds", "cpu_seconds", "rows_per_s", "speedup", "filter_ns_per_row",
               "saved_seconds_estimate", "peak_rss_bytes", "timed_seconds", "timed_cpu_seconds",
               "run_seconds", "run_cpu_seconds", "cpu_wall_disagree"}


def without_timings(value):
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def tool(args, interval=None, no_progress=False, stdin=subprocess.DEVNULL):
    env = dict(os.environ)
    env.pop("BLOCKBLOOM_ISA", None)
    env.pop(INTERVAL, None)
    if interval is not None:
        env[INTERVAL] = interval
    args = list(args) + (["--no-progress"] if no_progress else [])
    return subprocess.run(WRAPPER + [cli_support.TOOL] + args, env=env, stdin=stdin,
                          capture_output=True, timeout=120)


def progress_lines(stderr):
    return [line for line in stderr.decode().splitlines() if PROGRESS_LINE.match(line)]


class ProgressOnStderrOnly(ToolTestCase):
    """Each long command with progress forced at every update: the lines are
    on stderr, and stdout (and the file written) is what it is without them."""

    def setUp(self):
        super().setUp()
        self.values = self.path("values.txt")
        with open(self.values, "w") as f:
            f.write("".join("%d\n" % i for i in range(200000)))  # 4 batches of 65536 and a bit

    def build(self, out, **kw):
        return tool(["build", "--layout", "parquet", "--type", "int64", "--bytes", "65536",
                     "--input", self.values, "--output", out], **kw)

    def assertReports(self, result, command, count_at_least):
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = progress_lines(result.stderr)
        self.assertGreaterEqual(len(lines), count_at_least, result.stderr)
        for line in lines:
            self.assertTrue(line.startswith("blockbloom %s: " % command), line)
        done = [l for l in result.stderr.decode().splitlines() if DONE_LINE.match(l)]
        self.assertTrue(done, result.stderr)  # each step that spoke says when it is done
        self.assertNotIn(b"\r", result.stderr)  # no bar: stderr is a pipe

    def assertNoProgress(self, result):
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(progress_lines(result.stderr), [])
        self.assertNotIn(b"done in", result.stderr)
        self.assertNotIn(b"\r", result.stderr)

    def test_build_writes_the_same_file(self):
        quiet, forced = self.path("quiet.bbf"), self.path("forced.bbf")
        plain = self.build(quiet)
        self.assertNoProgress(plain)
        self.assertEqual(plain.stderr, b"")  # a short run says nothing at all
        result = self.build(forced, interval="0")
        self.assertReports(result, "build", 3)
        self.assertIn("blockbloom build: inserting %s: 200000 values, 0 s" % self.values,
                      result.stderr.decode())
        self.assertEqual(result.stdout, plain.stdout)
        with open(quiet, "rb") as a, open(forced, "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_probe_prints_the_same_answers(self):
        filter_file = self.path("f.bbf")
        self.assertEqual(self.build(filter_file).returncode, 0)
        probe = ["probe", "--filter", filter_file, "--input", self.values]
        plain = tool(probe)
        self.assertNoProgress(plain)
        self.assertEqual(plain.stderr, b"")
        result = tool(probe, interval="0")
        self.assertReports(result, "probe", 3)
        self.assertEqual(result.stdout, plain.stdout)  # 200000 answer lines, byte for byte
        self.assertEqual(len(plain.stdout.splitlines()), 200000)
        counted = tool(probe + ["--count"], interval="0")
        self.assertReports(counted, "probe", 3)
        self.assertEqual(counted.stdout, tool(probe + ["--count"]).stdout)

    def test_join_demo_json_is_unchanged(self):
        args = ["join-demo", "--rows", "200000", "--json"]
        plain = tool(args)
        self.assertNoProgress(plain)
        result = tool(args, interval="0")
        self.assertReports(result, "join-demo", 4 * 5)  # 4 chunks, at least 5 steps
        for step in ("small table: scanning for the extreme keys", "(a) no filter",
                     "(b) filter alone", "(c) filter + exact check"):
            self.assertIn("blockbloom join-demo: " + step, result.stderr.decode())
        # One JSON object and nothing else; equal but for the measured times.
        report, expected = json.loads(result.stdout), json.loads(plain.stdout)
        self.assertEqual(without_timings(report), without_timings(expected))
        self.assertEqual(set(report), set(expected))
        self.assertEqual(result.stdout.count(b"\n"), plain.stdout.count(b"\n"))
        self.assertNotIn(b"blockbloom", result.stdout)

    def test_tune_json_is_unchanged(self):
        args = ["tune", "--bytes", str(4 << 20), "--seconds", "0.3", "--json"]
        result = tool(args, interval="0")
        self.assertReports(result, "tune", 5)
        self.assertIn("blockbloom tune: measuring: ", result.stderr.decode())
        report = json.loads(result.stdout)
        plain = tool(args)
        self.assertNoProgress(plain)
        self.assertEqual(set(report), set(json.loads(plain.stdout)))
        self.assertEqual(result.stdout.count(b"\n"), plain.stdout.count(b"\n"))
        self.assertNotIn(b"blockbloom tune:", result.stdout)

    def test_no_progress_silences_even_the_forced_interval(self):
        filter_file = self.path("f.bbf")
        self.assertNoProgress(self.build(filter_file, interval="0", no_progress=True))
        self.assertNoProgress(tool(["probe", "--filter", filter_file, "--input", self.values,
                                    "--count"], interval="0", no_progress=True))
        self.assertNoProgress(tool(["join-demo", "--rows", "200000", "--json"], interval="0",
                                   no_progress=True))
        self.assertNoProgress(tool(["tune", "--bytes", str(4 << 20), "--seconds", "0.2",
                                    "--json"], interval="0", no_progress=True))

    def test_a_hostile_file_name_is_escaped_in_progress_lines(self):
        hostile = self.path("v\x1b[2J.txt")
        os.rename(self.values, hostile)
        self.values = hostile
        result = self.build(self.path("f.bbf"), interval="0")
        self.assertReports(result, "build", 3)
        self.assertNotIn(b"\x1b", result.stderr)
        self.assertIn(b"inserting %s" % hostile.replace("\x1b", "\\x1b").encode(), result.stderr)

    def test_nothing_before_the_quiet_start(self):
        # The interval variable sets the quiet start too: an hour of it keeps
        # a run that would report at every update silent.
        self.assertNoProgress(tool(["join-demo", "--rows", "200000", "--json"], interval="3600"))
        self.assertNoProgress(self.build(self.path("f.bbf"), interval="3600"))

    def test_a_bad_test_interval_exits_2(self):
        for value in ("soon", "-1", "nan", "3601", "1\x1b[2J"):
            with self.subTest(value=value):
                result = self.build(self.path("x.bbf"), interval=value)
                self.assertEqual(result.returncode, 2, result.stderr)
                shown = value.replace("\x1b", "\\x1b")  # main() escapes every message
                self.assertIn("%s=%s: not a number of seconds from 0 to 3600" % (INTERVAL, shown),
                              result.stderr.decode())
                self.assertNotIn(b"\x1b", result.stderr)
                self.assertFalse(os.path.exists(self.path("x.bbf")))


class ProgressBarOnATerminal(ToolTestCase):
    """stderr a terminal (a pty): the bar is drawn in place ("\\r", erase the
    line) and erased at the end of each step; stdout, a pipe, gets the report
    alone."""

    def test_bar_on_a_pty_and_clean_stdout(self):
        import pty  # works under nohup too: a pty needs no controlling terminal
        master, slave = pty.openpty()
        env = dict(os.environ, **{INTERVAL: "0"})
        env.pop("BLOCKBLOOM_ISA", None)
        try:
            proc = subprocess.Popen(WRAPPER + [cli_support.TOOL, "join-demo", "--rows", "200000",
                                               "--json"],
                                    env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=slave)
            os.close(slave)
            seen = b""
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the tool closed its end
                    break
                if not chunk:
                    break
                seen += chunk
            stdout, _ = proc.communicate(timeout=120)
        finally:
            os.close(master)
        self.assertEqual(proc.returncode, 0, seen)
        self.assertRegex(seen, rb"\r\x1b\[K\(a\) no filter: exact hash-set probe \[[#.]{30}\] +\d+% \d+s")
        self.assertIn(b"[##############################] 100%", seen)
        # Each bar is erased when its step ends; no line-mode output on a terminal.
        self.assertTrue(seen.rstrip(b"\r\n").endswith(b"\r\x1b[K") or b"warning" in seen, seen[-200:])
        self.assertNotIn(b"done in", seen)
        self.assertNotIn(b"\r", stdout)
        self.assertNotIn(b"\x1b", stdout)
        json.loads(stdout)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
