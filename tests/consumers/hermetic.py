# SPDX-License-Identifier: Apache-2.0
"""What every consumer step of run_consumers.py shares: a clean environment,
running commands in it, and checking which libblockbloom a program loads.

A consumer test must test what a user gets, so nothing of the environment it
was started in may help: `meson test` puts the build folder on
LD_LIBRARY_PATH, a developer's shell may have PKG_CONFIG_PATH or
CMAKE_PREFIX_PATH set. clean_env() is built from nothing: a minimal PATH, a
HOME of the test's own, and only what a step adds itself (the prefix under
test). The ccache settings are kept (they decide where compiled objects are
cached, never what is compiled)."""
import os
import re
import shutil
import subprocess

MINIMAL_PATH = "/usr/bin:/bin"


class Failure(Exception):
    pass


def log(message):
    print(message, flush=True)


def clean_env(home, **extra):
    """The environment of every command: PATH, HOME, a C locale, the ccache
    settings, and `extra` (None values are left out)."""
    env = {"PATH": MINIMAL_PATH, "HOME": home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    for name, value in os.environ.items():
        if name.startswith("CCACHE_"):
            env[name] = value
    if "CCACHE_DIR" not in env and shutil.which("ccache"):
        # HOME is the test's: keep the user's cache where it was.
        found = subprocess.run(["ccache", "-k", "cache_dir"], capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.strip():
            env["CCACHE_DIR"] = found.stdout.strip()
    env.update({k: v for k, v in extra.items() if v is not None})
    return env


def run(command, env, cwd=None, check=True):
    """Runs command in env; its output is logged (the end of it); a non-zero
    exit is a Failure when check. Returns the CompletedProcess."""
    shown = {k: v for k, v in env.items() if k not in ("PATH", "HOME", "LANG", "LC_ALL")
             and not k.startswith("CCACHE_")}
    prefix = " ".join("%s=%s" % kv for kv in sorted(shown.items()))
    log("$ " + (prefix + " " if prefix else "") + " ".join(command))
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    if result.stdout.strip():
        log(result.stdout.rstrip()[-4000:])
    if result.stderr.strip():
        log(result.stderr.rstrip()[-4000:])
    if check and result.returncode != 0:
        raise Failure("%s exited %d" % (command[0], result.returncode))
    return result


def loaded_blockbloom(program_args, env, cwd=None):
    """The real paths of the libblockbloom files the loader opened to run
    program_args (LD_DEBUG=libs: the loader names every library it
    initialises), and the program's stdout. A program that fails is a Failure."""
    result = subprocess.run(program_args, env=dict(env, LD_DEBUG="libs"), cwd=cwd,
                            capture_output=True, text=True)
    if result.returncode != 0:
        log(result.stderr[-4000:])
        raise Failure("%s exited %d" % (program_args[0], result.returncode))
    opened = re.findall(r"calling init: (\S*libblockbloom\S*)", result.stderr)
    return sorted({os.path.realpath(p) for p in opened}), result.stdout


def check_loads(program_args, env, expected_library, name, cwd=None):
    """program_args runs in env and the loader opens exactly expected_library
    (a path; None: no libblockbloom at all, a static link)."""
    opened, out = loaded_blockbloom(program_args, env, cwd)
    expected = [] if expected_library is None else [os.path.realpath(expected_library)]
    if opened != expected:
        raise Failure("%s loaded %s, expected %s" % (name, opened or "no libblockbloom",
                                                     expected or "none (static)"))
    log("%s: loaded %s" % (name, opened[0] if opened else "no libblockbloom (static)"))
    return out


def check_consumer(program, version, env, expected_library, name):
    """A consumer program (consumer.c / consumer.cc) reports the version and
    loads expected_library."""
    out = check_loads([program, version], env, expected_library, name)
    if ("blockbloom " + version) not in out:
        raise Failure("%s did not report blockbloom %s: %r" % (name, version, out))


def is_build_folder(folder, name):
    """Meson build folders (they hold meson-private), .git and caches: what a
    copy of the source tree leaves out."""
    return (name in (".git", "__pycache__", ".pytest_cache") or name.startswith(".mesonpy-")
            or os.path.isdir(os.path.join(folder, name, "meson-private")))


def copy_source_tree(source_root, dest):
    """A copy of the source tree without build folders (symlinks kept as links)."""
    shutil.copytree(source_root, dest, symlinks=True,
                    ignore=lambda folder, names: [n for n in names if is_build_folder(folder, n)])
