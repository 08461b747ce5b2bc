#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""docs/architecture.md's recipes are true, and every registry row followed them.

usage: recipes_check.py SOURCE_ROOT

1. The recipes. Each of the sections "How to add an ISA tier", "How to add
   an operation" and "How to add a Parquet logical type" ends in a line
   "**Touches outside tests (N...):** `path`, `path`, ..." (to the next
   blank line). Every repo path
   the section names must exist; N must be the number of distinct files on
   that line, none of them under tests/; every file outside tests/ that a
   numbered step names must be on it, and every file on it named by a step
   (so the count is the steps' files, no more, no fewer).
2. The operation registry: for every row of BBI_LAYOUT_KERNEL_ROWS
   (src/core/kernel_table.h) the recipe's steps are done: its kernel is
   written in a src/kernels/ file (step 2), an operation of
   src/filter/layout_ops.h or build_ops.h calls it (step 3), a Parquet and a
   Kudu entry point in src/filter/filter_ops.cc reach that operation (step
   4), each declared BB_API in blockbloom.h / kudu.h, one of them wrapped in
   blockbloom.hpp's / kudu.hpp's layout policy, and a per-ISA test (one
   instantiated for every tier) names the row's field or an entry point.
3. The Parquet logical types: for every row of BB_PARQUET_LOGICAL_TYPES
   (include/blockbloom/parquet_types.h), either it has a rule in
   src/parquet/values/value_rules.cc (step 2) and then a name in
   type_parse.cc (step 3), its text rule in parquet_value.h (step 4), a row
   in docs/formats.md's "Values as text" table (step 5) and a case in
   tests/parquet/parquet_value_test.cc; or docs/formats.md's table lists it as
   unsupported. Every row's code is in tests/parquet/parquet_type_table_test.cc.
The tier recipe is checked by building it: dummy_tier_check (the registry
row of scripts/test-matrix) adds one tier row and nothing else.

Before reading the tree, it proves on planted input (the tree with one file
edited) that it finds each kind of fault, naming the missing step.

Exit status: 0 clean, 1 a fault found (printed) or the self-check failed,
2 bad usage.
"""
import os
import re
import sys

ARCHITECTURE = "docs/architecture.md"
RECIPES = ["How to add an ISA tier", "How to add an operation",
           "How to add a Parquet logical type"]
TOUCHES = re.compile(r"^\*\*Touches outside tests \((\d+)[^)]*\):\*\*((?:.|\n(?!\n))*)", re.M)
TOP_DIRS = ("src/", "include/", "tests/", "tools/", "docs/", "scripts/", "python/",
            "bench/", "abi/", "cmake/")
ROOT_FILES = ("meson.build", "meson_options.txt", "CHANGELOG.md", "README.md",
              "blockbloom.map")
CODE = re.compile(r"`([^`\n]+)`")

KERNEL_TABLE = "src/core/kernel_table.h"
LAYOUT_OPS = ("src/filter/layout_ops.h", "src/filter/build_ops.h")
FILTER_OPS = "src/filter/filter_ops.cc"
PER_ISA = re.compile(r"\b(?:BB_INSTANTIATE_PER_ISA|COLTEST_INSTANTIATE_PER_TIER)\b")

PARQUET_TYPES = "include/blockbloom/parquet_types.h"
VALUE_RULES = "src/parquet/values/value_rules.cc"
# An annotation more than one rule reads (INTEGER's width and sign) is read
# once, in the type tables' header, and counts as the rule's.
TYPE_TABLE = "src/parquet/values/type_table.h"
TYPE_PARSE = "src/parquet/values/type_parse.cc"
PARQUET_VALUE = "include/blockbloom/parquet_value.h"
FORMATS = "docs/formats.md"
VALUE_TEST = "tests/parquet/parquet_value_test.cc"
TYPE_TABLE_TEST = "tests/parquet/parquet_type_table_test.cc"


class Tree:
    """The source tree, read-only, with planted edits laid over it."""

    def __init__(self, root, edits=None):
        self.root = root
        self.edits = edits or {}
        self.cache = {}

    def exists(self, rel):
        if rel in self.edits:
            return self.edits[rel] is not None
        return os.path.exists(os.path.join(self.root, rel.rstrip("/")))

    def read(self, rel):
        if rel in self.edits:
            return self.edits[rel] or ""
        if rel not in self.cache:
            with open(os.path.join(self.root, rel), encoding="utf-8") as f:
                self.cache[rel] = f.read()
        return self.cache[rel]

    def files_under(self, top, suffixes):
        found = []
        for dirpath, _, names in os.walk(os.path.join(self.root, top)):
            for name in names:
                if name.endswith(suffixes):
                    found.append(os.path.relpath(os.path.join(dirpath, name), self.root))
        found += [p for p in self.edits if p.startswith(top) and p not in found]
        return sorted(found)

    def with_edit(self, rel, text):
        edits = dict(self.edits)
        edits[rel] = text
        return Tree(self.root, edits)


def is_path(token):
    return token.startswith(TOP_DIRS) or token in ROOT_FILES


def section(text, title):
    """The text of the '## title' section, or None."""
    m = re.search(r"^## " + re.escape(title) + r"\s*$", text, re.M)
    if not m:
        return None
    end = re.search(r"^## ", text[m.end():], re.M)
    return text[m.end():m.end() + end.start()] if end else text[m.end():]


def numbered_steps(body):
    """The numbered steps' text: a line '1. ...' and its indented continuation."""
    steps, current = [], None
    for line in body.split("\n"):
        if re.match(r"^\d+\. ", line):
            current = [line]
            steps.append(current)
        elif current is not None and line.startswith("   ") and line.strip():
            current.append(line)
        else:
            current = None
    return ["\n".join(s) for s in steps]


def recipe_faults(tree, title):
    doc = tree.read(ARCHITECTURE)
    body = section(doc, title)
    if body is None:
        return ["%s: no section '## %s'" % (ARCHITECTURE, title)]
    faults = []
    for token in CODE.findall(body):
        if is_path(token) and not tree.exists(token):
            faults.append("'%s' names %s, which does not exist" % (title, token))
    m = TOUCHES.search(body)
    if not m:
        return faults + ["'%s' has no line '**Touches outside tests (N):** ...'" % title]
    stated = int(m.group(1))
    listed = []
    for token in CODE.findall(m.group(2)):
        if not is_path(token):
            faults.append("'%s': its Touches line names `%s`, not a repo path" % (title, token))
        elif token not in listed:
            listed.append(token)
    for path in listed:
        if path.startswith("tests/"):
            faults.append("'%s': its Touches line counts %s, a test" % (title, path))
    if stated != len(listed):
        faults.append("'%s' says it touches %d files outside tests but lists %d: %s"
                      % (title, stated, len(listed), ", ".join(listed)))
    stepped = set()
    for step in numbered_steps(body):
        for token in CODE.findall(step):
            if is_path(token) and not token.startswith("tests/") and not token.endswith("/"):
                stepped.add(token)
    for path in sorted(stepped - set(listed)):
        faults.append("'%s': a step touches %s, which its Touches line does not count"
                      % (title, path))
    for path in listed:
        if path not in stepped:
            faults.append("'%s': its Touches line counts %s, which no step names" % (title, path))
    return faults


def macro_body(text, name):
    """The body of '#define name(...)' (its continuation lines joined)."""
    m = re.search(r"#define\s+" + name + r"\([^)]*\)", text)
    if not m:
        return ""
    lines = []
    for line in text[m.end():].split("\n"):
        lines.append(line)
        if not line.rstrip().endswith("\\"):
            break
    return "\n".join(lines)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def functions(text, name_pattern):
    """{name: body} of the top-level functions in text whose name matches:
    a body runs from its name to the next line that is just '}'."""
    out = {}
    for m in re.finditer(r"\b(" + name_pattern + r")\s*\(", text):
        end = text.find("\n}", m.end())
        if m.group(1) not in out:
            out[m.group(1)] = text[m.start():end if end >= 0 else len(text)]
    return out


def operation_faults(tree):
    rows = re.findall(r"X\(P,\s*(\w+),\s*(\w+),",
                      strip_comments(macro_body(tree.read(KERNEL_TABLE), "BBI_LAYOUT_KERNEL_ROWS")))
    if not rows:
        return ["%s: no rows of BBI_LAYOUT_KERNEL_ROWS found" % KERNEL_TABLE]
    kernel_sources = "\n".join(strip_comments(tree.read(p))
                               for p in tree.files_under("src/kernels", (".h", ".cc")))
    ops = {}
    for path in LAYOUT_OPS:
        ops.update(functions(strip_comments(tree.read(path)), r"\w+Op"))
    entries = functions(strip_comments(tree.read(FILTER_OPS)), r"bb_\w+")
    headers = {h: strip_comments(tree.read("include/blockbloom/" + h))
               for h in ("blockbloom.h", "kudu.h", "blockbloom.hpp", "kudu.hpp")}
    per_isa = [strip_comments(tree.read(p)) for p in tree.files_under("tests", (".cc",))]
    per_isa = [t for t in per_isa if PER_ISA.search(t)]
    faults = []
    for field, kernel in rows:
        where = "operation row %s (%s)" % (field, KERNEL_TABLE)
        if not re.search(r"\b" + kernel + r"\s*\(", kernel_sources):
            faults.append("%s: no kernel %s written in src/kernels/ (step 2)" % (where, kernel))
        callers = [op for op, body in ops.items()
                   if re.search(r"LayoutKernels<\w+>::" + kernel + r"\b", body)]
        if not callers:
            faults.append("%s: no operation in src/filter/layout_ops.h or build_ops.h calls "
                          "LayoutKernels<...>::%s (step 3)" % (where, kernel))
            continue
        reach = {}
        for layout in ("PARQUET", "KUDU"):
            reach[layout] = [name for name, body in entries.items()
                             if any(re.search(r"\b" + op + r"<BB_LAYOUT_" + layout + r"\b", body)
                                    for op in callers)]
            if not reach[layout]:
                faults.append("%s: no %s entry point in %s calls %s (step 4)"
                              % (where, layout.title(), FILTER_OPS, " or ".join(callers)))
        for layout, header, wrapper in (("PARQUET", "blockbloom.h", "blockbloom.hpp"),
                                        ("KUDU", "kudu.h", "kudu.hpp")):
            for name in reach[layout]:
                if not re.search(r"\bBB_API\b[^;]*\b" + name + r"\s*\(", headers[header]):
                    faults.append("%s: %s is not declared BB_API in include/blockbloom/%s"
                                  % (where, name, header))
            members = [m.group(1) for n in reach[layout] for m in re.finditer(
                r"static\s+constexpr\s+auto\s+(\w+)\s*=\s*" + n + r"\s*;", headers[wrapper])]
            if reach[layout] and not members:
                faults.append("%s: include/blockbloom/%s's layout policy names none of %s"
                              % (where, wrapper, ", ".join(reach[layout])))
            # The role templates (blockbloom.hpp) call a policy member as Layout::name.
            for m in members:
                if not re.search(r"\bLayout::" + m + r"\b", headers["blockbloom.hpp"]):
                    faults.append("%s: no C++ class template in include/blockbloom/blockbloom.hpp "
                                  "calls Layout::%s (step 5)" % (where, m))
        names = [field, "kudu_" + field] + reach.get("PARQUET", []) + reach.get("KUDU", [])
        if not any(re.search(r"\b" + n + r"\b", t) for t in per_isa for n in names):
            faults.append("%s: no per-ISA test (BB_INSTANTIATE_PER_ISA) names %s"
                          % (where, " or ".join(names)))
    return faults


def values_table(formats):
    """The rows of docs/formats.md's "Values as text" table, as lists of cells."""
    body = section(formats, "Values as text (`parquet_value.h`)") or ""
    rows = []
    for line in body.split("\n"):
        if line.startswith("|---"):
            continue
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip("|").split("|")])
        elif rows:
            break
    return rows[1:]


