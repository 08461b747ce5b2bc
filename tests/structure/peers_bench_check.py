#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The peer comparison's plumbing, with whatever peers this build has (none in
a default build): blockbloom_peers_bench names each peer built in or absent
(and says "blockbloom alone" with none), runs the 16 KiB cells of blockbloom
and of the peers built in only, finds every inserted probe (hit rate at least
0.5), and scripts/bench_table.py --peers prints the comparison's table from
its JSON.

  peers_bench_check.py BINARY PEERS_BUILT_IN   (comma-separated, may be empty)
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEERS = ["fastfilter", "boost_bloom", "libfilter"]
# The cells' <impl> names of each peer (bench/peers/*_peer.cc).
IMPLS = {"fastfilter": {"fastfilter", "fastfilter_pow2", "fastfilter_addall"},
         "boost_bloom": {"boost", "boost_bulk"}, "libfilter": {"libfilter"}}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    binary, built = sys.argv[1], [p for p in sys.argv[2].split(",") if p]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "peers.json")
        run = subprocess.run(
            [binary, "--benchmark_filter=^peers/(find|insert)/[^/]+/16384$",
             "--benchmark_min_time=0.01", "--benchmark_out=" + out,
             "--benchmark_out_format=json"],
            capture_output=True, text=True, timeout=50, check=False)
        if run.returncode != 0:
            fail("blockbloom_peers_bench exited %d: %s" % (run.returncode, run.stderr))
        lines = run.stdout.splitlines()
        for peer in PEERS:
            want = "peer %s: %s" % (peer, "built in" if peer in built else "absent")
            if not any(line.startswith(want) for line in lines):
                fail("no line starting %r in:\n%s" % (want, run.stdout))
        alone = any(line.startswith("peers: none present") and "blockbloom alone" in line
                    for line in lines)
        if alone != (not built):
            fail("'peers: none present ... blockbloom alone' %s" %
                 ("missing" if not built else "printed although peers are built in"))

        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        names = {e["name"]: e for e in doc["benchmarks"]}
        for op in ("find", "insert"):
            name = "peers/%s/blockbloom/16384" % op
            if name not in names or names[name].get("error_occurred"):
                fail("%s did not run: %s" % (name, sorted(names)))
        if names["peers/find/blockbloom/16384"]["hit_rate"] < 0.5:
            fail("blockbloom missed inserted probes: hit rate %s"
                 % names["peers/find/blockbloom/16384"]["hit_rate"])
        present = {n.split("/")[2] for n in names} - {"blockbloom"}
        expected = set().union(*(IMPLS[p] for p in built)) if built else set()
        if present != expected:
            fail("cells of %s, expected %s" % (sorted(present), sorted(expected)))
        for name, entry in names.items():
            if name.startswith("peers/find/") and entry["hit_rate"] < 0.5:
                fail("%s: hit rate %s, a false negative" % (name, entry["hit_rate"]))

        table = subprocess.run(
            [sys.executable, os.path.join(ROOT, "scripts", "bench_table.py"), "--peers", out],
            capture_output=True, text=True, timeout=30, check=False)
        if table.returncode != 0:
            fail("bench_table.py --peers exited %d: %s" % (table.returncode, table.stderr))
        rows = {line.split("  ")[0]: line for line in table.stdout.splitlines()}
        for cell in ("find, 16 KiB", "insert, 16 KiB"):
            if cell not in rows:
                fail("no row %r in:\n%s" % (cell, table.stdout))
            row = rows[cell].split()
            float(row[3])  # blockbloom's ns per key, a number
            if not built and row[4:6] != ["-", "-"]:
                fail("row %r has a best peer without peers: %s" % (cell, rows[cell]))
        if not built and "no peer cells: blockbloom alone" not in table.stdout:
            fail("the table does not say blockbloom ran alone:\n" + table.stdout)
    print("peers bench: %s; table printed" % (", ".join(built) or "no peers, blockbloom alone"))


if __name__ == "__main__":
    main()
