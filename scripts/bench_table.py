#!/usr/bin/env python3
"""Prints google-benchmark JSON from blockbloom_bench as tables.

One table per op: a row per filter size, a column per ISA, each cell the
chosen statistic of a counter (by default the median ns_per_key). Benchmarks
are named <op>/<isa>/<filter_bytes>. With --benchmark_repetitions the
"<name>_median" (or _mean) aggregate rows are used; without them the
statistic is computed over the per-repetition rows.

  scripts/bench_table.py results.json
  scripts/bench_table.py --op find_batch_bitmap,find_batch_select --baseline scalar a.json
  scripts/bench_table.py --op all --format markdown results.json

Python 3 standard library only.
"""
import argparse
import json
import statistics
import sys

ISA_ORDER = ["scalar", "sse42", "avx2", "avx512", "neon"]
OP_ORDER = ["insert", "find", "insert_batch", "find_batch_bitmap", "find_batch_select"]
STATS = {"median": statistics.median, "mean": statistics.mean, "min": min}


def size_label(num_bytes):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if num_bytes >= 1 << shift and num_bytes % (1 << shift) == 0:
            return "%d %s" % (num_bytes >> shift, unit)
    return "%d B" % num_bytes


def parse_name(run_name):
    """(op, isa, filter_bytes) of '<op>/<isa>/<filter_bytes>', else None."""
    parts = run_name.split("/")
    if len(parts) != 3 or not parts[2].isdigit():
        return None
    return parts[0], parts[1], int(parts[2])


def counter_value(entry, counter):
    if counter in entry:
        return float(entry[counter])
    # Older result files: derive ns/key from the item rate.
    if counter == "ns_per_key" and entry.get("items_per_second"):
        return 1e9 / float(entry["items_per_second"])
    return None


def load(paths, counter, stat):
    """{(op, isa, bytes): value}, the context of the last file and {op: repetitions}."""
    aggregates, repetitions, context, counts = {}, {}, {}, {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        context = doc.get("context", {})
        for entry in doc.get("benchmarks", []):
            if entry.get("error_occurred"):
                continue
            key = parse_name(entry.get("run_name", entry.get("name", "")))
            if key is None:
                continue
            value = counter_value(entry, counter)
            if value is None:
                continue
            counts[key[0]] = max(counts.get(key[0], 1), int(entry.get("repetitions", 1)))
            if entry.get("run_type") == "aggregate":
                if entry.get("aggregate_name") == stat:
                    aggregates[key] = value
            else:
                repetitions.setdefault(key, []).append(value)
    results = {key: STATS[stat](values) for key, values in repetitions.items()}
    results.update(aggregates)  # google-benchmark's own aggregate wins
    return results, context, counts


def ordered(names, preferred):
    return [n for n in preferred if n in names] + sorted(set(names) - set(preferred))


def render(header, rows, fmt):
    if fmt == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|:---|" + "---:|" * (len(header) - 1)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    def line(row):
        return "  ".join(cell.rjust(w) if i else cell.ljust(w)
                         for i, (cell, w) in enumerate(zip(row, widths)))
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json", nargs="+", help="google-benchmark JSON (--benchmark_out)")
    parser.add_argument("--op", default="find_batch_bitmap",
                        help="op or comma-separated ops, or 'all' (default: %(default)s)")
    parser.add_argument("--counter", default="ns_per_key", help="default: %(default)s")
    parser.add_argument("--stat", choices=sorted(STATS), default="median",
                        help="statistic over repetitions (default: %(default)s)")
    parser.add_argument("--baseline", metavar="ISA",
                        help="also show each cell's speed-up over this ISA (for time counters)")
    parser.add_argument("--format", choices=["text", "markdown"], default="text")
    parser.add_argument("--no-context", action="store_true", help="omit the machine summary")
    args = parser.parse_args()

    results, context, counts = load(args.json, args.counter, args.stat)
    present_ops = {op for op, _, _ in results}
    ops = ordered(present_ops, OP_ORDER) if args.op == "all" else args.op.split(",")

    if not args.no_context and context:
        details = ["host %s" % context.get("host_name", "?"),
                   "%s CPUs @ %s MHz" % (context.get("num_cpus", "?"),
                                         context.get("mhz_per_cpu", "?"))]
        details += ["%s %s" % (k, context[k])
                    for k in ("selected_isa", "compiler", "blockbloom_version") if k in context]
        print(", ".join(details))

    status = 0
    for n, op in enumerate(ops):
        cells = {(isa, size): v for (o, isa, size), v in results.items() if o == op}
        if n or (not args.no_context and context):
            print()
        if not cells:
            print("%s: no results for counter %s" % (op, args.counter), file=sys.stderr)
            status = 1
            continue
        isas = ordered({isa for isa, _ in cells}, ISA_ORDER)
        sizes = sorted({size for _, size in cells})
        rows = []
        for size in sizes:
            row = [size_label(size)]
            base = cells.get((args.baseline, size)) if args.baseline else None
            for isa in isas:
                value = cells.get((isa, size))
                text = "-" if value is None else "%.2f" % value
                if value is not None and base and value > 0 and isa != args.baseline:
                    text += " (%.1fx)" % (base / value)
                row.append(text)
            rows.append(row)
        reps = counts.get(op, 1)
        how = "%s of %d repetitions" % (args.stat, reps) if reps > 1 else "1 run"
        print("%s: %s, %s" % (op, args.counter, how))
        print(render(["filter"] + isas, rows, args.format))
    return status


if __name__ == "__main__":
    sys.exit(main())
