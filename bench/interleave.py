#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Commands measured side by side in interleaved rounds, for a loaded machine.

Each round runs every command RUNS times, one after the other (a, b, c, a, b,
c, ...), and sums each command's CPU time (user + sys of it and its children,
from wait4) and wall time.  A ratio is the median over the rounds of the
round's ratio: load that comes and goes hits both sides of a round alike.

  interleave.py [--rounds N] [--runs N] [--bare NAME] [--rss] NAME=CMD ... -- RATIO ...

where a RATIO is  OURS/PEER<=TARGET  (NAMEs).  With --bare NAME, that
command's time is taken off both sides first (the time a tool *adds* to a
workload).  Commands are split on spaces (no shell); their output is
discarded.  Prints a line per command and per ratio, in CPU and wall time;
with --rss, in peak resident memory too (GNU time's %M, /usr/bin/time:
the largest of a round's runs; the targets then apply to it, never taking
off the bare command).  The exit status is 0 whether targets are met or
not (a benchmark, not a test).
"""
import os
import statistics
import sys
import tempfile
import time


def run(argv, rss=False):
    """CPU (user + sys, with children) and wall seconds, peak RSS in KiB.

    The peak is GNU time's %M: wait4's own ru_maxrss of a child spawned
    from Python starts at Python's size (the child runs in the parent's
    memory until it execs), where GNU time's is a small C program's."""
    devnull = os.open(os.devnull, os.O_RDWR)
    if rss:
        fd, out = tempfile.mkstemp(prefix="interleave-rss-")
        os.close(fd)
        argv = ["/usr/bin/time", "-f", "%M", "-o", out] + argv
    start = time.monotonic()
    pid = os.posix_spawnp(argv[0], argv, os.environ,
                          file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1),
                                        (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - start
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"interleave: '{' '.join(argv)}' failed (status {status})")
    peak = 0
    if rss:
        with open(out) as f:
            peak = int(f.read().split()[-1])
        os.unlink(out)
    return ru.ru_utime + ru.ru_stime, wall, peak


def main(args):
    rounds, runs, bare, rss = 15, 10, None, False
    cmds, ratios = {}, []
    while args and args[0].startswith("--") and args[0] != "--":
        opt = args.pop(0)
        if opt == "--rounds":
            rounds = int(args.pop(0))
        elif opt == "--runs":
            runs = int(args.pop(0))
        elif opt == "--bare":
            bare = args.pop(0)
        elif opt == "--rss":
            rss = True
        else:
            sys.exit(f"interleave: unknown option {opt}")
    while args and args[0] != "--":
        name, _, cmd = args.pop(0).partition("=")
        cmds[name] = cmd.split()
    for spec in args[1:]:
        pair, _, target = spec.partition("<=")
        ours, _, peer = pair.partition("/")
        ratios.append((ours, peer, float(target)))
    # per round, per command: [cpu, wall] summed over the round's runs,
    # and the largest peak RSS of them
    per = {n: [] for n in cmds}
    for _ in range(rounds):
        tot = {n: [0.0, 0.0, 0] for n in cmds}
        for _ in range(runs):
            for n, argv in cmds.items():
                c, w, m = run(argv, rss)
                tot[n][0] += c
                tot[n][1] += w
                tot[n][2] = max(tot[n][2], m)
        for n in cmds:
            per[n].append([tot[n][0] / runs, tot[n][1] / runs, tot[n][2]])
    print(f"{rounds} interleaved rounds of {runs} runs; medians, per run; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for n in cmds:
        mem = f"   peak RSS {statistics.median(r[2] for r in per[n]) / 1024:7.1f} MiB" if rss else ""
        print(f"  {n:14} CPU {statistics.median(r[0] for r in per[n]) * 1e3:9.2f} ms"
              f"   wall {statistics.median(r[1] for r in per[n]) * 1e3:9.2f} ms{mem}")
    for ours, peer, target in ratios:
        if rss:
            rs = [per[ours][i][2] / per[peer][i][2] for i in range(rounds)]
            r = statistics.median(rs)
            o = statistics.median(per[ours][i][2] for i in range(rounds)) / 1024
            p = statistics.median(per[peer][i][2] for i in range(rounds)) / 1024
            print(f"peak RSS: {ours} {o:.1f} MiB, {peer} {p:.1f} MiB: ratio {r:.2f} "
                  f"(target <= {target:.2f}): {'met' if r <= target else 'MISSED'}")
        for k, what in ((0, "CPU "), (1, "wall")):
            def cost(n, i):
                v = per[n][i][k]
                return v - per[bare][i][k] if bare else v
            rs = [cost(ours, i) / cost(peer, i) for i in range(rounds)]
            r = statistics.median(rs)
            o = statistics.median(cost(ours, i) for i in range(rounds))
            p = statistics.median(cost(peer, i) for i in range(rounds))
            added = "added " if bare else ""
            # with --rss the target is the memory's: times are shown beside it
            verdict = "" if rss else (f" (target <= {target:.2f}): "
                                      f"{'met' if r <= target else 'MISSED'}")
            print(f"{what} {added}time: {ours} {o * 1e3:.2f} ms, {peer} {p * 1e3:.2f} ms: "
                  f"ratio {r:.2f}{verdict}")


if __name__ == "__main__":
    main(sys.argv[1:])
