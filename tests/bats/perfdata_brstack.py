#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Give the samples of a perf record file of tests/fixtures/branchloop the
branch stacks an LBR would hold there: perfdata_brstack.py IN OUT KIND LABELS

LABELS is branchloop's output (its labels' addresses, "loop 0x..." lines).
Samples whose ip is outside loop4 are left out; each other gets 12 taken
branches, newest first, oldest the back edge of an iteration i with i % 4
== 1: two rounds of four iterations, whose branch at cond is taken in the
fourth (to rare, then rarejmp jumps back to join).  KIND is the recorder:

  lbr       Intel LBR: cycles (5 for back edges after the whole body, 3 after
            join, 2 for cond, 1 for rarejmp), branch types (COND, UNCOND),
            cond mispredicted and every other one predicted; branch_sample_type
            ANY|USER|TYPE_SAVE|HW_INDEX, so a hw_idx precedes the entries
  lbr-nohw  the same without HW_INDEX (kernels before 5.7)
  amd       AMD LBR v2: predicted/mispredicted only, no cycles, no types,
            no HW_INDEX
  reserved  lbr with bit 40 of rarejmp's flags set (a field no kernel
            defines yet)

Prints the number of samples given a branch stack.  Entries per the
kernel's struct perf_branch_entry: from, to, flags (mispred:1 predicted:1
in_tx:1 abort:1 cycles:16 type:4 spec:2 new_type:4 priv:3 reserved:31).
"""
import struct
import sys

from perfdata_rewrite import ATTR_BRANCH_TYPE, ATTR_SAMPLE_TYPE, BRANCH, CALLCHAIN, RAW, READ, head, rewrite

B_USER, B_ANY, B_TYPE_SAVE, B_HW_INDEX = 1 << 0, 1 << 3, 1 << 16, 1 << 17
MISPRED, PREDICTED = 1, 2
BR_COND, BR_UNCOND = 1, 2


def flags(kind, mispred, cycles, typ):
    f = MISPRED if mispred else PREDICTED
    if kind != 'amd':
        f |= cycles << 4 | typ << 20
    return f


def stack(kind, lab):
    """12 entries, newest first"""
    back = lambda cyc: (lab['back'], lab['loop'], flags(kind, False, cyc, BR_COND))
    cond = (lab['cond'], lab['rare'], flags(kind, True, 2, BR_COND))
    rare = (lab['rarejmp'], lab['join'], flags(kind, False, 1, BR_UNCOND) | (1 << 40 if kind == 'reserved' else 0))
    one_round = [back(5), back(5), back(5), cond, rare, back(3)]  # oldest first
    return list(reversed(one_round * 2))


def main():
    src, dst, kind, labels = sys.argv[1:5]
    lab = {k: int(v, 16) for k, v in (line.split() for line in open(labels))}
    lo, hi = lab['loop'], lab['rarejmp'] + 2
    hw = kind in ('lbr', 'reserved')
    btype = B_USER | B_ANY | (B_TYPE_SAVE if kind != 'amd' else 0) | (B_HW_INDEX if hw else 0)
    entries = stack(kind, lab)

    def attr(b, a):
        t, = struct.unpack_from('<Q', b, a + ATTR_SAMPLE_TYPE)
        assert not t & (READ | RAW | BRANCH), hex(t)
        struct.pack_into('<Q', b, a + ATTR_SAMPLE_TYPE, t | BRANCH)
        struct.pack_into('<Q', b, a + ATTR_BRANCH_TYPE, btype)

    def sample(rec, st):
        ip, off = head(rec, st)
        if ip is None or not lo <= ip < hi:
            return None
        if st & CALLCHAIN:
            off += 8 + 8 * struct.unpack_from('<Q', rec, off)[0]
        out = bytearray(rec[:off]) + struct.pack('<Q', len(entries))
        if hw:
            out += struct.pack('<Q', len(entries) - 1)
        for e in entries:
            out += struct.pack('<QQQ', *e)
        out += rec[off:]
        struct.pack_into('<H', out, 6, len(out))
        return bytes(out)

    print(rewrite(src, dst, attr, sample))


main()
