#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""End-to-end tests of `blockbloom parquet probe` over a dataset: a directory
tree, glob patterns and lists of paths, probed on a pool of threads.

usage: parquet_dataset_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]

The dataset is written here: footers by tests/support/parquet_files.py, the
filters by `blockbloom build --parquet-header` (as parquet_cli_test.py does).
Each answer is checked against the Python model of the Parquet filter
(cli_support.parquet_model_find over the bitset the file holds, XXH64
modelled in Python), and the summary's counts against the model's row groups
where every value is absent. Beside the good files the tree holds files that
cannot be probed: one that is not Parquet, one without the column, a FIFO
and a dangling symlink (each reported and skipped whatever the user, root
too), and a file with mode 000 (only when not running as root, where the
mode does not stop reads: that test is skipped saying so).
"""

import json
import os
import re
import resource
import stat
import struct
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import WRAPPER, ToolTestCase, parquet_model_find, read_bytes, run, xxh64  # noqa: E402
from parquet_files import INT64, Column, build_parquet  # noqa: E402

SUMMARY = re.compile(r"(?m)^blockbloom: (\d+) files \((\d+) read, (\d+) skipped\), (\d+) row "
                     r"groups, (\d+) can be skipped \(every value absent\): ([0-9.]+)%$")

# The good files: relative path -> number of row groups. Row group g of file
# k stores the ids 1000 * k + 100 * g + j for j < 12, except that row group
# 1 of b/part-1.parquet has no filter (it answers maybe, with a warning).
GOOD = {"a/part-0.parquet": 2, "a/part-1.parquet": 3, "b/part-0.parquet": 1,
        "b/part-1.parquet": 2, "b/sub/part-2.parquet": 2, "top.parquet": 1}
NO_FILTER = ("b/part-1.parquet", 1)
FILTER_BYTES = 256


def stored_ids(k, g):
    return [1000 * k + 100 * g + j for j in range(12)]


def encoded(v):
    return struct.pack("<q", v)


# The dataset mode reads files on a pool of threads, and std::thread stalls
# under qemu-aarch64 on the CI machine (docs/testing.md, "The matrix"): under
# an emulator these tests are skipped. Nothing here depends on the CPU (suite
# tier_independent), so the native run covers them.
@unittest.skipIf(WRAPPER, "the dataset probe's threads stall under the emulator; "
                 "tier-independent, run natively")
class DatasetTestCase(ToolTestCase):
    def setUp(self):
        super().setUp()
        self.root = self.path("data")
        self.bitsets = {}  # (relative path, row group) -> bitset, or None without a filter
        for k, (rel, groups) in enumerate(sorted(GOOD.items())):
            specs = []
            for g in range(groups):
                if (rel, g) == NO_FILTER:
                    self.bitsets[(rel, g)] = None
                    specs.append([None])
                    continue
                blob = self.built_filter(stored_ids(k, g))
                self.bitsets[(rel, g)] = blob[-FILTER_BYTES:]
                specs.append([{"filter": blob}])
            data, _ = build_parquet([Column("id", INT64)], specs)
            self.write_file(rel, data)
        self.file_index = {rel: k for k, rel in enumerate(sorted(GOOD))}
        self.write_file("notes.txt", b"not probed: not a .parquet name")
        self.write_file("a/corrupt.parquet", b"PAR1 this is not a Parquet file at all PAR1")
        other, _ = build_parquet([Column("other", INT64)], [[None]])
        self.write_file("b/nocolumn.parquet", other)
        os.mkfifo(os.path.join(self.root, "fifo.parquet"))
        os.symlink(os.path.join(self.root, "missing"), os.path.join(self.root, "dangling.parquet"))
        self.bad = {"a/corrupt.parquet", "b/nocolumn.parquet", "fifo.parquet", "dangling.parquet"}

    def built_filter(self, ids):
        """Header + bitset as `blockbloom build --parquet-header` writes them."""
        lines = self.path("hashes.txt")
        cli_support.write_hashes(lines, [xxh64(encoded(v)) for v in ids])
        out = self.path("filter.bin")
        self.run_ok(["build", "--layout", "parquet", "--bytes", str(FILTER_BYTES),
                     "--parquet-header", "--input", lines, "-o", out])
        return read_bytes(out)

    def write_file(self, rel, data):
        full = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)

    def full(self, rel):
        return os.path.join(self.root, rel)

    def model_lines(self, rels, values):
        """The text answers the model gives, files in path order."""
        lines = []
        for rel in sorted(rels, key=lambda r: self.full(r).encode()):
            for v in values:
                for g in range(GOOD[rel]):
                    bitset = self.bitsets[(rel, g)]
                    maybe = bitset is None or parquet_model_find(bitset, xxh64(encoded(v))) == "1"
                    lines.append("%s\t%d\trow_group=%d\t%s" % (self.full(rel), v, g,
                                                              "maybe" if maybe else "absent"))
        return lines

    def model_summary(self, rels, values, skipped):
        row_groups = sum(GOOD[rel] for rel in rels)
        skippable = 0
        for rel in rels:
            for g in range(GOOD[rel]):
                bitset = self.bitsets[(rel, g)]
                if bitset is not None and all(
                        parquet_model_find(bitset, xxh64(encoded(v))) == "0" for v in values):
                    skippable += 1
        return (len(rels) + skipped, len(rels), skipped, row_groups, skippable)

    def values(self):
        """Stored ids of several files and row groups, and ids never stored."""
        return [5, 107, 1002, 2111, 3000, 5108, 777777, -4, 99999, 123456789]

    def probe(self, args, expected_status):
        result = run(["parquet", "probe"] + args)
        self.assertEqual(result.returncode, expected_status, result.stderr)
        return result

    def summary_of(self, stderr):
        found = SUMMARY.findall(stderr)
        self.assertEqual(len(found), 1, stderr)
        return tuple(int(x) for x in found[0][:5]), float(found[0][5])


class ParquetDatasetProbe(DatasetTestCase):
    def test_directory_answers_match_the_model_and_bad_files_are_skipped(self):
        values = self.values()
        result = self.probe([self.root, "--column", "id", "--"] + [str(v) for v in values], 1)
        self.assertEqual(result.stdout.splitlines(), self.model_lines(GOOD, values))
        for rel in self.bad:
            self.assertRegex(result.stderr, r"(?m)^blockbloom: skipped %s: ." %
                             re.escape(self.full(rel)))
        self.assertNotIn("notes.txt", result.stderr + result.stdout)
        self.assertIn("not a regular file", result.stderr)  # the FIFO, never opened
        self.assertIn("b/part-1.parquet: column id: 1 of 2 row groups have no usable Bloom "
                      "filter (row group 1 has no Bloom filter): they answer maybe",
                      result.stderr)
        counts, share = self.summary_of(result.stderr)
        expected = self.model_summary(GOOD, values, len(self.bad))
        self.assertEqual(counts, expected)
        self.assertGreater(expected[4], 0)  # the model has row groups to skip...
        self.assertLess(expected[4], expected[3])  # ...and some to read
        self.assertAlmostEqual(share, round(100.0 * expected[4] / expected[3], 1))
        # A skipped file never answers: no line names it.
        for rel in self.bad:
            self.assertNotIn(self.full(rel), result.stdout)

    def test_json_carries_the_same_answers_errors_and_summary(self):
        values = self.values()
        args = [self.root, "--column", "id", "--"] + [str(v) for v in values]
        text = self.probe(args, 1)
        report = json.loads(self.probe(["--json"] + args, 1).stdout)
        lines = []
        for f in report["files"]:
            self.assertEqual((f["column"], f["physical_type"]), ("id", "INT64"))
            self.assertEqual(f["row_groups"], GOOD[os.path.relpath(f["file"], self.root)])
            self.assertEqual([r["value"] for r in f["results"]], [str(v) for v in values])
            for r in f["results"]:
                self.assertEqual([g["row_group"] for g in r["row_groups"]],
                                 list(range(f["row_groups"])))
                for g in r["row_groups"]:
                    lines.append("%s\t%s\trow_group=%d\t%s" % (
                        f["file"], r["value"], g["row_group"], "maybe" if g["maybe"] else "absent"))
        self.assertEqual(lines, text.stdout.splitlines())
        self.assertEqual([e["file"] for e in report["errors"]],
                         sorted(self.full(rel) for rel in self.bad))
        for e in report["errors"]:
            self.assertTrue(e["error"], e)
        s = report["summary"]
        self.assertEqual((s["files"], s["files_read"], s["files_skipped"], s["row_groups"],
                          s["row_groups_skippable"]), self.model_summary(GOOD, values, len(self.bad)))
        self.assertAlmostEqual(s["skippable_share"], s["row_groups_skippable"] / s["row_groups"],
                               places=6)

    def test_jobs_1_and_more_print_the_same(self):
        args = [self.root, "--column", "id", "--"] + [str(v) for v in self.values()]
        outputs = set()
        for jobs in ("1", "2", "3", "16"):
            for form in ([], ["--json"]):
                result = self.probe(["--jobs", jobs] + form + args, 1)
                outputs.add((tuple(form), result.stdout, result.stderr))
        self.assertEqual(len({o for o in outputs if o[0] == ()}), 1)
        self.assertEqual(len({o for o in outputs if o[0] == ("--json",)}), 1)

    def test_every_stored_value_answers_maybe_where_it_is_stored(self):
        stored = []
        for rel, k in self.file_index.items():
            for g in range(GOOD[rel]):
                stored += stored_ids(k, g)
        values_file = self.path("values.txt")
        with open(values_file, "w") as f:
            f.write("".join("%d\n" % v for v in stored))
        result = self.probe([self.root, "--column", "id", "--input", values_file], 1)
        answers = {}
        for line in result.stdout.splitlines():
            path, value, group, answer = line.split("\t")
            answers[(os.path.relpath(path, self.root), int(value),
                     int(group[len("row_group="):]))] = answer
        self.assertEqual(len(answers), sum(GOOD.values()) * len(stored))
        for rel, k in self.file_index.items():
            for g in range(GOOD[rel]):
                for v in stored_ids(k, g):
                    self.assertEqual(answers[(rel, v, g)], "maybe", (rel, v, g))

    def test_globs_explicit_paths_and_duplicates(self):
        values = self.values()
        a_files = ["a/part-0.parquet", "a/part-1.parquet"]
        # A quoted pattern is expanded by the tool; a matched FIFO or corrupt
        # file is still reported.
        result = self.probe([os.path.join(self.root, "a", "part-*.parquet"), "--column", "id",
                             "--"] + [str(v) for v in values], 0)
        self.assertEqual(result.stdout.splitlines(), self.model_lines(a_files, values))
        self.assertEqual(self.summary_of(result.stderr)[0],
                         self.model_summary(a_files, values, 0))
        # With --input every operand is a path: files, a directory, a pattern,
        # a file named twice (probed once) and a pattern matching nothing.
        values_file = self.path("values.txt")
        with open(values_file, "w") as f:
            f.write("".join("%d\n" % v for v in values))
        nothing = os.path.join(self.root, "zzz*.parquet")
        result = self.probe(["--column", "id", "--input", values_file, self.full("top.parquet"),
                             os.path.join(self.root, "b"), self.full("top.parquet"),
                             os.path.join(self.root, "a", "*-1.parquet"), nothing], 1)
        rels = ["top.parquet", "b/part-0.parquet", "b/part-1.parquet", "b/sub/part-2.parquet",
                "a/part-1.parquet"]
        self.assertEqual(result.stdout.splitlines(), self.model_lines(rels, values))
        self.assertIn("blockbloom: skipped %s: no file matches the pattern" % nothing,
                      result.stderr)
        self.assertIn("skipped %s" % self.full("b/nocolumn.parquet"), result.stderr)
        self.assertEqual(self.summary_of(result.stderr)[0], self.model_summary(rels, values, 2))

    def test_one_directory_a_symlinked_file_once_a_hard_link_under_each_name(self):
        # The walk takes entry types from the listing and stats nothing, but a
        # symlink met makes it check for a file named twice: "a/part-0.parquet"
        # and "b/zlink.parquet" pointing at it are one file, kept under its
        # first name. A hard link is a name of its own (as `find` lists it).
        for rel in self.bad:
            os.remove(self.full(rel))
        os.symlink(self.full("a/part-0.parquet"), self.full("b/zlink.parquet"))
        os.link(self.full("a/part-1.parquet"), self.full("b/zhard.parquet"))
        self.bitsets.update({("b/zhard.parquet", g): self.bitsets[("a/part-1.parquet", g)]
                             for g in range(GOOD["a/part-1.parquet"])})
        GOOD_WITH_LINK = dict(GOOD, **{"b/zhard.parquet": GOOD["a/part-1.parquet"]})
        values = self.values()
        for jobs in ("1", "2"):
            result = self.probe([self.root, "--column", "id", "--jobs", jobs, "--"] +
                                [str(v) for v in values], 0)
            self.assertNotIn("zlink", result.stdout)
            rels = sorted(GOOD_WITH_LINK, key=lambda r: self.full(r).encode())
            lines = []
            for rel in rels:
                saved, GOOD[rel] = GOOD.get(rel), GOOD_WITH_LINK[rel]
                try:
                    lines += self.model_lines([rel], values)
                finally:
                    if saved is None:
                        del GOOD[rel]
            self.assertEqual(result.stdout.splitlines(), lines)

    def test_exit_status_all_read_none_read_and_usage(self):
        values = ["5", "107"]
        for rel in self.bad:
            os.remove(self.full(rel))
        result = self.probe([self.root, "--column", "id", "--"] + values, 0)
        self.assertEqual(result.stdout.splitlines(), self.model_lines(GOOD, [5, 107]))
        self.assertNotIn("skipped ", result.stderr.replace("can be skipped", ""))
        # No file answers: 2, each file named.
        empty = self.path("empty")
        os.mkdir(empty)
        result = self.probe([empty, "--column", "id", "7"], 2)
        self.assertIn("no .parquet file found in %s" % empty, result.stderr)
        self.write_file("../junk/x.parquet", b"nope")
        result = self.probe([self.path("junk"), "--column", "id", "7"], 2)
        self.assertIn("skipped %s" % self.path("junk/x.parquet"), result.stderr)
        self.assertIn("no file could be probed", result.stderr)
        self.assertEqual(result.stdout, "")
        # A value that is not of the column's type: every file skipped, saying why.
        result = self.probe([self.root, "--column", "id", "seven"], 2)
        self.assertIn('value "seven" of column id (INT64) is not a decimal integer', result.stderr)
        self.assertNotIn("%s: %s:" % (self.full("top.parquet"), self.full("top.parquet")),
                         result.stderr)  # the path once a message
        # Usage errors.
        for args, fragment in (([self.root, "--column", "id", "--row-group", "0", "7"],
                                "--row-group asks one file"),
                               ([self.root, "--column", "id", "--jobs", "0", "7"],
                                "--jobs 0: give 1 to 1024 threads"),
                               ([self.root, "--column", "id", "--jobs", "1025", "7"],
                                "--jobs 1025: give 1 to 1024 threads"),
                               ([self.root, "--column", "id", "--jobs", "x", "7"], "--jobs x")):
            result = self.probe(args, 2)
            self.assertIn(fragment, result.stderr)
            self.assertEqual(result.stdout, "")

    def test_threads_the_system_refuses_do_not_stop_the_probe(self):
        # glibc sizes a thread's stack by RLIMIT_STACK: with 2 GiB stacks and
        # an address space of 2.2 or 3 GiB the system refuses every thread or
        # all but one; the probe then runs on what it got and answers as with
        # --jobs 1 (it used to abort, the exception escaping the pool).
        if cli_support.sanitized() or cli_support.WRAPPER:
            self.skipTest("an address-space limit cannot hold the sanitizer's shadow memory "
                          "or a wrapper")
        args = [self.root, "--column", "id", "--no-progress", "--"] + [str(v) for v in self.values()]
        expected = self.probe(["--jobs", "1"] + args, 1)
        for space in ((2 << 30) + (200 << 20), 3 << 30):
            def limit(space=space):
                resource.setrlimit(resource.RLIMIT_STACK, (2 << 30, 2 << 30))
                resource.setrlimit(resource.RLIMIT_AS, (space, space))
            result = subprocess.run([cli_support.TOOL, "parquet", "probe", "--jobs", "1024"] + args,
                                    capture_output=True, text=True, timeout=60, preexec_fn=limit)
            self.assertEqual(result.returncode, 1, result.stderr)
            self.assertEqual(result.stdout, expected.stdout)
            self.assertEqual(result.stderr, expected.stderr)

    def test_a_glob_the_shell_expanded_is_refused_on_one_file(self):
        # `probe a/part-*.parquet --column id 5` unquoted: the second file
        # would be a value answering absent; it is refused, saying why.
        files = [self.full("a/part-0.parquet"), self.full("a/part-1.parquet")]
        result = self.probe(files + ["--column", "id", "5"], 2)
        self.assertIn('value "%s" names a Parquet file: the shell expanded a glob' % files[1],
                      result.stderr)
        self.assertEqual(result.stdout, "")
        # One file named twice, two ways, is probed once; no values: nothing to decide.
        empty = self.path("no-values.txt")
        open(empty, "w").close()
        result = self.probe(["--column", "id", "--input", empty, self.full("a"),
                             os.path.join(self.root, ".", "a")], 1)
        self.assertEqual(result.stdout, "")
        self.assertEqual(result.stderr.count("corrupt.parquet"), 1, result.stderr)
        self.assertIn("blockbloom: 3 files (2 read, 1 skipped), 5 row groups; 0 values: "
                      "nothing to decide", result.stderr)
        # --jobs is checked on one file too, where it is not used.
        for jobs in ("abc", "0", "1025"):
            result = self.probe([files[0], "--column", "id", "--jobs", jobs, "5"], 2)
            self.assertIn("--jobs %s" % jobs, result.stderr)
            self.assertEqual(result.stdout, "")

    def test_progress_goes_to_stderr_only(self):
        args = ["parquet", "probe", self.root, "--column", "id", "--jobs", "2", "5", "107"]
        for form in ([], ["--json"]):
            quiet = run(args + form)
            env = dict(os.environ, BLOCKBLOOM_TEST_PROGRESS_INTERVAL="0")
            loud = subprocess.run(cli_support.WRAPPER + [cli_support.TOOL] + args + form,
                                  capture_output=True, text=True, env=env, timeout=60)
            self.assertEqual(loud.returncode, quiet.returncode)
            self.assertEqual(loud.stdout, quiet.stdout)  # nothing of it on stdout or in --json
            found = re.findall(r"(?m)^blockbloom parquet probe: probing 8 files: "
                               r"(\d+)% \((\d+) of 8 files\)", loud.stderr)
            # 6 good files and 2 regular files that cannot be probed, one line each
            self.assertEqual([int(done) for _, done in found], list(range(1, 9)), loud.stderr)
            self.assertIn("probing 8 files: done in", loud.stderr)
            silenced = subprocess.run(cli_support.WRAPPER + [cli_support.TOOL] + args + form +
                                      ["--no-progress"], capture_output=True, text=True,
                                      env=env, timeout=60)
            self.assertEqual(silenced.stderr, quiet.stderr)
            self.assertNotIn("probing", quiet.stderr)

    def test_a_file_without_read_permission_is_reported(self):
        if os.geteuid() == 0:
            self.skipTest("running as root, where mode 000 does not stop reads (the FIFO and "
                          "dangling symlink cases cover unreadable files for root)")
        locked = self.full("a/locked.parquet")
        with open(self.full("top.parquet"), "rb") as src, open(locked, "wb") as dst:
            dst.write(src.read())
        os.chmod(locked, 0)
        try:
            result = self.probe([self.root, "--column", "id", "5"], 1)
        finally:
            os.chmod(locked, stat.S_IRUSR | stat.S_IWUSR)
        self.assertRegex(result.stderr, r"(?m)^blockbloom: skipped %s: ." % re.escape(locked))
        self.assertNotIn(locked, result.stdout)
        # A directory a pattern meets that cannot be listed is reported as
        # skipped, as the walk reports one (glob used to pass over it silently).
        sub = self.full("b/sub")
        os.chmod(sub, 0)
        try:
            result = self.probe([os.path.join(self.root, "b", "*", "*.parquet"), "--column", "id",
                                 "5"], 2)
        finally:
            os.chmod(sub, stat.S_IRWXU)
        self.assertIn("blockbloom: skipped %s: the directory cannot be listed: " % sub,
                      result.stderr)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
