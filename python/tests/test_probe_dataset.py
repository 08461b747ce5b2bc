# SPDX-License-Identifier: Apache-2.0
"""blockbloom.parquet.probe_dataset and blockbloom.dask.probe_dataset over a
generated directory of Parquet files with filters (written with the CLI
tests' builder, tests/support/parquet_files.py), beside a corrupt file and
two that cannot be read: a FIFO named *.parquet (the library refuses it as
no regular file, without waiting for a writer) and a dangling symlink named
*.parquet (chmod 000 would not do: the suite may run as root). Every answer
is checked against the values each row group's filter was built from."""
import os
import threading
import time
import warnings

import numpy as np
import pytest

pd = pytest.importorskip("pandas", reason="probe_dataset returns a pandas DataFrame: "
                                          "Debian's python3-pandas")

import blockbloom  # noqa: E402
import blockbloom.parquet as bp  # noqa: E402

import sys  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "support"))
from parquet_files import BYTE_ARRAY, INT64, Column, build_parquet  # noqa: E402

FILES = 7
ROW_GROUPS = 3
UNFILTERED = ("b/part-004.parquet", 1)  # this row group's "id" chunk has no filter


def stored(i, g):
    """The ids row group g of file i holds (and its filter)."""
    return list(range(1000 * i + 100 * g, 1000 * i + 100 * g + 10))


def filter_bytes(values):
    f = blockbloom.Filter(num_bytes=1024)
    f.insert_values(values)
    return f.to_parquet_bytes()


def write_file(path, i, unfiltered_group=None):
    groups = []
    for g in range(ROW_GROUPS):
        ids = stored(i, g)
        groups.append([None if g == unfiltered_group else {"filter": filter_bytes(np.array(ids, dtype=np.int64))},
                       {"filter": filter_bytes(["name-%d" % v for v in ids])}])
    data, _ = build_parquet([Column("id", INT64), Column("name", BYTE_ARRAY, logical=("STRING",))], groups)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as out:
        out.write(data)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """root/{a,b}/part-NNN.parquet (7 files of 3 row groups), a corrupt
    file, a FIFO and a dangling symlink among them, and a text file the
    directory walk leaves out. Returns (root, {relative path: file index})."""
    root = str(tmp_path_factory.mktemp("dataset"))
    index = {}
    for i in range(FILES):
        rel = "%s/part-%03d.parquet" % ("a" if i < 3 else "b", i)
        write_file(os.path.join(root, rel), i, UNFILTERED[1] if rel == UNFILTERED[0] else None)
        index[rel] = i
    with open(os.path.join(root, "a", "corrupt.parquet"), "wb") as out:
        out.write(b"PAR1 this is no footer PAR1")
    os.mkfifo(os.path.join(root, "b", "pipe.parquet"))
    os.symlink(os.path.join(root, "nowhere.parquet"), os.path.join(root, "b", "gone.parquet"))
    with open(os.path.join(root, "a", "notes.txt"), "w") as out:
        out.write("not Parquet, not *.parquet\n")
    return root, index


