# SPDX-License-Identifier: Apache-2.0
"""Threads: the GIL is released while the library runs (proven by a second
thread making progress strictly inside one call, with a control showing the
harness sees a held GIL), and concurrent writes never lose bits."""
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import blockbloom
from conftest import random_hashes


def stamps_inside(call):
    """Runs call() in this thread while another thread records time stamps;
    returns how many stamps fall strictly inside the call. With a switch
    interval far longer than the test, a thread that holds the GIL is never
    asked to drop it, so a call that holds the GIL admits no stamp at all."""
    stamps = []
    ready = threading.Event()
    done = threading.Event()

    def ticker():
        ready.set()
        while not done.is_set():
            stamps.append(time.perf_counter())
            time.sleep(0)  # gives the GIL back every round

    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    thread = threading.Thread(target=ticker)
    try:
        thread.start()
        ready.wait()
        time.sleep(0.01)  # the ticker is running and waiting for the GIL in turns
        start = time.perf_counter()
        call()
        end = time.perf_counter()
    finally:
        done.set()
        thread.join()
        sys.setswitchinterval(old_interval)
    return sum(1 for s in stamps if start < s < end), end - start


@pytest.fixture(scope="module")
def big_probe():
    # A DRAM-sized filter and 8 M hashes on the scalar tier: a call of 0.1 s or more.
    f = blockbloom.Filter(64 << 20, type="int64")
    hashes = random_hashes(8 << 20, seed=5)
    f.insert(hashes[: len(hashes) // 4])
    return f, hashes


def test_the_harness_sees_a_held_gil():
    # sum() over a range holds the GIL for its whole run: no stamp gets in.
    inside, seconds = stamps_inside(lambda: sum(range(20_000_000)))
    assert seconds > 0.05 and inside == 0, (inside, seconds)


@pytest.mark.parametrize("method", ["find", "find_bitmap", "find_indices", "insert", "find_values"])
def test_batch_calls_release_the_gil(big_probe, method):
    f, hashes = big_probe
    before = blockbloom.selected_isa()
    blockbloom.select_isa("scalar")
    try:
        target = f.copy() if method == "insert" else f
        args = (hashes.view(np.int64),) if method == "find_values" else (hashes,)
        inside, seconds = stamps_inside(lambda: getattr(target, method)(*args))
    finally:
        blockbloom.select_isa(before)
    assert inside > 0, "no other thread ran during a %.3f s %s()" % (seconds, method)


def test_concurrent_inserts_lose_no_bits():
    hashes = random_hashes(1 << 21, seed=11)
    parts = np.array_split(hashes, 8)
    expected = blockbloom.Filter(1 << 16, type="int64")
    expected.insert(hashes)
    for _ in range(3):
        shared = blockbloom.Filter(1 << 16, type="int64")  # small: every insert hits the same lines
        threads = [threading.Thread(target=shared.insert, args=(p,)) for p in parts]
        threads += [threading.Thread(target=shared.insert_values, args=(p.view(np.int64),)) for p in parts[:2]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        check = expected.copy()
        check.insert_values(parts[0].view(np.int64))
        check.insert_values(parts[1].view(np.int64))
        assert shared == check


def test_finds_run_while_another_thread_inserts():
    f = blockbloom.Filter(1 << 20)
    early = random_hashes(1 << 16, seed=12)
    f.insert(early)
    late = random_hashes(1 << 21, seed=13)
    misses = []
    writer = threading.Thread(target=f.insert, args=(late,))
    writer.start()
    for _ in range(20):
        misses.append(int((~f.find(early)).sum()))
    writer.join()
    assert misses == [0] * 20 and f.find(late).all()


# Threads that take the filter's lock from a call holding the GIL (the
# one-value paths, _filter_density) beside batch calls that hold the lock
# without it. Before every lock was taken by a guard that gives the GIL up
# first, a one-value insert() that found the lock busy waited for it, then for
# the GIL while holding it, and _filter_density waited for the lock holding
# the GIL: the interpreter hung. Run in a child with a timeout, so that a
# deadlock fails this test instead of hanging the suite.
LOCK_ORDER_CHILD = r"""
import sys, threading, time
import numpy as np
import blockbloom
from blockbloom import _core

f = blockbloom.Filter(1 << 20, type="int64")
other = blockbloom.Filter(1 << 20, type="int64")
hashes = np.arange(1 << 17, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
stop = time.monotonic() + float(sys.argv[1])
counts = {}

def loop(name, call):
    n = 0
    while time.monotonic() < stop:
        call(n)
        n += 1
    counts[name] = n

calls = {
    "density": lambda n: _core._filter_density(f),
    "insert_one": lambda n: f.insert(n),
    "contains": lambda n: n in f,
    "insert_values_one": lambda n: f.insert_values(n),
    "find_values_one": lambda n: f.find_values(n),
    "insert_batch": lambda n: f.insert(hashes),
    "find_batch": lambda n: f.find(hashes),
    "union": lambda n: other.union(f),
    "to_parquet_bytes": lambda n: f.to_parquet_bytes(),
    "copy_eq": lambda n: f.copy() == f,
}
threads = [threading.Thread(target=loop, args=item) for item in calls.items()]
threads.append(threading.Thread(target=loop, args=("density2", calls["density"])))
for t in threads:
    t.start()
for t in threads:
    t.join()
assert all(counts[name] > 0 for name in calls), counts
print("ok", sum(counts.values()))
"""


def test_no_thread_waits_for_the_filter_lock_holding_the_gil():
    try:
        result = subprocess.run([sys.executable, "-c", LOCK_ORDER_CHILD, "2.0"], capture_output=True,
                                text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("deadlock: the threads were still running after 60 s (a thread waited for a "
                    "filter's lock holding the GIL while the lock's holder waited for the GIL)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok"), result.stdout
