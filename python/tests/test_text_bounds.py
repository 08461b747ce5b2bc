# SPDX-License-Identifier: Apache-2.0
"""Time and memory of every text entrance of the Python package for inputs of
pathological shape: huge exponents (as Decimal, str and float text), millions
of digits, 100 MB str / bytes values, deeply nested column paths.

Each group of cases runs in a child process, so that a hang or an
out-of-memory kill fails the test, not the test runner. The child is started
by a small launcher (LAUNCHER) that forks it and reports its peak RSS from
wait4: a process forked from this one would count this process's memory in
its peak. Every case must be refused (ValueError, which blockbloom.Error is,
TypeError, or OverflowError for an int no float holds) or answered, each within CASE_SECONDS, the child's peak RSS
within its group's bound. The bounds are generous for a noisy shared
2-core machine; what they catch is a cost that grows with the text's
exponent (Decimal("1E+999999999") took 17.5 s and 1.9 GB) or with its length
squared (a missing 400 KB column path took 40 s).
"""
import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "support"))
from parquet_files import (DOUBLE_TYPE, FIXED_LEN_BYTE_ARRAY, Column,  # noqa: E402
                           bloom_header, build_parquet, deep_column_parquet)

MIB = 1 << 20
CASE_SECONDS = 5.0
# Peak RSS of a child: the interpreter with numpy and blockbloom is ~40 MB.
SMALL_TEXT_PEAK = 300 * MIB       # exponents, 5 MB digit strings, deep paths
HUNDRED_MB_PEAK = 400 * MIB       # a 100 MB value held by the child, and its hashing

LAUNCHER = """
import os, sys, time
pid = os.fork()
if pid == 0:
    try:
        os.execv(sys.executable, [sys.executable] + sys.argv[2:])
    finally:
        os._exit(127)
start = time.monotonic()
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write("%d %d %r" % (os.waitstatus_to_exitcode(status), usage.ru_maxrss, time.monotonic() - start))
"""

# The child's side: run(cases) runs (name, callable) pairs one by one and
# appends each outcome to argv[1] as a JSON line.
CHILD_HEAD = """
import json, sys, time
from decimal import Decimal
import blockbloom as bb
import blockbloom.parquet as bp

def run(cases):
    with open(sys.argv[1], "a") as out:
        for name, call in cases:
            start = time.monotonic()
            try:
                answer = call()
                outcome, message = "answered", repr(answer)[:200]
            except (ValueError, TypeError, OverflowError) as e:  # blockbloom.Error is a ValueError
                outcome, message = "refused", "%s: %s" % (type(e).__name__, e)
            except BaseException as e:  # MemoryError, RecursionError, ...: a failure
                outcome, message = "failed", "%s: %s" % (type(e).__name__, e)
            seconds = time.monotonic() - start
            out.write(json.dumps({"case": name, "seconds": seconds, "outcome": outcome,
                                  "message": message[:300], "message_len": len(message)}) + "\\n")
            out.flush()
"""


def run_child(tmp_path, body, timeout=120):
    """Runs CHILD_HEAD + body in a launched child; returns (cases, peak bytes, seconds)."""
    script = tmp_path / "child.py"
    script.write_text(CHILD_HEAD + textwrap.dedent(body))
    results, report = tmp_path / "results.jsonl", tmp_path / "report.txt"
    if results.exists():
        results.unlink()
    proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(report), str(script), str(results)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        pytest.fail("the child still ran after %d s (a hang, or a cost that grows with the text)" % timeout)
    with open(report) as f:
        code, peak_kib, seconds = f.read().split()
    cases = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    assert int(code) == 0, "child exited %s after %d cases: %s" % (code, len(cases), output.decode()[-2000:])
    return cases, int(peak_kib) * 1024, float(seconds)


def check_cases(cases, peak, bound, expected_count):
    assert len(cases) == expected_count, [c["case"] for c in cases]
    for c in cases:
        assert c["outcome"] in ("answered", "refused"), c
        assert c["seconds"] < CASE_SECONDS, c
        # A message shows a value's start, not all of it.
        assert c["message_len"] < 4096, c
    assert peak < bound, "peak RSS %.0f MiB, bound %.0f MiB" % (peak / MIB, bound / MIB)


