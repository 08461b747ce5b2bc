#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`blockbloom tune`: the grid, the best cell and the JSON, the setting in
force as the default, the recommendation and the outlier cells following
the stated rules (tools/blockbloom/tune/noise.h) from the numbers reported,
bad sizes refused.

usage: tune_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import ToolTestCase, WRAPPER, info_json  # noqa: E402

TOOL = None  # set from argv by cli_support.main


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
        self.assertGreaterEqual(setting["spread_" + value_key], 0)

    # The rules of tools/blockbloom/tune/noise.h, restated: a spread over 10%
    # of the median is noisy; a cell 2x from all its row neighbours is out of
    # line; a change needs a gain over the larger spread. The JSON keeps 4
    # significant digits, so comparisons this close to their bound are not
    # checked (the C++ unit test tools_timing_decisions checks the rules
    # exactly).
    NOISY, OUT_OF_LINE, DIGITS = 0.10, 2.0, 1e-3

    def near(self, a, b):
        return abs(a - b) <= self.DIGITS * max(abs(a), abs(b), 1e-9)

    def expected_outlier(self, cell, key, neighbours):
        median, spread = cell[key], cell["spread_" + key]
        if self.near(spread, self.NOISY * median):
            return "skip"
        if spread > self.NOISY * median:
            return "noisy_runs"
        if not neighbours:
            return None
        low, high = min(neighbours), max(neighbours)
        if self.near(median, self.OUT_OF_LINE * high) or self.near(median * self.OUT_OF_LINE, low):
            return "skip"
        if median > self.OUT_OF_LINE * high or median * self.OUT_OF_LINE < low:
            return "out_of_line"
        return None

    def assertOutliersFollowTheRule(self, cells, key, row_length):
        """cells: one row per hint of row_length distances."""
        for i, cell in enumerate(cells):
            column = i % row_length
            neighbours = []
            if column > 0:
                neighbours.append(cells[i - 1][key])
            if column + 1 < row_length:
                neighbours.append(cells[i + 1][key])
            expected = self.expected_outlier(cell, key, neighbours)
            if expected != "skip":
                self.assertEqual(cell["outlier"], expected, (cell, neighbours))

    def expected_verdict(self, best, default):
        """None when the numbers sit on a bound."""
        if (best["hint"], best["distance"]) == (default["hint"], default["distance"]):
            return "keep_default"  # the best is what the default already uses
        gain = default["ns_per_key"] - best["ns_per_key"]
        noise = max(best["spread_ns_per_key"], default["spread_ns_per_key"])
        # The gain is a difference of two rounded medians: its rounding error
        # is that of the medians (about 0.05 at 104.5), not of the gain.
        gain_error = self.DIGITS * (abs(default["ns_per_key"]) + abs(best["ns_per_key"]) + noise)
        if abs(gain - noise) <= gain_error or self.near(noise, self.NOISY * default["ns_per_key"]):
            return None
        if gain > noise:
            return "change"
        return "too_noisy" if noise > self.NOISY * default["ns_per_key"] else "keep_default"

    def test_json_has_the_grid_the_best_and_the_find_comparison(self):
        report = json.loads(self.tune("--json").stdout)
        self.assertEqual(
            set(report),
            {"bytes", "budget_seconds", "seconds", "cpu", "huge_pages", "hints", "distances",
             "runs_per_cell", "lines_per_run", "grid", "best", "no_prefetch_ns_per_line",
             "find_batch_bitmap", "classes", "spread", "recommendation", "environment", "code"})
        self.assertEqual(report["spread"], "interquartile range of the interleaved runs")
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
            self.assertIn(cell["outlier"], (None, "noisy_runs", "out_of_line"))
        # No prefetch has no neighbours: only its own runs can flag it.
        self.assertEqual(grid[0]["outlier"], "noisy_runs"
                         if grid[0]["spread_ns_per_line"] > 0.1 * grid[0]["ns_per_line"]
                         else None)
        self.assertOutliersFollowTheRule(grid[1:], "ns_per_line", len(self.DISTANCES))
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
        self.assertGreaterEqual(find["default"]["spread_ns_per_key"], 0)
        # Three rounded numbers: the bound is the rounding of all three.
        self.assertAlmostEqual(find["gain_ns_per_key"],
                               find["default"]["ns_per_key"] - find["best"]["ns_per_key"],
                               delta=self.DIGITS * (find["default"]["ns_per_key"] +
                                                    find["best"]["ns_per_key"] +
                                                    abs(find["gain_ns_per_key"])))
        self.assertAlmostEqual(
            find["noise_ns_per_key"],
            max(find["best"]["spread_ns_per_key"], find["default"]["spread_ns_per_key"]),
            delta=1e-3 * find["default"]["ns_per_key"] + 1e-9)
        self.assertIn(find["verdict"], ("change", "keep_default", "too_noisy"))
        self.assertEqual(report["recommendation"], find["verdict"])
        # The default here is "by size": at this size, the library's default of the class.
        in_force = dict(find["default"])
        in_force["hint"], in_force["distance"] = self.library_default(report["bytes"])
        expected = self.expected_verdict(find["best"], in_force)
        if expected is not None:
            self.assertEqual(find["verdict"], expected, find)
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
            self.assertEqual(set(c), {"bytes", "grid", "best", "default", "default_over_best",
                                      "verdict"})
            self.assertEqual([(g["hint"], g["distance"]) for g in c["grid"]], self.CLASS_GRID)
            for g in c["grid"]:
                self.assertGreater(g["ns_per_key"], 0)
                self.assertGreaterEqual(g["spread_ns_per_key"], 0)
            self.assertOutliersFollowTheRule(c["grid"], "ns_per_key", 5)
            # The default here is spelled as the setting it uses at that size.
            expected = self.expected_verdict(c["best"], c["default"])
            if expected is not None:
                self.assertEqual(c["verdict"], expected, c)
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
        self.assertRegex(text, r"(?m)^  best +.* [0-9.]+ ns/key, spread [0-9.]+$")
        self.assertRegex(text, r"(?m)^  default +.* [0-9.]+ ns/key, spread [0-9.]+ "
                         r"\([0-9.]+x the best\)$")
        # One recommendation; how to apply the best setting only with "change".
        verdicts = re.findall(r"(?m)^recommendation: (change the setting|keep the default|"
                              r"none, the machine was too noisy to decide)", text)
        self.assertEqual(len(verdicts), 1, text)
        if verdicts[0] == "change the setting":
            self.assertIn("more than the spread of the runs", text)
            if found.group(1) != "none":
                self.assertIn("BLOCKBLOOM_PREFETCH_DISTANCE=%s BLOCKBLOOM_PREFETCH_HINT=%s"
                              % (found.group(2), found.group(1)), text)
                self.assertIn("bb_set_prefetch_distance(%s); bb_set_prefetch_hint(BB_PREFETCH_%s);"
                              % (found.group(2), found.group(1).upper()), text)
        else:
            self.assertNotIn("BLOCKBLOOM_PREFETCH_HINT=", text)
            self.assertNotIn("bb_set_prefetch_hint(", text)
        if verdicts[0].startswith("none"):
            self.assertIn("rerun on a quiet machine or with more --seconds", text)
        # Outlier cells are listed under their grid, each with its reason.
        for line in re.findall(r"(?m)^  (?:\d+ MiB, )?(?:none|l1|l2|l3).*: [0-9.]+ ns/(?:line|key), "
                               r"spread [0-9.]+ \((.*)\)$", text):
            self.assertIn(line, ("noisy runs", "out of line with its neighbours"))
        self.assertIn("find_batch_bitmap per size class", text)
        for size in self.CLASS_BYTES:
            hint, distance = self.library_default(size)
            self.assertRegex(text, r"(?m)^  %d MiB +(l1|l2|l3) at \d+ keys ahead +[0-9.]+ +"
                             r"%s at %d keys ahead +[0-9.]+ +[0-9.]+x +(keep|change|too noisy)$"
                             % (size >> 20, hint, distance))

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
            (["--bytes", "lots"], "--bytes lots: not a size in bytes"),
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


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
