#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The checks of the kernel's tools/perf/tests/shell/lib/perf_csv_output_lint.py,
# written for pfmon: every line (but perf's "failed" lines) has the number
# of separators perf stat -x prints in its mode: 6 (value, unit, event,
# run time, percentage running, metric value, metric unit), one more with a
# leading interval, thread or CPU column, two more per core/socket/die/node.
# Like the kernel's script it counts separators in the raw line, so a
# quoted field holding the separator fails it, as it would fail theirs.
# And what perf prints beyond that script's checks: the percentage with two
# decimals, the run time an integer, <not supported> 0 ns and 100.00 %.
# Usage: csv_lint.py MODE [--separator SEP] < output
import re
import sys

MODES = {
    '--no-args': 6, '--system-wide': 6, '--event': 6,
    '--interval': 7, '--per-thread': 7, '--system-wide-no-aggr': 7,
    '--per-core': 8, '--per-socket': 8, '--per-node': 8, '--per-die': 8,
}


def main():
    args = sys.argv[1:]
    sep, expected = ',', None
    while args:
        a = args.pop(0)
        if a == '--separator':
            sep = args.pop(0)
        elif a.startswith('--separator='):
            sep = a.split('=', 1)[1]
        elif a in MODES:
            expected = MODES[a]
        else:
            sys.exit(f'csv_lint.py: unknown option {a}')
    if expected is None:
        sys.exit('csv_lint.py: no checking option specified')
    lines = sys.stdin.read().splitlines()
    if not lines:
        sys.exit('no output')
    lead = expected - 6
    for line in lines:
        if 'failed' in line:
            continue
        if line.count(sep) != expected:
            sys.exit(f'wrong number of fields, expected {expected} separators: {line}')
        f = line.split(sep)[lead:]
        if f[0] == '' and f[2] == '':  # a line of a further metric: only its two columns
            continue
        if not re.fullmatch(r'[0-9]+', f[3]) or not re.fullmatch(r'[0-9]+\.[0-9]{2}', f[4]):
            sys.exit(f'run time or percentage not as perf prints them: {line}')
        if f[0] == '<not supported>' and (f[3] != '0' or f[4] != '100.00'):
            sys.exit(f'<not supported> ran 0 of 0 ns: perf shows 0 and 100.00: {line}')
        if f[0] not in ('<not supported>', '<not counted>') and not re.fullmatch(r'[0-9]+(\.[0-9]+)?', f[0]):
            sys.exit(f'counter value not a number: {line}')


main()