def small_file(tmp_path):
    """A Parquet file of a DOUBLE, a FLOAT16 and a DECIMAL(38,10) column, each with an empty filter."""
    blob = bloom_header(32) + bytes(32)
    columns = [Column("d", DOUBLE_TYPE), Column("h", FIXED_LEN_BYTE_ARRAY, type_length=2, logical=("FLOAT16",)),
               Column("m", FIXED_LEN_BYTE_ARRAY, type_length=16, logical=("DECIMAL", 10, 38))]
    data, _ = build_parquet(columns, [[{"filter": blob}] * 3])
    path = tmp_path / "small.parquet"
    path.write_bytes(data)
    return str(path)


# Values whose text is short but whose exponent is huge, and values of
# millions of digits; entrances that take each (every typed and untyped
# path that makes or reads number text).
HUGE_TEXT_VALUES = """
MILLION = "1" * 5_000_000
VALUES = {
    "Decimal 1E+999999999": Decimal("1E+999999999"),
    "Decimal -1E+999999999": Decimal("-1E+999999999"),
    "Decimal 1E-999999999": Decimal("1E-999999999"),
    "Decimal 9E+999999999999999999": Decimal("9E+999999999999999999"),
    "Decimal 1E-999999999999999999": Decimal("1E-999999999999999999"),
    "str 1E+999999999": "1E+999999999",
    "str 1e-999999999": "1e-999999999",
    "str 30-digit exponent": "1e999999999999999999999999999999",
    "str hex 0x1p999999999": "0x1p999999999",
    "Decimal of 5M digits": Decimal(MILLION),
    "Decimal 0.(5M digits)E-999999": Decimal("0." + MILLION + "E-999999"),
    "str of 5M digits": MILLION,
    "str 0.(5M digits)e-999999999": "0." + MILLION + "e-999999999",
    "int of 1M digits": 1 << 3_400_000,
}
"""


def test_huge_exponents_and_millions_of_digits_cost_their_length(tmp_path):
    body = textwrap.dedent(HUGE_TEXT_VALUES) + textwrap.dedent("""
    def filt(type, layout="parquet"):
        return bb.Filter(ndv=100, fpp=0.01, type=type, layout=layout)
    ENTRANCES = {
        "parquet double find": lambda v: filt("double").find_values(v),
        "parquet double insert": lambda v: filt("double").insert_values([v]),
        "parquet float find": lambda v: filt("float").find_values(v),
        "parquet float16 find": lambda v: filt("float16").find_values(v),
        "parquet decimal(9,2) find": lambda v: filt("decimal(9,2)").find_values(v),
        "parquet decimal(38,10) find": lambda v: filt("decimal(38,10)").find_values(v),
        "parquet int64 find": lambda v: filt("int64").find_values(v),
        "kudu double find": lambda v: filt("double", "kudu").find_values(v),
        "kudu float find": lambda v: filt("float", "kudu").find_values(v),
        "kudu decimal(9,2) find": lambda v: filt("decimal(9,2)", "kudu").find_values(v),
        "kudu int64 insert": lambda v: filt("int64", "kudu").insert_values([v]),
        "parquet_hash double": lambda v: bb.parquet_hash(v, type="double"),
        "parquet_hash decimal(38,10)": lambda v: bb.parquet_hash(v, type="decimal(38,10)"),
        "kudu_hash double (untyped)": lambda v: bb.kudu_hash(v, type="double"),
        "kudu_hash float (untyped)": lambda v: bb.kudu_hash(v, type="float"),
        "untyped kudu filter double": lambda v: bb.Filter(ndv=100, fpp=0.01, layout="kudu").find_values(
            [v], type="double"),
        "probe DOUBLE": lambda v: bp.probe(sys.argv[2], "d", [v]),
        "probe FLOAT16": lambda v: bp.probe(sys.argv[2], "h", [v]),
        "probe DECIMAL(38,10)": lambda v: bp.probe(sys.argv[2], "m", [v]),
    }
    run([("%s <- %s" % (e, v), (lambda call, value: lambda: call(value))(call, value))
         for v, value in VALUES.items() for e, call in ENTRANCES.items()])
    """)
    path = small_file(tmp_path)
    body = body.replace("sys.argv[2]", repr(path))
    cases, peak, _ = run_child(tmp_path, body)
    check_cases(cases, peak, SMALL_TEXT_PEAK, 14 * 19)
    by_case = {c["case"]: c for c in cases}
    # The short texts with huge exponents are out of every type's range: never answered True.
    for value in ("Decimal 1E+999999999", "Decimal 1E-999999999", "str 1E+999999999", "Decimal 9E+999999999999999999"):
        for entrance in ("kudu double find", "kudu_hash double (untyped)", "parquet double insert",
                         "kudu decimal(9,2) find", "parquet_hash double"):
            c = by_case["%s <- %s" % (entrance, value)]
            assert c["outcome"] == "refused" or c["message"] in ("None", "False"), c


