# SPDX-License-Identifier: GPL-2.0-or-later
# A short Python workload for DWARF call graphs: recursion (deep C stacks
# in the interpreter), string building, regular expressions and JSON.
# python3 work.py [ROUNDS]
import json
import re
import sys


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def text():
    s = " ".join(str(i) for i in range(20000))
    return len(re.findall(r"\d+7\b", s)) + len(json.dumps({"k": list(range(5000))}))


total = 0
for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 100):
    total += fib(20) + text()
assert total > 0
