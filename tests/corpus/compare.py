#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare perf 6.1's and pfmon's readings of one perf.data file, from the
outputs run-public.sh saved in DIR: compare.py DIR

  script.perf / script.pfmon   perf script, pfmon --report-format=script
  dso.perf / dso.pfmon         perf report --sort dso / --report-sort=binary
  sym.perf / sym.pfmon         perf report --sort sym / --report-sort=function
  folded.perf / folded.pfmon   folded stacks (only for files with call chains)

Prints one line: "agree" or "differ (WHY; WHY...)".  Names are compared only
where both tools name a thing (a sample in a binary missing here is a
hex address on one side and binary+0xOFF on the other: left out)."""
import collections
import os
import re
import sys

HEADER = re.compile(r'^\s*(?P<comm>.*?)\s+(?P<pid>-?\d+)(?:/(?P<tid>-?\d+))?\s+'
                    r'(?:\[(?P<cpu>\d+)\]\s+)?(?P<time>\d+\.\d+):\s+'
                    r'(?:(?P<period>\d+)\s+)?(?P<event>[^\s]+?):\s*(?P<rest>.*)$')
CHAIN = re.compile(r'^\s+([0-9a-f]+)\s')
TOP, POINTS, OVERLAP = 10, 1.0, 94.0


def script(path):
    """each sample's (event, comm, pid, tid, time, ip)"""
    out, cur = [], None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = HEADER.match(line) if not line.startswith('\t') else None
            if m:
                if cur:
                    out.append(tuple(cur))
                # the ip is the hex number before the symbol and its (binary)
                ip = re.search(r'([0-9a-f]+) \S.* \([^()]*\)$', m['rest'])
                ip = ip.group(1) if ip else None
                cur = [m['event'], m['comm'], m['pid'], m['tid'], m['time'], ip]
                continue
            c = CHAIN.match(line)
            if c and cur and cur[5] is None:
                cur[5] = c.group(1)
    if cur:
        out.append(tuple(cur))
    return out


def unknown(name):
    return (name.startswith(('0x', '[unknown', '[JIT]', '//anon', '[anon'))
            or '+0x' in name or name in ('', '[kernel]'))


USER_BRACKETS = ('[vdso', '[vsyscall', '[heap', '[stack', '[JIT', '[anon', '[uprobes')


def dso_name(name):
    """one spelling of a binary on both sides: its file name; the kernel
    and its modules and what neither can place, one: perf names kernel
    addresses [kernel.kallsyms], [MODULE] or [unknown] (no kernel mapping
    in the file) where pfmon, with no symbols for that kernel, says
    [kernel]"""
    if name.startswith('[') and not name.startswith(USER_BRACKETS):
        return 'KERNEL'
    return os.path.basename(name) if name.startswith('/') else name


def perf_report(path):
    """perf report --stdio -F sample,KEY: {event: {name: percent of samples}}"""
    tables, ev = {}, None
    with open(path, errors='replace') as f:
        for line in f:
            m = re.match(r"# Samples: .* of event '(.*)'", line)
            if m:
                ev = m.group(1)
                tables.setdefault(ev, collections.Counter())
                continue
            if line.startswith('#') or not line.strip() or ev is None:
                continue
            parts = line.split(None, 1)
            if not parts[0].isdigit() or len(parts) < 2:
                continue
            name = re.sub(r'^\[[.kgu]\]\s+', '', parts[1].strip())
            tables[ev][name] += int(parts[0])
    return {e.rstrip(':'): pct(c) for e, c in tables.items()}


def pfmon_report(path):
    """pfmon's text profile: {event: {name: percent}}"""
    tables, ev = {}, None
    with open(path, errors='replace') as f:
        for line in f:
            m = re.match(r'# event (\S+)', line)
            if m:
                ev = m.group(1).rstrip(':')
                tables.setdefault(ev, collections.Counter())
                continue
            if line.startswith('#') or ev is None:
                continue
            parts = line.split()
            if len(parts) < 4 or not parts[0].isdigit():
                continue
            name = ' '.join(parts[3:])
            name = re.sub(r'^\d+:\S+\s+', '', name)   # pid:command of a system-wide row
            tables[ev][name] += int(parts[0])
    return {e: pct(c) for e, c in tables.items()}


