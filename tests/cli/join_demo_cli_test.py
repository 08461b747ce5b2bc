#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`blockbloom join-demo`: zero false negatives, the same counts on every tier,
measured FPP near the prediction, the adaptive filter, CPU time beside wall
time and the warning when they part, bad arguments refused.

usage: join_demo_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import json
import math
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import ToolTestCase, U64_MAX, WRAPPER, info_json, run  # noqa: E402


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
        self.assertRegex(text, r"(?m)^scan +seconds +cpu s +rows/s +rows passing +speed-up$")
        self.assertRegex(text, r"(?m)^\(a\) no filter: exact hash-set probe +[0-9.]+ +[0-9.]+ +")
        for what in ("timed scans", "whole run"):
            self.assertRegex(text, r"(?m)^%s +[0-9.]+ s wall, [0-9.]+ s CPU \(\d+%%\)$" % what)
        for isa in info_json()["supported_isas"]:
            self.assertRegex(text, r"(?m)^\(b\) filter alone, %s\b.* [0-9.]+x$" % isa)
        result = run(["join-demo", "--rows", str(self.ROWS), "--scenario", "unselective"])
        self.assertOk(result)
        self.assertIn("switched off", result.stdout)

    def test_cpu_time_beside_wall_time(self):
        report = self.demo("--rows", str(self.ROWS))
        scans = [report["no_filter"], report["filter_plus_exact"]] + list(report["isas"].values())
        for scan in scans:
            # One thread: the CPU it got within a span is at most the span
            # (plus the two clocks' reading error).
            self.assertGreaterEqual(scan["cpu_seconds"], 0)
            self.assertLessEqual(scan["cpu_seconds"], scan["seconds"] + 1e-3)
        self.assertAlmostEqual(report["timed_seconds"], sum(s["seconds"] for s in scans),
                               delta=1e-6 + 1e-6 * report["timed_seconds"])
        self.assertAlmostEqual(report["timed_cpu_seconds"], sum(s["cpu_seconds"] for s in scans),
                               delta=1e-6 + 1e-6 * report["timed_cpu_seconds"])
        self.assertGreaterEqual(report["run_seconds"], report["timed_seconds"])
        self.assertGreaterEqual(report["run_cpu_seconds"], report["timed_cpu_seconds"])

        def disagree(wall, cpu):
            return abs(wall - cpu) > 0.10 * max(wall, cpu)
        self.assertEqual(report["cpu_wall_disagree"],
                         disagree(report["timed_seconds"], report["timed_cpu_seconds"]) or
                         disagree(report["run_seconds"], report["run_cpu_seconds"]))

    def test_a_process_kept_off_the_cpu_is_warned_about(self):
        """Stopped for a second mid-run (SIGSTOP, as a busy machine would keep
        it waiting), the run's wall time exceeds its CPU time by far more than
        10%: a warning on stderr, none of it on stdout."""
        env = dict(os.environ, BLOCKBLOOM_TEST_PROGRESS_INTERVAL="0")
        env.pop("BLOCKBLOOM_ISA", None)
        proc = subprocess.Popen(WRAPPER + [cli_support.TOOL, "join-demo", "--rows", "5000000",
                                           "--json"], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            first = proc.stderr.readline()  # the first progress line: the run has begun
            self.assertTrue(first.startswith(b"blockbloom join-demo: "), first)
            os.kill(proc.pid, signal.SIGSTOP)
            time.sleep(1.0)
            os.kill(proc.pid, signal.SIGCONT)
            stdout, stderr = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        self.assertEqual(proc.returncode, 0, stderr)
        report = json.loads(stdout)
        self.assertGreaterEqual(report["run_seconds"] - report["run_cpu_seconds"], 0.9)
        self.assertTrue(report["cpu_wall_disagree"])
        self.assertRegex(stderr.decode(), r"blockbloom join-demo: warning: the process got "
                         r"[0-9.]+ s of CPU in [0-9.]+ s .*differ by more than 10%.*"
                         r"rerun on a quiet machine")
        self.assertNotIn(b"warning", stdout)

    def test_help_describes_join_demo(self):
        text = self.run_ok(["join-demo", "--help"]).stdout
        for word in ("blockbloom join-demo", "--rows", "--small", "--scenario selective",
                     "--scenario unselective", "--fpp", "--seed", "--sample-rows",
                     "--min-reject", "--json", "some_int1 % 2 == 1"):
            self.assertIn(word, text)

    def test_nonsensical_arguments_exit_2(self):
        cases = [
            (["--rows", "0"], "--rows 0"),
            (["--rows", "many"], "--rows many: not a count"),
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


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
