# SPDX-License-Identifier: Apache-2.0
"""blockbloom.parquet.probe on a file holding every Parquet logical type
(tests/support/parquet_files.py logical_types_parquet()), against its independent
model (values encoded in Python, tests/support/xxh64_model.py's XXH64 and split
block bitset), and against the blockbloom tool's --json answers.

Every stored value, as each text spelling and as Python objects (Decimal,
date, time, datetime naive and aware, uuid.UUID, bytes, str), answers maybe;
absent values answer what the model says; None is never in a filter;
refused text raises ValueError; Python and the tool agree.
"""
import json
import os
import subprocess
import sys

import pytest

import blockbloom.parquet as bp

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "support"))
from parquet_files import logical_types_parquet  # noqa: E402

DATA, CASES = logical_types_parquet(1024, row_groups=2)
IDS = [c["path"] for c in CASES]


@pytest.fixture(scope="module")
def lt_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("logical_types") / "logical_types.parquet"
    path.write_bytes(DATA)
    return str(path)


def answers(report):
    """[(maybe in row group 0, in row group 1)] per value of a probe report."""
    out = []
    for r in report["results"]:
        assert [g["row_group"] for g in r["row_groups"]] == [0, 1]
        out.append(tuple(g["maybe"] for g in r["row_groups"]))
    return out


def expect(entries, pick):
    """(values, expected answers): each value pick(entry) gives, the model's
    maybe in row group 0, absent in the empty row group 1."""
    values, want = [], []
    for entry in entries:
        for value in pick(entry):
            values.append(value)
            want.append((entry["maybe"], False))
    return values, want


def check_python(path, case, entries, pick):
    values, want = expect(entries, pick)
    if not values:
        return
    report = bp.probe(path, case["path"], values)
    assert report["column"] == case["path"]
    assert list(zip(values, answers(report))) == list(zip(values, want))


def tool_report(tool, path, case, words, flags=()):
    result = subprocess.run([tool, "parquet", "probe", path, "--column", case["path"], "--json"] +
                            list(flags) + ["--"] + list(words), capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


# ------------------------------------------------------------------ values as text and as Python objects

@pytest.mark.parametrize("case", [c for c in CASES if any(v["objects"] for v in c["stored"])],
                         ids=[c["path"] for c in CASES if any(v["objects"] for v in c["stored"])])
def test_python_objects_of_stored_values_answer_maybe(lt_file, case):
    check_python(lt_file, case, case["stored"], lambda v: v["objects"])


@pytest.mark.parametrize("case", [c for c in CASES if any(v["objects"] for v in c["absent"])],
                         ids=[c["path"] for c in CASES if any(v["objects"] for v in c["absent"])])
def test_python_objects_of_absent_values_answer_the_model(lt_file, case):
    check_python(lt_file, case, case["absent"], lambda v: v["objects"])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_text_of_stored_and_absent_values(lt_file, case):
    check_python(lt_file, case, case["stored"], lambda v: v["texts"])
    check_python(lt_file, case, case["absent"], lambda v: v["texts"])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_none_is_never_in_a_filter(lt_file, case):
    report = bp.probe(lt_file, case["path"], [None])
    assert answers(report) == [(False, False)]


@pytest.mark.parametrize("case", [c for c in CASES if c["refusals"]],
                         ids=[c["path"] for c in CASES if c["refusals"]])
def test_refused_text_raises_value_error(lt_file, case):
    for text, kind in case["refusals"]:
        with pytest.raises(ValueError) as raised:
            bp.probe(lt_file, case["path"], [text])
        message = str(raised.value)
        assert case["path"] in message, (text, kind, message)
        assert text in message or repr(text) in message, (text, kind, message)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_text_answers_agree_with_the_tool(tool, lt_file, case):
    texts = [t for v in case["stored"] + case["absent"] for t in v["texts"]]
    if not texts:
        return
    ours = bp.probe(lt_file, case["path"], texts)
    theirs = tool_report(tool, lt_file, case, texts)
    assert [r["value"] for r in theirs["results"]] == texts
    assert answers(ours) == answers(theirs)
