#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Consumer tests: blockbloom used the ways an engine would adopt it, each in a
clean environment (hermetic.py: no LD_LIBRARY_PATH, a minimal PATH, only the
prefix under test visible to pkg-config and CMake), with the loader checked
to open the library of that prefix (LD_DEBUG=libs) or none (static links).

usage: run_consumers.py --meson MESON --build-root DIR --source-root DIR
                        --prefix P --libdir L --includedir I --datadir D --version X.Y.Z

Installs the build into a temporary DESTDIR (meson install --destdir
--no-rebuild; the configured prefix, so nothing outside the temporary folder
is written), checks the installed files (the library chain, the .pc file, the
CMake package, the headers, and the README with every docs/*.md it names),
then builds and runs against it:
  pkg-config shared: consumer.c (C99, -Werror) with an rpath, consumer.cc
      (C++17) run with LD_LIBRARY_PATH; the flags are exactly the include
      folder and -lblockbloom (no Highway or xxHash package needed or named),
      --static adds exactly cpu_features, libstdc++, libm;
  CMake: find_package(blockbloom 0.1 CONFIG REQUIRED) through
      CMAKE_PREFIX_PATH (tests/consumers/cmake/, also as C++14, raised to
      C++17 by the imported target's cxx_std_17);
  static: a second, library-only release build (-Ddefault_library=static)
      installed the same way; its archive references no Highway or xxHash
      symbol; consumer.c linked through pkg-config --static, dynamically and
      fully static (-static), and the CMake project against it;
  Meson parents (meson_parents.py): a link and a wrap file, each under a
      debug and a release parent; static, nothing of blockbloom installed;
      their timed_probe (timed_probe.c) within 1.2x of the same probe against
      the installed library (timing.py; the build under test is an optimized
      one: scripts/test builds debugoptimized);
  vendored: the two sh blocks of docs/embedding.md run as printed (the
      library with its links and SONAME, then a program linked with an rpath);
  README prefix: README's custom-prefix sh block run as printed in a copy of
      the source tree (HOME a temporary folder), then a CMake project in the
      same shell.
Each program checks inserts, finds, false positives and the version.

Exit status: 0 all passed, 1 a failure, 77 (meson's "skipped") when nothing
could run: under the emulated-CPU matrix or a forced ISA (BLOCKBLOOM_TEST_WRAPPER
or BLOCKBLOOM_ISA set: packaging does not depend on the CPU, and the native
suite runs this once), or when a required tool (cc, c++, pkg-config, ninja,
cmake, nm, readelf) is missing.
"""
import argparse
import glob
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

import doc_blocks
import meson_parents
import timing
from hermetic import Failure, check_consumer, check_loads, clean_env, copy_source_tree, log, run

HERE = os.path.dirname(os.path.abspath(__file__))
STRUCTURE = os.path.join(os.path.dirname(HERE), "structure")  # the checks of built files
JOBS = meson_parents.JOBS
WARNINGS = ["-Wall", "-Wextra", "-pedantic", "-Werror"]
REQUIRED_TOOLS = ("cc", "c++", "pkg-config", "ninja", "cmake", "nm", "readelf")


class Context:
    """What the steps share: the arguments, the work folder, the prefix under
    test (root: DESTDIR + prefix) and the reference timed probe."""

    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.home = os.path.join(work, "home")
        os.mkdir(self.home)
        self.root = os.path.join(work, "destdir") + args.prefix
        self.libdir = os.path.join(self.root, args.libdir)
        self.library = os.path.join(self.libdir, "libblockbloom.so.0")
        self.env = clean_env(self.home)
        self.reference_probe = None

    def path(self, *names):
        return os.path.join(self.work, *names)


def check_installed_files(ctx):
    args, lib = ctx.args, ctx.libdir
    expect_links = {"libblockbloom.so": "libblockbloom.so.0",
                    "libblockbloom.so.0": "libblockbloom.so." + args.version}
    for link, target in expect_links.items():
        path = os.path.join(lib, link)
        if not os.path.islink(path) or os.readlink(path) != target:
            raise Failure("installed %s is not a symlink to %s" % (path, target))
    required = [
        os.path.join(lib, "libblockbloom.so." + args.version),
        os.path.join(lib, "pkgconfig", "blockbloom.pc"),
        os.path.join(lib, "cmake", "blockbloom", "blockbloomConfig.cmake"),
        os.path.join(lib, "cmake", "blockbloom", "blockbloomConfigVersion.cmake"),
        os.path.join(ctx.root, args.includedir, "blockbloom", "blockbloom.h"),
        os.path.join(ctx.root, args.includedir, "blockbloom", "version.h"),
    ]
    for path in required:
        if not os.path.exists(path):
            raise Failure("not installed: " + path)
    # The installed headers are the public API, each function declared BB_API;
    # the implementation's headers (src/) stay in the source tree.
    headers = os.path.join(ctx.root, args.includedir, "blockbloom")
    implementation = os.path.join(args.source_root, "src")
    internal = {name for _, _, names in os.walk(implementation) for name in names
                if name.endswith(".h")}
    if not internal:
        raise Failure("no implementation headers under " + implementation)
    for name in sorted(os.listdir(headers)):
        if name in internal:
            raise Failure("internal header installed: " + name)
    run([sys.executable, os.path.join(STRUCTURE, "exports_check.py"), ctx.library, headers],
        env=ctx.env)
    log("installed: the library chain (exports only bb_*), blockbloom.pc, the CMake package, "
        "the public headers, version.h")


def check_installed_docs(ctx):
    """The installed README's docs/*.md paths hold next to it."""
    doc = os.path.join(ctx.root, ctx.args.datadir, "doc", "blockbloom")
    readme = os.path.join(doc, "README.md")
    if not os.path.exists(readme):
        raise Failure("not installed: " + readme)
    named = sorted(set(re.findall(r"\bdocs/[a-z_]+\.md\b", open(readme).read())))
    if not named:
        raise Failure("the installed README names no docs/*.md (the check looks for them)")
    missing = [n for n in named if not os.path.isfile(os.path.join(doc, n))]
    if missing:
        raise Failure("the installed README names %s, not installed next to it" % missing)
    log("installed: README.md and the %d docs it names (%s)" % (len(named), ", ".join(named)))


def relocated_pc_dir(args, root, folder):
    """A copy of the installed blockbloom.pc with prefix= pointing into the
    temporary install; every other path in it must derive from ${prefix}.

    (pkg-config --define-prefix cannot do this on Debian: it takes the prefix
    to be two folders above the .pc file, <root>/lib for a multiarch libdir
    lib/x86_64-linux-gnu/pkgconfig.)"""
    installed = os.path.join(root, args.libdir, "pkgconfig", "blockbloom.pc")
    lines = open(installed).read().splitlines()
    if lines[0] != "prefix=" + args.prefix:
        raise Failure("blockbloom.pc's first line is %r, not prefix=%s" % (lines[0], args.prefix))
    for line in lines[1:]:
        if args.prefix + "/" in line:
            raise Failure("blockbloom.pc names the prefix outside ${prefix}: %r" % line)
    os.mkdir(folder)
    with open(os.path.join(folder, "blockbloom.pc"), "w") as f:
        f.write("\n".join(["prefix=" + root] + lines[1:]) + "\n")
    return folder


def pkg_config_env(ctx, root, name):
    """Only the prefix under test: PKG_CONFIG_LIBDIR replaces pkg-config's
    search path, so no system .pc file (libhwy.pc, libxxhash.pc) is visible."""
    return clean_env(ctx.home, PKG_CONFIG_LIBDIR=relocated_pc_dir(ctx.args, root, ctx.path(name)))


def expect_flags(flags, expected, what):
    if sorted(flags) != sorted(expected):
        raise Failure("%s gave %s, expected exactly %s" % (what, flags, expected))


def pkg_config_shared(ctx):
    args = ctx.args
    env = pkg_config_env(ctx, ctx.root, "pkgconfig")
    include = "-I" + os.path.join(ctx.root, args.includedir)
    libdir = "-L" + ctx.libdir
    flags = run(["pkg-config", "--cflags", "--libs", "blockbloom"], env=env).stdout.split()
    expect_flags(flags, [include, libdir, "-lblockbloom"], "pkg-config --cflags --libs")
    static = run(["pkg-config", "--static", "--libs", "blockbloom"], env=env).stdout.split()
    expect_flags(static, [libdir, "-lblockbloom", "-lcpu_features", "-lstdc++", "-lm"],
                 "pkg-config --static --libs")
    modversion = run(["pkg-config", "--modversion", "blockbloom"], env=env).stdout.strip()
    if modversion != args.version:
        raise Failure("pkg-config --modversion: %s, expected %s" % (modversion, args.version))

    rpath = "-Wl,-rpath," + ctx.libdir
    c_exe = ctx.path("consumer_c")
    run(["cc", "-std=c99"] + WARNINGS + [os.path.join(HERE, "consumer.c"), "-o", c_exe]
        + flags + [rpath], env=env)
    check_consumer(c_exe, args.version, ctx.env, ctx.library, "pkg-config C99 (rpath)")
    cpp_exe = ctx.path("consumer_cpp")
    run(["c++", "-std=c++17"] + WARNINGS + [os.path.join(HERE, "consumer.cc"), "-o", cpp_exe]
        + flags, env=env)
    check_consumer(cpp_exe, args.version, clean_env(ctx.home, LD_LIBRARY_PATH=ctx.libdir),
                   ctx.library, "pkg-config C++17 (LD_LIBRARY_PATH)")
    probe = ctx.path("timed_probe_installed")
    run(["cc", "-std=c99", "-O2"] + WARNINGS + [os.path.join(HERE, "timed_probe.c"), "-o", probe]
        + flags + [rpath], env=env)
    check_loads([probe], ctx.env, ctx.library, "timed probe, installed library")
    ctx.reference_probe = probe


def cmake_build(ctx, root, expected_library, name):
    """find_package through CMAKE_PREFIX_PATH=root; the programs load
    expected_library (None: linked statically)."""
    args = ctx.args
    build = ctx.path(name)
    env = clean_env(ctx.home, CMAKE_PREFIX_PATH=root)
    run(["cmake", "-S", os.path.join(HERE, "cmake"), "-B", build, "-DCMAKE_BUILD_TYPE=Release",
         "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"], env=env)
    cache = open(os.path.join(build, "CMakeCache.txt")).read()
    expected_dir = os.path.join(root, args.libdir, "cmake", "blockbloom")
    if "blockbloom_DIR:PATH=" + expected_dir not in cache:
        raise Failure("CMake found blockbloom elsewhere than %s" % expected_dir)
    run(["cmake", "--build", build, "--parallel", JOBS], env=env)
    # consumer_cpp14 asks for C++14: it builds only because the imported
    # target's cxx_std_17 raises it (blockbloom.hpp refuses pre-C++17).
    for program in ("consumer_c", "consumer_cpp", "consumer_cpp14"):
        check_consumer(os.path.join(build, program), args.version, ctx.env, expected_library,
                       "%s %s" % (name, program))


def static_archive(ctx):
    args = ctx.args
    build = ctx.path("static-build")
    root = ctx.path("static-destdir") + args.prefix
    run([args.meson, "setup", build, args.source_root, "--buildtype=release",
         "-Ddefault_library=static", "-Dtests=false", "-Dtools=false", "-Dbenchmarks=false",
         "-Dpython=disabled", "--prefix", args.prefix, "--libdir", args.libdir,
         "--includedir", args.includedir], env=ctx.env)
    run(["ninja", "-C", build, "-j", JOBS], env=ctx.env)
    run([args.meson, "install", "-C", build, "--destdir", ctx.path("static-destdir"),
         "--no-rebuild", "--quiet"], env=ctx.env)
    meson_parents.check_archive_imports(os.path.join(root, args.libdir, "libblockbloom.a"))
    env = pkg_config_env(ctx, root, "pkgconfig-static")
    flags = run(["pkg-config", "--cflags", "--static", "--libs", "blockbloom"],
                env=env).stdout.split()
    source = os.path.join(HERE, "consumer.c")
    dynamic_exe = ctx.path("consumer_static_archive")
    run(["cc", "-std=c99"] + WARNINGS + [source, "-o", dynamic_exe] + flags, env=env)
    if "libblockbloom" in run(["readelf", "-d", dynamic_exe], env=env).stdout:
        raise Failure("the consumer linked with --static still needs a shared libblockbloom")
    check_consumer(dynamic_exe, args.version, ctx.env, None, "pkg-config --static")
    static_exe = ctx.path("consumer_fully_static")
    run(["cc", "-static", "-std=c99"] + WARNINGS + [source, "-o", static_exe] + flags, env=env)
    if "There is no dynamic section" not in run(["readelf", "-d", static_exe], env=env).stdout:
        raise Failure("cc -static made a program with a dynamic section")
    check_consumer(static_exe, args.version, ctx.env, None, "pkg-config --static, cc -static")
    cmake_build(ctx, root, None, "cmake-static")


def meson_subprojects(ctx):
    if ctx.reference_probe is None:
        raise Failure("no reference probe: the pkg-config step failed")
    probes = {"installed library (pkg-config)": ([ctx.reference_probe], ctx.env)}
    for how in ("symlink", "wrap"):
        for buildtype in ("debug", "release"):
            probe = meson_parents.build_parent(ctx.args, ctx.env, ctx.work, how, buildtype)
            probes["subproject by %s, %s parent" % (how, buildtype)] = ([probe], ctx.env)
    timing.compare(probes, "installed library (pkg-config)")


def check_vendored_library(ctx, out):
    version = ctx.args.version
    links = {"libblockbloom.so": "libblockbloom.so.0",
             "libblockbloom.so.0": "libblockbloom.so." + version}
    for link, target in links.items():
        if os.readlink(os.path.join(out, link)) != target:
            raise Failure("%s/%s is not a link to %s" % (out, link, target))
    library = os.path.join(out, "libblockbloom.so." + version)
    dynamic = run(["readelf", "-d", library], env=ctx.env).stdout
    if "Library soname: [libblockbloom.so.0]" not in dynamic:
        raise Failure("the vendored library's SONAME is not libblockbloom.so.0")
    if platform.machine() == "x86_64":
        run([sys.executable, os.path.join(STRUCTURE, "tier_instructions_check.py"), library],
            env=ctx.env)
    run([sys.executable, os.path.join(STRUCTURE, "exports_check.py"), library,
         os.path.join(ctx.args.source_root, "include", "blockbloom")], env=ctx.env)
    return library


def vendored(ctx):
    """docs/embedding.md's two sh blocks, as printed: the build, then a
    program linked with an rpath (APP: README's C example)."""
    blocks = doc_blocks.fenced(os.path.join(ctx.args.source_root, "docs", "embedding.md"), "sh")
    if len(blocks) != 2:
        raise Failure("docs/embedding.md has %d sh blocks, expected the build and the link"
                      % len(blocks))
    out = ctx.path("vendored")
    app = ctx.path("vendored-app.c")
    with open(app, "w") as f:
        f.write(doc_blocks.readme_c_example(os.path.join(ctx.args.source_root, "README.md")))
    env = clean_env(ctx.home, VERSION=ctx.args.version, OUT=out, APP=app)
    for block in blocks:
        run(["bash", "-euo", "pipefail", "-c", block], env=env, cwd=ctx.args.source_root)
    library = check_vendored_library(ctx, out)
    check_loads([os.path.join(out, "app")], ctx.env, library, "vendored build's program (rpath)")


def readme_prefix(ctx):
    """README's custom-prefix block as printed, in a copy of the source tree
    with app.c (README's C example) on top, HOME a folder of its own; then,
    in the same shell, the CMake project (CMAKE_PREFIX_PATH from the block)."""
    readme = os.path.join(ctx.args.source_root, "README.md")
    block = doc_blocks.only_block(readme, "sh", 'meson setup build-prefix --prefix="$P"')
    source = ctx.path("readme-src")
    copy_source_tree(ctx.args.source_root, source)
    with open(os.path.join(source, "app.c"), "w") as f:
        f.write(doc_blocks.readme_c_example(readme))
    home = ctx.path("readme-home")
    os.mkdir(home)
    env = clean_env(home)
    cmake = ("\ncmake -S tests/consumers/cmake -B cmake-build -DCMAKE_BUILD_TYPE=Release"
             " -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"
             "\ncmake --build cmake-build --parallel %s\n" % JOBS)
    run(["bash", "-euo", "pipefail", "-c", block + cmake], env=env, cwd=source)
    # The block installs the library alone: no Python extension is built for it.
    extensions = glob.glob(os.path.join(source, "build-prefix", "**", "_core*.so"), recursive=True)
    if extensions:
        raise Failure("README's library-only prefix install built the Python extension: %s" % extensions)
    multiarch = run(["gcc", "-print-multiarch"], env=env).stdout.strip()
    libdir = os.path.join(home, "opt", "blockbloom", "lib", multiarch)
    library = os.path.join(libdir, "libblockbloom.so.0")
    check_loads([os.path.join(source, "app")], env, library, "README prefix: app (rpath)")
    check_loads([os.path.join(source, "app-plain")], clean_env(home, LD_LIBRARY_PATH=libdir),
                library, "README prefix: app-plain (LD_LIBRARY_PATH)")
    cache = open(os.path.join(source, "cmake-build", "CMakeCache.txt")).read()
    if "blockbloom_DIR:PATH=" + os.path.join(libdir, "cmake", "blockbloom") not in cache:
        raise Failure("the README prefix's CMake project found blockbloom elsewhere")
    check_consumer(os.path.join(source, "cmake-build", "consumer_c"), ctx.args.version, env,
                   library, "README prefix: CMake consumer_c")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for flag in ("--meson", "--build-root", "--source-root", "--prefix", "--libdir",
                 "--includedir", "--datadir", "--version"):
        parser.add_argument(flag, required=True)
    args = parser.parse_args()
    args.source_root = os.path.realpath(args.source_root)
    for variable in ("BLOCKBLOOM_TEST_WRAPPER", "BLOCKBLOOM_ISA"):
        if os.environ.get(variable):
            log("SKIPPED: %s is set (an emulated or forced-ISA row); the consumer tests run "
                "once, in the native suite" % variable)
            return 77
    missing = [t for t in REQUIRED_TOOLS
               if shutil.which(t, path=clean_env("/").get("PATH")) is None]
    if missing:
        log("SKIPPED: missing %s (scripts/install-deps installs them)" % ", ".join(missing))
        return 77

    with tempfile.TemporaryDirectory(prefix="blockbloom-consumers-") as work:
        ctx = Context(args, work)
        try:
            run([args.meson, "install", "-C", args.build_root, "--destdir",
                 ctx.path("destdir"), "--no-rebuild", "--quiet"], env=ctx.env)
            check_installed_files(ctx)
            check_installed_docs(ctx)
        except Failure as e:
            log("FAIL: install: %s" % e)
            return 1
        steps = [("pkg-config shared", pkg_config_shared),
                 ("CMake", lambda c: cmake_build(c, c.root, c.library, "cmake-shared")),
                 ("static archive", static_archive),
                 ("Meson subprojects", meson_subprojects),
                 ("vendored (docs/embedding.md)", vendored),
                 ("README custom prefix", readme_prefix)]
        failures = []
        for name, step in steps:
            log("== " + name)
            try:
                step(ctx)
                log("== %s: passed" % name)
            except (Failure, OSError, subprocess.SubprocessError) as e:
                log("FAIL: %s: %s" % (name, e))
                failures.append(name)
        if failures:
            log("FAILED: " + ", ".join(failures))
            return 1
    log("all consumer tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
