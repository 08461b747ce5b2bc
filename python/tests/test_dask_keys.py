# SPDX-License-Identifier: Apache-2.0
"""blockbloom.dask.semi_join on every key type the value model holds: the rows
of merge (so no false negative), the filter ran (its report says so, with the
filter's type, and it dropped rows), and where no filter is used a
BloomFilterNotUsed warning and a report saying why. Dask's synchronous
scheduler: each test is a fraction of a second."""
import datetime
import decimal
import warnings

import numpy as np
import pytest

try:
    import dask
    import dask.dataframe as dd
    import pandas as pd
except ImportError as e:  # the package works without Dask; these tests need it
    pytest.skip("Dask or pandas is not installed (%s): Debian's python3-dask, python3-pandas" % e,
                allow_module_level=True)

import blockbloom.dask as bbd


@pytest.fixture(autouse=True)
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


def rows(pdf):
    pdf = pdf.astype(object).where(pdf.notna(), None)
    return sorted(map(tuple, pdf.itertuples(index=False)), key=repr)


def frames(build_keys, probe_keys):
    """A build side of build_keys (2 partitions) and a probe side of probe_keys (4)."""
    build = dd.from_pandas(pd.DataFrame({"k": build_keys, "b": np.arange(len(build_keys))}), npartitions=2)
    probe = dd.from_pandas(pd.DataFrame({"k": probe_keys, "p": np.arange(len(probe_keys))}), npartitions=4)
    return build, probe