def test_untyped_names_refuse_a_decimal_they_cannot_hold():
    """The five untyped names (kudu_hash, Kudu filters without a type) took
    Decimal through float(): 1E+400 became inf, 1E-300 a float 0.0. Now a
    Decimal goes through the type's text rule, as into a typed filter: the
    nearest value, refused when out of range."""
    import decimal

    import blockbloom

    for value, type_name in ((decimal.Decimal("1E+400"), "double"), (decimal.Decimal("-1E+400"), "double"),
                             (decimal.Decimal("1E-400"), "double"), (decimal.Decimal("1E-300"), "float"),
                             (decimal.Decimal("1E+39"), "float")):
        with pytest.raises(ValueError, match="out of range"):
            blockbloom.kudu_hash(value, type=type_name)
        f = blockbloom.Filter(ndv=100, fpp=0.01, layout="kudu")
        with pytest.raises(ValueError, match="out of range"):
            f.find_values([value], type=type_name)
        if type_name == "double":
            with pytest.raises(ValueError, match="out of range"):
                blockbloom.kudu_hash(value)  # inferred: double
    # In range: the nearest double / float, the hash of that float.
    assert blockbloom.kudu_hash(decimal.Decimal("0.1"), type="double") == blockbloom.kudu_hash(0.1, type="double")
    assert blockbloom.kudu_hash(decimal.Decimal("0.1"), type="float") == blockbloom.kudu_hash(0.1, type="float")
    assert blockbloom.kudu_hash(decimal.Decimal("1E-300"), type="double") == blockbloom.kudu_hash(1e-300)
    assert blockbloom.kudu_hash(decimal.Decimal("-0")) == blockbloom.kudu_hash(-0.0)
    assert blockbloom.kudu_hash(decimal.Decimal("NaN")) == blockbloom.kudu_hash(float("nan"))
    # Ints stay ints: a Decimal is no int64 (as before).
    with pytest.raises(TypeError, match="expected an int"):
        blockbloom.kudu_hash(decimal.Decimal("5"), type="int64")


def test_untyped_names_refuse_booleans():
    """True is an int to Python; hashed untyped it was the int64 1. Refused, as
    typed filters and numpy bool arrays are."""
    import numpy as np

    import blockbloom

    for value in (True, False, np.bool_(True)):
        for type_name in (None, "int32", "int64", "float", "double"):
            with pytest.raises(TypeError, match="cannot hash a bool"):
                blockbloom.kudu_hash(value, type=type_name)
        f = blockbloom.Filter(ndv=100, fpp=0.01, layout="kudu")
        with pytest.raises(TypeError, match="cannot hash a bool"):
            f.find_values([1, value], type="int64")
        with pytest.raises(TypeError, match="cannot hash a bool"):
            f.find_values([value])
    assert blockbloom.kudu_hash(1, type="int64") == blockbloom.kudu_hash(1)  # an int still is one