def logical_type_faults(tree):
    names = re.findall(r"X\((\w+),\s*\d+\)",
                       strip_comments(macro_body(tree.read(PARQUET_TYPES), "BB_PARQUET_LOGICAL_TYPES")))
    if not names:
        return ["%s: no rows of BB_PARQUET_LOGICAL_TYPES found" % PARQUET_TYPES]
    rules = strip_comments(tree.read(VALUE_RULES)) + strip_comments(tree.read(TYPE_TABLE))
    parse = strip_comments(tree.read(TYPE_PARSE))
    header = tree.read(PARQUET_VALUE)
    table = values_table(tree.read(FORMATS))
    value_test = tree.read(VALUE_TEST)
    table_test = tree.read(TYPE_TABLE_TEST)
    supported_rows = [r[0] for r in table if len(r) > 1 and not r[1].startswith("unsupported")]
    unsupported_rows = [r[0] for r in table if len(r) > 1 and r[1].startswith("unsupported")]
    faults = []
    for name in names:
        where = "logical type row %s (%s)" % (name, PARQUET_TYPES)
        enum = "BB_PARQUET_LOGICAL_" + name
        word = re.compile(r"\b" + name + r"\b")
        if not re.search(r'"' + name + r'"', table_test):
            faults.append("%s: %s does not test its code" % (where, TYPE_TABLE_TEST))
        if not re.search(r"\b" + enum + r"\b", rules):
            if not any(word.search(cell) for cell in unsupported_rows):
                faults.append("%s: no rule in %s (step 2), and %s's Values as text table "
                              "does not list it as unsupported" % (where, VALUE_RULES, FORMATS))
            continue
        if not re.search(r"\b" + enum + r"\b", parse):
            faults.append("%s: no name for bb_parquet_type_parse in %s (step 3)" % (where, TYPE_PARSE))
        if not word.search(header):
            faults.append("%s: %s does not give its text rule (step 4)" % (where, PARQUET_VALUE))
        if not any(word.search(cell) for cell in supported_rows):
            faults.append("%s: no row in %s's Values as text table (step 5)" % (where, FORMATS))
        if not re.search(r"\b" + enum + r"\b", value_test):
            faults.append("%s: %s has no case of it" % (where, VALUE_TEST))
    return faults


