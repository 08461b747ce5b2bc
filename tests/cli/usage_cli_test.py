#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`blockbloom --help`, `COMMAND --help` and `--version`: the usage text names
every command and flag, each command its own; a usage mistake names the
problem and that command's --help in two lines.

usage: usage_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import ToolTestCase, info_json, own_stderr  # noqa: E402


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


class PerCommandHelp(ToolTestCase):
    """`blockbloom COMMAND --help` (also -h, `blockbloom help COMMAND`) prints
    that command's usage and exits 0; a usage mistake inside a command names
    that command's --help; --help alone shows every command."""

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
            "probe": ("--filter FILE", "--offset K", "--count", "--bits", "--json",
                      "VALUE<TAB>maybe|absent", "--allow-trailing",
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

    # (words, the problem's words, the help command the error names): one
    # mistake for every command and subcommand.
    MISTAKES = (
        (["build", "--bogus"], "unknown flag --bogus", "blockbloom build"),
        (["probe", "--layout"], "missing value for --layout", "blockbloom probe"),
        (["union", "a"], "union needs two filter files (got 1)", "blockbloom union"),
        (["info", "--yaml"], "unknown flag --yaml", "blockbloom info"),
        (["join-demo", "--bogus"], "unknown flag --bogus", "blockbloom join-demo"),
        (["tune", "extra"], 'unexpected argument "extra"', "blockbloom tune"),
        (["parquet"], "missing list or probe", "blockbloom parquet"),
        (["parquet", "lsit"], 'unknown command "lsit"', "blockbloom parquet"),
        (["parquet", "list"], "missing FILE", "blockbloom parquet list"),
        (["parquet", "probe", "f", "v"], "missing --column", "blockbloom parquet probe"),
        ([], "missing command", "blockbloom"),
        (["frobnicate"], 'unknown command "frobnicate"', "blockbloom"),
    )

    def test_a_usage_mistake_names_the_problem_and_that_commands_help(self):
        """At most two lines on stderr: the message, then the --help to run
        (which works); nothing on stdout; exit status 2."""
        for args, problem, help_command in self.MISTAKES:
            with self.subTest(args=args):
                result = self.assertFails(args, problem, usage=True)
                lines = own_stderr(result).splitlines()
                self.assertEqual(lines, ["blockbloom: " + lines[0][len("blockbloom: "):],
                                         "run '%s --help' for usage" % help_command])
                self.assertIn(problem, lines[0])
                helped = self.run_ok(help_command.split()[1:] + ["--help"]).stdout
                self.assertTrue(helped.startswith("usage:\n"), helped[:80])
                self.assertIn("  %s " % help_command, helped)

    def test_help_of_an_unknown_command_is_an_error(self):
        self.assertFails(["help", "frobnicate"], 'unknown command "frobnicate"', usage=True)
        self.assertFails(["help", "build", "probe"], "at most one command", usage=True)


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


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
