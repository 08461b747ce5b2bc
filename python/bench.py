#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Batch find from Python against the C call and a pure-numpy filter.

usage: /usr/bin/python3 python/bench.py [--build DIR] [--keys N] [--repeat R] [--cpu C]
                                        [--sizes BYTES,...] [--all-isas] [--json FILE]

Imports blockbloom from DIR/python (a main build with -Dpython, default
build-release) and loads DIR/libblockbloom.so.0, the library that extension is
linked to. For each filter size (default 1 MiB and 512 MiB) it times, on the same
N uint64 hashes (default 10^7; half present, half absent) and the same bitset:

  C call          bb_find_batch_bitmap through ctypes into a reused bitmap (one
                  call; its overhead is a microsecond)
  find()          Filter.find(hashes): a new numpy bool array
  find(out=)      Filter.find(hashes, out=bools): into a reused bool array
  find_bitmap()   Filter.find_bitmap(hashes): a new bitmap, as the C call writes
  numpy           python/tests/numpy_model.py, the same filter in pure numpy
                  (its bits and answers are checked against blockbloom's)
  np.isin         exact membership of the inserted keys (1 MiB only, for scale)

in R rounds (default 11) of one call each, pinned to CPU C (default 1) with
sched_setaffinity: the medians of the times, in ns per key, and of each call's
ratio to the C call of the same round (numpy and np.isin: 3 runs). Then two
threads each calling find() on its own N hashes, concurrently (on every CPU) and
one after the other, and the same with two C calls (ctypes releases the GIL too):
what two threads can gain on this machine at that moment; and how much of the
pair's time both calls were running at once (a held GIL would make it 0%).

The filter of 1 MiB holds 10.67 bits per key (786,432 keys), as bench/'s kernel
benchmarks; the 512 MiB one 5 million keys (find's cost does not depend on the
fill, and 400 million inserts would take minutes).

Then find_values on N int64 values (the 1 MiB filter, half present) given as a
numpy array and as the same values in a pandas Series (plain int64, and
nullable Int64 with no NA), interleaved: the Series should cost what the array
does (target within 1.2x; the Series is taken apart, not walked), and
datetime64[us] values probing a TIMESTAMP(NANOS) filter (converted by the
library, target within 1.2x of the int64 ndarray). --values-only runs just that
part.
"""
import argparse
import ctypes
import json
import os
import statistics
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


class BbFilter(ctypes.Structure):
    """include/blockbloom/blockbloom.h's bb_filter, for the ctypes reference call."""
    _fields_ = [("data", ctypes.c_void_p), ("num_bytes", ctypes.c_size_t), ("num_blocks", ctypes.c_uint32),
                ("flags", ctypes.c_uint32), ("layout", ctypes.c_uint32), ("hash_seed", ctypes.c_uint32)]


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build-release"))
    parser.add_argument("--keys", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--cpu", type=int, default=1)
    parser.add_argument("--sizes", default="1048576,536870912")
    parser.add_argument("--all-isas", action="store_true", help="every supported tier, not only the selected one")
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--values-only", action="store_true", help="only find_values: Series against ndarray")
    return parser.parse_args()


def interleaved(calls, repeat):
    """Each call once per round, round after round, so that all of them see the same
    machine (a shared VM's speed drifts): medians of the times, and of each call's
    ratio to the first call within a round (key + "_ratio")."""
    times = {name: [] for name in calls}
    for _ in range(repeat):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
    first = next(iter(calls))
    result = {name: statistics.median(t) for name, t in times.items()}
    for name, t in times.items():
        result[name + "_ratio"] = statistics.median(a / b for a, b in zip(t, times[first]))
    return result


def median_seconds(call, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    args = parse_args()
    build = os.path.abspath(args.build)
    sys.path.insert(0, os.path.join(build, "python"))
    sys.path.insert(0, os.path.join(HERE, "tests"))
    import numpy as np
    import blockbloom
    from numpy_model import NumpyFilter

    lib = ctypes.CDLL(os.path.join(build, "libblockbloom.so.0"))
    lib.bb_filter_init_view_readonly.argtypes = [ctypes.POINTER(BbFilter), ctypes.c_void_p, ctypes.c_size_t]
    lib.bb_find_batch_bitmap.argtypes = [ctypes.POINTER(BbFilter), ctypes.c_void_p, ctypes.c_size_t,
                                         ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]
    lib.bb_select_isa.argtypes = [ctypes.c_char_p]
    lib.bb_version.restype = ctypes.c_char_p
    assert lib.bb_version().decode() == blockbloom.__version__

    all_cpus = os.sched_getaffinity(0)
    pin = {args.cpu} if args.cpu in all_cpus else {min(all_cpus)}
    rng = np.random.default_rng(2026)
    n = args.keys
    isas = blockbloom.supported_isas() if args.all_isas else [blockbloom.selected_isa()]
    rows = []
    print("blockbloom %s, %d probes, median of %d, pinned to CPU %s; ns/key"
          % (blockbloom.__version__, n, args.repeat, ",".join(map(str, sorted(pin)))), flush=True)
    for size in ([] if args.values_only else [int(s) for s in args.sizes.split(",")]):
        keys_in = 786_432 if size <= 1 << 20 else 5_000_000
        keys = rng.integers(0, 2**64, size=keys_in, dtype=np.uint64)
        absent = rng.integers(0, 2**64, size=n - n // 2, dtype=np.uint64)
        probes = np.concatenate([rng.choice(keys, n // 2), absent])
        rng.shuffle(probes)
        f = blockbloom.Filter(size)
        f.insert(keys)
        view = BbFilter()
        bits = np.frombuffer(f, dtype=np.uint8)
        assert lib.bb_filter_init_view_readonly(ctypes.byref(view), bits.ctypes.data, size) == 0
        bitmap = np.empty((n + 7) // 8, dtype=np.uint8)
        bools = np.empty(n, dtype=bool)
        hits = ctypes.c_size_t()

        def c_call():
            status = lib.bb_find_batch_bitmap(ctypes.byref(view), probes.ctypes.data, n, bitmap.ctypes.data,
                                              ctypes.byref(hits))
            assert status == 0

        model = NumpyFilter(size)
        model.words = np.frombuffer(f, dtype="<u4")  # the same bitset, read by numpy
        if size <= 1 << 20:
            rebuilt = NumpyFilter(size)
            rebuilt.insert(keys)
            assert rebuilt.tobytes() == bytes(memoryview(f)), "the numpy model built other bits"
        os.sched_setaffinity(0, pin)
        for isa in isas:
            blockbloom.select_isa(isa)
            row = {"bytes": size, "isa": isa, "keys_in_filter": keys_in, "probes": n}
            row.update(interleaved({"c_call": c_call, "find": lambda: f.find(probes),
                                    "find_out": lambda: f.find(probes, out=bools),
                                    "find_bitmap": lambda: f.find_bitmap(probes)}, args.repeat))
            assert np.array_equal(np.unpackbits(bitmap, bitorder="little")[:n], bools)
            assert np.array_equal(f.find_bitmap(probes), bitmap)
            if isa == isas[0]:
                answers = {}
                row["numpy"] = median_seconds(lambda: answers.update(a=model.find(probes)), 3)
                assert np.array_equal(answers["a"], bools), "the numpy model answered otherwise"
                if size <= 1 << 20:
                    row["np_isin"] = median_seconds(lambda: np.isin(probes, keys), 3)
            rows.append(row)
            report(row, n)
        os.sched_setaffinity(0, all_cpus)
        blockbloom.select_isa(isas[0])
        if len(all_cpus) >= 2:
            second = rng.integers(0, 2**64, size=n, dtype=np.uint64)
            second_bitmap = np.empty_like(bitmap)

            def c_find(hashes, out):
                # ctypes releases the GIL around the call: the machine's own two-thread ceiling.
                lib.bb_find_batch_bitmap(ctypes.byref(view), hashes.ctypes.data, n, out.ctypes.data, None)

            for name, one, two in (("find()", lambda: f.find(probes), lambda: f.find(second)),
                                   ("C call", lambda: c_find(probes, bitmap), lambda: c_find(second, second_bitmap))):
                overlaps = []
                t = interleaved({"serial": lambda: (one(), two()),
                                 "concurrent": lambda: run_in_two_threads(one, two, overlaps)}, args.repeat)
                t["overlap"] = statistics.median(overlaps)
                rows.append({"bytes": size, "isa": isas[0], "threads": 2, "call": name, **t})
                print("  %s %s, 2 x %d probes: one after the other %.1f ms, in two threads %.1f ms: %.2fx; "
                      "the two calls overlapped %.0f%%"
                      % (human(size), name, n, t["serial"] * 1e3, t["concurrent"] * 1e3,
                         1 / t["concurrent_ratio"], 100 * t["overlap"]), flush=True)
        del f, view, bits, model
    os.sched_setaffinity(0, pin)
    row = bench_series(blockbloom, np, rng, n, args.repeat)
    os.sched_setaffinity(0, all_cpus)
    if row:
        rows.append(row)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(rows, out, indent=1)
    return 0


def run_in_two_threads(one, two, overlaps=None):
    """Runs one() and two() in two threads; appends to overlaps the share of the
    pair's span during which both calls were running (1.0: fully side by side;
    0: one after the other, as a held GIL would force)."""
    spans = [None, None]

    def timed(i, call):
        start = time.perf_counter()
        call()
        spans[i] = (start, time.perf_counter())
    threads = [threading.Thread(target=timed, args=(0, one)), threading.Thread(target=timed, args=(1, two))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if overlaps is not None:
        both = min(spans[0][1], spans[1][1]) - max(spans[0][0], spans[1][0])
        overlaps.append(max(both, 0.0) / (max(spans[0][1], spans[1][1]) - min(spans[0][0], spans[1][0])))

def bench_series(blockbloom, np, rng, n, repeat):
    """find_values: a pandas Series against the same ndarray, interleaved."""
    try:
        import pandas as pd
    except ImportError:
        print("  find_values Series vs ndarray: skipped (pandas is not installed)", flush=True)
        return None
    f = blockbloom.Filter(1 << 20)
    keys = rng.integers(-(2**63), 2**63 - 1, size=786_432, dtype=np.int64)
    f.insert_values(keys)
    values = np.concatenate([rng.choice(keys, n // 2), rng.integers(-(2**63), 2**63 - 1, size=n - n // 2)])
    rng.shuffle(values)
    series = pd.Series(values)
    nullable = pd.Series(values, dtype="Int64")
    assert np.array_equal(f.find_values(series), f.find_values(values))
    assert np.array_equal(f.find_values(nullable), f.find_values(values))
    # A TIMESTAMP(NANOS) filter probed with datetime64[us]: a unit change per row in the library.
    g = blockbloom.Filter(1 << 20, type="timestamp(ns)")
    micros = (keys // 4096).astype("datetime64[us]")
    g.insert_values(micros.astype("datetime64[ns]"))
    probes_us = np.concatenate([rng.choice(micros, n // 2),
                                (rng.integers(-(2**51), 2**51, size=n - n // 2)).astype("datetime64[us]")])
    assert g.find_values(probes_us[: n // 2]).all()
    t = interleaved({"ndarray": lambda: f.find_values(values), "series": lambda: f.find_values(series),
                     "nullable": lambda: f.find_values(nullable),
                     "datetime64_us_on_nanos": lambda: g.find_values(probes_us)}, repeat)
    print("  find_values, %d int64 values, 1 MiB: ndarray %.2f ns/value, Series %.2f (%.2fx), "
          "Int64 Series %.2f (%.2fx), datetime64[us] on TIMESTAMP(NANOS) %.2f (%.2fx)"
          % (n, t["ndarray"] * 1e9 / n, t["series"] * 1e9 / n, t["series_ratio"], t["nullable"] * 1e9 / n,
             t["nullable_ratio"], t["datetime64_us_on_nanos"] * 1e9 / n, t["datetime64_us_on_nanos_ratio"]),
          flush=True)
    return {"bytes": 1 << 20, "call": "find_values", "probes": n, **t}


def human(size):
    return "%d MiB" % (size >> 20) if size >= 1 << 20 else "%d KiB" % (size >> 10)


def report(row, n):
    ns = {k: row[k] * 1e9 / n for k in ("c_call", "find", "find_out", "find_bitmap", "numpy", "np_isin") if k in row}
    parts = ["%s %s: C call %.2f" % (human(row["bytes"]), row["isa"], ns["c_call"])]
    for key, name in (("find", "find()"), ("find_out", "find(out=)"), ("find_bitmap", "find_bitmap()")):
        parts.append("%s %.2f (%.2fx)" % (name, ns[key], row[key + "_ratio"]))
    if "numpy" in ns:
        parts.append("numpy %.1f (%.0fx)" % (ns["numpy"], ns["numpy"] / ns["find"]))
    if "np_isin" in ns:
        parts.append("np.isin %.1f" % ns["np_isin"])
    print("  " + ", ".join(parts), flush=True)


if __name__ == "__main__":
    sys.exit(main())
