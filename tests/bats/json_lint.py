#!/usr/bin/env python3
# The checks of the kernel's tools/perf/tests/shell/lib/perf_json_output_lint.py,
# written for pfmon: every line is a JSON object, every key is one perf knows,
# every value has its type (metric-value a number, counter-value a number or
# <not counted>/<not supported>), and the number of keys is one perf prints.
# Usage: json_lint.py [--per-thread] < output
import json
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
    'counters': isfloat, 'core': lambda v: True, 'cgroup': lambda v: True, 'cpu': isint,
    'cache': lambda v: True, 'cluster': lambda v: True, 'die': lambda v: True,
    'counter-value': lambda v: isfloat(v) or v in ('<not counted>', '<not supported>'),
    'event': lambda v: True, 'event-runtime': isfloat, 'interval': isfloat,
    'metric-unit': lambda v: True, 'metric-value': isfloat,
    'metric-threshold': lambda v: v in ('unknown', 'good', 'less good', 'nearly bad', 'bad'),
    'metricgroup': lambda v: True, 'node': lambda v: True, 'pcnt-running': isfloat,
    'socket': lambda v: True, 'thread': lambda v: True, 'unit': lambda v: True,
}


def main():
    expected = [6, 8] if '--per-thread' in sys.argv else [5, 7]
    lines = sys.stdin.read().splitlines()
    if not lines:
        sys.exit('no output')
    for item in json.loads('[' + ','.join(lines) + ']'):
        n = len(item)
        if n not in expected and not (1 <= n <= 7 and 'metric-value' in item):
            sys.exit(f'wrong number of fields: {n}, expected {expected}: {item}')
        for key, value in item.items():
            if key not in CHECKS:
                sys.exit(f'unexpected key {key}={value!r}')
            if not CHECKS[key](value):
                sys.exit(f'check failed for {key}={value!r}')
        if ('metric-value' in item) != ('metric-unit' in item):
            sys.exit(f'metric-value and metric-unit go together: {item}')


main()
