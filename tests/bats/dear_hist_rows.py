#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""dear-hist's rows of a named view, rebuilt from perf 6.1's report of the
same file: dear_hist_rows.py perf|profile|pfmon KIND < report, KIND object,
line or type.  perf: rows of `perf report -n -t '|' --sort
dso_daddr,symbol_daddr,local_weight` (object) or `--sort srcline,local_weight`
(line); profile: pfmon's own profile's rows of `--report-sort=type,weight`
(perf 6.1 has no type key); pfmon: rows of `--smpl-module=dear-hist
--smpl-KIND-view`.  Prints "name|count|% per
latency bucket (up to 15, 63, 255, 1023 cycles, above)|average", sorted:
the object a variable and its binary (perf's symbol_daddr without its
offset, "[unknown]" for an address no symbol names); a line file:line by
the file's base name, the rows perf has no line for left out."""
import re
import sys

BUCKETS = [15, 63, 255, 1023]


def bucket(w):
    for i, top in enumerate(BUCKETS):
        if w <= top:
            return i
    return len(BUCKETS)


def profile_rows():
    """(type, weight, count) of the profile's text rows"""
    for line in sys.stdin:
        if line.startswith('#') or not line.strip():
            continue
        m = re.match(r' *(\d+) +[\d.]+% +[\d.]+%  (.*) \| (\d+)$', line.rstrip('\n'))
        yield m.group(2), int(m.group(3)), int(m.group(1))


def perf_fields(kind):
    """(name, weight, count) of perf's rows"""
    for line in sys.stdin:
        if line.startswith('#') or '|' not in line:
            continue
        f = [x.strip() for x in line.split('|')]
        n = int(f[1])
        if kind == 'object':
            dso, sym, w = f[2], f[3], int(f[4])
            sym = re.sub(r'^\[.\] ', '', sym)
            name = '[unknown]' if sym.startswith('0x') else re.sub(r'\+0x[0-9a-f]+$', '', sym)
            name += ' (%s)' % dso
        else:
            name, w = f[2], int(f[3])
            if name.startswith('??') or ':' not in name:
                continue
        yield name, w, n


def histogram(rows):
    """each name's samples by latency bucket, as dear-hist prints them"""
    by = {}
    for name, w, n in rows:
        by.setdefault(name, []).extend([w] * n)
    for name, ws in by.items():
        b = [0] * (len(BUCKETS) + 1)
        for w in ws:
            b[bucket(w)] += 1
        pct = ['%.2f%%' % (100.0 * x / len(ws)) for x in b]
        yield name, len(ws), pct, '%.1f' % (sum(ws) / len(ws))


def pfmon_rows(kind):
    for line in sys.stdin:
        if line.startswith('#'):
            continue
        f = line.split(None, 9)
        name = f[9].rstrip('\n')
        if kind == 'line':
            if not re.search(r':\d+$', name):
                continue
            name = name.rsplit('/', 1)[-1]
        yield name, int(f[0]), f[3:8], f[8]


def main():
    who, kind = sys.argv[1:3]
    if who == 'perf':
        rows = histogram(perf_fields(kind))
    elif who == 'profile':
        rows = histogram(profile_rows())
    else:
        rows = pfmon_rows(kind)
    out = ['%s|%d|%s|%s' % (name, n, ' '.join(pct), avg) for name, n, pct, avg in rows]
    print('\n'.join(sorted(out)))


main()
