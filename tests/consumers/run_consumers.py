#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Consumer tests: blockbloom used the ways an engine would adopt it.

usage: run_consumers.py --meson MESON --build-root DIR --source-root DIR
                        --prefix P --libdir L --includedir I --version X.Y.Z

Installs the build into a temporary DESTDIR (meson install --destdir
--no-rebuild; the configured prefix, so nothing outside the temporary folder
is written), checks the installed files, then builds and runs against it:
  (a) consumer.c, C99 with -std=c99 -Wall -Wextra -pedantic -Werror, flags from
      pkg-config --cflags --libs blockbloom (the installed blockbloom.pc, its
      prefix= line pointed into the temporary install; see relocated_pc_dir);
  (b) consumer.cc, C++17, the same way;
  (c) cmake/, a CMake project: find_package(blockbloom 0.1 CONFIG REQUIRED) and
      target_link_libraries(... blockbloom::blockbloom), CMAKE_PREFIX_PATH
      pointing into the install; consumer.cc also from a C++14 target, which
      the imported target's cxx_std_17 raises to C++17;
  (d) meson_parent/, a Meson project with blockbloom as a subproject
      (subprojects/blockbloom links to the source tree; dependency('blockbloom')
      with a fallback, forced), which must not build blockbloom's tests, tools or
      benchmarks.
Each program inserts and finds keys, checks the false positives and the
version (bb_version() == BB_VERSION_STRING == the project version) and exits
non-zero on failure.

  (e) consumer.c against the static archive (a second, library-only build with
      -Ddefault_library=static), linked with pkg-config --static --libs;
  (f) the sources compiled without Meson by the commands printed in
      docs/embedding.md (no preprocessor definitions), checked for the tiers'
      instructions and the exports, and consumer.c linked to the result.
A fully static program (-static) is not tried: Debian's libhwy-dev ships no
libhwy.a.

