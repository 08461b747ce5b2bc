#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Plots ns/key against filter size from blockbloom_bench's JSON, with gnuplot.

One SVG per op: a line per ISA (median ns_per_key, both axes logarithmic),
dotted verticals at this machine's L1d / L2 / L3 sizes (one core's share, from
sysfs), and, where the run has them, the memory/random_loads points (one
random cache line per key with every load in flight: the DRAM ceiling).

  scripts/plot_bench.py results.json                 (docs/benchmarks-find_batch.svg and
                                                      docs/benchmarks-insert_batch.svg)
  scripts/plot_bench.py --plot find_batch_bitmap=out.svg results.json

Each title names the run: its date (the JSON context's, or --date), the git
commit (--commit, which scripts/bench passes from `git rev-parse --short
HEAD`, else the context's git_commit) and the CPU (--label).

Each SVG is checked after it is written: well-formed XML with plotted paths,
and, when rsvg-convert is installed, rendered to PNG (then discarded).
Needs gnuplot (Debian: gnuplot-nox; scripts/install-deps --bench).
"""
import argparse
import datetime
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_table  # noqa: E402  (the JSON loader shared with the tables)

DEFAULT_PLOTS = ["find_batch_bitmap=docs/benchmarks-find_batch.svg",
                 "insert_batch=docs/benchmarks-insert_batch.svg"]
# gnuplot colours per ISA, the same in every plot: the palette in the order of
# bench_table.ISA_ORDER (src/core/isa.h's registry, scalar first), so a new
# tier gets a colour of its own.
PALETTE = ["#7f7f7f", "#9467bd", "#1f77b4", "#2ca02c", "#d62728", "#ff7f0e", "#8c564b", "#e377c2"]
COLORS = {isa: PALETTE[i % len(PALETTE)] for i, isa in enumerate(bench_table.ISA_ORDER)}


def cache_sizes():
    """[(label, bytes)] of the data/unified caches of cpu0, from sysfs."""
    out = []
    for index in sorted(glob.glob("/sys/devices/system/cpu/cpu0/cache/index*")):
        try:
            with open(os.path.join(index, "type")) as f:
                kind = f.read().strip()
            with open(os.path.join(index, "level")) as f:
                level = f.read().strip()
            with open(os.path.join(index, "size")) as f:
                size = f.read().strip()
        except OSError:
            continue
        if kind == "Instruction" or not size:
            continue
        mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(size[-1], 1)
        num = int(size[:-1]) if size[-1] in "KMG" else int(size)
        out.append(("L%s%s" % (level, "d" if kind == "Data" else ""), num * mult))
    return out


def gnuplot_script(op, svg, results, title):
    cells = {(isa, size): v for (o, isa, size), v in results.items() if o == op}
    isas = bench_table.ordered({isa for isa, _ in cells}, bench_table.ISA_ORDER)
    sizes = sorted({size for _, size in cells})
    ceiling = {s: v for (o, test, s), v in results.items()
               if o == "memory" and test == "random_loads"}
    values = list(cells.values()) + list(ceiling.values())
    lines = [
        "set terminal svg size 720,480 dynamic enhanced font 'sans,12' background '#ffffff'",
        "set output '%s'" % svg,
        # noenhanced: op names are full of underscores, which would subscript.
        "set title %s noenhanced" % gnuplot_string(title),
        "set logscale xy 2",
        "set xlabel 'filter size'",
        "set ylabel 'ns per key (median; lower is better)'",
        "set xrange [%g:%g]" % (min(sizes) / 1.6, max(sizes) * 1.6),
        "set yrange [%g:%g]" % (min(values) / 1.5, max(values) * 4),  # room for the key
        "set xtics (%s)" % ", ".join('"%s" %d' % (bench_table.size_label(s), s) for s in sizes),
        "set ytics (%s)" % ", ".join(
            '"%g" %g' % (t, t) for t in (0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256)
            if min(values) / 1.5 <= t <= max(values) * 4),
        "set grid ytics lc rgb '#dddddd'",
        "set key inside top left box opaque Left reverse",
        "set datafile missing '-'",
    ]
    for label, num_bytes in cache_sizes():
        if min(sizes) / 1.6 < num_bytes < max(sizes) * 1.6:
            lines.append("set arrow from %d, graph 0 to %d, graph 1 nohead dt 3 lc rgb '#999999'"
                         % (num_bytes, num_bytes))
            lines.append("set label '%s' at %d, graph 0.03 left offset 0.3,0 tc rgb '#777777'"
                         % (label, num_bytes))
    data = ["$data << EOD"]
    for size in sizes:
        data.append(" ".join([str(size)] + ["%.6g" % cells[(isa, size)] if (isa, size) in cells
                                            else "-" for isa in isas]))
    data.append("EOD")
    plots = ["$data using 1:%d with linespoints lw 2 pt 7 ps 0.6 lc rgb '%s' title '%s'"
             % (i + 2, COLORS.get(isa, "#000000"), isa) for i, isa in enumerate(isas)]
    if ceiling:
        data.append("$ceiling << EOD")
        data += ["%d %.6g" % (s, v) for s, v in sorted(ceiling.items())]
        data.append("EOD")
        plots.append("$ceiling using 1:2 with points pt 6 ps 1.4 lc rgb '#000000' "
                     "title 'random loads: 1 line per key (ceiling)'")
    return "\n".join(data + lines + ["plot " + ", \\\n     ".join(plots), "unset output", ""])


def gnuplot_string(text):
    """text as a gnuplot double-quoted string, its newlines as gnuplot's \\n."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"%s"' % escaped


def title_text(op, date, commit, cpu):
    """Two lines: what is plotted, then which run (date, commit, CPU)."""
    run = " | ".join(part for part in (date, "commit " + commit if commit else "", cpu) if part)
    return "%s: ns per key by filter size\n%s" % (op, run)


def run_date(paths):
    """YYYY-MM-DD of the last file's run (google-benchmark's context.date), or ''."""
    _, context, _ = bench_table.load(paths[-1:], "ns_per_key", "median")
    return str(context.get("date", ""))[:10]


def check_svg(svg):
    """Raises if svg is not a non-empty, well-formed SVG with plotted paths."""
    if os.path.getsize(svg) == 0:
        raise ValueError("%s is empty" % svg)
    root = ET.parse(svg).getroot()
    if not root.tag.endswith("svg"):
        raise ValueError("%s: root element is <%s>, not <svg>" % (svg, root.tag))
    paths = [e for e in root.iter() if e.tag.rsplit("}", 1)[-1] in ("path", "polyline")]
    if len(paths) < 5:
        raise ValueError("%s: only %d paths: nothing plotted?" % (svg, len(paths)))
    rsvg = shutil.which("rsvg-convert")
    if rsvg:
        with tempfile.TemporaryDirectory() as tmp:
            png = os.path.join(tmp, "check.png")
            subprocess.run([rsvg, "-o", png, svg], check=True)
            if os.path.getsize(png) == 0:
                raise ValueError("%s: rsvg-convert rendered an empty PNG" % svg)
    return len(paths), bool(rsvg)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json", nargs="+", help="google-benchmark JSON from blockbloom_bench")
    parser.add_argument("--plot", action="append", metavar="OP=FILE.svg",
                        help="an op and its SVG; repeatable (default: %s)" % " ".join(DEFAULT_PLOTS))
    parser.add_argument("--stat", choices=sorted(bench_table.STATS), default="median")
    parser.add_argument("--label", default="", help="the CPU, for the titles")
    parser.add_argument("--commit", default="",
                        help="the git commit measured (default: the JSON context's git_commit)")
    parser.add_argument("--date", default="",
                        help="the run's date (default: the JSON context's, else today)")
    args = parser.parse_args()

    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        print("plot_bench: gnuplot not found (scripts/install-deps --bench installs gnuplot-nox)",
              file=sys.stderr)
        return 1
    results, context, _ = bench_table.load(args.json, "ns_per_key", args.stat)
    date = args.date or run_date(args.json) or datetime.date.today().isoformat()
    commit = args.commit or str(context.get("git_commit", ""))
    status = 0
    for spec in args.plot or DEFAULT_PLOTS:
        op, _, svg = spec.partition("=")
        if not any(o == op for o, _, _ in results):
            print("plot_bench: no %s results, %s not drawn" % (op, svg), file=sys.stderr)
            status = 1
            continue
        title = title_text(op, date, commit, args.label)
        os.makedirs(os.path.dirname(svg) or ".", exist_ok=True)
        subprocess.run([gnuplot], input=gnuplot_script(op, svg, results, title),
                       text=True, check=True)
        paths, rendered = check_svg(svg)
        print("plot_bench: wrote %s (%d bytes, %d paths%s)"
              % (svg, os.path.getsize(svg), paths, ", renders with rsvg-convert" if rendered else ""))
    return status


if __name__ == "__main__":
    sys.exit(main())
