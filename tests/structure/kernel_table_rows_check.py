#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The kernel table's rows cannot pair a field with another entry's kernel.

src/core/kernel_table.h lists the table's entries as rows; the struct and
every tier's initialiser (src/kernels/kernel_table-inl.h) are generated from
them. This check compiles the scalar tier from a copy of src/core/ and src/kernels/ with one
edit at a time and expects:
  - the copy as it is compiles (so a failure below is the edit's doing);
  - two rows' kernels swapped (find_batch_bitmap with find_batch_bitmap_and,
    union_bytes with intersect_bytes: the swaps a positional initialiser
    compiled) fail, with the initialiser's message naming the row;
  - two whole rows swapped compile: the struct and the initialiser follow
    the rows, so their order is free;
  - a field added to the struct outside the rows fails to compile.

Usage: kernel_table_rows_check.py CXX SOURCE_ROOT GENERATED_INCLUDE_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

TABLE = os.path.join("src", "core", "kernel_table.h")
TIER = os.path.join("src", "kernels", "scalar", "scalar_kernels.cc")


class Failure(Exception):
    pass


def once(text, part):
    if text.count(part) != 1:
        raise Failure(f"{TABLE}: expected {part.strip()!r} once, found it {text.count(part)} times")


def swap_kernels(field_a, kernel_a, field_b, kernel_b):
    """The edit giving row field_a the kernel kernel_b and row field_b kernel_a."""
    def edit(text):
        row_a, row_b = f"{field_a}, {kernel_a},", f"{field_b}, {kernel_b},"
        once(text, row_a)
        once(text, row_b)
        return (text.replace(row_a, "\0").replace(row_b, f"{field_b}, {kernel_a},")
                .replace("\0", f"{field_a}, {kernel_b},"))
    return edit


def swap_rows(row_a, row_b):
    """The edit exchanging two whole one-line rows."""
    def edit(text):
        once(text, row_a)
        once(text, row_b)
        return text.replace(row_a, "\0").replace(row_b, row_a).replace("\0", row_b)
    return edit


def add_field(text):
    anchor = "  BBI_TIER_KERNEL_ROWS(BBI_TIER_KERNEL_FIELD)\n"
    once(text, anchor)
    return text.replace(anchor, anchor + "  void (*hand_written)(void);\n")


UNION_ROW = "  X(union_bytes, UnionBytes, void, (uint8_t* dst, const uint8_t* src, size_t num_bytes))"
INTERSECT_ROW = ("  X(intersect_bytes, IntersectBytes, void, "
                 "(uint8_t* dst, const uint8_t* src, size_t num_bytes))")

# (what, edit of src/core/kernel_table.h or None, the error the compile must
# fail with or None: it must compile)
CASES = [
    ("the tree as it is", None, None),
    ("find_batch_bitmap and find_batch_bitmap_and kernels swapped",
     swap_kernels("find_batch_bitmap", "FindBatchBitmap",
                  "find_batch_bitmap_and", "FindBatchBitmapAnd"),
     "the row of find_batch_bitmap names FindBatchBitmapAnd"),
    ("union_bytes and intersect_bytes kernels swapped",
     swap_kernels("union_bytes", "UnionBytes", "intersect_bytes", "IntersectBytes"),
     "the row of union_bytes names IntersectBytes"),
    ("the union_bytes and intersect_bytes rows swapped", swap_rows(UNION_ROW, INTERSECT_ROW), None),
    ("a field outside the rows", add_field, "has a field outside the rows"),
]


def compile_tier(cxx, root, generated, edit, work):
    copy = os.path.join(work, "tree")
    shutil.rmtree(copy, ignore_errors=True)
    for folder in ("src/core", "src/kernels"):
        shutil.copytree(os.path.join(root, folder), os.path.join(copy, folder))
    table = os.path.join(copy, TABLE)
    with open(table, encoding="utf-8") as f:
        text = f.read()
    edited = text if edit is None else edit(text)
    if edit is not None and edited == text:
        raise Failure("the edit changed nothing")
    with open(table, "w", encoding="utf-8") as f:
        f.write(edited)
    # The copy first: its src/core/ and src/kernels/ headers shadow the tree's.
    command = [cxx, "-std=c++17", "-fsyntax-only", "-I", copy, "-I", root,
               "-I", os.path.join(root, "include"), "-I", generated, os.path.join(copy, TIER)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    cxx, root, generated = sys.argv[1:]
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        for what, edit, error in CASES:
            try:
                result = compile_tier(cxx, root, generated, edit, work)
            except Failure as e:
                print(f"FAIL {what}: {e}")
                failed += 1
                continue
            if error is None and result.returncode != 0:
                print(f"FAIL {what}: should compile, did not:\n{result.stderr}")
                failed += 1
            elif error is not None and result.returncode == 0:
                print(f"FAIL {what}: compiled, should have failed with {error!r}")
                failed += 1
            elif error is not None and error not in result.stderr:
                print(f"FAIL {what}: failed without {error!r}:\n{result.stderr}")
                failed += 1
            else:
                print(f"ok   {what}: " + ("compiles" if error is None else f"fails with {error!r}"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
