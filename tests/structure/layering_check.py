#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Public and internal stay apart, and every include runs downward.

usage: layering_check.py SOURCE_ROOT

docs/architecture.md's layering, checked on the source tree:

1. Includes run one way: include/blockbloom (the public API) includes only
   itself; within src/ the folders are ordered core < kernels < dispatch <
   hashing < filter < columns < parquet/values < parquet/format <
   filter_file (a folder includes itself, those below it and the public
   headers); src/'s own files, status.cc and tools_interface.h, are above
   them all.
2. tools/ includes the public headers, tools/ and one internal header,
   src/tools_interface.h (the named interface the tools may use); python/src
   includes the public headers and its own files only. Every include names
   its file from the repo root (public headers from include/; python/src,
   its own extension, from its folder): no file is found only through an
   extra include directory.
3. Everything src/ defines is in namespace blockbloom::internal (or a
   namespace inside it, or an anonymous one in a .cc file); blockbloom::
   alone is the public C++ API.
4. No name with the public prefix (bb_, BB_) appears in src/ or tools/
   unless the public headers declare it: internal C names use bbi_.

Tests and benchmarks may reach into the internals (they test and measure
them), so they are not checked. Before scanning, it proves on planted text
that it would find each kind of fault.

Exit status: 0 clean, 1 a fault found (file:line printed) or the self-check
failed, 2 bad usage.
"""
import os
import re
import sys

from source_files import source_files

SOURCE_SUFFIXES = (".h", ".cc", ".cpp")
# src/ folders, lowest first: a file may include its own folder and those before it.
SRC_ORDER = ["core", "kernels", "dispatch", "hashing", "filter", "columns",
             "parquet/values", "parquet/format", "filter_file"]
TOOLS_INTERFACE = "src/tools_interface.h"
# Both forms: <src/...> finds a repo file through the repo-root include path as
# "src/..." does, so an angle include must not pass for a system header.
INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]([^">]+)[">]', re.M)
PUBLIC_PREFIX = re.compile(r"(?<![A-Za-z0-9_])(?:bb|BB)_[A-Za-z0-9_]+")


def layer_of(rel):
    """(kind, rank) of a repo-relative path; rank orders the internal layers."""
    parts = rel.split("/")
    if parts[0] == "include":
        return ("public", 0)
    if parts[0] == "src":
        for rank, folder in enumerate(SRC_ORDER):
            if rel.startswith("src/" + folder + "/"):
                return ("internal", 1 + rank)
        return ("internal", 1 + len(SRC_ORDER))
    if parts[0] == "tools":
        return ("tools", None)
    if parts[:2] == ["python", "src"]:
        return ("python", None)
    return ("other", None)


def resolve(root, including, name):
    """The repo-relative file an include names, or None (not found so: a
    system header, or a repo file named by a path from some other folder).
    Includes name files from the repo root (public headers from include/);
    python/src, built as its own extension, names its files from its folder."""
    bases = ["", "include"]
    if including.startswith("python/src/"):
        bases.insert(0, os.path.dirname(including))
    for base in bases:
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def names_a_repo_file(repo_files, name):
    """Whether some repo file's path ends in name (an include that only an
    extra include directory can find)."""
    suffix = "/" + name
    return any(f == name or f.endswith(suffix) for f in repo_files)


def include_fault(rel, target):
    """Why rel may not include target (both repo-relative), or None."""
    kind, rank = layer_of(rel)
    tkind, trank = layer_of(target)
    if kind == "public":
        return None if tkind == "public" else "a public header includes an internal one"
    if kind == "internal":
        if tkind == "public":
            return None
        if tkind != "internal":
            return "an internal file includes %s code" % tkind
        return None if trank <= rank else "an include runs up a layer"
    if kind == "tools":
        if tkind in ("public", "tools") or target == TOOLS_INTERFACE:
            return None
        return "tools include an internal header other than " + TOOLS_INTERFACE
    if kind == "python":
        return None if tkind in ("public", "python") else "python/src includes a non-public header"
    return None


def include_line_fault(root, repo_files, rel, name):
    """Why rel's include of name is wrong, or None (also for a system header)."""
    target = resolve(root, rel, name)
    if target:
        return include_fault(rel, target)
    # A path relative to the including file ("../../src/x.h") reaches a repo
    # file the include rule would judge: no such path, whatever it names.
    beside = os.path.normpath(os.path.join(os.path.dirname(rel), name))
    if names_a_repo_file(repo_files, name) or beside in repo_files:
        return "not a path from the repo root (the one include root)"
    return None  # a system header