def test_hundred_megabyte_values_cost_a_small_multiple_of_their_size(tmp_path):
    body = """
    N = 100 << 20
    def filt(type, layout="parquet"):
        return bb.Filter(ndv=100, fpp=0.01, type=type, layout=layout)
    def insert_find(f, value):
        return f.insert_values(value), f.find_values(value)
    def cases(value, kind):
        return [
            (kind + " parquet string insert+find", lambda: insert_find(filt("string"), value)),
            (kind + " parquet binary find", lambda: filt("binary").find_values(value)),
            (kind + " parquet double find", lambda: filt("double").find_values(value)),
            (kind + " parquet decimal(38,2) find", lambda: filt("decimal(38,2)").find_values(value)),
            (kind + " parquet int64 find", lambda: filt("int64").find_values(value)),
            (kind + " parquet date find", lambda: filt("date").find_values(value)),
            (kind + " parquet uuid find", lambda: filt("uuid").find_values(value)),
            (kind + " parquet float16 find", lambda: filt("float16").find_values(value)),
            (kind + " parquet_hash string", lambda: bb.parquet_hash(value, type="string")),
            (kind + " kudu string insert+find", lambda: insert_find(filt("string", "kudu"), value)),
            (kind + " kudu double find", lambda: filt("double", "kudu").find_values(value)),
            (kind + " kudu_hash string (untyped)", lambda: bb.kudu_hash(value, type="string")),
            (kind + " probe DOUBLE", lambda: bp.probe(sys.argv[2], "d", [value])),
            (kind + " as a type name", lambda: bb.Filter(ndv=100, fpp=0.01, type=value)),
        ]
    value = "7" * N
    run(cases(value, "str") + [
        ("str as a layout", lambda: bb.Filter(ndv=100, fpp=0.01, layout=value)),
        ("str as a sizing", lambda: bb.Filter(ndv=100, fpp=0.01, sizing=value)),
        ("str as an ISA name", lambda: bb.select_isa(value)),
        ("str as a kudu_hash type name", lambda: bb.kudu_hash(1, type=value)),
    ])
    del value
    value = b"7" * N
    run(cases(value, "bytes"))
    """
    body = body.replace("sys.argv[2]", repr(small_file(tmp_path)))
    cases, peak, _ = run_child(tmp_path, body)
    check_cases(cases, peak, HUNDRED_MB_PEAK, 32)
    by_case = {c["case"]: c for c in cases}
    assert by_case["str parquet string insert+find"]["message"] == "(None, True)"
    assert by_case["bytes kudu string insert+find"]["message"] == "(None, True)"
    assert by_case["str parquet double find"]["outcome"] == "refused"
    assert "(104857600 characters)" in by_case["str parquet double find"]["message"]


def test_deeply_nested_column_paths_cost_their_length(tmp_path):
    depth = 5000
    data = deep_column_parquet(depth)
    path = tmp_path / "deep.parquet"
    path.write_bytes(data)
    body = """
    DEPTH = %d
    PATH = %r
    run([
        ("dotted path of the 5000-deep column",
         lambda: bp.probe(PATH, ".".join(["a"] * DEPTH), [1])["results"][0]["row_groups"]),
        ("names of the 5000-deep column", lambda: bp.probe(PATH, ["a"] * DEPTH, [1])["results"][0]["row_groups"]),
        ("a missing 5001-deep dotted path", lambda: bp.probe(PATH, ".".join(["a"] * (DEPTH + 1)), [1])),
        ("a missing 200000-deep dotted path", lambda: bp.probe(PATH, ".".join(["b"] * 200000), [1])),
        ("200000 names, missing", lambda: bp.probe(PATH, ["a"] * 200000, [1])),
        ("a 5 MB name, missing", lambda: bp.probe(PATH, "a" * 5_000_000, [1])),
        ("load_filter of 200000 names", lambda: bp.load_filter(PATH, ["a"] * 200000, 0)),
    ])
    """ % (depth, str(path))
    cases, peak, _ = run_child(tmp_path, body)
    assert len(cases) == 7
    for c in cases:
        assert c["outcome"] in ("answered", "refused"), c
        assert c["seconds"] < CASE_SECONDS, c
    assert peak < SMALL_TEXT_PEAK, "peak RSS %.0f MiB" % (peak / MIB)
    by_case = {c["case"]: c for c in cases}
    assert "'maybe': False" in by_case["dotted path of the 5000-deep column"]["message"]
    assert "'maybe': False" in by_case["names of the 5000-deep column"]["message"]
    for name in ("a missing 5001-deep dotted path", "a missing 200000-deep dotted path", "200000 names, missing",
                 "a 5 MB name, missing"):
        assert by_case[name]["outcome"] == "refused" and "no column" in by_case[name]["message"], by_case[name]


def test_the_launcher_measures_the_child_not_this_process(tmp_path):
    """The bounds above mean something only if a child that grows is seen
    growing: one that holds 200 MB reports at least that."""
    cases, peak, _ = run_child(tmp_path, """
    run([("hold 200 MB", lambda: len(bytearray(200 << 20)))])
    """)
    assert cases[0]["outcome"] == "answered"
    assert peak > 200 * MIB
    small, small_peak, _ = run_child(tmp_path, """
    run([("nothing", lambda: 0)])
    """)
    assert small_peak < 150 * MIB, small_peak / MIB
