#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An evaluator of pfmon-metrics(5) formulas written apart from pfmon's own
(src/results/metric_expr.c), to check the values pfmon prints.

usage: metric_eval.py SHOW_METRICS COUNTS RESULTS
  SHOW_METRICS  the output of pfmon --show-metrics (name, then "\tformula: ...")
  COUNTS        lines "COUNT NAME" (the events' counts)
  RESULTS       pfmon's metric block: lines "VALUE NAME  # unit" or "<not available> NAME"
Every metric of RESULTS must equal the formula's value on COUNTS (to the
three decimals printed), and be "<not available>" exactly when an input is
missing or a divisor is 0.  Prints how many were checked.
"""
import re
import sys

TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)|([A-Za-z_][A-Za-z0-9_.:]*(?:-[A-Za-z0-9][A-Za-z0-9_.:]*)*)|(.))")


class Unavailable(Exception):
    pass


def tokens(text):
    out = []
    for num, name, op in TOKEN.findall(text):
        if num:
            out.append(("num", float(num)))
        elif name:
            out.append(("name", name))
        elif op.strip():
            out.append(("op", op))
    out.append(("end", None))
    return out


class Parser:
    """expr := sum; sum := product (+|- product)*; product := unary (*|/ unary)*;
    unary := - unary | primary; primary := num | name | ( expr ) | min/max(a, b) | if(c, a, b).
    Evaluates as it parses; a branch not taken by if() is parsed without evaluating."""

    def __init__(self, text, lookup):
        self.t = tokens(text)
        self.i = 0
        self.lookup = lookup

    def peek(self):
        return self.t[self.i]

    def take(self, kind=None, value=None):
        tok = self.t[self.i]
        if (kind and tok[0] != kind) or (value is not None and tok[1] != value):
            raise SyntaxError("expected %s %s at token %d, found %s" % (kind, value, self.i, tok))
        self.i += 1
        return tok

    def expr(self, live=True):
        v = self.product(live)
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            w = self.product(live)
            if live:
                v = v + w if op == "+" else v - w
        return v

    def product(self, live):
        v = self.unary(live)
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            w = self.unary(live)
            if live:
                if op == "/" and w == 0:
                    raise Unavailable("division by zero")
                v = v * w if op == "*" else v / w
        return v

    def unary(self, live):
        if self.peek() == ("op", "-"):
            self.take()
            v = self.unary(live)
            return -v if live else 0
        return self.primary(live)

    def primary(self, live):
        kind, val = self.take()
        if kind == "num":
            return val
        if kind == "op" and val == "(":
            v = self.expr(live)
            self.take("op", ")")
            return v
        if kind == "name" and val in ("min", "max", "if") and self.peek() == ("op", "("):
            self.take()
            if val == "if":
                c = self.expr(live)
                self.take("op", ",")
                a = self.expr(live and c != 0)
                self.take("op", ",")
                b = self.expr(live and c == 0)
                self.take("op", ")")
                return (a if c != 0 else b) if live else 0
            a = self.expr(live)
            self.take("op", ",")
            b = self.expr(live)
            self.take("op", ")")
            return (min(a, b) if val == "min" else max(a, b)) if live else 0
        if kind == "name":
            return self.lookup(val) if live else 0
        raise SyntaxError("unexpected %s" % val)


def main():
    formulas, scales, name = {}, {}, None
    for line in open(sys.argv[1]):
        if line and not line[0].isspace():
            name = line.strip()
        elif line.strip().startswith("formula:"):
            formulas[name] = line.split("formula:", 1)[1].strip()
        elif line.strip().startswith("scale:"):
            scales[name] = float(line.split("scale:", 1)[1])
        elif line.strip().startswith("unit:") and "prefixes" in line:
            sys.exit("%s: a rate (K, M, G prefixes) is not checked here" % name)
    counts = {}
    for line in open(sys.argv[2]):
        parts = line.split()
        if len(parts) >= 2 and not line.startswith("#"):
            counts[parts[1].upper()] = float(parts[0].replace(",", ""))

    def value(metric):
        def lookup(n):
            if n in formulas:
                return value(n)
            if n.upper() not in counts:
                raise Unavailable("%s not counted" % n)
            return counts[n.upper()]
        p = Parser(formulas[metric], lookup)
        v = p.expr()
        p.take("end")
        return v

    def printed_value(metric):
        return value(metric) * scales.get(metric, 1.0)

    checked = 0
    for line in open(sys.argv[3]):
        line = line.split("  #")[0].strip()
        if not line:
            continue
        if line.startswith("<not available>"):
            printed, metric = None, line.split()[-1]
        else:
            printed, metric = line.split()[:2]
            printed = float(printed)
        try:
            want = printed_value(metric)
        except Unavailable:
            want = None
        if want is None or printed is None:
            assert want is None and printed is None, (metric, printed, want)
        else:
            assert abs(printed - want) <= 0.0005 + abs(want) * 1e-9, (metric, printed, want)
        checked += 1
    print(checked)


if __name__ == "__main__":
    main()
