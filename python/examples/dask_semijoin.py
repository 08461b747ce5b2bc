#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: a Bloom semi-join on Dask (blockbloom.dask.semi_join) against
Dask's merge, merge(broadcast=True) and a broadcast Python set.

A LocalCluster of 2 worker processes (1 thread each). The build side holds
--keys distinct int64 keys in --build-partitions; the probe side --rows rows in
--probe-partitions, a --match fraction of them (5%: 1M of 20M) with a build
key. Both are generated on the workers and persisted before timing. Each
method joins them on "k" and counts the rows; every build key is unique, so
a probe row with a build key joins exactly once and any other row never:
  false negatives = matching probe rows - joined rows.
Bytes moved between workers: the sum of the workers' transfer_outgoing_log
"total" (Dask's size of the data sent) for requests from another worker.

    python3 python/examples/dask_semijoin.py             # full size: 20M rows
    python3 python/examples/dask_semijoin.py --rows 400000   # a quick run
"""
import argparse
import time

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
from distributed import Client, LocalCluster, wait
from distributed.utils import key_split

import blockbloom.dask as bbd

# key(j) = j * ODD mod 2**40 is a bijection on 0 .. 2**40 - 1: build keys are
# key(0 .. keys-1), probe misses key(j) for j >= keys, so never a build key.
ODD = 0x9E3779B1
MOD = 1 << 40


def key_of(j):
    return (j.astype(np.uint64) * np.uint64(ODD) % np.uint64(MOD)).astype(np.int64)


def build_part(i, keys, parts):
    j = np.arange(i * keys // parts, (i + 1) * keys // parts, dtype=np.int64)
    return pd.DataFrame({"k": key_of(j), "b": j})


def probe_part(i, rows, parts, keys, match):
    n = (i + 1) * rows // parts - i * rows // parts
    rng = np.random.default_rng(1000 + i)
    m = rng.random(n) < match
    j = np.where(m, rng.integers(0, keys, n), rng.integers(keys, MOD, n))
    return pd.DataFrame({"k": key_of(j), "p": np.arange(n) + i * rows // parts, "m": m})


def set_filter(part, keys):
    return part[part["k"].isin(keys)]


def moved_between_workers(client):
    def outgoing(dask_worker):
        return [(entry["who"], entry["total"]) for entry in dask_worker.transfer_outgoing_log]

    workers = set(client.scheduler_info()["workers"])
    return sum(total for log in client.run(outgoing).values() for who, total in log if who in workers)


def moved_by_prefix(client):
    """{task prefix: bytes} of the transfers between workers (incoming logs'
    per-key sizes), to see what moved: probe partitions, shuffle splits, ..."""
    def incoming(dask_worker):
        return [(entry["who"], entry["keys"]) for entry in dask_worker.transfer_incoming_log]

    workers = set(client.scheduler_info()["workers"])
    sums = {}
    for log in client.run(incoming).values():
        for who, keys in log:
            if who in workers:
                for key, nbytes in keys.items():
                    prefix = key_split(key)
                    sums[prefix] = sums.get(prefix, 0) + (nbytes or 0)
    return sums


def clear_logs(client):
    def clear(dask_worker):
        dask_worker.transfer_outgoing_log.clear()
        dask_worker.transfer_incoming_log.clear()

    client.run(clear)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=20_000_000, help="probe-side rows (20M)")
    parser.add_argument("--keys", type=int, default=200_000, help="build-side keys (200k)")
    parser.add_argument("--match", type=float, default=0.05, help="fraction of probe rows with a build key")
    parser.add_argument("--build-partitions", type=int, default=8)
    parser.add_argument("--probe-partitions", type=int, default=16)
    parser.add_argument("--fpp", type=float, default=0.01)
    parser.add_argument("--methods", default="semi_join,merge,merge_broadcast,set",
                        help="comma-separated, run in this order")
    parser.add_argument("--by-prefix", action="store_true",
                        help="also print each method's bytes moved per task prefix")
    args = parser.parse_args()

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster) as client:
        build = dd.from_delayed([dask.delayed(build_part)(i, args.keys, args.build_partitions)
                                 for i in range(args.build_partitions)], meta=build_part(0, 0, 1))
        probe = dd.from_delayed([dask.delayed(probe_part)(i, args.rows, args.probe_partitions, args.keys, args.match)
                                 for i in range(args.probe_partitions)], meta=probe_part(0, 0, 1, 1, 0.0))
        build, probe = client.persist([build, probe])
        wait([build, probe])
        matching = int(probe["m"].sum().compute())

        def semi_join():
            return bbd.semi_join(probe, build, on="k", fpp=args.fpp, ndv=args.keys)

        def merge():
            return probe.merge(build, on="k")

        def merge_broadcast():
            # Dask 2022.12 takes the broadcast path only with shuffle="tasks"
            # given; with broadcast=True alone it shuffles as merge does.
            return probe.merge(build, on="k", broadcast=True, shuffle="tasks")

        def python_set():
            # In a list: scatter() of a set would scatter each element.
            [keys] = client.scatter([set(build["k"].compute().tolist())], broadcast=True, hash=False)
            return probe.map_partitions(set_filter, keys, meta=probe._meta).merge(build, on="k")

        methods = {"semi_join": semi_join, "merge": merge, "merge_broadcast": merge_broadcast, "set": python_set}
        print("probe rows %d in %d partitions, build keys %d in %d partitions, matching rows %d"
              % (args.rows, args.probe_partitions, args.keys, args.build_partitions, matching))
        print("%-16s %9s %14s %12s %8s" % ("method", "seconds", "MiB moved", "rows", "false neg"))
        for name in args.methods.split(","):
            clear_logs(client)
            start = time.perf_counter()
            joined = methods[name]()
            rows, good = dask.compute(joined["m"].size, joined["m"].sum())
            seconds = time.perf_counter() - start
            moved = moved_between_workers(client)
            assert rows == good, "%s joined a row without a build key" % name
            print("%-16s %9.2f %14.1f %12d %8d" % (name, seconds, moved / 2**20, rows, matching - good), flush=True)
            if args.by_prefix:
                for prefix, nbytes in sorted(moved_by_prefix(client).items(), key=lambda item: -item[1]):
                    print("    %-40s %9.2f MiB" % (prefix, nbytes / 2**20))
        f = bbd.bloom_filter(build["k"], ndv=args.keys, fpp=args.fpp)
        print("filter: %d bytes (sizing='exact'; parquet-safe would be %d)"
              % (f.num_bytes, bbd.Filter(ndv=args.keys, fpp=args.fpp).num_bytes))


if __name__ == "__main__":
    main()