Exit status: 0 all passed, 1 a failure, 77 (meson's "skipped") when nothing
could run: under the emulated-CPU matrix or a forced ISA (BLOCKBLOOM_TEST_WRAPPER
or BLOCKBLOOM_ISA set: packaging does not depend on the CPU, and the native
suite runs this once), or when a required tool (cc, c++, pkg-config) is missing.
A missing cmake skips (c) only, with a message.
"""
import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
JOBS = "2"  # keep the machine usable: other suites may run at the same time


class Failure(Exception):
    pass


def log(message):
    print(message, flush=True)


def run(command, env=None, cwd=None):
    log("$ " + " ".join(command))
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    if result.stdout.strip():
        log(result.stdout.rstrip()[-4000:])
    if result.stderr.strip():
        log(result.stderr.rstrip()[-4000:])
    if result.returncode != 0:
        raise Failure("%s exited %d" % (command[0], result.returncode))
    return result.stdout


def check_program(path, version, env, name):
    out = run([path, version], env=env)
    if ("blockbloom " + version) not in out:
        raise Failure("%s did not report blockbloom %s" % (name, version))


def check_installed_files(root, libdir, includedir, version):
    lib = os.path.join(root, libdir)
    expect_links = {"libblockbloom.so": "libblockbloom.so.0",
                    "libblockbloom.so.0": "libblockbloom.so." + version}
    for link, target in expect_links.items():
        path = os.path.join(lib, link)
        if not os.path.islink(path) or os.readlink(path) != target:
            raise Failure("installed %s is not a symlink to %s" % (path, target))
    required = [
        os.path.join(lib, "libblockbloom.so." + version),
        os.path.join(lib, "pkgconfig", "blockbloom.pc"),
        os.path.join(lib, "cmake", "blockbloom", "blockbloomConfig.cmake"),
        os.path.join(lib, "cmake", "blockbloom", "blockbloomConfigVersion.cmake"),
        os.path.join(root, includedir, "blockbloom", "blockbloom.h"),
        os.path.join(root, includedir, "blockbloom", "version.h"),
    ]
    for path in required:
        if not os.path.exists(path):
            raise Failure("not installed: " + path)
    # The installed headers are the public API, each function declared BB_API;
    # the internal kernel table header stays in the source tree.
    headers = os.path.join(root, includedir, "blockbloom")
    for name in sorted(os.listdir(headers)):
        if name in ("kernels.h", "kernel_table.h"):
            raise Failure("internal header installed: " + name)
    tests_dir = os.path.dirname(HERE)
    run([sys.executable, os.path.join(tests_dir, "exports_check.py"),
         os.path.join(lib, "libblockbloom.so.0"), headers])
    log("installed: the library chain (exports only bb_*), blockbloom.pc, the CMake package, "
        "the public headers, version.h")


def relocated_pc_dir(args, root, work, name="pkgconfig"):
    """A copy of the installed blockbloom.pc with prefix= pointing into the
    temporary install; every other path in it must derive from ${prefix}.

    (pkg-config --define-prefix cannot do this on Debian: it takes the prefix
    to be two folders above the .pc file, <root>/lib for a multiarch libdir
    lib/x86_64-linux-gnu/pkgconfig, and rewrites the system libhwy.pc's prefix
    the same way. PKG_CONFIG_SYSROOT_DIR would prefix the system packages'
    paths as well.)"""
    installed = os.path.join(root, args.libdir, "pkgconfig", "blockbloom.pc")
    lines = open(installed).read().splitlines()
    if lines[0] != "prefix=" + args.prefix:
        raise Failure("blockbloom.pc's first line is %r, not prefix=%s" % (lines[0], args.prefix))
    for line in lines[1:]:
        if args.prefix + "/" in line:
            raise Failure("blockbloom.pc names the prefix outside ${prefix}: %r" % line)
    folder = os.path.join(work, name)
    os.mkdir(folder)
    with open(os.path.join(folder, "blockbloom.pc"), "w") as f:
        f.write("\n".join(["prefix=" + root] + lines[1:]) + "\n")
    return folder


def pkg_config_builds(args, root, run_env, work):
    """(a) and (b): compile and link with pkg-config's flags, then run."""
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = relocated_pc_dir(args, root, work)
    env.pop("PKG_CONFIG_LIBDIR", None)
    env.pop("PKG_CONFIG_SYSROOT_DIR", None)
    flags = run(["pkg-config", "--cflags", "--libs", "blockbloom"], env=env).split()
    for expected in ("-I" + os.path.join(root, args.includedir),
                     "-L" + os.path.join(root, args.libdir), "-lblockbloom"):
        if expected not in flags:
            raise Failure("pkg-config flags %s lack %s" % (flags, expected))
    modversion = run(["pkg-config", "--modversion", "blockbloom"], env=env).strip()
    if modversion != args.version:
        raise Failure("pkg-config --modversion: %s, expected %s" % (modversion, args.version))
    # What a static link needs: the private requirements resolve and are listed.
    static = run(["pkg-config", "--static", "--libs", "blockbloom"], env=env).split()
    for expected in ("-lhwy", "-lxxhash", "-lcpu_features", "-lstdc++", "-lm"):
        if expected not in static:
            raise Failure("pkg-config --static --libs %s lacks %s" % (static, expected))

    c_exe = os.path.join(work, "consumer_c")
    run(["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror",
         os.path.join(HERE, "consumer.c"), "-o", c_exe] + flags)
    check_program(c_exe, args.version, run_env, "(a) C99 via pkg-config")
    log("(a) C99 via pkg-config: passed")

    cpp_exe = os.path.join(work, "consumer_cpp")
    run(["c++", "-std=c++17", "-Wall", "-Wextra", "-pedantic", "-Werror",
         os.path.join(HERE, "consumer.cc"), "-o", cpp_exe] + flags)
    check_program(cpp_exe, args.version, run_env, "(b) C++17 via pkg-config")
    log("(b) C++17 via pkg-config: passed")


def cmake_build(args, root, run_env, work):
    """(c): find_package(blockbloom 0.1 CONFIG REQUIRED)."""
    build = os.path.join(work, "cmake-build")
    env = dict(os.environ)
    env.pop("CMAKE_PREFIX_PATH", None)
    run(["cmake", "-S", os.path.join(HERE, "cmake"), "-B", build, "-DCMAKE_PREFIX_PATH=" + root,
         "-DCMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY=ON", "-DCMAKE_BUILD_TYPE=Release"],
        env=env)
    cache = open(os.path.join(build, "CMakeCache.txt")).read()
    expected_dir = os.path.join(root, args.libdir, "cmake", "blockbloom")
    if "blockbloom_DIR:PATH=" + expected_dir not in cache:
        raise Failure("CMake found blockbloom elsewhere than %s" % expected_dir)
    run(["cmake", "--build", build, "--parallel", JOBS], env=env)
    # consumer_cpp14 asks for C++14: it builds only because the imported
    # target's cxx_std_17 raises it (blockbloom.hpp refuses pre-C++17).
    for name in ("consumer_c", "consumer_cpp", "consumer_cpp14"):
        check_program(os.path.join(build, name), args.version, run_env, "(c) CMake " + name)
    log("(c) CMake find_package + blockbloom::blockbloom: passed")


def meson_subproject_build(args, work):
    """(d): blockbloom as a Meson subproject of a parent project."""
    parent = os.path.join(work, "meson-parent")
    shutil.copytree(os.path.join(HERE, "meson_parent"), parent)
    for name in ("consumer.c", "consumer.cc"):
        shutil.copy(os.path.join(HERE, name), parent)
    os.mkdir(os.path.join(parent, "subprojects"))
    os.symlink(args.source_root, os.path.join(parent, "subprojects", "blockbloom"))
    build = os.path.join(parent, "build")
    env = dict(os.environ)
    # Nothing may find an installed blockbloom: the subproject must provide it.
    env.pop("PKG_CONFIG_PATH", None)
    env.pop("CMAKE_PREFIX_PATH", None)
    run([args.meson, "setup", build, "--force-fallback-for=blockbloom", "--buildtype=plain"],
        env=env, cwd=parent)
    run(["ninja", "-C", build, "-j", JOBS], env=env)
    targets = subprocess.run([args.meson, "introspect", "--targets", build], env=env,
                             capture_output=True, text=True, check=True).stdout
    names = sorted(t["name"] for t in json.loads(targets))
    # blockbloom_core: the internal archive the shared library is made of.
    library_targets = ("blockbloom", "blockbloom_core")
    extra = [n for n in names if n not in library_targets + ("consumer_c", "consumer_cpp")]
    if extra:
        raise Failure("the parent project built more than the library: %s" % extra)
    if os.path.exists(os.path.join(build, "subprojects", "blockbloom", "tests")):
        raise Failure("blockbloom's tests were configured in the parent")
    for name in ("consumer_c", "consumer_cpp"):
        check_program(os.path.join(build, name), args.version, env, "(d) Meson " + name)
    log("(d) Meson subproject: passed (targets: %s)" % ", ".join(names))


def static_archive_build(args, work):
    """(e): the static archive (-Ddefault_library=static, a second build of the
    library alone) linked through pkg-config --static: the program must need
    no libblockbloom.so. Not a fully static (-static) program: Debian's
    libhwy-dev ships no libhwy.a."""
    build = os.path.join(work, "static-build")
    destdir = os.path.join(work, "static-destdir")
    root = destdir + args.prefix
    run([args.meson, "setup", build, args.source_root, "--buildtype=plain",
         "-Ddefault_library=static", "-Dtests=false", "-Dtools=false", "-Dbenchmarks=false",
         "--prefix", args.prefix, "--libdir", args.libdir, "--includedir", args.includedir])
    run(["ninja", "-C", build, "-j", JOBS])
    run([args.meson, "install", "-C", build, "--destdir", destdir, "--no-rebuild", "--quiet"])
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = relocated_pc_dir(args, root, work, "pkgconfig-static")
    env.pop("PKG_CONFIG_LIBDIR", None)
    env.pop("PKG_CONFIG_SYSROOT_DIR", None)
    flags = run(["pkg-config", "--cflags", "--static", "--libs", "blockbloom"], env=env).split()
    exe = os.path.join(work, "consumer_static")
    run(["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror",
         os.path.join(HERE, "consumer.c"), "-o", exe] + flags)
    if shutil.which("readelf"):
        dynamic = run(["readelf", "-d", exe])
        if "libblockbloom" in dynamic:
            raise Failure("the static consumer still needs a shared libblockbloom")
    check_program(exe, args.version, dict(os.environ), "(e) static archive via pkg-config --static")
    log("(e) static archive via pkg-config --static: passed")


def vendored_build(args, work):
    """(f): the sources compiled without Meson, by the commands of
    docs/embedding.md exactly as printed there (no preprocessor definitions),
    then checked as the Meson build is: the tiers' instructions, the exports,
    and the C99 consumer linked to the result."""
    doc = open(os.path.join(args.source_root, "docs", "embedding.md"), encoding="utf-8").read()
    blocks = re.findall(r"^```sh\n(.*?)^```", doc, flags=re.M | re.S)
    if len(blocks) != 1:
        raise Failure("docs/embedding.md has %d sh blocks, expected the one build script"
                      % len(blocks))
    out = os.path.join(work, "vendored")
    env = dict(os.environ, VERSION=args.version, OUT=out)
    run(["bash", "-euo", "pipefail", "-c", blocks[0]], env=env, cwd=args.source_root)
    library = os.path.join(out, "libblockbloom.so")
    tests_dir = os.path.dirname(HERE)
    if platform.machine() == "x86_64":
        run([sys.executable, os.path.join(tests_dir, "tier_instructions_check.py"), library])
    run([sys.executable, os.path.join(tests_dir, "exports_check.py"), library,
         os.path.join(args.source_root, "include", "blockbloom")])
    exe = os.path.join(work, "consumer_vendored")
    run(["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror",
         "-I", os.path.join(args.source_root, "include"), "-I", out,
         os.path.join(HERE, "consumer.c"), "-o", exe, library, "-Wl,-rpath," + out])
    check_program(exe, args.version, dict(os.environ), "(f) vendored sources")
    log("(f) vendored sources, built by docs/embedding.md's commands: passed")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for flag in ("--meson", "--build-root", "--source-root", "--prefix", "--libdir",
                 "--includedir", "--version"):
        parser.add_argument(flag, required=True)
    args = parser.parse_args()
    for variable in ("BLOCKBLOOM_TEST_WRAPPER", "BLOCKBLOOM_ISA"):
        if os.environ.get(variable):
            log("SKIPPED: %s is set (an emulated or forced-ISA row); the consumer tests run "
                "once, in the native suite" % variable)
            return 77
    missing = [tool for tool in ("cc", "c++", "pkg-config", "ninja") if shutil.which(tool) is None]
    if missing:
        log("SKIPPED: missing %s" % ", ".join(missing))
        return 77

    with tempfile.TemporaryDirectory(prefix="blockbloom-consumers-") as work:
        destdir = os.path.join(work, "destdir")
        root = destdir + args.prefix
        failures = []
        try:
            run([args.meson, "install", "-C", args.build_root, "--destdir", destdir,
                 "--no-rebuild", "--quiet"])
            check_installed_files(root, args.libdir, args.includedir, args.version)
        except Failure as e:
            log("FAIL: install: %s" % e)
            return 1
        run_env = dict(os.environ)
        run_env["LD_LIBRARY_PATH"] = os.path.join(root, args.libdir)
        steps = [("(a)/(b) pkg-config", lambda: pkg_config_builds(args, root, run_env, work))]
        if shutil.which("cmake"):
            steps.append(("(c) CMake", lambda: cmake_build(args, root, run_env, work)))
        else:
            log("SKIPPED (c): cmake is not installed (scripts/install-deps installs it)")
        steps.append(("(d) Meson subproject", lambda: meson_subproject_build(args, work)))
        steps.append(("(e) static archive", lambda: static_archive_build(args, work)))
        steps.append(("(f) vendored sources", lambda: vendored_build(args, work)))
        for name, step in steps:
            log("== " + name)
            try:
                step()
            except Failure as e:
                log("FAIL: %s: %s" % (name, e))
                failures.append(name)
        if failures:
            log("FAILED: " + ", ".join(failures))
            return 1
    log("all consumer tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