def strip_comments_and_strings(text):
    """text with comments, string and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def namespace_faults(rel, text):
    """Line numbers of top-level namespaces other than blockbloom::internal."""
    code = strip_comments_and_strings(text)
    opener = re.compile(r"\bnamespace\s*([A-Za-z0-9_:]*)\s*\{")
    faults = []
    depth = 0
    i = 0
    while i < len(code):
        m = opener.match(code, i) if code[i] == "n" else None
        if m and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] == "_")):
            name = m.group(1)
            if depth == 0:
                ok = name == "blockbloom::internal" or name.startswith("blockbloom::internal::")
                ok = ok or (name == "" and rel.endswith(".cc"))
                if not ok:
                    faults.append(code.count("\n", 0, i) + 1)
            depth += 1
            i = m.end()
            continue
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
        i += 1
    return faults


# A public header's table rows declare names by token pasting
# (parquet_types.h: the row X(INT32, 1, 4, 0) and BB_PARQUET_##name make
# BB_PARQUET_INT32): each row's first argument under each pasted prefix.
TABLE_ROW = re.compile(r"^\s*X\((\w+)", re.M)
PASTED_PREFIX = re.compile(r"(?<![A-Za-z0-9_])((?:bb|BB)_\w*)\s*##")


def header_names(text):
    names = set(PUBLIC_PREFIX.findall(text))
    rows = TABLE_ROW.findall(text)
    for prefix in PASTED_PREFIX.findall(text):
        names.update(prefix + row for row in rows)
    return names


def public_names(root):
    names = set()
    for rel in source_files(root, ["include/blockbloom"]):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            names.update(header_names(f.read()))
    return names


def prefix_faults(text, public):
    code = strip_comments_and_strings(text)
    return [code.count("\n", 0, m.start()) + 1 for m in PUBLIC_PREFIX.finditer(code)
            if m.group(0) not in public]


def self_check():
    up = include_fault("src/core/block_op.h", "src/filter/layout_ops.h")
    across = include_fault("src/filter/combine.cc", "src/columns/column_ops.h")
    tool = include_fault("tools/x/y.cc", "src/dispatch/dispatcher.h")
    public_down = include_fault("include/blockbloom/blockbloom.hpp", "src/filter/layout_ops.h")
    fine = [include_fault("src/parquet/format/parquet_file.cc", "src/hashing/byte_order.h"),
            include_fault("tools/x/y.cc", TOOLS_INTERFACE),
            include_fault("src/tools_interface.h", "src/parquet/format/pread_file.h")]
    ns_bad = namespace_faults("src/x.cc", "namespace blockbloom {\nint f();\n}\n")
    ns_good = namespace_faults(
        "src/x.cc", "namespace blockbloom::internal {\nnamespace parquet {\n}\n}\n"
        "namespace {\nconst char* s = \"namespace blockbloom {\";\n}\n")
    prefix = prefix_faults('int bb_secret_helper(void);\n// bb_in_a_comment\n', {"bb_find"})
    pasted = header_names("#define BB_T(X) \\\n  X(INT32, 1)\n#define ROW_(n, c) BB_P_##n = c,\n")
    planted_files = {"tools/x/y.cc", "src/filter/layout_ops.h"}
    escapes = [include_line_fault("/nonexistent", planted_files, "tools/x/y.cc",
                                  "../../src/filter/layout_ops.h"),
               include_line_fault("/nonexistent", planted_files, "tools/x/y.cc", "cstdint")]
    roots = [names_a_repo_file({"tools/common/cli_error.h"}, "common/cli_error.h"),
             names_a_repo_file({"tools/common/cli_error.h"}, "cpuinfo_x86.h")]
    return (all([up, across, tool, public_down]) and fine == [None] * 3 and ns_bad == [1] and
            ns_good == [] and prefix == [1] and roots == [True, False] and
            escapes[0] is not None and escapes[1] is None and
            INCLUDE.findall("#include <src/x.h>\n#include \"a/b.h\"\n") == ["src/x.h", "a/b.h"] and
            "BB_P_INT32" in pasted and "BB_P_INT64" not in pasted)


def sources(root, top):
    """The C and C++ sources under top, as git sees the tree (tests/structure/source_files.py):
    a generated or stray file git ignores is no source of the project."""
    return source_files(root, [top], SOURCE_SUFFIXES)


def main():
    if len(sys.argv) != 2 or not os.path.isdir(os.path.join(sys.argv[1], "src")):
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    if not self_check():
        print("FAIL: the self-check did not find a planted fault (or flagged a good line)")
        return 1
    public = public_names(root)
    repo_files = set()
    for top in ("include", "src", "tools", "python/src"):
        repo_files.update(sources(root, top))
    faults = []
    for top in ("include", "src", "tools", "python/src"):
        for rel in sources(root, top):
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                why = include_line_fault(root, repo_files, rel, m.group(1))
                if why:
                    line = text.count("\n", 0, m.start()) + 1
                    faults.append("%s:%d: #include \"%s\": %s" % (rel, line, m.group(1), why))
            if top == "src":
                for line in namespace_faults(rel, text):
                    faults.append("%s:%d: a namespace outside blockbloom::internal" % (rel, line))
            if top in ("src", "tools"):
                for line in prefix_faults(text, public):
                    faults.append("%s:%d: a bb_/BB_ name the public headers do not declare"
                                  % (rel, line))
    for fault in faults:
        print(fault)
    if faults:
        print("FAIL: %d fault(s); see docs/architecture.md, 'Public and internal'" % len(faults))
        return 1
    print("ok: includes run downward, tools use only %s of the internals, internals are in "
          "blockbloom::internal and use no public prefix" % TOOLS_INTERFACE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