def all_faults(tree):
    faults = []
    for title in RECIPES:
        faults += recipe_faults(tree, title)
    return faults + operation_faults(tree) + logical_type_faults(tree)


def self_check(tree):
    """Each planted fault is found, by a message naming what is missing."""
    doc = tree.read(ARCHITECTURE)
    kernel_table = tree.read(KERNEL_TABLE)
    parquet_types = tree.read(PARQUET_TYPES)
    new_row = ("  X(P, find_nothing, FindNothing, L, size_t, (const uint8_t* blocks))"
               "                      \\\n")
    anchor = "#define BBI_LAYOUT_KERNEL_ROWS(X, P, H, L)"
    start = kernel_table.find("\n", kernel_table.find(anchor)) + 1
    logical_anchor = "  X(STRING, 1)"
    touches = TOUCHES.search(doc)
    if not (touches and anchor in kernel_table and logical_anchor in parquet_types):
        return ["the self-check's anchors are missing from the tree"]
    count_at = touches.start(1)
    planted = {
        "a path that does not exist":
            (ARCHITECTURE, doc.replace("row in best-first position in `src/core/isa.h`",
                                       "row in best-first position in `src/core/isa_gone.h`", 1),
             "does not exist"),
        "a wrong count":
            (ARCHITECTURE, doc[:count_at] + "9" + doc[touches.end(1):],
             "says it touches 9 files"),
        "a step's file left uncounted":
            (ARCHITECTURE, doc.replace("\n4. Tests:", "\n4. Also `src/dispatch/isa_choice.cc`. Tests:", 1),
             "a step touches src/dispatch/isa_choice.cc"),
        "an operation row without its steps":
            (KERNEL_TABLE, kernel_table[:start] + new_row + kernel_table[start:],
             "operation row find_nothing"),
        "a logical type row without its steps":
            (PARQUET_TYPES, parquet_types.replace(logical_anchor, "  X(NOTHING, 40) \\\n" +
                                                  logical_anchor, 1),
             "logical type row NOTHING"),
        "an entry point left undeclared":
            ("include/blockbloom/kudu.h",
             tree.read("include/blockbloom/kudu.h").replace(
                 "BB_API int bb_kudu_find_batch_select_from(", "int bb_kudu_find_batch_select_from(", 1),
             "bb_kudu_find_batch_select_from is not declared BB_API"),
        "a policy member no class template calls":
            ("include/blockbloom/blockbloom.hpp",
             tree.read("include/blockbloom/blockbloom.hpp").replace(
                 "Layout::find_batch_bitmap_and,", "Layout::find_batch_bitmap,", 1),
             "calls Layout::find_batch_bitmap_and"),
        "a logical type with a rule but no name":
            (PARQUET_TYPES, parquet_types.replace(logical_anchor, "  X(NOTHING, 40) \\\n" +
                                                  logical_anchor, 1),
             "NOTHING (include/blockbloom/parquet_types.h): no name for bb_parquet_type_parse"),
        "a logical type without its docs row":
            (FORMATS, tree.read(FORMATS).replace("| DATE |", "| DAY |", 1),
             "DATE (include/blockbloom/parquet_types.h): no row in docs/formats.md"),
    }
    rule_edit = {"a logical type with a rule but no name": (
        VALUE_RULES, tree.read(VALUE_RULES).replace(
            "lt == BB_PARQUET_LOGICAL_STRING ||",
            "lt == BB_PARQUET_LOGICAL_NOTHING || lt == BB_PARQUET_LOGICAL_STRING ||", 1))}
    failures = []
    for what, (path, text, expect) in planted.items():
        planted_tree = tree.with_edit(path, text)
        if what in rule_edit:
            planted_tree = planted_tree.with_edit(*rule_edit[what])
        found = all_faults(planted_tree)
        if not found or (expect and not any(expect in f for f in found)):
            failures.append("the self-check did not find %s (got: %s)" % (what, found))
    return failures


def main():
    if len(sys.argv) != 2 or not os.path.isfile(os.path.join(sys.argv[1], ARCHITECTURE)):
        print(__doc__, file=sys.stderr)
        return 2
    tree = Tree(sys.argv[1])
    failures = self_check(tree)
    if failures:
        for f in failures:
            print("FAIL: " + f)
        return 1
    faults = all_faults(tree)
    for f in faults:
        print("FAIL: " + f)
    if faults:
        return 1
    print("ok: the three recipes' paths exist and their counts are their steps' files; "
          "every operation and logical type row has its steps done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
