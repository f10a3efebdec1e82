#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn a perf record -g (frame-pointer call chains) file into the file
perf record --call-graph lbr writes on a machine with LBR call stacks:
perfdata_lbr.py IN OUT

Each event gets PERF_SAMPLE_BRANCH_STACK with perf's LBR call-stack
branch_sample_type (USER | CALL_STACK | NO_FLAGS | NO_CYCLES | HW_INDEX).
Each sample's user call chain moves into its branch stack, as the LBR
holds it: entry k's from is the call site of frame k (its return address
minus one), its to an address in the function it called; the kernel call
chain keeps its kernel part and, after PERF_CONTEXT_USER, the sample's ip
alone, as a frame-pointer walk of code without frame pointers ends.
A sample with no caller to put in a branch stack is left out: perf 6.1
reads an entry past an empty call stack (the next record's bytes).
Prints the number of samples given a branch stack.

The samples must be of events without PERF_SAMPLE_READ or RAW; the file
is walked as perf.data(5) lays it out.
"""
import struct
import sys

from perfdata_rewrite import ATTR_BRANCH_TYPE, ATTR_SAMPLE_TYPE, BRANCH, CALLCHAIN, RAW, READ, head, rewrite

CONTEXT_USER = 0xfffffffffffffe00
PROBE = int(sys.argv[3]) if len(sys.argv) > 3 else 0
LBR_CALL_STACK = (1 << 0) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 17)


def lbr_sample(rec, st):
    """the sample record rec with its user chain moved to a branch stack"""
    _, off = head(rec, st)
    nr, = struct.unpack_from('<Q', rec, off)
    ips = list(struct.unpack_from('<%dQ' % nr, rec, off + 8))
    rest = rec[off + 8 + 8 * nr:]
    if CONTEXT_USER not in ips:
        return None
    u = ips.index(CONTEXT_USER)
    user = ips[u + 1:]
    callers = [a for a in user[1:] if 0 < a < CONTEXT_USER]
    if not callers:
        return None
    entries = []
    callee = user[0] + PROBE
    for ret in callers:
        entries.append((ret - 1, callee, 0))
        callee = ret
    chain = ips[:u + 2]
    out = bytearray(rec[:off])
    out += struct.pack('<Q', len(chain)) + struct.pack('<%dQ' % len(chain), *chain)
    out += struct.pack('<QQ', len(entries), len(entries) - 1 if entries else 0)
    for e in entries:
        out += struct.pack('<QQQ', *e)
    out += rest
    struct.pack_into('<H', out, 6, len(out))
    return bytes(out)


def main():
    def attr(b, a):
        t, = struct.unpack_from('<Q', b, a + ATTR_SAMPLE_TYPE)
        assert t & CALLCHAIN and not t & (READ | RAW | BRANCH), hex(t)
        struct.pack_into('<Q', b, a + ATTR_SAMPLE_TYPE, t | BRANCH)
        struct.pack_into('<Q', b, a + ATTR_BRANCH_TYPE, LBR_CALL_STACK)
    print(rewrite(sys.argv[1], sys.argv[2], attr, lbr_sample))


main()
