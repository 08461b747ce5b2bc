# SPDX-License-Identifier: Apache-2.0
"""The timed probes of run_consumers.py compared: a subproject's library must
be as fast as the installed release library whatever the parent's build type.

Each probe (timed_probe.c) prints the minimum of its own repeats; the probes
are run ROUNDS times, interleaved (so that a burst of load elsewhere on the
machine hits them alike), and the minimum over the rounds is compared with
the reference's. MAX_RATIO is the issue's bound: an unoptimized library
(a debug parent's -O0 kernels) is several times slower, far past it."""
import re

from hermetic import Failure, log, run

ROUNDS = 5
MAX_RATIO = 1.2


def one_timing(argv, env):
    out = run(argv, env=env).stdout
    found = re.search(r"min_ns_per_value=([0-9.]+)", out)
    if not found:
        raise Failure("%s printed no timing: %r" % (argv[0], out))
    return float(found.group(1))


def compare(probes, reference):
    """probes: {name: (argv, env)}, reference: one of the names. Prints every
    timing and its ratio to the reference; a ratio above MAX_RATIO fails."""
    best = {}
    for _ in range(ROUNDS):
        for name, (argv, env) in probes.items():
            t = one_timing(argv, env)
            best[name] = min(best.get(name, t), t)
    base = best[reference]
    log("timed probe (bb_find_column_bitmap of an int64 column, min of %d rounds x 21 repeats):" % ROUNDS)
    slow = []
    for name, t in best.items():
        ratio = t / base
        log("  %-38s %8.4f ns/value  %5.2fx the reference" % (name, t, ratio))
        if ratio > MAX_RATIO:
            slow.append("%s (%.2fx)" % (name, ratio))
    if slow:
        raise Failure("slower than %.1fx %s: %s" % (MAX_RATIO, reference, ", ".join(slow)))