def filtered_join(probe, build, **kwargs):
    """semi_join(probe, build, on="k") with its report: no BloomFilterNotUsed
    warning, the rows of merge, and the report's totals."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", bbd.BloomFilterNotUsed)
        joined, report = bbd.semi_join(probe, build, on="k", report=True, **kwargs)
        got, partitions = dask.compute(joined, report.partitions)
        summary = report.summary(partitions)
    expected = probe.merge(build, on="k").compute()
    assert list(got.columns) == list(expected.columns)
    assert rows(got) == rows(expected)  # the same rows, so no false negative
    assert summary["filter_used"] and summary["reason"] is None and summary["build"] == "right"
    assert summary["partitions_filtered"] == probe.npartitions and summary["notes"] == []
    assert summary["rows"] == len(probe) and summary["kept"] + summary["dropped"] == summary["rows"]
    return got, summary


def sample(values, n, seed):
    rng = np.random.default_rng(seed)
    return [values[i] for i in rng.integers(0, len(values), n)]


# (a name, build keys, probe keys, the report's key_kind, the filter's type); each probe
# side has keys the build side holds, keys it does not, and nulls where the dtype has them.
INTS = np.arange(-500, 1500, 2)
STRINGS = ["id-%d" % i for i in range(2000)]
TIMES = pd.date_range("2024-01-01", periods=2000, freq="37min")
CASES = [
    *[("int%d" % bits, INTS[:300].astype("int%d" % bits) if bits > 8 else (INTS[:300] // 8).astype(np.int8),
       np.array(sample(INTS if bits > 8 else INTS // 8, 3000, bits)).astype("int%d" % bits), "int", "int64")
      for bits in (8, 16, 32, 64)],
    *[("uint%d" % bits, np.arange(0, 600, 2, dtype="uint%d" % bits) if bits > 8 else np.arange(0, 120, 2, dtype=np.uint8),
       np.array(sample(np.arange(0, 3000 if bits > 8 else 250), 3000, bits)).astype("uint%d" % bits), "int", "int64")
      for bits in (8, 16, 32, 64)],
    # merge compares integers as int64: a uint64 above 2**63 meets its wrapped int64.
    ("uint64 above 2**63 against int64", np.array([2**63 + 5, 2**64 - 1, 7], dtype=np.uint64),
     np.array([-2**63 + 5, -1, 7, 8, 9] * 200, dtype=np.int64), "int", "int64"),
    ("Int64 with nulls", pd.array(list(INTS[:300]) + [None], dtype="Int64"),
     pd.array([None if i % 50 == 0 else v for i, v in enumerate(sample(INTS, 3000, 9))], dtype="Int64"), "int", "int64"),
    ("bool", np.array([True, True]), np.array([True, False] * 500), "int", "int64"),
    ("boolean against int", pd.array([True, None], dtype="boolean"), np.array([0, 1, 2, 3] * 250), "int", "int64"),
    ("float32", INTS[:300].astype(np.float32) / 4, (np.array(sample(INTS, 3000, 5)) / 4).astype(np.float32),
     "float", "double"),
    ("float64 with NaN and -0.0", np.append(INTS[:300] / 4, [np.nan, -0.0]),
     np.append(np.array(sample(INTS, 3000, 6)) / 4, [np.nan, 0.0, np.nan]), "float", "double"),
    ("int against float", INTS[:300] / 2, np.array(sample(INTS, 3000, 7)), "float", "double"),
    ("datetime64[ns] with NaT", pd.Series(list(TIMES[:300]) + [pd.NaT]),
     pd.Series([pd.NaT if i % 97 == 0 else t for i, t in enumerate(sample(TIMES, 3000, 8))]), "datetime", "timestamp(ns)"),
    # Instants in two zones: merge compares them as UTC.
    ("tz-aware in two zones", pd.Series(TIMES[:300]).dt.tz_localize("UTC").dt.tz_convert("Asia/Tokyo"),
     pd.Series(sample(TIMES, 3000, 10)).dt.tz_localize("UTC").dt.tz_convert("America/New_York"), "datetimetz",
     "timestamp(ns,utc)"),
    ("timedelta64 with NaT", pd.Series(pd.to_timedelta(list(INTS[:300]) + [None], unit="s")),
     pd.Series(pd.to_timedelta([None if i % 61 == 0 else v for i, v in enumerate(sample(INTS, 3000, 11))], unit="s")),
     "timedelta", "int64"),
    ("period[D]", pd.Series(pd.period_range("2024-01-01", periods=300, freq="D")),
     pd.Series(sample(pd.period_range("2023-06-01", periods=2000, freq="D"), 3000, 12)), "period", "int64"),
    ("categorical strings against strings", pd.Series(STRINGS[:300], dtype="category"),
     pd.Series(sample(STRINGS, 3000, 13), dtype=object), "object", "string"),
    # (categoricals of ints with nulls and other categories: pandas' merge itself fails)
    ("categorical ints against ints", pd.Series(pd.Categorical(INTS[:300])), np.array(sample(INTS, 3000, 14)),
     "int", "int64"),
    ("str objects with None", pd.Series(STRINGS[:300] + [None], dtype=object),
     pd.Series([None if i % 77 == 0 else v for i, v in enumerate(sample(STRINGS, 3000, 15))], dtype=object),
     "object", "string"),
    ("string dtype against objects", pd.Series(STRINGS[:300] + [None], dtype="string"),
     pd.Series(sample(STRINGS, 3000, 16) + [None], dtype=object), "object", "string"),
    ("bytes", pd.Series([s.encode() for s in STRINGS[:300]], dtype=object),
     pd.Series([s.encode() for s in sample(STRINGS, 3000, 17)], dtype=object), "object", "binary"),
    ("dates", pd.Series([d.date() for d in TIMES[:300:12]], dtype=object),
     pd.Series([d.date() for d in sample(TIMES, 3000, 18)], dtype=object), "object", "date"),
    # Decimal("1.10") == Decimal("1.1"): merge matches them, so must the filter.
    ("Decimals", pd.Series([decimal.Decimal(int(v)) / 4 for v in INTS[:300]] + [decimal.Decimal("1.10")], dtype=object),
     pd.Series([decimal.Decimal(int(v)) / 4 for v in sample(INTS, 3000, 19)] + [decimal.Decimal("1.1")], dtype=object),
     "object", "double"),
    ("Python ints", pd.Series([int(v) * 10**9 for v in INTS[:300]], dtype=object),
     pd.Series([int(v) * 10**9 for v in sample(INTS, 3000, 20)], dtype=object), "object", "int64"),
]


@pytest.mark.parametrize("name, build_keys, probe_keys, kind, filter_type", CASES, ids=[c[0] for c in CASES])
def test_every_key_type_gives_the_rows_of_merge_through_the_filter(name, build_keys, probe_keys, kind, filter_type):
    build, probe = frames(build_keys, probe_keys)
    got, summary = filtered_join(probe, build)
    assert len(got) > 0, name  # some keys match
    assert summary["key_kind"] == kind and summary["filter_type"] == filter_type, summary
    assert summary["dropped"] > 0.2 * summary["rows"], summary  # and the filter dropped rows that match nothing


def test_probe_partitions_run_once_when_computed_with_the_report():
    calls = []

    def counted(part):
        calls.append(len(part))
        return part

    build, probe = frames(INTS[:300], np.array(sample(INTS, 3000, 21)))
    probe = probe.map_partitions(counted, meta=probe._meta)
    joined, report = bbd.semi_join(probe, build, on="k", report=True)
    assert calls == []
    dask.compute(joined, report.partitions)
    assert len(calls) == probe.npartitions


def test_without_report_semi_join_returns_the_frame_alone():
    build, probe = frames(INTS[:300], np.array(sample(INTS, 3000, 22)))
    joined = bbd.semi_join(probe, build, on="k")
    assert isinstance(joined, dd.DataFrame)
    assert rows(joined.compute()) == rows(probe.merge(build, on="k").compute())


def plain_join(left, right, match, **kwargs):
    """semi_join(..., report=True) that warns BloomFilterNotUsed (message matching
    match), reports no filter and gives the rows of merge."""
    with pytest.warns(bbd.BloomFilterNotUsed, match=match):
        joined, report = bbd.semi_join(left, right, report=True, **kwargs)
    assert not report.filter_used and report.reason and report.partitions is None
    summary = report.summary()
    assert summary["filter_used"] is False and summary["rows"] is None
    merge_kwargs = {k: v for k, v in kwargs.items() if k not in ("build",)}
    assert rows(joined.compute()) == rows(left.merge(right, **merge_kwargs).compute())
    return report


def test_a_key_dtype_with_no_exact_hashing_warns_and_merges():
    numbers = np.arange(300) + 1j
    build, probe = frames(numbers[:50], np.array(sample(numbers, 1000, 23)))
    report = plain_join(probe, build, r"complex128 \(right 'k'\) and complex128 \(left 'k'\)", on="k")
    assert "no common exact hashing" in report.reason
    ints = dd.from_pandas(pd.DataFrame({"k": np.arange(100), "b": 1}), npartitions=2)
    objects = dd.from_pandas(pd.DataFrame({"k": ["a", "b"] * 10, "p": 2}), npartitions=2)
    with pytest.warns(bbd.BloomFilterNotUsed, match=r"object \(left 'k'\)"), \
            pytest.raises(ValueError, match="merge on object and int64 columns"):
        bbd.semi_join(objects, ints, on="k")  # then merge refuses them, as merge alone does


def test_joins_no_side_of_which_can_be_filtered_warn_and_merge():
    build, probe = frames(INTS[:300], np.array(sample(INTS, 3000, 24)))
    plain_join(probe, build, r"how='outer' keeps the rows of both sides", on="k", how="outer")
    plain_join(probe, build, r"how='left' keeps every row of the left side", on="k", how="left", build="right")


def test_mixed_object_keys_warn_when_computed_and_report_no_filter():
    build = dd.from_pandas(pd.DataFrame({"k": pd.Series(["a", 1, "b", 2.5] * 10, dtype=object), "b": 1}),
                           npartitions=2)
    probe = dd.from_pandas(pd.DataFrame({"k": pd.Series(["a", "c", 1, 3] * 100, dtype=object), "p": 2}),
                           npartitions=3)
    joined, report = bbd.semi_join(probe, build, on="k", report=True)
    assert report.filter_used  # decided when computed: the values' kinds are not known before
    with pytest.warns(bbd.BloomFilterNotUsed, match=r"no filter, probe partitions kept whole: build keys: "
                                                    r"object keys of kind 'mixed"):
        got, partitions = dask.compute(joined, report.partitions)
    assert rows(got) == rows(probe.merge(build, on="k").compute())
    with pytest.warns(bbd.BloomFilterNotUsed, match="3 of 3 probe partitions not filtered: build keys: object"):
        summary = report.summary(partitions)
    assert summary["partitions_filtered"] == 0 and summary["dropped"] == 0 and summary["filter_type"] is None
    assert summary["notes"] and "mixed" in summary["notes"][0]


def test_object_keys_of_another_kind_in_a_probe_partition_are_kept_whole():
    # Build keys are str; one probe partition holds bytes: it could hold no match,
    # but is not dropped on a guess: kept whole, and the report says so.
    build = dd.from_pandas(pd.DataFrame({"k": pd.Series(STRINGS[:100], dtype=object), "b": 1}), npartitions=2)
    texts = pd.DataFrame({"k": pd.Series(sample(STRINGS, 500, 25), dtype=object), "p": 1})
    raw = pd.DataFrame({"k": pd.Series([s.encode() for s in STRINGS[:50]], dtype=object), "p": 2})
    probe = dd.concat([dd.from_pandas(texts, npartitions=2), dd.from_pandas(raw, npartitions=1)])
    joined, report = bbd.semi_join(probe, build, on="k", report=True)
    with pytest.warns(bbd.BloomFilterNotUsed, match="probe keys: of kind binary, the filter's type is string"):
        got, partitions = dask.compute(joined, report.partitions)
    assert rows(got) == rows(probe.merge(build, on="k").compute())
    assert list(partitions["filtered"]) == [True, True, False] and list(partitions["kept"])[2] == 50
    with pytest.warns(bbd.BloomFilterNotUsed, match="1 of 3 probe partitions not filtered: probe keys: of kind "
                                                    "binary"):
        summary = report.summary(partitions)
    assert summary["filter_type"] == "string" and summary["partitions_filtered"] == 2


def test_build_partitions_of_two_object_kinds_give_no_filter():
    first = pd.DataFrame({"k": pd.Series(STRINGS[:50], dtype=object), "b": 1})
    second = pd.DataFrame({"k": pd.Series([s.encode() for s in STRINGS[:50]], dtype=object), "b": 2})
    build = dd.concat([dd.from_pandas(first, npartitions=1), dd.from_pandas(second, npartitions=1)])
    probe = dd.from_pandas(pd.DataFrame({"k": pd.Series(sample(STRINGS, 400, 26), dtype=object), "p": 3}),
                           npartitions=4)
    joined, report = bbd.semi_join(probe, build, on="k", report=True)
    with pytest.warns(bbd.BloomFilterNotUsed, match=r"build keys of several kinds in one column \(filter types "
                                                    r"binary, string\)"):
        got, partitions = dask.compute(joined, report.partitions)
    assert rows(got) == rows(probe.merge(build, on="k").compute())
    assert not partitions["filtered"].any() and (partitions["kept"] == partitions["rows"]).all()


def test_skip_below_is_reported_and_not_warned():
    build, probe = frames(INTS, np.array(sample(INTS, 3000, 27)))  # every probe key matches
    with warnings.catch_warnings():
        warnings.simplefilter("error", bbd.BloomFilterNotUsed)
        joined, report = bbd.semi_join(probe, build, on="k", report=True, skip_below=0.1)
        got, partitions = dask.compute(joined, report.partitions)
        summary = report.summary(partitions)  # passed on as asked: no warning
    assert rows(got) == rows(probe.merge(build, on="k").compute())
    assert not partitions["filtered"].any() and summary["partitions_filtered"] == 0 and summary["dropped"] == 0
    assert all(note.startswith("skip_below: the filter rejected 0.0% of the first 750 rows")
               for note in partitions["note"])


def test_the_report_without_partitions_computes_them():
    build, probe = frames(np.array(TIMES[:100]), np.array(sample(TIMES, 1000, 28)))
    joined, report = bbd.semi_join(probe, build, on="k", report=True)
    summary = report.summary()
    assert summary["rows"] == 1000 and summary["filter_type"] == "timestamp(ns)"
    matched = len(probe.merge(build, on="k").compute())  # build keys are distinct: one row per match
    assert 0 < matched <= summary["kept"] < matched + 50  # no false negative, a few false positives
    assert repr(report).startswith("SemiJoinReport(filter_used=True")


def matched_pairs(pdf):
    """The (p, b) row numbers a join paired (NaN keys do not compare equal in rows())."""
    return sorted(zip(pdf["p"].tolist(), pdf["b"].tolist()))


def real_nan(values, dtype):
    """A nullable float array of values where a None is a real NaN (0/0), not pd.NA."""
    zeros = pd.Series([0.0 if v is None else 1.0 for v in values], dtype=dtype)
    ones = pd.Series([1.0 if v is None else v for v in values], dtype=dtype)
    return (zeros / zeros) * ones  # NaN where None, else v


NAN_PAIRS = [
    ("Float64 NaN vs float64 NaN", lambda: real_nan([None, 1.0, 2.0, 3.0, 4.0, 5.0], "Float64"),
     lambda: pd.Series([np.nan, 2.0, 9.0])),
    ("float64 NaN vs Float64 NaN", lambda: pd.Series([np.nan, 1.0, 2.0, 3.0, 4.0, 5.0]),
     lambda: real_nan([None, 2.0, 9.0], "Float64")),
    ("Float64 NaN vs Float64 NaN", lambda: real_nan([None, 1.0, 2.0, 3.0, 4.0, 5.0], "Float64"),
     lambda: real_nan([None, 2.0, 9.0], "Float64")),
    ("+NaN vs -NaN", lambda: real_nan([None, 1.0, 2.0, 3.0, 4.0, 5.0], "Float64"),
     lambda: -real_nan([None, 2.0, 9.0], "Float64")),
    ("NaN vs NA", lambda: real_nan([None, 1.0, 2.0, 3.0, 4.0, 5.0], "Float64"),
     lambda: pd.Series([None, 2.0, 9.0], dtype="Float64")),
    ("NA vs NaN", lambda: pd.Series([None, 1.0, 2.0, 3.0, 4.0, 5.0], dtype="Float64"),
     lambda: real_nan([None, 2.0, 9.0], "Float64")),
    ("Float32 NaN vs float64 NaN", lambda: real_nan([None, 1.0, 2.0, 3.0, 4.0, 5.0], "Float32"),
     lambda: pd.Series([np.nan, 2.0, 9.0])),
    ("float64 NaN vs Float32 NaN", lambda: pd.Series([np.nan, 1.0, 2.0, 3.0, 4.0, 5.0]),
     lambda: real_nan([None, 2.0, 9.0], "Float32")),
    ("Float64 NaN vs no null", lambda: real_nan([None, 1.0, 2.0, 3.0, 4.0, 5.0], "Float64"),
     lambda: pd.Series([2.0, 9.0, 1.0])),
]


@pytest.mark.parametrize("name, probe_keys, build_keys", NAN_PAIRS, ids=[c[0] for c in NAN_PAIRS])
def test_real_nans_in_nullable_floats_give_the_rows_of_merge(name, probe_keys, build_keys):
    """0/0 in a Float64/Float32 array is a NaN that isna() does not count, yet
    merge matches it with every NaN and NA: it takes the null rule, not a hash."""
    build, probe = frames(build_keys(), probe_keys())
    with warnings.catch_warnings():
        warnings.simplefilter("error", bbd.BloomFilterNotUsed)
        joined, report = bbd.semi_join(probe, build, on="k", report=True)
        got, partitions = dask.compute(joined, report.partitions)
    expected = probe.merge(build, on="k").compute()
    assert matched_pairs(got) == matched_pairs(expected)  # no row of merge lost
    assert bool(partitions["filtered"].all())


@pytest.mark.parametrize("categorical", [False, True], ids=["object", "categorical"])
@pytest.mark.parametrize("negative_side", ["probe", "build"])
def test_decimal_minus_zero_matches_zero(negative_side, categorical):
    """Decimal('-0') == Decimal('0') for merge, but as doubles -0.0 hashed apart
    from 0.0: every Decimal zero goes into the filter as +0."""
    D = decimal.Decimal
    probe_zero, build_zero = (D("-0"), D("0")) if negative_side == "probe" else (D("0"), D("-0.00"))
    probe_keys = pd.Series([probe_zero, D("5"), D("6"), D("7"), D("8")], dtype=object)
    build_keys = pd.Series([build_zero, D("5"), D("99")], dtype=object)
    if categorical:
        probe_keys, build_keys = probe_keys.astype("category"), build_keys.astype("category")
    # One partition a side: Dask's hash shuffle of several would part the zeros (it
    # hashes objects by their text), and the merge itself would not pair them.
    build = dd.from_pandas(pd.DataFrame({"k": build_keys, "b": np.arange(len(build_keys))}), npartitions=1)
    probe = dd.from_pandas(pd.DataFrame({"k": probe_keys, "p": np.arange(len(probe_keys))}), npartitions=1)
    got, summary = filtered_join(probe, build)  # the rows of merge
    assert got["p"].tolist().count(0) == 1  # the zero's row: kept
    assert summary["dropped"] == 3  # 6, 7, 8
