#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The checks of the kernel's tools/perf/tests/shell/lib/perf_json_output_lint.py,
# written for pfmon, and the ways perf stat -j prints its values:
#  - every line is a JSON object, every key one perf knows, every value of
#    its type (metric-value a number, counter-value a number or
#    <not counted>/<not supported>);
#  - the number of keys per line that perf prints in each mode (the same
#    options and the same exceptions as the kernel's script);
#  - perf's precision and conventions: counter-value printed with %f (six
#    decimals), pcnt-running with two, event-runtime an integer;
#    <not supported> ran 0 of 0 ns, which perf shows as 100.00 %;
#    metric keys absent rather than empty strings.
# Usage: json_lint.py [--no-args|--interval|--per-thread|--system-wide|
#                      --system-wide-no-aggr|--metric-only] < output
import json
import re
import sys


def isfloat(v):
    try:
        float(v)
        return not isinstance(v, bool)
    except (TypeError, ValueError):
        return False


def isint(v):
    try:
        int(v)
        return True
    except (TypeError, ValueError):
        return False


CHECKS = {
    # perf 6.1 (our peer) names the CPUs a line sums 'aggregate-number'; the
    # kernel's lint of later perf, which renamed it, 'counters': both here
    'aggregate-number': isfloat, 'counters': isfloat, 'core': lambda v: True, 'cgroup': lambda v: True, 'cpu': isint,
    'cache': lambda v: True, 'cluster': lambda v: True, 'die': lambda v: True,
    'counter-value': lambda v: isfloat(v) or v in ('<not counted>', '<not supported>'),
    'event': lambda v: True, 'event-runtime': isfloat, 'interval': isfloat,
    'metric-unit': lambda v: True, 'metric-value': isfloat,
    'metric-threshold': lambda v: v in ('unknown', 'good', 'less good', 'nearly bad', 'bad'),
    'metricgroup': lambda v: True, 'node': lambda v: True, 'pcnt-running': isfloat,
    'socket': lambda v: True, 'thread': lambda v: True, 'unit': lambda v: True,
}

# the number of keys of a line, by mode (the kernel script's table)
MODES = {
    '--no-args': [5, 7], '--system-wide': [5, 7], '--event': [5, 7],
    '--interval': [6, 8], '--per-thread': [6, 8], '--system-wide-no-aggr': [6, 8],
    '--per-core': [7, 9], '--per-socket': [7, 9], '--per-node': [7, 9], '--per-die': [7, 9],
    '--per-cluster': [7, 9], '--per-cache': [7, 9], '--metric-only': [1, 2],
}


def fail(msg, item):
    sys.exit(f'{msg}: {item}')


def count_ok(item, expected):
    n = len(item)
    if expected is None or n in expected:
        return True
    # the kernel script's exceptions: lines of further metrics, metric
    # groups, a threshold key, and the IPC line
    if 1 <= n <= 7 and 'metric-value' in item:
        return True
    if 1 <= n <= 5 and 'metricgroup' in item:
        return True
    return n - 1 in expected and 'metric-threshold' in item


def check_precision(item):
    """What perf stat -j prints beyond the kernel script's checks."""
    cv = item.get('counter-value')
    if isinstance(cv, str) and isfloat(cv) and not re.fullmatch(r'-?[0-9]+\.[0-9]{6}', cv):
        fail('counter-value not printed with %f (six decimals)', item)
    if 'event-runtime' in item and not isinstance(item['event-runtime'], int):
        fail('event-runtime not an integer', item)
    if cv == '<not supported>' and (item.get('event-runtime') != 0 or item.get('pcnt-running') != 100):
        fail('<not supported> ran 0 of 0 ns: perf shows 0 and 100.00', item)
    for key, value in item.items():
        if value == '' and key != 'unit':
            fail(f'empty string for {key} (perf leaves the key out)', item)
    if ('metric-value' in item) != ('metric-unit' in item):
        fail('metric-value and metric-unit go together', item)


def main():
    expected = None
    for arg in sys.argv[1:]:
        if arg not in MODES:
            sys.exit(f'json_lint.py: unknown option {arg}')
        expected = MODES[arg]
    text = sys.stdin.read()
    lines = text.splitlines()
    if not lines:
        sys.exit('no output')
    # each value's text as printed, for the precision of pcnt-running
    for line in lines:
        m = re.search(r'"pcnt-running" *: *([^,}]*)', line)
        if m and not re.fullmatch(r'[0-9]+\.[0-9]{2}', m.group(1).strip()):
            fail('pcnt-running not printed with two decimals', line)
    for item in json.loads('[' + ','.join(lines) + ']'):
        if not isinstance(item, dict):
            fail('not a JSON object', item)
        if not count_ok(item, expected):
            fail(f'wrong number of fields: {len(item)}, expected {expected}', item)
        for key, value in item.items():
            if key not in CHECKS:
                if '--metric-only' in sys.argv:
                    continue
                fail(f'unexpected key {key}={value!r}', item)
            if not CHECKS[key](value):
                fail(f'check failed for {key}={value!r}', item)
        check_precision(item)


main()