def probe(*args, **kwargs):
    """probe_dataset with its RuntimeWarnings caught: (frame, warning texts)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = bp.probe_dataset(*args, **kwargs)
    return frame, [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]


def expected_maybe(index, root, values):
    """Rows (file, row group, value, maybe) the filters' contents imply, in
    the documented order; a row group without a filter answers maybe."""
    rows = []
    for rel in sorted(index):
        i = index[rel]
        for g in range(ROW_GROUPS):
            for v in values:
                unfiltered = (rel, g) == UNFILTERED
                rows.append((os.path.join(root, rel), g, v,
                             v is not None and (unfiltered or v in stored(i, g))))
    return rows


def rows(frame):
    return list(frame.itertuples(index=False, name=None))


VALUES = [3105, 42, 1003, None, 6209, 999_999]  # not sorted: the values' order is kept


def test_every_answer_follows_the_filters_and_bad_files_are_reported(dataset):
    root, index = dataset
    frame, warned = probe(root, "id", VALUES)
    assert list(frame.columns) == ["file", "row_group", "value", "maybe"]
    assert frame["maybe"].dtype == bool and frame["row_group"].dtype == np.int64
    # 1024-byte filters of 10 values answer no false positive for these
    # fixed values (checked once; the data never changes): the answers equal
    # the model exactly, and every stored value is maybe (no false negative).
    assert rows(frame) == expected_maybe(index, root, VALUES)
    errors = dict(frame.attrs["errors"])
    assert sorted(errors) == sorted(os.path.join(root, p) for p in
                                    ("a/corrupt.parquet", "b/pipe.parquet", "b/gone.parquet"))
    assert "not a regular file" in errors[os.path.join(root, "b", "pipe.parquet")]
    assert "No such file" in errors[os.path.join(root, "b", "gone.parquet")]
    assert "footer" in errors[os.path.join(root, "a", "corrupt.parquet")]  # the library's reason
    assert not any(m.startswith(root) for m in errors.values())  # the path once, beside it
    assert [path for path, _ in frame.attrs["errors"]] == sorted(errors)  # sorted by path
    for path, message in frame.attrs["errors"]:
        assert any(path in w and "skipped" in w and message in w for w in warned), (path, warned)
        assert path not in set(frame["file"])  # skipped, never answered "absent"
    assert not any("notes.txt" in w for w in warned)
    # The row group without a filter answers maybe, is listed and warned about.
    unfiltered_path = os.path.join(root, UNFILTERED[0])
    assert [(p, g) for p, g, _ in frame.attrs["unfiltered"]] == [(unfiltered_path, UNFILTERED[1])]
    assert any(unfiltered_path in w and "no Bloom filter" in w for w in warned)


def test_every_stored_value_is_maybe_in_its_row_group(dataset):
    root, index = dataset
    values = [v for i in range(FILES) for g in range(ROW_GROUPS) for v in stored(i, g)]
    frame, _ = probe(root, "id", values)
    maybe = frame.set_index(["file", "row_group", "value"])["maybe"]
    for rel, i in index.items():
        for g in range(ROW_GROUPS):
            for v in stored(i, g):
                assert maybe[(os.path.join(root, rel), g, v)], (rel, g, v)
    names, _ = probe(root, "name", ["name-%d" % v for v in stored(5, 2)])
    hits = names[names["maybe"]]
    assert set(zip(hits["file"], hits["row_group"])) == {(os.path.join(root, "b/part-005.parquet"), 2)}


def test_summary_counts_files_row_groups_and_skippable_ones(dataset):
    root, index = dataset
    frame, _ = probe(root, "id", [1003])
    assert frame.attrs["files"] == FILES
    assert frame.attrs["row_groups"] == FILES * ROW_GROUPS
    # 1003 is in file 1's row group 0; the unfiltered row group cannot be skipped either.
    assert frame.attrs["skippable_row_groups"] == FILES * ROW_GROUPS - 2
    none, _ = probe(root, "id", [])
    assert len(none) == 0 and none.attrs["row_groups"] == FILES * ROW_GROUPS


def test_one_thread_and_many_give_the_same_frame(dataset):
    root, _ = dataset
    one, warned_one = probe(root, "id", VALUES, jobs=1)
    many, warned_many = probe(root, "id", VALUES, jobs=4)
    pd.testing.assert_frame_equal(one, many)
    assert one.attrs == many.attrs
    assert warned_one == warned_many  # and in the same order


def test_each_file_is_opened_once_by_a_bounded_pool(dataset, monkeypatch):
    root, _ = dataset
    opened, threads, running, most = [], set(), [0], [0]
    lock = threading.Lock()
    real_open = bp._open

    def counting_open(path, limits):
        with lock:
            opened.append(path)
            threads.add(threading.current_thread().name)
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            time.sleep(0.02)  # long enough for the pool's other threads to start theirs
            return real_open(path, limits)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(bp, "_open", counting_open)
    twice = os.path.join(root, "a", ".", "part-000.parquet")
    frame, _ = probe([root, twice, os.path.join(root, "a")], "id", [1], jobs=3)
    assert sorted(opened) == sorted(set(opened)) and len(opened) == FILES + 3  # once each
    assert 2 <= most[0] <= 3 and len(threads) <= 3  # concurrent, and never more than jobs
    assert frame.attrs["files"] == FILES


def test_directories_globs_and_lists_name_the_same_files(dataset):
    root, index = dataset
    whole, _ = probe(root, "id", VALUES)
    good = whole[~whole["file"].str.endswith("gone.parquet")]
    by_glob, _ = probe(os.path.join(root, "*", "part-*.parquet"), "id", VALUES)
    pd.testing.assert_frame_equal(by_glob, good.reset_index(drop=True))
    assert by_glob.attrs["errors"] == []
    by_recursive_glob, _ = probe(os.path.join(root, "**", "part-*.parquet"), "id", VALUES)
    pd.testing.assert_frame_equal(by_recursive_glob, good.reset_index(drop=True))
    # A list of directories and files, one file named twice: read once.
    a_dir = os.path.join(root, "a")
    twice = os.path.join(root, "a", ".", "part-000.parquet")
    listed, _ = probe([os.path.join(root, "b"), a_dir, twice], "id", VALUES)
    pd.testing.assert_frame_equal(listed, whole)
    assert listed.attrs == whole.attrs
    one_file, _ = probe(os.path.join(root, "b", "part-003.parquet"), "id", VALUES)
    assert set(one_file["file"]) == {os.path.join(root, "b", "part-003.parquet")}
    assert rows(one_file) == [r for r in rows(whole) if r[0] == os.path.join(root, "b", "part-003.parquet")]


def test_a_glob_that_matches_nothing_and_an_empty_directory_are_reported(dataset, tmp_path):
    root, _ = dataset
    empty = tmp_path / "empty"
    empty.mkdir()
    frame, warned = probe([str(empty), os.path.join(root, "*.nothing")], "id", [1])
    assert len(frame) == 0 and frame.attrs["files"] == 0
    assert dict(frame.attrs["errors"]) == {
        str(empty): "a directory with no *.parquet file under it",
        os.path.join(root, "*.nothing"): "no file matches this pattern"}
    assert len(warned) == 2


def test_many_broken_files_warn_in_a_screenful(tmp_path):
    for i in range(13):
        (tmp_path / ("broken-%02d.parquet" % i)).write_bytes(b"PAR1")
    frame, warned = probe(str(tmp_path), "id", [1])
    assert len(frame.attrs["errors"]) == 13
    assert len(warned) == 11
    assert all("broken-%02d.parquet skipped" % i in warned[i] for i in range(10))
    assert warned[10] == 'probe_dataset(): 3 more files skipped (attrs["errors"] lists them all)'


def test_a_file_without_the_column_is_skipped_with_the_reason(dataset):
    root, _ = dataset
    frame, warned = probe(os.path.join(root, "a"), "price", [1])
    assert len(frame) == 0
    assert len(frame.attrs["errors"]) == 4  # three files and the corrupt one
    reasons = dict(frame.attrs["errors"])
    assert "price" in reasons[os.path.join(root, "a", "part-000.parquet")]


def test_a_column_of_a_type_that_cannot_be_probed_is_the_file_s_problem(tmp_path):
    from parquet_files import BOOLEAN

    data, _ = build_parquet([Column("flag", BOOLEAN)], [[{"filter": filter_bytes(np.array([1], dtype=np.int64))}]])
    (tmp_path / "flags.parquet").write_bytes(data)
    write_file(str(tmp_path / "ids.parquet"), 0)
    frame, warned = probe(str(tmp_path), "flag", [True])
    with pytest.raises(blockbloom.Error) as single:
        bp.probe(str(tmp_path / "flags.parquet"), "flag", [True])
    assert frame.attrs["errors"][0] == (str(tmp_path / "flags.parquet"), str(single.value))
    assert "BOOLEAN" in str(single.value)
    assert frame.attrs["errors"][1][0] == str(tmp_path / "ids.parquet")  # no column flag
    assert len(frame) == 0 and len(warned) == 2


def test_values_the_column_type_refuses_raise(dataset):
    root, _ = dataset
    first = os.path.join(root, "a", "part-000.parquet")
    with pytest.raises(blockbloom.Error) as raised:
        probe(root, "id", ["12x"])  # a typo in every file: the caller's mistake, not the file's
    assert str(raised.value).startswith("probe_dataset(): %s: item 0 ('12x') into column id" % first)
    with pytest.raises(blockbloom.Error) as single:
        bp.probe(first, "id", ["12x"])
    assert raised.value.status == single.value.status  # BB_ERR_VALUE_SYNTAX, as probe()'s
    with pytest.raises(TypeError, match=r"^probe_dataset\(\): .*part-000.parquet: item 1 \(\(1, 2\)\)"):
        probe(root, "id", [1, (1, 2)])
    with pytest.raises(TypeError, match="one column"):
        probe(root, "id", pd.DataFrame({"id": [1], "x": [2]}))


def test_argument_errors(dataset):
    root, _ = dataset
    for jobs in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="jobs"):
            bp.probe_dataset(root, "id", [1], jobs=jobs)
    with pytest.raises(TypeError, match="paths"):
        bp.probe_dataset(42, "id", [1])
    with pytest.raises(TypeError, match="column"):
        bp.probe_dataset(root, 42, [1])


def test_dask_gives_the_local_frame(dataset):
    dd = pytest.importorskip("dask.dataframe", reason="Dask is not installed: Debian's python3-dask")
    del dd
    import blockbloom.dask as bbd

    root, _ = dataset
    local, warned_local = probe(root, "id", VALUES)
    for files_per_task in (1, 2, 100):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            spread = bbd.probe_dataset(root, "id", VALUES, files_per_task=files_per_task,
                                       scheduler="synchronous")
        pd.testing.assert_frame_equal(spread, local)
        assert spread.attrs == local.attrs
        assert [str(w.message).replace("blockbloom.dask.", "") for w in caught] == warned_local
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        threaded = bbd.probe_dataset(root, "id", VALUES, files_per_task=3, jobs=2, scheduler="threads")
    pd.testing.assert_frame_equal(threaded, local)
    with pytest.raises(blockbloom.Error, match=r"^blockbloom\.dask\.probe_dataset\(\): .*: item 0 \('12x'\)"):
        bbd.probe_dataset(root, "id", ["12x"], scheduler="synchronous")
    with pytest.raises(ValueError, match="files_per_task"):
        bbd.probe_dataset(root, "id", VALUES, files_per_task=0)


def test_dask_on_a_cluster_of_workers(dataset, monkeypatch):
    distributed = pytest.importorskip("distributed", reason="Debian's python3-distributed")
    import blockbloom._dataset as dataset_module
    import blockbloom.dask as bbd

    root, _ = dataset
    local, _ = probe(root, "id", VALUES)
    # Each task's files and the worker it ran on, recorded by the function
    # the tasks call (the workers are threads of this process). The task
    # stream was not used: it missed finished tasks now and then.
    calls = []
    real = dataset_module._probe_files

    def recording(files, *args, **kwargs):
        calls.append((len(files), distributed.get_worker().address))
        return real(files, *args, **kwargs)

    monkeypatch.setattr(dataset_module, "_probe_files", recording)
    with distributed.LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                                  dashboard_address=None, silence_logs=50) as cluster, \
            distributed.Client(cluster) as client:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            spread = bbd.probe_dataset(root, "id", VALUES, files_per_task=2)
        workers = set(client.scheduler_info()["workers"])
    pd.testing.assert_frame_equal(spread, local)
    assert spread.attrs == local.attrs
    # The 10 files (7 good, 3 bad) went to the workers as 5 tasks of 2.
    assert sorted(n for n, _ in calls) == [2] * 5, calls
    assert {address for _, address in calls} <= workers, (calls, workers)


def test_reading_a_filter_releases_the_gil(tmp_path):
    """What lets probe_dataset's threads overlap their reads: a chunk's
    filter is loaded (pread and copied) without the GIL."""
    from parquet_files import bloom_header
    from test_threads import stamps_inside

    path = tmp_path / "big.parquet"
    data, _ = build_parquet([Column("id", INT64)], [[{"filter": bloom_header(32 << 20) + bytes(32 << 20)}]])
    path.write_bytes(data)
    pf = bp._open(str(path))
    inside, seconds = stamps_inside(lambda: [pf.load_filter(0, 0) for _ in range(3)])
    assert inside > 0, "no other thread ran during %.3f s of filter reads" % seconds
