#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The peer comparison's table, from blockbloom_peers_bench JSON.

Cells are named peers/<op>/<impl>/<bytes> (bench/peers/peer_benchmarks.h).
A row per (op, size): blockbloom's ns per key, the best peer's (the fastest
implementation that is not blockbloom, with its name), the ratio best peer /
blockbloom (above 1: blockbloom is faster), then every peer implementation's.
Each value is the median over processes of each process's median over its
repetitions: a JSON holds one process, or several whose entries carry
"peers_process" (scripts/bench --peers merges its processes so). Lines
above the table say which peers were built in or absent, from the JSON
context.

  scripts/peers_table.py results.json            (also: bench_table.py --peers)

Python 3 standard library only.
"""
import argparse
import json
import statistics
import sys

OPS = ["find", "insert"]
SELF = "blockbloom"
PEER_ORDER = [SELF, "fastfilter", "fastfilter_pow2", "fastfilter_addall", "boost", "boost_bulk",
              "libfilter"]


def parse(run_name):
    """(op, impl, bytes) of 'peers/<op>/<impl>/<bytes>', else None."""
    parts = run_name.split("/")
    if len(parts) != 4 or parts[0] != "peers" or not parts[3].isdigit():
        return None
    return parts[1], parts[2], int(parts[3])


def load(paths):
    """({(op, impl, bytes): ns per key}, {same: lowest hit_rate}, contexts, processes)."""
    per_process = {}  # (key, process) -> [repetition values]
    hit_rates, contexts = {}, []
    for index, path in enumerate(paths):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        contexts.append(doc.get("context", {}))
        for entry in doc.get("benchmarks", []):
            key = parse(entry.get("run_name", entry.get("name", "")))
            if key is None or entry.get("error_occurred") or entry.get("run_type") == "aggregate":
                continue
            if "ns_per_key" not in entry:
                continue
            process = (index, entry.get("peers_process", 0))
            per_process.setdefault((key, process), []).append(float(entry["ns_per_key"]))
            if "hit_rate" in entry:
                hit_rates[key] = min(hit_rates.get(key, 1.0), float(entry["hit_rate"]))
    by_key = {}
    for (key, _), values in per_process.items():
        by_key.setdefault(key, []).append(statistics.median(values))
    processes = len({p for _, p in per_process})
    return {k: statistics.median(v) for k, v in by_key.items()}, hit_rates, contexts, processes


def peer_lines(contexts):
    """'peer <name>: built in ...' / 'absent ...' lines of the first context that has them."""
    for context in contexts:
        lines = ["peer %s: %s" % (k[len("peer_"):], v) for k, v in sorted(context.items())
                 if k.startswith("peer_") and k != "peer_sources"]
        if lines:
            return lines
    return []


def table(paths, fmt="text"):
    """The section's text (lines and table), or None when no JSON has a peer cell."""
    # bench_table imports this module: its helpers are imported when used.
    from bench_table import render, size_label  # pylint: disable=import-outside-toplevel
    results, hit_rates, contexts, processes = load(paths)
    if not results:
        return None
    impls = [i for i in PEER_ORDER if any(k[1] == i for k in results)]
    impls += sorted({k[1] for k in results} - set(impls))
    peers = [i for i in impls if i != SELF]
    def text(key):
        if key not in results:
            return "-"
        # Half the probes were inserted: a lower hit rate is a false negative.
        flag = " (false negatives!)" if hit_rates.get(key, 1.0) < 0.5 else ""
        return "%.2f%s" % (results[key], flag)

    rows = []
    for op in OPS:
        for size in sorted({k[2] for k in results if k[0] == op}):
            own = results.get((op, SELF, size))
            measured = [(results[(op, i, size)], i) for i in peers if (op, i, size) in results]
            best = min(measured) if measured else None
            rows.append(["%s, %s" % (op, size_label(size)),
                         text((op, SELF, size)) if own is not None else "not run",
                         "%s %.2f" % (best[1], best[0]) if best else "-",
                         "%.2fx" % (best[0] / own) if best and own else "-"]
                        + [text((op, i, size)) for i in peers])
    lines = peer_lines(contexts)
    if not peers:
        lines.append("no peer cells: blockbloom alone (point -Dpeer_sources or"
                     " BLOCKBLOOM_PEER_SOURCES at the peers' sources, docs/benchmarks.md)")
    title = ("Peers: ns per key (lower is better), median over %d process%s of each one's median;"
             " ratio = best peer / blockbloom (above 1: blockbloom faster)"
             % (processes, "" if processes == 1 else "es"))
    header = ["cell", SELF, "best peer", "ratio"] + peers
    body = render(header, rows, fmt)
    if fmt == "markdown":
        return "\n".join("- " + line for line in lines) + "\n\n**%s**\n\n%s" % (title, body)
    return "\n".join(lines + [title, body])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json", nargs="+", help="blockbloom_peers_bench JSON")
    parser.add_argument("--format", choices=["text", "markdown"], default="text")
    args = parser.parse_args()
    text = table(args.json, args.format)
    if text is None:
        print("no peers/* cells in %s" % ", ".join(args.json), file=sys.stderr)
        return 1
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