def pct(c):
    total = sum(c.values()) or 1
    return {k: 100.0 * v / total for k, v in c.items()}


def rename(table):
    out = collections.Counter()
    for k, v in table.items():
        out[dso_name(k)] += v
    return out


def top_diff(a, b):
    """names in either side's top 10 (both naming them) more than 1 point apart"""
    bad = []
    for side in (a, b):
        for name, _ in sorted(side.items(), key=lambda kv: -kv[1])[:TOP]:
            if unknown(name) and name != 'KERNEL':
                continue
            if abs(a.get(name, 0.0) - b.get(name, 0.0)) > POINTS and name not in bad:
                bad.append(name)
    return bad


def folded(path, normalize):
    c = collections.Counter()
    with open(path, errors='replace') as f:
        for line in f:
            stack, _, n = line.rstrip('\n').rpartition(' ')
            if stack and n.isdigit():
                c[normalize(stack)] += int(n)
    return c


def named(stack):
    """a folded stack's frames that have a name (pfmon's [unwind: why]
    notes and the frames of binaries missing here left out)"""
    return ';'.join(x for x in stack.split(';')
                    if not unknown(x) and not x.startswith('[unwind:'))


def main():
    d = sys.argv[1]
    why = []
    p, q = script(os.path.join(d, 'script.perf')), script(os.path.join(d, 'script.pfmon'))
    cp = collections.Counter(s[0] for s in p)
    cq = collections.Counter(s[0] for s in q)
    if cp != cq:
        if sorted(cp.values()) == sorted(cq.values()):
            why.append('event names %s vs %s' % (dict(cp), dict(cq)))
        else:
            why.append('samples per event perf %s pfmon %s' % (dict(cp), dict(cq)))
    elif len(p) == len(q):
        names = ('comm', 'pid', 'tid', 'time', 'ip')
        for k, name in enumerate(names, 1):
            off = [i for i in range(len(p)) if p[i][k] != q[i][k] and p[i][k] is not None
                   and q[i][k] is not None]
            if off:
                i = off[0]
                why.append('%s differs in %d samples (first #%d: perf %r pfmon %r)'
                           % (name, len(off), i, p[i][k], q[i][k]))
    for key in ('dso', 'sym'):
        fp, fq = os.path.join(d, key + '.perf'), os.path.join(d, key + '.pfmon')
        if not (os.path.exists(fp) and os.path.exists(fq)):
            continue
        rp, rq = perf_report(fp), pfmon_report(fq)
        if key == 'dso':
            rp = {e: rename(t) for e, t in rp.items()}
            rq = {e: rename(t) for e, t in rq.items()}
        for ep, tp in sorted(rp.items()):
            tq = rq.get(ep, {})
            if not tp and not tq:
                continue
            bad = top_diff(tp, tq)
            if bad:
                why.append('%s %s top-10 off: %s' % (key, ep, ', '.join(
                    '%s %.1f/%.1f' % (n, tp.get(n, 0), tq.get(n, 0)) for n in bad[:3])))
    fp = os.path.join(d, 'folded.perf')
    if os.path.exists(fp) and os.path.getsize(fp):
        a, b = folded(fp, named), folded(os.path.join(d, 'folded.pfmon'), named)
        total = max(sum(a.values()), sum(b.values())) or 1
        overlap = 100.0 * sum(min(a[k], b[k]) for k in a) / total
        if overlap < OVERLAP:
            why.append('stacks overlap %.0f%%' % overlap)
        open(os.path.join(d, 'overlap'), 'w').write('%.1f\n' % overlap)
    print('agree' if not why else 'differ (%s)' % '; '.join(why))


main()
