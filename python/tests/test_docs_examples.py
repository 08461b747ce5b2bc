# SPDX-License-Identifier: Apache-2.0
"""docs/python.md's examples run as printed: every ```python block, in the
order of the page, in one namespace, in an empty temporary directory (the
blocks write and read their own files there). tests/support is on sys.path
for them: Debian 12 packages no pyarrow, so the guide writes its Parquet file
with the suite's writer (parquet_files.py).

A block fails the test when it raises (naming the line of docs/python.md),
and when a print() shows something else than its comment says: a comment
after `print(...)` on the same line, with the comment lines right below that
start in the same column (or, for a print with no comment of its own, the
comment lines below it in the print's column), is the output expected, with
whitespace runs compared as one space and "..." standing for any text. A
print so documented that never ran (an except branch that was not reached)
fails too."""
import builtins
import io
import os
import re
import sys
import tokenize
import traceback

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, "docs", "python.md")
SUPPORT = os.path.join(ROOT, "tests", "support")


def python_blocks(text):
    """[(line of the block's first code line in the file, code)] of every ```python block."""
    blocks = []
    for m in re.finditer(r"^```python\n(.*?)^```$", text, flags=re.S | re.M):
        first_line = text.count("\n", 0, m.start(1)) + 1
        blocks.append((first_line, m.group(1)))
    return blocks


def expected_prints(first_line, code):
    """{line of a print( in the file: the output its comments document}."""
    comments = {}  # row -> (column, text, whether code precedes it on the row)
    code_rows = set()
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        row, col = tok.start
        if tok.type == tokenize.COMMENT:
            comments[row] = (col, tok.string[1:].strip(), row in code_rows)
        elif tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                              tokenize.ENDMARKER):
            code_rows.add(row)
    lines = code.split("\n")
    expected = {}
    for row, line in enumerate(lines, start=1):
        m = re.match(r"^(\s*)print\(", line)
        if not m:
            continue
        if row in comments and comments[row][2]:
            column, parts = comments[row][0], [comments[row][1]]
        else:
            column, parts = len(m.group(1)), []
        below = row + 1
        while below in comments and not comments[below][2] and comments[below][0] == column:
            parts.append(comments[below][1])
            below += 1
        if parts:
            expected[first_line + row - 1] = " ".join(parts)
    return expected


def output_matches(expected, printed):
    words = " ".join(printed.split())
    pattern = ".*".join(re.escape(" ".join(piece.split())) for piece in expected.split("..."))
    return re.fullmatch(pattern, words, flags=re.S) is not None


def run_blocks(blocks, source):
    """Runs the blocks in order in one namespace, checking documented prints;
    a failure is an AssertionError naming source:line."""
    printed = {}  # line -> the output of its first call

    def recording_print(*args, **kwargs):
        caller = sys._getframe(1)
        buffer = io.StringIO()
        builtins.print(*args, **dict(kwargs, file=buffer))
        if caller.f_code.co_filename == source:
            printed.setdefault(caller.f_lineno, buffer.getvalue())
        builtins.print(buffer.getvalue(), end="")

    namespace = {"__name__": "__docs_example__", "print": recording_print}
    for first_line, code in blocks:
        # Compiled with its line numbers shifted to the file's, so that
        # frames and tracebacks name the lines of the page.
        compiled = compile("\n" * (first_line - 1) + code, source, "exec")
        try:
            exec(compiled, namespace)
        except Exception as e:  # noqa: BLE001 (any failure of an example is the test's failure)
            lines = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == source]
            raise AssertionError("%s:%d: the example starting at line %d raised %s: %s"
                                 % (source, lines[-1] if lines else first_line, first_line,
                                    type(e).__name__, e)) from e
        for line, expected in sorted(expected_prints(first_line, code).items()):
            if line not in printed:
                raise AssertionError("%s:%d: this print() never ran; its comment says it prints %r"
                                     % (source, line, expected))
            if not output_matches(expected, printed[line]):
                raise AssertionError("%s:%d: printed %r, its comment says %r"
                                     % (source, line, printed[line], expected))
    return namespace


def test_python_blocks_are_found():
    """The extraction itself: a page of two blocks gives both, at their lines,
    and a ```sh block is no example."""
    page = "# t\n\n```python\na = 1\n```\n\n```sh\nls\n```\ntext\n```python\nb = a + 1\n```\n"
    assert python_blocks(page) == [(4, "a = 1\n"), (12, "b = a + 1\n")]


def test_a_failing_block_names_its_line():
    blocks = python_blocks("x\n```python\nok = 1\n```\n\n```python\na = 1\nraise ValueError('no')\n```\n")
    with pytest.raises(AssertionError, match=r"page.md:8: the example starting at line 7 raised ValueError: no"):
        run_blocks(blocks, "page.md")


def test_documented_output_is_checked():
    code = ("x = [1,  2]\n"
            "print(x)            # [1, 2]\n"
            "print('a b', 'c')   # a ...\n"
            "                    # c\n"
            "# a comment of the next line, not output\n"
            "print(len(x))\n"
            "# 2\n")
    assert expected_prints(10, code) == {11: "[1, 2]", 12: "a ... c", 15: "2"}
    run_blocks([(10, code)], "page.md")
    with pytest.raises(AssertionError, match=r"page.md:1: printed '3\\n', its comment says '4'"):
        run_blocks([(1, "print(1 + 2)  # 4\n")], "page.md")
    with pytest.raises(AssertionError, match=r"page.md:4: this print\(\) never ran"):
        run_blocks([(1, "try:\n    pass\nexcept ValueError as e:\n    print(e)  # boom\n")], "page.md")


def test_docs_python_md_examples_run(tmp_path, monkeypatch):
    for module in ("pandas", "dask.dataframe"):
        pytest.importorskip(module, reason="docs/python.md's examples use pandas and Dask; %s is "
                                           "not installed" % module)
    with open(DOCS, encoding="utf-8") as fh:
        blocks = python_blocks(fh.read())
    assert len(blocks) >= 10, "docs/python.md lost its examples"
    assert sum(len(expected_prints(line, code)) for line, code in blocks) >= 20, "outputs undocumented"
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(SUPPORT)
    run_blocks(blocks, DOCS)
    # The guide's files were written where the blocks ran.
    assert (tmp_path / "customers.bbf").is_file() and (tmp_path / "orders.parquet").is_file()
