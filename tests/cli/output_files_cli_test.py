#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The shared writer of OUT (tools/blockbloom/atomic_file.cc) under hostile use:
OUT a device, FIFO, symlink or `-` (written in place, never replaced), a
signal during a build (no temporary file left), a replaced OUT keeping its
mode and owner.

usage: output_files_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import errno
import os
import signal
import stat
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import (  # noqa: E402
    FileTestCase, WRAPPER, as_raw_export, model_bitset, read_bytes, run)

TOOL = None  # set from argv by cli_support.main


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


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
