# SPDX-License-Identifier: Apache-2.0
"""Meson parent projects with blockbloom as a subproject (run_consumers.py).

Each parent (tests/consumers/meson_parent/) gets blockbloom in subprojects/
either as a link to the source tree or as a wrap file whose tarball (of the
source tree) is already in subprojects/packagecache, so that nothing is
downloaded (--wrap-mode=nodownload). It is configured with a debug or a
release build type and must then: build only the library and its own
programs (no tests, tools or benchmarks), link blockbloom statically into
them (no libblockbloom is loaded), hold an archive that references no
Highway or xxHash symbol (a debug parent must not change what it links
against), and install nothing of blockbloom's. Its timed_probe is returned,
to be timed against the installed release library."""
import glob
import hashlib
import json
import os
import shutil
import tarfile

from hermetic import MINIMAL_PATH, Failure, check_consumer, copy_source_tree, log, run

HERE = os.path.dirname(os.path.abspath(__file__))
JOBS = "2"  # keep the machine usable: other suites may run at the same time
# The parent's own programs; blockbloom_core is the internal archive the
# library is made of.
PARENT_TARGETS = {"consumer_c", "consumer_cpp", "timed_probe"}
LIBRARY_TARGETS = {"blockbloom", "blockbloom_core"}


def write_wrap(source_root, version, subprojects):
    """subprojects/blockbloom.wrap and its tarball in subprojects/packagecache
    (Meson takes a cached file whose hash matches instead of downloading)."""
    directory = "blockbloom-" + version
    cache = os.path.join(subprojects, "packagecache")
    os.makedirs(cache)
    tarball = os.path.join(cache, directory + ".tar.gz")
    staging = os.path.join(os.path.dirname(subprojects), "wrap-staging", directory)
    copy_source_tree(source_root, staging)
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(staging, arcname=directory)
    shutil.rmtree(os.path.dirname(staging))
    digest = hashlib.sha256(open(tarball, "rb").read()).hexdigest()
    with open(os.path.join(subprojects, "blockbloom.wrap"), "w") as wrap:
        wrap.write("[wrap-file]\n"
                   "directory = %s\n"
                   "source_url = https://blockbloom.invalid/%s.tar.gz\n"
                   "source_filename = %s.tar.gz\n"
                   "source_hash = %s\n\n"
                   "[provide]\n"
                   "blockbloom = blockbloom_dep\n" % (directory, directory, directory, digest))


def make_parent(args, work, name, how):
    parent = os.path.join(work, name)
    shutil.copytree(os.path.join(HERE, "meson_parent"), parent)
    for source in ("consumer.c", "consumer.cc", "timed_probe.c"):
        shutil.copy(os.path.join(HERE, source), parent)
    subprojects = os.path.join(parent, "subprojects")
    os.mkdir(subprojects)
    if how == "symlink":
        os.symlink(args.source_root, os.path.join(subprojects, "blockbloom"))
    else:
        write_wrap(args.source_root, args.version, subprojects)
    return parent


def check_archive_imports(archive):
    """The archive references no Highway or xxHash symbol: both are compiled
    in, so neither library is needed to link it, in any build type."""
    result = run(["nm", "-C", "--undefined-only", archive], env={"PATH": MINIMAL_PATH})
    bad = sorted({line.split()[-1] for line in result.stdout.splitlines()
                  if "hwy::" in line or "XXH" in line})
    if bad:
        raise Failure("%s references %s" % (archive, ", ".join(bad)))


def check_installs_nothing_of_blockbloom(args, env, build, work, name):
    destdir = os.path.join(work, name + "-destdir")
    run([args.meson, "install", "-C", build, "--destdir", destdir, "--no-rebuild"], env=env)
    installed = sorted(os.path.relpath(os.path.join(folder, f), destdir)
                       for folder, _, files in os.walk(destdir) for f in files)
    expected = [os.path.relpath(os.path.join(args.prefix, "bin", "consumer_c"), "/")]
    if installed != expected:
        raise Failure("meson install of the parent wrote %s, expected only its own %s"
                      % (installed, expected))


def build_parent(args, env, work, how, buildtype):
    """One parent, built, checked and installed; returns its timed_probe."""
    name = "meson-%s-%s" % (how, buildtype)
    parent = make_parent(args, work, name, how)
    build = os.path.join(parent, "build")
    setup = [args.meson, "setup", build, "--buildtype=" + buildtype,
             "--force-fallback-for=blockbloom", "--prefix", args.prefix]
    if how == "wrap":
        setup.append("--wrap-mode=nodownload")
    run(setup, env=env, cwd=parent)
    run(["ninja", "-C", build, "-j", JOBS], env=env)
    introspected = run([args.meson, "introspect", "--targets", build], env=env).stdout
    names = {t["name"] for t in json.loads(introspected)}
    if names != PARENT_TARGETS | LIBRARY_TARGETS:
        raise Failure("the parent built %s, expected its programs and the library %s"
                      % (sorted(names), sorted(PARENT_TARGETS | LIBRARY_TARGETS)))
    if glob.glob(os.path.join(build, "subprojects", "*", "tests")):
        raise Failure("blockbloom's tests were configured in the parent")
    archives = glob.glob(os.path.join(build, "subprojects", "*", "libblockbloom.a"))
    if len(archives) != 1:
        raise Failure("expected the subproject's libblockbloom.a, found %s" % archives)
    check_archive_imports(archives[0])
    for program in ("consumer_c", "consumer_cpp"):
        check_consumer(os.path.join(build, program), args.version, env, None,
                       "%s %s" % (name, program))
    check_installs_nothing_of_blockbloom(args, env, build, work, name)
    log("%s: passed (static archive, no Highway/xxHash imports, nothing of blockbloom "
        "installed)" % name)
    return os.path.join(build, "timed_probe")
